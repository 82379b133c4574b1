"""Horizons in parallel (``solve --jobs N``, :mod:`puzzleplan.planner.parallel`): the optimum
of the serial run on every family, the same answer (horizons, verdicts, conflicts) run after
run, a conflict budget per horizon that stops at the same horizon every time, bad values
refused in one line, and the time limit and Ctrl-C stopping the run with its workers."""
import json
import multiprocessing
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import INSTANCES, ROOT, default_sigint, reaped
from puzzleplan.formats.load import load
from puzzleplan.planner import SolveOptions, solve
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.validate import check_plan

PUZZLEPLAN = [sys.executable, "-m", "puzzleplan.cli"]
SMALL = [       # (file, level, metric): one of each family, a second or less each way
    ("sliding/eight_puzzle.slide", None, "steps"),
    ("rushhour/thinkfun40.rh", 1, "steps"),
    ("sokoban/Microban.txt", 1, "moves"),
    ("knights/guarini.knights", None, "steps"),
]
HARD = str(INSTANCES / "pddl/pddlgym/slidetile/eight01x.slide")     # 31 steps: seconds of refutations


def problem(file, level=None):
    return load(str(INSTANCES / file), level).problem


def verdicts(result):
    """What must not depend on the machine: each horizon, its verdict and its conflicts."""
    return [(row["horizon"], row["result"], row["conflicts"]) for row in result.horizons]


@pytest.mark.parametrize("file,level,metric", SMALL, ids=[s[0].split("/")[0] for s in SMALL])
def test_the_parallel_run_finds_the_serial_optimum(file, level, metric):
    p = problem(file, level)
    serial = solve(p, metric, enumerate_first=False)
    both = solve(p, metric, enumerate_first=False, jobs=2)
    assert serial.status is Status.OPTIMAL and both.status is Status.OPTIMAL, (serial, both)
    assert both.length == serial.length
    assert check_plan(p, both.steps, metric)["solved"]          # the plan replays by the rules
    assert both.stats["jobs"] == 2 and both.stats["parallel"]["jobs"] == 2
    per = both.stats["parallel"]["conflicts_per_horizon"]
    assert [int(h) for h in per] == [row["horizon"] for row in both.horizons]
    assert both.stats["conflicts"] == sum(per.values())
    # every horizon below the plan's length refuted: the proof is the refutation, not a guess
    assert max(row["horizon"] for row in both.horizons if row["result"] == "unsat") == both.length - 1 \
        or both.length == both.lower_bound
    assert {row["worker"] for row in both.horizons} == {0, 1}


def test_the_same_answer_twice_and_on_three_workers():
    p = problem("sliding/eight_puzzle.slide")
    first, again = (solve(p, "steps", enumerate_first=False, jobs=2) for _ in range(2))
    assert verdicts(first) == verdicts(again) and first.steps == again.steps
    assert first.stats["parallel"]["conflicts_per_horizon"] == again.stats["parallel"]["conflicts_per_horizon"]
    three = solve(p, "steps", enumerate_first=False, jobs=3)
    assert three.status is Status.OPTIMAL and three.length == first.length
    assert len(three.horizons) % 3 == 0      # whole batches: every answer of the last one waited for


def test_a_conflict_budget_per_horizon_stops_at_the_same_horizon_every_time():
    p = problem("sliding/eight_puzzle.slide")
    # the plain encoding: the goal's question is the work (no lemmas asked before it)
    runs = [solve(p, "steps", "pysat-plain", enumerate_first=False, jobs=2, horizon_conflicts=1000)
            for _ in range(2)]
    for got in runs:
        assert got.status is Status.TIMEOUT and got.steps is None
        assert "conflict budget per horizon (1,000) spent at horizon" in got.message
        assert got.stats["parallel"]["conflicts_per_horizon_budget"] == 1000
        opened = [row["horizon"] for row in got.horizons if row["result"] == "timeout"]
        assert opened and f"at horizon {opened[0]}" in got.message
        refuted = [row["horizon"] for row in got.horizons if row["result"] == "unsat"]
        assert got.bound == max([got.lower_bound - 1, *refuted])      # what was proved is kept
    assert verdicts(runs[0]) == verdicts(runs[1]) and runs[0].message == runs[1].message
    # a budget the horizons fit in changes nothing
    roomy = solve(p, "steps", "pysat-plain", enumerate_first=False, jobs=2, horizon_conflicts=1_000_000)
    assert roomy.status is Status.OPTIMAL and roomy.length == 16
    assert verdicts(roomy) == verdicts(solve(p, "steps", "pysat-plain", enumerate_first=False, jobs=2))


@pytest.mark.parametrize("changes,says", [
    ({"jobs": 0}, "jobs must be a whole number from 1 to 64"),
    ({"jobs": 2.5}, "jobs must be a whole number"),
    ({"jobs": 65}, "jobs must be a whole number from 1 to 64"),
    ({"jobs": 2, "horizon_conflicts": 0}, "conflicts per horizon must be a whole number, 1 or more"),
    ({"horizon_conflicts": 100}, "for horizons in parallel"),
    ({"jobs": 2, "backend": "cpsat"}, "python-sat backend of one solver"),
    ({"jobs": 2, "backend": "pysat-de:glucose42+cadical195"}, "python-sat backend of one solver"),
    ({"jobs": 2, "optimal": False}, r"no doubling \(--fast\)"),
    ({"jobs": 2, "gap": 10.0}, r"no gap \(--gap\)"),
    ({"jobs": 2, "probes": True}, r"no probes \(--probes\)"),
])
def test_bad_values_are_refused_before_any_work(changes, says):
    with pytest.raises(PuzzleError, match=says):
        solve(problem("rushhour/thinkfun40.rh", 1), "steps", options=SolveOptions(**changes))
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("args", [["--jobs", "0"], ["--jobs", "x"], ["--jobs", "65"], ["--horizon-conflicts", "5"],
                                  ["--jobs", "2", "--horizon-conflicts", "0"], ["--jobs", "2", "-b", "cpsat"]])
def test_bad_values_on_the_command_line_are_one_line_and_exit_2(args):
    done = subprocess.run(PUZZLEPLAN + ["solve", str(INSTANCES / "rushhour/thinkfun40.rh"), "--level", "1", *args],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


def test_the_command_line_prints_a_row_per_horizon_and_says_it_ran_in_parallel():
    args = ["solve", str(INSTANCES / "rushhour/thinkfun40.rh"), "--level", "1", "--jobs", "2"]
    text = subprocess.run(PUZZLEPLAN + args + ["-v"], capture_output=True, text=True, cwd=ROOT)
    assert text.returncode == 0 and text.stdout.startswith("optimal:"), text.stderr
    rows = [line for line in text.stderr.splitlines() if line.startswith("horizon ")]
    assert len(rows) % 2 == 0 and rows[-1].endswith("sat") and "2 horizons at once" in text.stderr
    got = json.loads(subprocess.run(PUZZLEPLAN + args + ["--json"], capture_output=True, text=True, cwd=ROOT).stdout)
    assert got["status"] == "optimal" and got["parallel"]["jobs"] == 2 and len(got["horizons"]) == len(rows)


def test_the_time_limit_stops_the_run_and_its_workers():
    got = solve(load(HARD).problem, "steps", enumerate_first=False, jobs=2, time_limit=2)
    assert got.status is Status.TIMEOUT and got.message == "time limit reached"
    assert got.stats["seconds"] < 4
    assert not multiprocessing.active_children()


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rpartition(")")[2].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode(errors="replace").replace("\0", " ")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.heavy
@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_stop_the_run_and_leave_no_worker(signum, code):
    proc = subprocess.Popen(PUZZLEPLAN + ["solve", HARD, "--jobs", "2", "--no-enumerate", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=default_sigint)
    with reaped(proc):
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:
            seen = children(proc.pid)      # the workers, and multiprocessing's resource tracker
            workers = {pid for pid in seen if "spawn_main" in cmdline(pid)}
            time.sleep(0.05)
        assert len(workers) == 2, proc.communicate()
        time.sleep(2)        # the workers at their horizons
        proc.send_signal(signum)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == code and time.monotonic() - sent < 3, (proc.returncode, err[-800:])
    assert json.loads(out)["status"] == "interrupted" and "Traceback" not in err, err[-800:]
    gone = time.monotonic() + 5
    while time.monotonic() < gone and any(alive(pid) for pid in seen):
        time.sleep(0.05)
    assert not [cmdline(pid) for pid in seen if alive(pid)]
