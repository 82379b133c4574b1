"""The bench under faults: Ctrl-C stops it at once and a rerun resumes; a shell memory limit
below --memory is respected; failed runs say why and are retried on rerun."""
import csv
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import INSTANCES, default_sigint, reaped
from puzzleplan.bench.run import Task, bench, read_results

GUARINI = INSTANCES / "knights/guarini.knights"
KLOTSKI = INSTANCES / "seeds/klotski_seed000.slide"
BENCH = [sys.executable, "-m", "puzzleplan.cli", "bench"]


def rows(path):
    return list(csv.DictReader(open(path))) if Path(path).exists() else []


def workers_running(marker: str) -> list[int]:
    """Worker processes whose command line names ``marker`` (a test's own folder)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "puzzleplan.bench.worker" in cmdline and marker in cmdline:
                found.append(int(proc.name))
    return found


@pytest.mark.parametrize("to_group", [False, True], ids=["to the bench", "to its process group, as a terminal does"])
def test_ctrl_c_stops_the_bench_at_once_and_a_rerun_resumes(tmp_path, to_group):
    # copies in the test's folder, so that its workers can be told from anyone else's
    guarini, klotski = shutil.copy(GUARINI, tmp_path), shutil.copy(KLOTSKI, tmp_path)
    out = tmp_path / "r.csv"
    args = [guarini, klotski, "-m", "steps", "--methods", "bfs,pysat,astar", "-o", str(out), "--time-limit", "120"]
    proc = subprocess.Popen(BENCH + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=to_group, preexec_fn=default_sigint)
    with reaped(proc, group=to_group):     # killed (with its runs) if the test fails half-way
        deadline = time.time() + 60
        while time.time() < deadline and len(rows(out)) < 1:
            time.sleep(0.05)
        assert rows(out), "no run finished within 60 s"
        # SAT on Klotski takes minutes: when Guarini's runs are done, a Klotski run is under way
        while time.time() < deadline and not workers_running(str(tmp_path)):
            time.sleep(0.05)
        assert workers_running(str(tmp_path))
        t0 = time.time()
        if to_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=10)
    assert time.time() - t0 < 2.0
    assert proc.returncode == 130
    assert stderr.strip().count("\n") == 0 and stderr.startswith("puzzleplan: interrupted: "), stderr
    assert "Traceback" not in stdout + stderr
    time.sleep(0.2)
    assert workers_running(str(tmp_path)) == []
    before = rows(out)
    assert 1 <= len(before) < 6
    assert all(r["status"] in ("optimal", "timeout") for r in before)   # nothing recorded for a killed run
    # the rerun makes the rest, and only the rest (SAT on Klotski is cut short by its limit)
    args[-1] = "3"
    again = subprocess.run(BENCH + args, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    after = rows(out)
    assert after[:len(before)] == before
    keys = [(Path(r["instance"]).name, r["method"]) for r in after]
    assert len(keys) == len(set(keys)) == 6
    assert f"{6 - len(before)} runs made" in again.stdout


def test_a_shell_memory_limit_below_memory_is_respected(tmp_path):
    out = tmp_path / "r.jsonl"
    below = 1500 * 1024 * 1024

    def limit():        # as `ulimit -v 1536000` in a shell: soft and hard
        resource.setrlimit(resource.RLIMIT_AS, (below, below))

    done = subprocess.run(BENCH + [str(GUARINI), "-m", "steps", "--methods", "bfs", "--memory", "4096", "-o", str(out)],
                          capture_output=True, text=True, timeout=120, preexec_fn=limit)
    assert done.returncode == 0, done.stderr
    [row] = [json.loads(line) for line in open(out)]
    assert row["status"] == "optimal" and row["length"] == 16, row
    assert row["memory_mb"] == 1500      # the limit the run really had


def test_a_failed_run_says_why_and_is_retried_on_rerun(tmp_path):
    puzzle = tmp_path / "guarini.knights"
    out = tmp_path / "r.csv"
    lines = []
    task = Task(str(puzzle), None, "steps", "bfs")
    assert bench([task], out, 30, echo=lines.append) == 1       # the file is not there yet
    assert rows(out)[0]["status"] == "error"
    assert "no such file" in rows(out)[0]["message"]
    assert any("no such file" in line for line in lines), lines  # shown, not only in the file
    shutil.copy(GUARINI, puzzle)
    assert bench([task], out, 30, echo=lines.append) == 1       # retried
    assert bench([task], out, 30, echo=lines.append) == 0       # now done
    history = rows(out)
    assert [r["status"] for r in history] == ["error", "optimal"]   # the old row stays
    latest = read_results(out)
    assert list(latest["status"]) == ["optimal"] and len(read_results(out, history=True)) == 2


def test_report_takes_the_latest_row_of_each_run(tmp_path):
    from click.testing import CliRunner
    from puzzleplan.cli import main
    out = tmp_path / "r.csv"
    out.write_text("instance,level,metric,method,constraints,status,length,seconds\n"
                   "x.slide,,steps,bfs,,error,,0.1\n"
                   "x.slide,,steps,bfs,,optimal,7,0.2\n"
                   "x.slide,,steps,pysat,,optimal,7,0.3\n")
    table = CliRunner().invoke(main, ["report", str(out)]).stdout.split("## Time ratios")[0].splitlines()
    assert table[2] == "| method | runs | optimal | total s | median s (optimal) |"      # no error column
    assert table[4] == "| bfs | 1 | 1 | 0.2 | 0.20 |"


def test_the_cactus_plot_counts_only_proven_answers(tmp_path):
    from puzzleplan.bench.report import cactus, plots
    out = tmp_path / "r.csv"
    out.write_text("instance,level,metric,method,constraints,status,length,seconds\n"
                   "a.slide,,steps,cpsat,,optimal,7,2.0\n"
                   "b.slide,,steps,cpsat,,feasible,9,1.0\n"
                   "c.slide,,steps,cpsat,,unsolvable,,3.0\n"
                   "d.slide,,steps,cpsat,,timeout,,9.0\n")
    df = read_results(out)
    assert cactus(df) == {"cpsat": (4, [2.0, 3.0], [1.0, 2.0, 3.0])}
    assert [p.name for p in plots(df, tmp_path / "plots")] == ["cactus.png", "time_vs_length.png"]
