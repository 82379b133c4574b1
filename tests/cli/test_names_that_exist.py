"""Names the tool accepts are names that exist: python-sat solvers that serve an incremental run
here (and every name each answers to), action patterns that match an action, conditions that
name a piece, baselines that ran, car letters in ASCII.  A name that does not exist is one line
(exit 2) listing what does."""
import subprocess
import sys

import pytest

from conftest import INSTANCES, ROOT
from puzzleplan.planner.backends.pysat_solvers import _kinds, solver_names

CARDS = INSTANCES / "rushhour/thinkfun40.rh"
PDDL = INSTANCES / "pddl/p01.pddl"


def run(*args):
    return subprocess.run([sys.executable, "-m", "puzzleplan.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def one_line_error(proc, *words):
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("puzzleplan: error:") and all(w in line for w in words), line


@pytest.mark.parametrize("name", ["lingeling", "lgl", "kissat404", "ks"])
def test_a_solver_python_sat_cannot_run_incrementally_is_refused_with_the_reason(name):
    one_line_error(run("solve", str(CARDS), "-l", "1", "-b", f"pysat-de:{name}"), "not incremental here",
                   "glucose42")


@pytest.mark.parametrize("name", ["minisatgh", "mgh", "minisat-gh", "msat-gh"])
def test_every_name_of_a_listed_solver_runs(name):
    proc = run("solve", str(CARDS), "-l", "1", "-m", "slides", "-b", f"pysat:{name}", "-q")
    assert proc.returncode == 0 and proc.stdout.startswith("optimal: pysat:") and ", 8 slides" in proc.stdout, proc


@pytest.mark.heavy
def test_the_listed_solvers_are_the_ones_that_work():
    listed = solver_names()
    assert "minisatgh" in listed and "glucose42" in listed and "cadical195" in listed
    assert "lingeling" not in listed and "kissat404" not in listed
    out = run("solvers").stdout
    assert ", ".join(n + (" (default)" if n == "glucose42" else "") for n in listed) in out
    for key in listed:       # every alias of a listed solver is accepted
        for alias in _kinds()[key]:
            assert run("solve", str(CARDS), "-l", "1", "-m", "slides", "-b", f"pysat:{alias}", "-q",
                       "--max-horizon", "3").returncode == 0, alias


@pytest.mark.parametrize("flag", [["--moves", "mvoe>=1"], ["--frozen", "mvoe"]])
def test_an_action_pattern_that_matches_nothing_is_refused_naming_the_schemas(flag):
    one_line_error(run("search", str(PDDL), *flag), "'mvoe' matches no action", "move, push-to-goal, push-to-nongoal")


def test_a_bench_whose_conditions_name_no_piece_is_refused_before_any_run(tmp_path):
    out = tmp_path / "b.csv"
    one_line_error(run("bench", str(CARDS), "--levels", "1-2", "--methods", "bfs", "--moves", "Z>=1", "-o", str(out),
                       "-q"), "unknown piece 'Z'")
    assert not out.exists()


def test_a_baseline_that_never_ran_is_refused_listing_the_methods(tmp_path):
    out = tmp_path / "b.csv"
    assert run("bench", str(CARDS), "--levels", "1", "--methods", "bfs", "-o", str(out), "-q").returncode == 0
    one_line_error(run("report", str(out), "--baseline", "nosuch"), "--baseline nosuch", "its methods: bfs")


def test_a_car_letter_outside_ascii_is_refused(tmp_path):
    board = "\u00c9" + "o" * 11 + "AA" + "o" * 22
    path = tmp_path / "e.rh"
    path.write_text(board + "\n")
    one_line_error(run("search", str(path)), "unknown character")
