"""Ctrl-C at any instant, and runs killed outright: a solve or a search stopped with Ctrl-C
reports what it proved (in text and JSON) within two seconds, on every backend; a Ctrl-C that
Python drops in a finaliser still stops the solve; python-sat never installs its own handler,
and a storm of interrupts at random instants never crashes; a Ctrl-C during certification keeps
the proven plan; a Ctrl-C as the program starts, while it loads, is one line and exit code 130;
SIGTERM stops a run as Ctrl-C does (exit code 143), its solver programs, model checker, race
workers and translator with it, and leaves no temporary folder;
the bench stops at once and a rerun resumes; a run killed outright takes its
PDDL translator with it; and the Ctrl-C tests themselves hold where SIGINT is ignored and leave
nothing running when they fail."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from _helpers import BACKENDS, BENCH, CARDS, GUARINI, KLOTSKI, PUZZLEPLAN, rows, run_unchecked
from conftest import INSTANCES, ROOT, default_sigint, reaped
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import Check, Status


# --- solve and search: a partial result, within two seconds -----------------------------------

def interrupted(args, wait_for_line: bool, delay: float = 2.5):
    proc = subprocess.Popen(PUZZLEPLAN + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=default_sigint)
    with reaped(proc):
        start = time.monotonic()
        if wait_for_line:        # the first horizon line: the solver is at work
            while "horizon" not in proc.stderr.readline() and time.monotonic() - start < 60:
                pass
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=30)
    return proc.returncode, time.monotonic() - sent, out, err


@pytest.mark.heavy
@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_reports_a_partial_result(backend):
    code, spent, out, err = interrupted(["solve", KLOTSKI, "-b", backend, "--no-enumerate", "--no-first-plan"], True)
    assert code == 130 and spent < 2, (code, spent, err[-500:])
    assert out.startswith("interrupted: ") and "Traceback" not in err
    assert "no plan within" in out.splitlines()[0]


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_ctrl_c_with_json(backend):
    code, spent, out, err = interrupted(["solve", KLOTSKI, "-b", backend, "--json", "--no-enumerate", "--no-first-plan"], False, 4)
    got = json.loads(out)
    assert code == 130 and spent < 2 and got["status"] == "interrupted" and "Traceback" not in err


def test_ctrl_c_during_search():
    # a move count no plan can meet: BFS goes on through every (state, counter) pair
    code, spent, out, err = interrupted(["search", str(INSTANCES / "sliding/mas_puzzle.slide"), "--json",
                                         "--moves", "i>=400"], False, 2)
    got = json.loads(out)
    assert code == 130 and spent < 2 and got["status"] == "interrupted" and "Traceback" not in err


# --- Ctrl-C as the program starts ------------------------------------------------------------

def started(how: str) -> str:
    """What the console script runs (its entry point, read from pyproject.toml) or what ``python
    -m puzzleplan.cli`` runs, told by a line on stderr once Python runs it: the instant our code
    starts (the interpreter's own start before it takes longer on a loaded machine)."""
    import tomllib
    say = "import os, sys; os.write(2, b'started\\n'); "
    if how == "console script":
        entry = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["puzzleplan"]
        module, _, name = entry.partition(":")
        return say + f"sys.argv[0] = 'puzzleplan'; from {module} import {name}; sys.exit({name}())"
    return say + "import runpy; runpy.run_module('puzzleplan.cli', run_name='__main__', alter_sys=True)"


@pytest.mark.parametrize("how", ["console script", "python -m puzzleplan.cli"])
@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["Ctrl-C", "SIGTERM"])
def test_ctrl_c_as_the_program_starts_is_one_line_and_130(how, signum, code):
    """While the package and the commands load (a few tenths of a second), and from there on:
    never a KeyboardInterrupt traceback nor "Fatal Python error", always exit code 130 (143 for
    SIGTERM), or 0 if the command was done."""
    for delay in (0.05, 0.08, 0.12, 0.17, 0.25, 0.35, 0.5):
        proc = subprocess.Popen([sys.executable, "-c", started(how), "search", KLOTSKI], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=default_sigint)
        with reaped(proc):
            assert proc.stderr.readline() == "started\n"
            time.sleep(delay)
            proc.send_signal(signum)
            out, err = proc.communicate(timeout=30)
        assert "Traceback" not in err and "Fatal" not in err, (delay, err[-800:])
        assert proc.returncode in (code, 0), (delay, proc.returncode, err[-800:])
        if proc.returncode == code:
            assert "interrupted" in (err.strip().splitlines() or [""])[-1] + out, (delay, out, err)


# --- SIGTERM: as Ctrl-C, with the children and the temporary files ---------------------------

def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` now, by their parents in /proc (a child in a session of its
    own included, which its process group would miss)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode(errors="replace").replace("\0", " ")
    except OSError:
        return ""


def slow_grounding(folder: Path) -> list[str]:
    """A task the translator grounds for minutes (60 objects, an action of four of them)."""
    domain, problem = folder / "domain.pddl", folder / "problem.pddl"
    domain.write_text("(define (domain b) (:requirements :strips) (:predicates (p ?a ?b ?c ?d) (q))\n"
                      " (:action a :parameters (?a ?b ?c ?d) :precondition (q) :effect (p ?a ?b ?c ?d)))\n")
    problem.write_text("(define (problem pb) (:domain b) (:objects " + " ".join(f"o{i}" for i in range(60))
                       + ") (:init (q)) (:goal (p o1 o2 o3 o4)))\n")
    return ["solve", str(problem), "--domain", str(domain), "--grounder", "translator"]


SIGTERMED = {      # what runs, and a word of the child's command line to wait for
    "abc:pdr": (["solve", KLOTSKI, "-b", "abc:pdr"], "berkeley-abc"),
    "external:cadical": (["solve", KLOTSKI, "-b", "external:cadical", "--no-enumerate"], "cadical"),
    "race": (["solve", KLOTSKI, "-b", "pysat-de:glucose42+cadical195", "--no-enumerate"], "multiprocessing.spawn"),
    "translator": (None, "translate"),
}


@pytest.mark.parametrize("what", list(SIGTERMED))
def test_sigterm_stops_the_run_and_its_children_as_ctrl_c_does(tmp_path, what):
    """SIGTERM (a ``kill``) ended the process where it stood: ABC, a solver program or the
    translator ran on without a limit, a race's workers printed tracebacks, the temporary
    folders stayed.  Now it is a Ctrl-C: what was proved, exit code 143, nothing left."""
    args, child = SIGTERMED[what]
    args = args or slow_grounding(tmp_path)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = subprocess.Popen(PUZZLEPLAN + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True, env={**os.environ, "TMPDIR": str(scratch)})
    seen: set[int] = set()
    try:
        with reaped(proc, group=True):
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and proc.poll() is None:
                seen |= descendants(proc.pid)
                if any(child in cmdline(pid) for pid in seen if alive(pid)):
                    break
                time.sleep(0.02)
            assert proc.poll() is None, proc.communicate()
            assert any(child in cmdline(pid) for pid in seen), f"no {child} started"
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
        gone = time.monotonic() + 5
        while time.monotonic() < gone and any(alive(pid) for pid in seen):
            time.sleep(0.05)
        left = {pid: cmdline(pid) for pid in seen if alive(pid)}
    finally:
        for pid in seen:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert "Traceback" not in err, err[-1500:]
    assert proc.returncode == 143, (proc.returncode, out, err[-800:])
    assert out.startswith("interrupted: ") or err.strip().splitlines()[-1] == "puzzleplan: interrupted", (out, err)
    assert not left, left
    assert not list(scratch.iterdir())


# --- dropped interrupts, Ctrl-C at random instants, during certification ----------------------

# Ctrl-C at any instant: python-sat's own SIGINT handler longjmps out of the solver and left
# its heap corrupt (the process aborted in delete, now and then); a KeyboardInterrupt raised
# while a solver thread was being started left it running on a deleted solver.  Many interrupts
# at random instants, in one process, during lemma questions and horizon solves.
STORM = """
import os, random, signal, sys, threading
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import Status
domain = load(sys.argv[1]).problem
random.seed(int(sys.argv[3]))
seen = set()
for i in range(int(sys.argv[4])):
    threading.Timer(random.uniform(0.02, 1.2), os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        r = solve(domain, "steps", sys.argv[2])
    except KeyboardInterrupt:       # the signal came after solve() had returned
        continue
    seen.add(r.status.value)
    assert r.status in (Status.INTERRUPTED, Status.FEASIBLE), r.status
print(sorted(seen))
"""


LOST = """
import os, signal, sys
from puzzleplan.formats.load import load
from puzzleplan.planner import solve

class Finaliser:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C lands while a finaliser runs:
        for _ in range(1000):                   # Python raises it here, prints it, drops it
            pass

said = []
def say(text):
    if not said:
        said.append(text)
        Finaliser()
r = solve(load(sys.argv[1]).problem, "steps", sys.argv[2], say=say, enumerate_first=False)
print(r.status.value)
"""


@pytest.mark.parametrize("backend", ["pysat-de", "pysat:cadical195", "pysat-de:glucose42+cadical195"])
def test_a_ctrl_c_python_drops_in_a_finaliser_still_stops_the_solve(backend):
    """The lost Ctrl-C of the storm below: a KeyboardInterrupt raised inside a ``__del__`` is
    printed and dropped by Python; the run records it and raises it before the next solver
    call, instead of solving Klotski (116 steps) for minutes.  A race asks its solvers too
    (under load the storm lost one there: multiprocessing's finaliser of an earlier race's
    semaphore ran when the Ctrl-C landed)."""
    proc = subprocess.run([sys.executable, "-c", LOST, KLOTSKI, backend], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, preexec_fn=default_sigint)
    assert proc.returncode == 0 and proc.stdout.strip() == "interrupted", (proc.stdout, proc.stderr[-800:])
    assert "Exception ignored" in proc.stderr      # the interrupt was indeed dropped by Python


# The same, dropped at the instant a solver call is made (a glucose call in the main thread:
# right after its last check, as python-sat's wrapper calls it) or while a race waits for its
# answers: a long question, horizon 100 of Klotski, is under way.  "signal": a real SIGINT
# inside a __del__ (it reaches the watchdog's wakeup fd; the stopped solver's "no answer" is
# not a time limit); "handler": only the recorded handler runs there, as for a signal that
# landed before the wakeup fd was set (nothing reaches the fd: the watchdog reads the record).
DROPPED_IN_CALL = """
import os, signal, sys, time
import pysat.solvers
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.planner.backends import race

class Finaliser:
    def __del__(self):
        if sys.argv[3] == "handler":
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass

dropped = []
def dropping(call, when=lambda kwargs: True):
    def wrapper(*args, **kwargs):
        if not dropped and when(kwargs):
            dropped.append(time.monotonic())
            Finaliser()
        return call(*args, **kwargs)
    return wrapper
race.wait = dropping(race.wait)
# in the run's solver calls, not in the try-out of the solver when the options are checked
pysat.solvers.Solver.solve_limited = dropping(pysat.solvers.Solver.solve_limited,
                                              lambda kwargs: kwargs.get("expect_interrupt"))
domain = load(sys.argv[1]).problem
r = solve(domain, "steps", sys.argv[2], time_limit=60, start_horizon=100, max_horizon=100)
print(r.status.value, round(time.monotonic() - dropped[0], 1))
"""


@pytest.mark.parametrize("backend, how", [("pysat-plain:glucose42", "signal"), ("pysat-plain:glucose42", "handler"),
                                          ("pysat-plain:glucose42+cadical195", "signal")])
def test_a_ctrl_c_dropped_in_a_finaliser_during_a_solver_call_still_stops_it(backend, how):
    proc = subprocess.run([sys.executable, "-c", DROPPED_IN_CALL, KLOTSKI, backend, how], capture_output=True,
                          text=True, timeout=150, cwd=ROOT, preexec_fn=default_sigint)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-800:])
    status, seconds = proc.stdout.split()
    assert status == "interrupted" and float(seconds) < 30, (proc.stdout, proc.stderr[-800:])
    assert "Exception ignored" in proc.stderr


def test_ctrl_c_during_certification_keeps_the_proven_plan(monkeypatch):
    import puzzleplan.planner.certify as certify_module

    def interrupted_certify(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(certify_module, "certify", interrupted_certify)
    got = run_unchecked("solve", CARDS, "-l", "1", "-m", "slides", "--certify", "--no-enumerate")
    assert got.exit_code == 130, got.output
    status = [line for line in got.output.splitlines() if line.startswith("optimal")]
    assert status and status[0].startswith("optimal (certification interrupted): ") and ", 8 slides" in status[0]
    assert "plan: " in got.output
    r = solve(load(CARDS, 1).problem, "slides", certify=True)
    assert r.status is Status.OPTIMAL and r.length == 8 and r.check is Check.INTERRUPTED
    assert "certified" not in r.stats


def test_ctrl_c_while_the_lower_bound_is_computed_answers_interrupted(monkeypatch):
    """A large PDDL task spends seconds on its bound (the h^2 mutexes) before any solver runs:
    a Ctrl-C there is an answer, as during the solver's loading."""
    rules = load(CARDS, 1).rules

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(rules, "heuristic", interrupted)
    try:
        r = solve(rules, "slides", enumerate_first=False)
    except KeyboardInterrupt:
        pytest.fail("the Ctrl-C escaped solve instead of answering interrupted")
    assert r.status is Status.INTERRUPTED and r.length is None and r.message == "interrupted"


def test_python_sat_never_installs_its_own_sigint_handler():
    # python-sat swaps in its longjmp handler when MainThread.check() says "main thread"
    code = """
import pysat._utils, pysat.card, pysat.solvers
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import MoveCount
assert pysat._utils.MainThread.check() is True
assert pysat.card.MainThread is pysat._utils.MainThread is pysat.solvers.MainThread
solve(load(sys.argv[1], 1).problem, "slides", sys.argv[2], counts=[MoveCount("A", ">=", 2)])
print(pysat._utils.MainThread.check())
"""
    for backend in ("pysat", "pysat-plain:cadical195"):
        proc = subprocess.run([sys.executable, "-c", "import sys" + code, CARDS, backend], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)
        assert proc.returncode == 0 and proc.stdout.strip() == "False", (proc.stdout, proc.stderr[-500:])


@pytest.mark.parametrize("backend", ["pysat", "pysat:cadical195", "pysat-plain:cadical195", "pysat-de",
                                     "pysat-de:glucose42+cadical195"])
@pytest.mark.heavy
def test_ctrl_c_at_random_instants_never_crashes(backend):
    proc = subprocess.run([sys.executable, "-c", STORM, KLOTSKI, backend, "7", "12"], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, preexec_fn=default_sigint)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-800:])
    assert "interrupted" in proc.stdout


# --- the Ctrl-C tests themselves: whatever the signal disposition, nothing left running -------

@pytest.mark.heavy
def test_ctrl_c_with_a_plan_in_hand_prints_it_with_the_gap_and_exits_130():
    """Klotski's first plan (greedy search, once the run is hard) comes within a second; a
    Ctrl-C after it answers feasible with both bounds, and still exits as interrupted."""
    code, spent, out, err = interrupted(["solve", KLOTSKI, "--no-enumerate"], True, 4)
    first = out.splitlines()[0]
    assert code == 130 and spent < 2 and "Traceback" not in err, (code, err[-300:])
    assert first.startswith("feasible: ") and "optimum >= " in first and "(gap " in first, out[:300]
    assert out.rstrip().endswith("interrupted")


def test_ctrl_c_tests_hold_where_sigint_is_ignored():
    """Run as a background job (or by a CI that ignores SIGINT), the Ctrl-C tests' solves ignored
    the signal, the tests failed and left Klotski solving for minutes: now the child takes
    SIGINT's default action, and is killed on the way out whatever happens."""
    import signal
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)     # as in `pytest &` from a script
    try:
        code, spent, out, err = interrupted(["solve", INSTANCES / "seeds/klotski_seed000.slide", "--no-enumerate",
                                             "--no-first-plan", "-v"], True, 0.5)     # once a horizon is asked, however busy the machine
    finally:
        signal.signal(signal.SIGINT, old)
    assert code == 130 and spent < 2 and out.startswith("interrupted: "), (code, err[-300:])


def test_a_failing_ctrl_c_test_leaves_nothing_running():
    import subprocess
    import sys
    from conftest import reaped
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    with pytest.raises(RuntimeError):
        with reaped(proc):
            raise RuntimeError("a test fails half-way")
    assert proc.poll() is not None


# --- the bench: stopped at once, resumed by a rerun -------------------------------------------

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


@pytest.mark.timing
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


# --- a run killed outright --------------------------------------------------------------------

def test_the_translator_dies_with_a_run_killed_outright(tmp_path):
    """A run killed outright (SIGKILL: bench's hard kill, an outside timeout) while grounding a
    huge task: its translator, in a session of its own, ends with it instead of grounding on."""
    import os
    import signal
    domain = tmp_path / "domain.pddl"
    domain.write_text("(define (domain b) (:requirements :strips) (:predicates (p ?a ?b ?c ?d) (q))\n"
                      " (:action a :parameters (?a ?b ?c ?d) :precondition (q) :effect (p ?a ?b ?c ?d)))\n")
    problem = tmp_path / "problem.pddl"
    problem.write_text("(define (problem pb) (:domain b) (:objects " + " ".join(f"o{i}" for i in range(60))
                       + ") (:init (q)) (:goal (p o1 o2 o3 o4)))\n")
    run = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", "solve", str(problem), "--domain", str(domain), "-q",
                            "--grounder", "translator"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    translator = None
    deadline = time.monotonic() + 60
    while translator is None and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.2)
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    stat = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
                    cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
                except OSError:
                    continue
                if int(stat[1]) == run.pid and b"translate" in cmdline:
                    translator = int(pid)
    assert translator is not None, "the translator should be running"
    run.send_signal(signal.SIGKILL)
    run.wait()
    gone = time.monotonic() + 5
    while time.monotonic() < gone:
        try:
            state = open(f"/proc/{translator}/stat").read().rpartition(")")[2].split()[0]
        except OSError:
            break
        if state == "Z":
            break
        time.sleep(0.1)
    else:
        os.killpg(translator, signal.SIGKILL)
        raise AssertionError("the translator outlived the run")
