"""The benchmark runner: isolated runs, limits that stop them, rows appended as runs end,
resumption without repeats, parallel runs, Dask, and the report with its plots."""
import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan.bench.report import disagreements, report
from puzzleplan.bench.run import Task, bench, instances, located, read_results
from puzzleplan.cli import main
from puzzleplan.puzzle import PuzzleError

GUARINI = str(INSTANCES / "knights/guarini.knights")
KLOTSKI = str(INSTANCES / "seeds/klotski_seed000.slide")
QUIET = dict(echo=lambda *_: None)


def tasks(path, methods, metric="steps", level=None):
    return [Task(path, level, metric, m) for m in methods]


def test_bench_appends_and_resumes(tmp_path):
    out = tmp_path / "r.csv"
    assert bench(tasks(GUARINI, ["bfs", "pysat"]), out, 30, **QUIET) == 2
    assert bench(tasks(GUARINI, ["bfs", "pysat", "astar"]), out, 30, **QUIET) == 1
    rows = list(csv.DictReader(open(out)))
    assert [r["method"] for r in rows] == ["bfs", "pysat", "astar"]
    assert all(r["status"] == "optimal" and r["length"] == "16" for r in rows)
    assert all(float(r["cpu_seconds"]) > 0 and float(r["peak_rss_mb"]) > 0 for r in rows)
    sat = next(r for r in rows if r["method"] == "pysat")
    assert int(sat["horizons"]) == len(json.loads(sat["horizon_figures"])) and int(sat["clauses"]) > 0
    meta = [json.loads(line) for line in open(str(out) + ".meta.jsonl")]
    assert len(meta) == 2 and meta[1]["skipped"] == 2 and "python-sat" in meta[0]["versions"]


@pytest.mark.timing
def test_time_and_memory_limits_stop_a_run_and_the_bench_goes_on(tmp_path):
    out = tmp_path / "r.jsonl"
    todo = [Task(KLOTSKI, None, "steps", "pysat"), Task(GUARINI, None, "steps", "bfs")]
    bench(todo[:1], out, 1.0, **QUIET)
    bench([Task(KLOTSKI, None, "steps", "bfs")], out, 60, memory_mb=25, **QUIET)
    bench(todo[1:], out, 30, **QUIET)
    rows = [json.loads(line) for line in open(out)]
    # the SAT run stops at its limit: with no plan yet, or with the first plan of a hard run in hand
    # (greedy search after 2,000 conflicts: reached within the second on an idle machine only)
    assert [r["status"] for r in rows][1:] == ["memout", "optimal"] and rows[0]["seconds"] < 11
    assert (rows[0]["status"], rows[0]["length"]) == ("timeout", None) or \
        (rows[0]["status"] == "feasible" and rows[0]["length"] >= 116 and rows[0]["bound"] < 116), rows[0]


def test_a_killed_bench_loses_nothing_and_repeats_nothing(tmp_path):
    out = tmp_path / "r.csv"
    cmd = [sys.executable, "-m", "puzzleplan.cli", "bench", GUARINI, KLOTSKI, "-m", "steps",
           "--methods", "bfs,astar", "-o", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:      # wait until the first runs are on file, then kill the bench
        if out.exists() and len(list(csv.DictReader(open(out)))) >= 2:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = list(csv.DictReader(open(out)))
    assert 2 <= len(before) <= 4
    again = CliRunner().invoke(main, ["bench", GUARINI, KLOTSKI, "-m", "steps", "--methods", "bfs,astar",
                                      "-o", str(out)])
    assert again.exit_code == 0, again.output
    after = list(csv.DictReader(open(out)))
    assert after[:len(before)] == before
    keys = [(r["instance"], r["method"]) for r in after]
    assert len(keys) == len(set(keys)) == 4
    assert f"{4 - len(before)} runs made" in again.output


def test_parallel_jobs_give_the_same_results(tmp_path):
    todo = tasks(GUARINI, ["bfs", "astar", "pysat"]) + tasks(str(INSTANCES / "sokoban/Microban.txt"),
                                                           ["bfs", "pysat"], "pushes", 2)
    bench(todo, tmp_path / "a.csv", 60, jobs=2, **QUIET)
    rows = list(csv.DictReader(open(tmp_path / "a.csv")))
    assert len(rows) == 5 and all(r["status"] == "optimal" for r in rows)
    assert {r["length"] for r in rows if "Microban" in r["instance"]} == {"3"}


def test_runs_on_a_dask_cluster(tmp_path):
    import distributed
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        made = bench(tasks(GUARINI, ["bfs", "pysat"]), tmp_path / "d.csv", 60,
                     dask_address=cluster.scheduler_address, **QUIET)
    rows = list(csv.DictReader(open(tmp_path / "d.csv")))
    assert made == 2 and [r["length"] for r in rows] == ["16", "16"]


def test_instance_sets():
    rh = instances(str(INSTANCES / "rushhour/thinkfun40.rh"), None, "slides")
    assert len(rh) == 40 and rh[0][1] == 1
    assert len(instances(str(INSTANCES / "knights"), None, None)) == 4
    cat = instances("catalogue:rushhour_card*", None, None)
    assert len(cat) == 40 and {m for _, _, m in cat} == {"slides"}
    # catalogue rows name the file from the project root, so a rerun anywhere resumes them
    assert cat[0][0] == "catalogue:instances/rushhour/thinkfun40.rh" and Path(located(cat[0][0])).is_file()
    with pytest.raises(PuzzleError, match="no catalogue entry"):
        instances("catalogue:nothing*", None, None)
    with pytest.raises(PuzzleError, match="unknown level number 41"):
        instances(str(INSTANCES / "rushhour/thinkfun40.rh"), [41], None)


def test_report_tables_and_plots(tmp_path):
    out = tmp_path / "r.csv"
    bench(tasks(GUARINI, ["bfs", "pysat", "cpsat"]) + tasks(str(INSTANCES / "rushhour/thinkfun40.rh"),
                                                             ["bfs", "pysat"], "slides", 1), out, 60, **QUIET)
    text, made = report(out, tmp_path / "plots")
    assert "| pysat | 2 | 2 |" in text and "All methods agree" in text
    assert sorted(p.name for p in made) == ["cactus.png", "horizon_growth.png", "time_vs_length.png"]
    assert all(p.stat().st_size > 10_000 for p in made)
    df = read_results(out)
    df.loc[0, "length"] = 99
    assert disagreements(df)


def test_report_takes_several_results_files_together(tmp_path):
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    bench(tasks(GUARINI, ["bfs"]), one, 60, **QUIET)
    bench(tasks(GUARINI, ["pysat"]), two, 60, **QUIET)
    text = report([one, two])[0]
    assert "| bfs | 1 | 1 |" in text and "| pysat | 1 | 1 |" in text and "All methods agree on every optimal length (1 " in text
    got = CliRunner().invoke(main, ["report", str(one), str(two)])
    assert got.exit_code == 0 and got.output.startswith(text.rstrip("\n"))


def test_bench_and_report_errors_are_one_line(tmp_path):
    runner = CliRunner()
    bad = [["bench", "nothing.rh"], ["bench", GUARINI, "--methods", "pysat:nosuch"],
           ["bench", GUARINI, "--levels", "x"], ["bench", GUARINI, "-o", str(tmp_path / "r.txt")],
           ["report", str(tmp_path / "missing.csv")]]
    (tmp_path / "junk.csv").write_text("a,b\n1,2\n")
    bad.append(["report", str(tmp_path / "junk.csv")])
    for args in bad:
        res = runner.invoke(main, args)
        assert res.exit_code == 2 and res.output.count("\n") == 1 and "error" in res.output, (args, res.output)


def test_a_rerun_recognises_an_instance_however_its_path_is_written(tmp_path, monkeypatch):
    """Relative after absolute, or through a link: the same file, so the rerun skips it; the
    rows keep the path as it was given."""
    out = tmp_path / "r.csv"
    absolute = str(Path(GUARINI).resolve())
    assert bench(tasks(absolute, ["bfs"]), out, 30, **QUIET) == 1
    monkeypatch.chdir(Path(absolute).parent)
    assert bench(tasks(Path(absolute).name, ["bfs"]), out, 30, **QUIET) == 0
    (tmp_path / "link.knights").symlink_to(absolute)
    assert bench(tasks(str(tmp_path / "link.knights"), ["bfs", "astar"]), out, 30, **QUIET) == 1
    rows = list(csv.DictReader(open(out)))
    assert [r["instance"] for r in rows] == [absolute, str(tmp_path / "link.knights")]


def test_a_pair_a_method_does_not_take_is_refused_up_front_with_its_reason(tmp_path):
    """ABC's AIGER export takes no move counts in the goal: the bench records that row as
    ``refused`` with the reason, runs nothing for it, and a rerun keeps it."""
    out = tmp_path / "r.csv"
    args = ["bench", str(INSTANCES / "rushhour/thinkfun40.rh"), "--levels", "1", "-m", "slides",
            "--methods", "abc:pdr,bfs", "--constraint", "A.moves>=2", "-o", str(out), "--time-limit", "60"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    rows = {r["method"]: r for r in csv.DictReader(open(out))}
    assert rows["abc:pdr"]["status"] == "refused" and "move counts" in rows["abc:pdr"]["message"]
    assert rows["abc:pdr"]["cpu_seconds"] == "" and rows["bfs"]["status"] in ("optimal", "unsolvable")
    assert "refused" in first.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and len(list(csv.DictReader(open(out)))) == 2


def test_sets_with_their_own_levels_and_families_with_their_own_metric_share_a_call(tmp_path):
    """A single puzzle beside a collection under --levels, a file's own levels (FILE@LEVELS), Rush Hour
    in slides beside knights in their first metric (-m sliding=slides): one call plans them all."""
    from puzzleplan.bench.run import plan_tasks
    single = tmp_path / "my.rh"
    single.write_text((INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").read_text())
    cards = str(INSTANCES / "rushhour/thinkfun40.rh")
    planned = plan_tasks([str(single), f"{cards}@1-2", cards, GUARINI], "3", "sliding=slides", ["bfs"])
    assert [(Path(t.instance).name, t.level, t.metric) for t in planned] == [
        ("my.rh", None, "slides"), ("thinkfun40.rh", 1, "slides"), ("thinkfun40.rh", 2, "slides"),
        ("thinkfun40.rh", 3, "slides"), ("guarini.knights", None, "steps")]
    assert [t.metric for t in plan_tasks([str(single), GUARINI], None, None, ["bfs"])] == ["steps", "steps"]


@pytest.mark.parametrize("sets,levels,metric,problem", [
    (["my.rh"], "2", None, "--levels 2: none of the instances is a collection"),
    (["my.rh@2"], None, None, "unknown level number 2: my.rh has 1"),
    (["my.rh@x"], None, None, "my.rh@x: write levels like 1-40"),
    (["my.rh"], None, "nope=steps", "unknown puzzle family 'nope'"),
    (["my.rh"], None, "slides,steps", "two metrics for every run (slides, steps)"),
    (["my.rh"], None, "knights=slides", None),          # a family not among the sets: nothing to check
    (["my.rh"], None, "sliding=pushes", "unknown metric 'pushes'"),
])
def test_levels_and_metrics_of_sets_refused_in_one_line(tmp_path, monkeypatch, sets, levels, metric, problem):
    from puzzleplan.bench.run import plan_tasks
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.rh").write_text((INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").read_text())
    if problem is None:
        assert len(plan_tasks(sets, levels, metric, ["bfs"])) == 1
        return
    with pytest.raises(PuzzleError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        plan_tasks(sets, levels, metric, ["bfs"])
