"""Time and memory limits.  A time limit holds, for the whole run, on every search, backend and
command: the interpreter's start and the imports count, an inner limit counts within the outer
one, runs in threads keep their own deadlines, a large encoding or a huge board (knights,
Sokoban, a long strip, a peg board) being built is stopped in time, --certify and decode keep
to the limit, and a cheap complete enumeration is not cut short by it; what a timeout claims is
true (the bound proved, nothing when nothing was refuted).  The export's estimate of the memory
a formula takes is close to what it does take, an export that would not fit is refused before
it starts, the compact at-most-one that keeps long formulas small allows exactly what it
should, and a shell's memory limit below the bench's --memory is the limit its runs get and
record.  The least --memory accepted runs every method on a small puzzle, a memout names the
cap asked for, not a shell's higher limit, and a limit reached while CP-SAT's libraries load is
a memout (in the bench too), never a traceback nor OpenBLAS's own exit.  Tests marked ``timing`` run on their own (-m timing
-n 0)."""
import json
import resource
import subprocess
import sys
import time

import pytest

from _helpers import BACKENDS, BENCH, CARD40, GUARINI, KLOTSKI, PUZZLEPLAN, one_error, run, run_unchecked
from conftest import INSTANCES
from puzzleplan import limits
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import Status
from puzzleplan.search import astar_search, breadth_first_search, explore


# --- time: the run's clock --------------------------------------------------------------------

def test_the_outermost_limit_counts_from_the_run_start():
    before = limits._run_start
    try:
        limits.start_run(time.monotonic() - 2.0)
        with limits.time_limit(3.0):
            assert limits.left() <= 1.01
            with limits.time_limit(5.0):            # an inner limit counts from now, within the outer
                assert limits.left() <= 1.01
            with limits.time_limit(0.5):
                assert 0.4 < limits.left() <= 0.5
    finally:
        limits._run_start = before


def test_the_process_start_is_before_now_and_recent():
    now = time.monotonic()
    start = limits.process_start()
    assert start <= now and now - start <= 30.0


def test_only_a_timeup_of_the_run_itself_is_held():
    limits.hold()
    try:
        with limits.time_limit(10.0):
            with pytest.raises(limits.TimeUp):
                with limits.time_limit(0.01):        # an inner budget's end: freed as usual
                    time.sleep(0.02)
                    limits.checkpoint(512)
        assert not limits.held()
        with pytest.raises(limits.TimeUp):
            with limits.time_limit(0.01):
                time.sleep(0.02)
                limits.checkpoint(512)
        assert limits.held()
    finally:
        limits.hold(False)
        limits._held.clear()


SLOW_START = "import time; time.sleep({delay}); from puzzleplan.cli import main; main()"


@pytest.mark.timing
def test_a_slow_start_and_a_huge_board_keep_the_limit(tmp_path):
    """1.5 s lost before the command starts (as imports take on a loaded machine) and a board that
    takes longer than the limit to set up: the answer still comes within max(10%, 1 s)."""
    n = 1000
    rows = ["#" * n] + ["#" + " " * (n - 2) + "#" for _ in range(n - 2)] + ["#" * n]
    rows[1] = "#@" + rows[1][2:]
    rows[2] = "# $" + rows[2][3:]
    rows[n - 2] = rows[n - 2][:n - 3] + "." + rows[n - 2][n - 2:]
    board = tmp_path / "room.xsb"
    board.write_text("\n".join(rows) + "\n")
    limit = 4.0
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", SLOW_START.format(delay=1.5), "solve", str(board), "-q",
                           "--time-limit", str(limit)], capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - t0
    assert "Traceback" not in done.stderr
    assert "timeout" in done.stdout, (done.stdout, done.stderr)
    assert elapsed <= limit + max(0.1 * limit, 1.0), elapsed


# --- time: every search and every backend -----------------------------------------------------

def within(seconds, limit):
    return seconds <= max(1.1 * limit, limit + 1.0)


@pytest.mark.timing
@pytest.mark.parametrize("search", [breadth_first_search, astar_search])
def test_search_time_limit_without_a_progress_callback(search):
    d = load(KLOTSKI).problem
    t0 = time.perf_counter()
    r = search(d, "steps", 0.2)
    assert within(time.perf_counter() - t0, 0.2)
    assert r.status is Status.TIMEOUT and r.steps is None
    assert r.bound is not None and 0 <= r.bound < 116      # what was proved: no plan that short


def test_bfs_timeout_bound_is_true():
    d = load(CARD40).problem
    r = breadth_first_search(d, "steps", 0.05)
    assert r.status is Status.TIMEOUT and r.bound < 81


@pytest.mark.timing
def test_explore_time_limit():
    d = load(KLOTSKI).problem
    t0 = time.perf_counter()
    figures = explore(d, "steps", time_limit=0.3)
    assert within(time.perf_counter() - t0, 0.3)
    assert figures["complete"] is False and figures["stopped"] == "timeout" and figures["reachable"] < 25955
    assert explore(d, "steps")["complete"] is True


@pytest.mark.timing
def test_time_limits_of_runs_in_threads_are_their_own():
    # one deadline per thread: a run's limit neither cuts short nor lifts another's
    import threading
    d = load(KLOTSKI).problem
    spent = {}

    def run(backend, limit):
        t0 = time.perf_counter()
        r = solve(d, "steps", backend, time_limit=limit, first_plan=False)
        spent[backend] = (r.status, time.perf_counter() - t0)

    threads = [threading.Thread(target=run, args=("pysat", 1.0)),
               threading.Thread(target=run, args=("pysat:cadical195", 3.0))]
    for t in threads:
        t.start()
        time.sleep(0.1)
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads)
    (s1, t1), (s2, t2) = spent["pysat"], spent["pysat:cadical195"]
    assert s1 is Status.TIMEOUT and within(t1, 1.0)
    assert s2 is Status.TIMEOUT and 2.9 <= t2 and within(t2, 3.0)


@pytest.mark.timing
@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_time_limit_every_backend(backend):
    d = load(KLOTSKI).problem
    t0 = time.perf_counter()
    r = solve(d, "steps", backend, time_limit=2, first_plan=False)
    assert within(time.perf_counter() - t0, 2)
    assert r.status is Status.TIMEOUT and r.steps is None
    assert r.bound is None or 2 <= r.bound < 116


def sokoban_room_as_pddl(tmp_path, k: int = 8) -> str:
    """A generated Sokoban room (the sokoban/boxes series) exported as PDDL: a task whose
    counting invariants take the SAT search seconds, one solver call many."""
    from puzzleplan import registry
    from puzzleplan.pddl import export
    from puzzleplan.series import files_of, series_of
    family = registry.get("sokoban")
    for name, text in files_of(family, series_of(family)["boxes"], k, 0).items():
        (tmp_path / name).write_text(text)
    _, _, problem = export(load(tmp_path / name).problem, "moves", str(tmp_path / "task"))
    return problem


def test_the_counting_invariants_keep_their_budget(tmp_path):
    """Sought when a run turns hard: a single solver call of the search may run for minutes (a
    Sokoban room's export ran 40 s past --time-limit 20 in one); it stops at the search's budget
    of conflicts, with what it found: counted, so the same sets on a busy machine."""
    from puzzleplan.strips.analyses.counts import count_invariants
    rules = load(sokoban_room_as_pddl(tmp_path)).rules
    ops, mutex = rules.known_ops(), rules.mutexes()
    few = count_invariants(rules, ops, mutex, conflicts=2_000)
    assert count_invariants(rules, ops, mutex, conflicts=2_000) == few       # the same budget, the same sets
    assert count_invariants(rules, ops, mutex, conflicts=0) == []


@pytest.mark.timing
def test_the_counting_invariants_keep_the_run_limit(tmp_path):
    from puzzleplan.strips.analyses.counts import count_invariants
    rules = load(sokoban_room_as_pddl(tmp_path)).rules
    ops, mutex = rules.known_ops(), rules.mutexes()
    t0 = time.perf_counter()
    try:
        with limits.time_limit(2.0):
            count_invariants(rules, ops, mutex, conflicts=10**9)
    except limits.TimeUp:
        pass
    assert within(time.perf_counter() - t0, 2.0)


def big_board(tmp_path, n=200) -> str:
    rows = ["." * n for _ in range(n)]
    rows[0] = "AB" + "." * (n - 2)
    goal = ["." * n for _ in range(n)]
    goal[n - 1] = "." * (n - 1) + "A"
    path = tmp_path / "big.slide"
    path.write_text("board:\n" + "\n".join(rows) + "\n\ngoal:\n" + "\n".join(goal) + "\n")
    return str(path)


@pytest.mark.timing
@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_time_limit_holds_while_a_large_encoding_is_built(tmp_path, backend):
    d = load(big_board(tmp_path)).problem
    t0 = time.perf_counter()
    r = solve(d, "slides", backend, time_limit=3, first_plan=False)
    assert within(time.perf_counter() - t0, 3)
    assert r.status is Status.TIMEOUT


def test_timeout_with_lower_bound_zero_claims_nothing(write):
    # no bound sees the end condition (the move counts' shortfall would be one)
    path = write("a.slide", "board:\nA.\n\ngoal:\nA.\nconstraints: A.moves<=2 A.ends=b1\n")
    d = load(path).problem
    from puzzleplan.constraints import state_space
    space = state_space(d)
    assert space.heuristic(space.initial, "steps") == 0
    r = solve(d, "steps", time_limit=1e-6)
    assert r.status is Status.TIMEOUT and r.bound is None
    out = run_unchecked("solve", path, "--time-limit", "0.000001", "--no-enumerate", "-q")
    assert "-1" not in out.output and "nothing refuted yet" in out.output


@pytest.mark.timing
def test_enumeration_finishes_under_a_time_limit():
    """Klotski with B frozen: 25,994 states, unsolvable, enumerated in about 1.5 s.  A tenth of an
    8 s limit once stopped the enumeration, and the answer was a timeout after 8 s of deepening;
    now only the limit itself can (30 s: room for a machine four times as busy)."""
    result = run("solve", INSTANCES / "seeds/klotski_seed000.slide", "--frozen", "B", "--time-limit", "30", "--json")
    doc = json.loads(result.stdout)
    assert doc["status"] == "unsolvable" and doc["method"] == "enumeration", doc.get("status")
    assert doc["reachable"] == 25994


def test_a_wide_space_is_given_up_by_its_states_not_the_clock(write, monkeypatch):
    """A space still opening up (the 15-puzzle: a frontier of half the states seen) is given up once ENUMERATE_OPEN states are seen, with a line saying so; the same with a
    clock that runs ten thousand times faster (a busy machine): the budget counts states."""
    from puzzleplan.planner import enumeration
    text = "board:\nABCD\nEFGH\nIJKL\nMNO.\ngoal:\n.ONM\nLKJI\nHGFE\nDCBA\n"      # far away
    domain = load(write("fifteen.slide", text)).problem
    said = []
    assert enumeration.enumerated(domain, "steps", said.append) is None
    assert len(said) == 1 and "opening up" in said[0] and f"{enumeration.ENUMERATE_OPEN:,} states seen" in said[0]
    real = time.monotonic
    start = real()
    monkeypatch.setattr(time, "monotonic", lambda: start + (real() - start) * 10_000)
    fast = []
    assert enumeration.enumerated(domain, "steps", fast.append) is None
    assert fast == said


def test_an_unsolvable_rush_hour_board_of_56_099_states_is_unsolvable_by_enumeration(write):
    """A car across the red car's row, to its right, never leaves it: no plan.  Its 56,099 states
    (frontiers at 3-20 % of the states seen) are enumerated to their end, never given up as a
    space still opening up, and ``solve`` answers unsolvable instead of deepening to 1000."""
    board = "oJBooooJBGGoAAooZZooHHoCIoDDECIFFoEo\n"
    result = run("solve", write("blocked.rh", board), "--json")
    doc = json.loads(result.stdout)
    assert doc["status"] == "unsolvable" and doc["method"] == "enumeration", doc.get("status")
    assert doc["reachable"] == 56099


def test_unsolvable_by_enumeration_whatever_the_clock(monkeypatch):
    """The docs' example (card 40, A at least 3 slides, K frozen): unsolvable by enumerating its
    states before any SAT call, with a clock that runs ten thousand times faster (as on a
    machine kept busy): the enumeration's budget counts states, never seconds."""
    real = time.monotonic
    start = real()
    monkeypatch.setattr(time, "monotonic", lambda: start + (real() - start) * 10_000)
    result = run("solve", CARD40, "-m", "slides", "--moves", "A>=3", "--frozen", "K", "--json")
    doc = json.loads(result.stdout)
    assert doc["status"] == "unsolvable" and doc["method"] == "enumeration", doc.get("status")


@pytest.mark.timing
def test_certify_keeps_to_the_time_limit():
    import subprocess
    import sys
    import time
    t0 = time.monotonic()
    # without a limit: planning 2 s, proof 5 s, check 8 s (card 40, slides); 8 s leave the
    # planning room on a machine four times as busy, and cut the certification all the same
    done = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", str(CARD40), "-m", "slides", "--certify",
                           "--time-limit", "8", "-q"], capture_output=True, text=True, timeout=120)
    wall = time.monotonic() - t0
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("optimal (certification timed out): ") and ", 51 slides" in done.stdout
    assert wall < 8 + 2.5, wall     # the limit, plus the start-up of a fresh process


@pytest.mark.timing
def test_decode_keeps_its_time_limit_while_it_builds(tmp_path, monkeypatch):
    """decode's time limit interrupts its own work (reading, building the formula), not only
    the checkpoints."""
    from click.testing import CliRunner
    from puzzleplan.cli import main
    import puzzleplan.planner.decode as decode
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    runner = CliRunner()
    assert runner.invoke(main, ["export", str(puzzle), "-t", "3", "-o", str(tmp_path / "x.cnf")]).exit_code == 0
    (tmp_path / "m").write_text("s SATISFIABLE\nv 1 0\n")

    def slow(*args, **kwargs):
        while True:         # a loop without a checkpoint
            pass
    monkeypatch.setattr(decode, "check_symbols", slow)
    t0 = time.monotonic()
    done = runner.invoke(main, ["decode", str(puzzle), "--cnf", str(tmp_path / "x.cnf"), "--model",
                                str(tmp_path / "m"), "--time-limit", "1"])
    assert time.monotonic() - t0 < 3
    assert "timeout" in done.output, done.output


# --- time: huge instances, loading included ---------------------------------------------------

def huge(tmp_path, kind: str, n: int) -> str:
    """A huge board: an n x n knights board, an n x n Sokoban room, a 1 x n sliding strip."""
    if kind == "knights":
        text = "board:\n" + "W" + "." * (n - 1) + "\n" + ("." * n + "\n") * (n - 1) + "goal: W@b1\n"
        name = "big.knights"
    elif kind == "sokoban":
        inner = [" " * n for _ in range(n)]
        inner[0] = "@" + " " * (n - 1)
        inner[1] = " $" + " " * (n - 2)
        inner[-1] = " " * (n - 1) + "."
        text = "\n".join(["#" * (n + 2)] + ["#" + row + "#" for row in inner] + ["#" * (n + 2)]) + "\n"
        name = "room.xsb"
    else:
        text = "board:\nA" + "." * n + "\ngoal:\n" + "." * n + "A\n"
        name = "strip.slide"
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def timed(args, limit_mb=3000):
    """Wall seconds of ``puzzleplan ARGS`` in a process of its own, under an address-space limit
    (the old code's slides on a long strip grew without bound)."""
    import resource
    import subprocess
    import sys
    import time

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "puzzleplan.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120, preexec_fn=cap)
    return time.monotonic() - t0, done


@pytest.mark.parametrize("kind,n,args", [
    ("knights", 600, ["search"]), ("knights", 600, ["solve", "-q"]), ("knights", 600, ["explore"]),
    ("sokoban", 600, ["search", "-m", "pushes"]), ("sokoban", 600, ["solve", "-q"]),
    ("strip", 200_000, ["search", "-m", "slides"]), ("strip", 200_000, ["solve", "-q", "-m", "slides"]),
])
@pytest.mark.heavy
def test_the_time_limit_holds_on_huge_boards(tmp_path, kind, n, args):
    """Before: the board was read and its rules built before the clock started (about as long as
    the limit here), a successor call or a slide could run long between two clock reads, and
    full garbage collections over the huge rules ran past the limit."""
    limit = 2.0
    path = huge(tmp_path, kind, n)
    wall, done = timed([args[0], path, *args[1:], "--time-limit", limit])
    assert done.returncode == 0, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    start, _ = timed(["--version"])      # the interpreter's start on this machine, as loaded as it is now
    assert wall < limit + 1.0 + 2 * start, (wall, start, done.stdout[-300:])


@pytest.mark.timing
def test_a_huge_peg_board_is_set_up_in_linear_time():
    """A 200 x 200 board with one hole: its rules, Merson regions and position classes within
    a few seconds (the regions were candidates x jumps, the masks or-ed bit by bit: hours)."""
    from puzzleplan.families.pegsol.rules import PegSolitaire
    from puzzleplan.families.pegsol.fileformat import parse
    n = 200
    rows = ["o" * n for _ in range(n)]
    rows[n // 2] = rows[n // 2][:n // 2] + "." + rows[n // 2][n // 2 + 1:]
    spec = parse("board:\n" + "\n".join(rows) + "\ngoal: one peg\n")
    t0 = time.monotonic()
    with limits.time_limit(60.0), limits.preemptive():
        rules = PegSolitaire(spec)
    assert time.monotonic() - t0 < 30
    assert rules.initial[0].bit_count() == n * n - 1
    assert rules.regions and rules.classes


# --- memory: the export estimated, and refused when it does not fit ---------------------------

@pytest.mark.heavy
def test_export_memory_estimate_is_right(tmp_path):
    """The estimate must not be far below what the export takes: the old one counted model
    items, not clauses (1,883 a step on Klotski then, not 976), and let 11.7 GB through.  2,242
    a step since commuting moves come in one order (encodings/order.py), 2,386 since the two
    empty cells are counted at every step."""
    import subprocess
    import sys
    from puzzleplan.encodings.lower import estimate_bytes
    domain = load(INSTANCES / "seeds/klotski_seed000.slide").problem
    need, per_step = estimate_bytes(domain, "steps", 600)
    assert per_step == 2386
    # the peak of this process's own memory (VmHWM; ru_maxrss would count the forking parent's)
    peak_of = "print(int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]) * 1024)"
    code = ("import sys; from puzzleplan.cli import main; sys.argv = ['puzzleplan', 'export', sys.argv[1], "
            "'-t', '600', '-o', sys.argv[2]]\ntry:\n    main()\nexcept SystemExit:\n    pass\n" + peak_of)
    base = "import puzzleplan.cli, puzzleplan.export, puzzleplan.encodings.lower\n" + peak_of
    peak = int(subprocess.run([sys.executable, "-c", code, str(INSTANCES / "seeds/klotski_seed000.slide"),
                               str(tmp_path / "k.cnf")], capture_output=True, text=True, timeout=120).stdout.split()[-1])
    idle = int(subprocess.run([sys.executable, "-c", base], capture_output=True, text=True, timeout=60).stdout.split()[-1])
    assert 0.8 * (peak - idle) <= need <= 2 * (peak - idle), (need, peak - idle)


def test_export_refuses_what_does_not_fit(tmp_path, monkeypatch):
    from puzzleplan.encodings import lower
    monkeypatch.setattr(lower, "available_bytes", lambda: 8 << 30)     # 8 GiB: horizon 50,000 needs 44
    out = tmp_path / "k.cnf"
    one_error(run("export", INSTANCES / "seeds/klotski_seed000.slide", "-t", "50000", "-o", out), "GiB", "2,386")
    assert not out.exists()


def test_the_long_at_most_one_allows_exactly_what_it_should():
    """Counting, as for every encoding: for each assignment of n literals, the clauses are
    satisfiable (auxiliaries free) exactly when at most one literal is true."""
    import itertools
    from pysat.formula import IDPool
    from pysat.solvers import Solver
    from puzzleplan.encodings.lower import sequential_amo
    for n in range(2, 9):
        lits = list(range(1, n + 1))
        clauses = sequential_amo(lits, IDPool(start_from=n + 1))
        assert len(clauses) == 3 * n - 4
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            for values in itertools.product([False, True], repeat=n):
                assumptions = [v if on else -v for v, on in zip(lits, values)]
                assert s.solve(assumptions=assumptions) == (sum(values) <= 1), (n, values)


# --- memory: the limit a bench run really has -------------------------------------------------

@pytest.mark.heavy
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


def test_the_least_memory_accepted_runs_every_method_and_the_help_says_it():
    """--memory's least value is one a small puzzle fits in by any method (64 MiB, the least
    before, was a memout on every command; CP-SAT needs about 300)."""
    least = str(limits.MIN_MEMORY_MB)
    for args in (["solve"], ["solve", "-b", "cpsat"], ["solve", "-b", "pysat-de:glucose42+cadical195"], ["search"]):
        done = subprocess.run(PUZZLEPLAN + args + [GUARINI, "--memory", least, "--json"], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0 and json.loads(done.stdout)["status"] == "optimal", (args, done.stderr[-800:])
    for command in ("solve", "search", "export", "bench"):
        assert f"at least {least}" in " ".join(run(command, "--help").output.split()), command
        one_error(run_unchecked(command, GUARINI, "--memory", str(limits.MIN_MEMORY_MB - 1)), "--memory")


def test_a_memout_names_the_cap_asked_for_under_a_higher_shell_limit(tmp_path):
    """The memout is reported once the command's cap is lifted: the limit then in force is the
    shell's (``ulimit -v``), which the run never had.  300 x 300 cells: the search's frontier
    fills 512 MiB within seconds.  (A 1000 x 1000 board's export filled it while the rules were
    built, where a memout can leave CPython spinning as it unwinds: one run in six hung.)"""
    n = 300
    board = tmp_path / "wide.slide"
    board.write_text("board:\nAB" + "." * (n - 2) + ("\n" + "." * n) * (n - 1) + "\n\ngoal:\n"
                     + ("." * n + "\n") * (n - 1) + "." * (n - 1) + "A\n")
    shell = 8000 * 1024 * 1024

    def limit():        # as `ulimit -v 8192000` in a shell
        resource.setrlimit(resource.RLIMIT_AS, (shell, shell))

    done = subprocess.run(PUZZLEPLAN + ["search", str(board), "-m", "slides", "--memory", "512", "--time-limit", "120"],
                          capture_output=True, text=True, timeout=180, preexec_fn=limit)
    assert done.returncode == 5, (done.returncode, done.stderr[-800:])
    assert "memory limit reached (512 MiB; more with --memory)" in done.stdout, done.stdout[-800:]


def test_the_cap_of_a_memout_is_said_and_forgotten_after_a_run_that_fit():
    before = resource.getrlimit(resource.RLIMIT_AS)
    shell = 1 << 40 if before[1] == resource.RLIM_INFINITY else min(1 << 40, before[1])     # a shell's, 1 TiB
    try:
        resource.setrlimit(resource.RLIMIT_AS, (shell, before[1]))
        with pytest.raises(MemoryError):
            with limits.memory_limit(100_000):
                raise MemoryError
        assert "(100,000 MiB; more with --memory)" in limits.memout_message()
        with limits.memory_limit(90_000):
            pass
        assert f"({shell >> 20:,} MiB;" in limits.memout_message()
    finally:
        resource.setrlimit(resource.RLIMIT_AS, before)


@pytest.mark.parametrize("mib", [100, 160, 220])
def test_a_limit_reached_while_cp_sat_loads_is_a_memout(mib):
    """OR-Tools and numpy load only when CP-SAT is asked for: a limit they do not fit in (a
    shell's, below --memory) was an ImportError ("failed to map segment"), numpy's OpenBLAS
    ending the process ("Memory allocation still failed", exit code 1) or a thread that could
    not start; each is a memout, with what was proved."""
    def limit():        # as `ulimit -S -v` in a shell
        resource.setrlimit(resource.RLIMIT_AS, (mib << 20, resource.getrlimit(resource.RLIMIT_AS)[1]))

    done = subprocess.run(PUZZLEPLAN + ["solve", GUARINI, "-b", "cpsat", "--json"], capture_output=True, text=True,
                          timeout=120, preexec_fn=limit)
    assert "Traceback" not in done.stderr and "OpenBLAS" not in done.stderr, done.stderr[-800:]
    assert done.returncode == 5, (done.returncode, done.stderr[-800:])
    doc = json.loads(done.stdout)
    assert doc["status"] == "memout" and f"({mib} MiB; more with --memory)" in doc["message"], doc


def test_a_bench_run_whose_cp_sat_does_not_load_is_a_memout(tmp_path):
    from puzzleplan.bench.run import Task, bench
    out = tmp_path / "r.jsonl"
    bench([Task(GUARINI, None, "steps", "cpsat"), Task(GUARINI, None, "steps", "cpsat-horizons")], out, 60,
          memory_mb=160, echo=lambda line: None)
    rows = [json.loads(line) for line in open(out)]
    assert [r["status"] for r in rows] == ["memout", "memout"], rows


def test_a_library_that_cannot_be_mapped_is_told_from_one_that_is_missing():
    mapped = ImportError("libortools.so.9: failed to map segment from shared object")
    numpy = ImportError("IMPORTANT: PLEASE READ THIS ...")
    numpy.__cause__ = ImportError("libscipy_openblas64_.so: cannot allocate memory")
    assert limits.out_of_memory(mapped) and limits.out_of_memory(numpy)
    assert not limits.out_of_memory(ImportError("No module named 'ortools'"))


def test_only_the_first_run_of_a_command_counts_from_the_process_start():
    """`seeds` solves many puzzles in one process: the second solve's limit counts from its own
    start (counted from the process's, every SAT run after the first answered timeout in 0 s)."""
    import time
    from puzzleplan import limits
    try:
        limits.start_run(time.monotonic() - 100)       # a process that started 100 s ago
        with limits.time_limit(5):
            assert limits.left() < -90                  # counted from the process's start
        with limits.time_limit(5):
            assert limits.left() > 4                    # a fresh 5 s
    finally:
        limits._run_start = None


@pytest.mark.heavy
def test_seeds_gives_every_sat_run_its_own_time_limit():
    """The main job, as a user runs it (a process of its own, its limit counted from its start)."""
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "seeds", "--time-limit", "8", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-500:]
    rows = json.loads(proc.stdout)
    late = [r for r in rows if r["sat"] is not None and r["sat"]["status"] == "timeout" and r["sat_seconds"] < 1]
    assert not late, late
    assert sum(1 for r in rows if r["sat"] and r["sat"]["status"] == "optimal") >= 4


def test_the_deepening_stops_at_the_states_the_rules_can_reach(write):
    """Three pieces on a 2 x 2 board keep their cyclic order: A and B never swap.  Without the
    enumeration, the deepening stops at the rules' bound on the states (4 anchors for each of 3
    pieces: 64 placements) with unsolvable, instead of marching on to horizon 1000."""
    path = write("cycle.slide", "board:\nAB\nC.\ngoal:\nBA\nC.\n")
    result = solve(load(path).problem, "steps")
    assert result.status is Status.UNSOLVABLE and result.bound == 63, (result.status, result.bound)
    assert "at most 64 states" in result.proof


def test_the_states_bound_is_never_below_the_states_reached():
    """The bound is sound: on random small boards (mixed polyominoes, walls, cars) and the seeds,
    the states reached are at most the bound (a bound below them would claim unsolvable wrongly)."""
    import random
    import families_gen as generate
    rng = random.Random(7)
    boards = [generate.sliding(rng, 3, 3, pieces=rng.randint(2, 5), rush=rng.random() < 0.3) for _ in range(40)]
    boards += [load(INSTANCES / path).rules for path in ["seeds/klotski_seed000.slide",
                                                          "seeds/rushhour_card40_bmodel_v2.rh"]]
    for domain in boards:
        figures = explore(domain, "steps")
        assert figures["complete"] and figures["reachable"] <= domain.state_bound(), domain.board()


@pytest.mark.parametrize("backend", ["cpsat", "cpsat-horizons"])
def test_a_horizon_reached_with_no_time_left_still_has_its_row(backend, monkeypatch):
    """CP-SAT asked a horizon when the time limit is already spent: a timeout whose row says what was
    built (the progress line printed it from a row with no sizes: a KeyError found by the fuzzer)."""
    from puzzleplan.cli.solving import horizon_line
    lines = []
    monkeypatch.setattr(limits, "left", lambda: 0.0)
    result = solve(load(INSTANCES / "sliding/eight_puzzle.slide"), "steps", backend, time_limit=100,
                   progress=lambda row: lines.append(horizon_line(row)))
    assert result.status is Status.TIMEOUT and result.steps is None
    assert lines and all("vars" in line and line.endswith("timeout") for line in lines), lines
