"""A command's time limit is for the whole run, as the help says: the interpreter's start and the
imports count (a second and more on a loaded machine), and a run stopped while it was building a
huge board ends at once instead of freeing its millions of objects one by one past the limit."""
import subprocess
import sys
import time

import pytest

from puzzleplan import limits


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


def test_a_model_file_is_capped_by_the_formula_and_the_time_limit(tmp_path):
    """300 MB of '0' lines as a solver's model (under the 1 GiB answer cap): refused at once by
    the formula's size, not read into gigabytes past a 5 s limit."""
    from click.testing import CliRunner
    from puzzleplan.cli import main
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    runner = CliRunner()
    done = runner.invoke(main, ["export", str(puzzle), "-t", "3", "-o", str(tmp_path / "x.cnf")])
    assert done.exit_code == 0, done.output
    model = tmp_path / "model"
    with open(model, "wb") as fh:
        for _ in range(40):
            fh.write(b"0\n" * (2 ** 19))
    t0 = time.monotonic()
    done = runner.invoke(main, ["decode", str(puzzle), "--cnf", str(tmp_path / "x.cnf"), "--model", str(model),
                                "--time-limit", "5"])
    assert time.monotonic() - t0 < 5
    assert done.exit_code == 2 and "too big" in done.output, done.output
    values = tmp_path / "values"
    values.write_text("s SATISFIABLE\nv " + "1 " * 100000 + "0\n")
    done = runner.invoke(main, ["decode", str(puzzle), "--cnf", str(tmp_path / "x.cnf"), "--model", str(values)])
    assert done.exit_code == 2 and "more values than the formula has variables" in done.output, done.output


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


@pytest.mark.parametrize("command", ["export", "report"])
@pytest.mark.parametrize("target", ["missing", "folder"])
def test_an_output_folder_that_is_a_link_is_refused(tmp_path, command, target):
    """export --pddl DIR and report --plots DIR: a link as the folder (to nowhere: a traceback;
    to a folder: the files written through it) is refused in one line, nothing written."""
    import os
    from click.testing import CliRunner
    from puzzleplan.cli import main
    real = tmp_path / "real"
    if target == "folder":
        real.mkdir()
    os.symlink(real, tmp_path / "out")
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    if command == "export":
        args = ["export", str(puzzle), "--pddl", str(tmp_path / "out")]
    else:
        results = tmp_path / "r.csv"
        results.write_text("instance,level,method,metric,status,length,wall_s\nx,,bfs,moves,optimal,2,0.1\n")
        args = ["report", str(results), "--plots", str(tmp_path / "out")]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 2 and "symbolic link" in done.output, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert not real.exists() or not any(real.iterdir())


def test_an_external_solver_that_prints_without_end_is_stopped(tmp_path):
    """external:yes prints 'y' lines for ever: stopped once its output passes what a model of the
    formula takes, one line, not a gigabyte gathered in memory past the time limit."""
    import shutil
    from click.testing import CliRunner
    from puzzleplan.cli import main
    if not shutil.which("yes"):
        pytest.skip("no yes program")
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    t0 = time.monotonic()
    done = CliRunner().invoke(main, ["solve", str(puzzle), "-b", "external:yes", "--time-limit", "20", "-q"])
    assert time.monotonic() - t0 < 10
    assert done.exit_code == 2 and "printed more than" in done.output, done.output


def test_a_witness_of_millions_of_lines_is_refused_at_its_first_bad_step(tmp_path):
    """A witness of 20 million short lines (80 MB, under the answer cap): refused at its first
    step, not listed whole first (seconds past a 5 s limit, gigabytes, under load)."""
    from click.testing import CliRunner
    from puzzleplan.cli import main
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    runner = CliRunner()
    assert runner.invoke(main, ["export", str(puzzle), "-o", str(tmp_path / "x.aag")]).exit_code == 0
    witness = tmp_path / "w"
    with open(witness, "wb") as fh:
        fh.write(b"1\nb0\n")
        fh.write(b"000\n" * (20 * 2 ** 20))
    t0 = time.monotonic()
    done = runner.invoke(main, ["decode", str(puzzle), "--aiger", str(tmp_path / "x.aag"), "--witness", str(witness),
                                "--time-limit", "5"])
    assert time.monotonic() - t0 < 5
    assert done.exit_code == 3 and "refused" in done.output, done.output


def test_a_bomb_of_parentheses_is_refused_at_the_depth_cap_at_once(tmp_path):
    """60 MiB of '(' on one line (a 61 KB .pddl.gz): refused at the nesting cap as it is read,
    not first copied and split whole (seconds of C code past the limit, 750 MB)."""
    import gzip
    from puzzleplan.families.strips import source
    from puzzleplan.puzzle import PuzzleError
    text = "(" * (60 << 20)
    t0 = time.monotonic()
    with pytest.raises(PuzzleError, match="nested deeper"):
        source.parse(text, "bomb.pddl")
    assert time.monotonic() - t0 < 1.5


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
    run = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", "solve", str(problem), "--domain", str(domain), "-q"],
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
