"""Limits are a property of the machinery, not of each loop: every family's rules, lower bound
and encoder, on a huge instance of its own generator, keep to a short time limit through every
method -- the family wrote no checkpoint for it.  And through the command line, the boards that
used to overrun it (a 300 x 300 peg solitaire board, a 100 x 100 grid task in PDDL)."""
import random
import subprocess
import sys
import time

import pytest

from conftest import ROOT, need
from puzzleplan.plugins import DEFAULT_SAT
from puzzleplan import limits, methods, registry

LIMIT = 3.0
SLACK = max(0.1 * LIMIT, 1.0)       # the limit holds within max(10%, 1 s)
FAMILIES = registry.all_families()


def huge(family):
    """The family's huge instance, built under the limit (None: building it took the whole limit)."""
    t0 = time.monotonic()
    try:
        with limits.time_limit(LIMIT), limits.preemptive():
            rules = family.part("generate")(random.Random(7), size="huge")
    except limits.TimeUp:
        rules = None
    assert time.monotonic() - t0 <= LIMIT + SLACK
    return rules


@pytest.mark.timing
@pytest.mark.parametrize("spec", methods.matrix(methods.SEARCH, here=False) + [DEFAULT_SAT, "cpsat"]
                         + methods.matrix(methods.PLANNER, here=False))
@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_a_huge_instance_keeps_the_time_limit_with_every_method(family, spec):
    need(spec)
    rules = huge(family)
    if rules is None:
        return          # its rules alone take longer than the limit: stopped in time, as checked
    why = methods.refusal(spec, rules)
    if why:
        pytest.skip(f"{spec}: {why}")
    t0 = time.monotonic()
    result = methods.run(spec, rules, None, LIMIT)
    elapsed = time.monotonic() - t0
    assert elapsed <= LIMIT + SLACK, (family.name, spec, result.status, elapsed)
    # no_plan_within: a lower bound past the largest horizon (peg solitaire's huge board: 89,998)
    # answers at once, where building the board leaves the run its time
    assert result.status.value in ("timeout", "optimal", "unsolvable", "feasible", "no_plan_within"), result
    if result.status.value == "no_plan_within":
        assert result.lower_bound is not None and result.lower_bound > result.bound


def peg_board(n: int) -> str:
    rows = ["o" * n for _ in range(n)]
    rows[n // 2] = rows[n // 2][:n // 2] + "." + rows[n // 2][n // 2 + 1:]
    return "board:\n" + "\n".join(rows) + "\ngoal: one peg\n"


GRID_DOMAIN = """(define (domain grid) (:requirements :strips)
 (:predicates (at ?c) (adj ?a ?b))
 (:action move :parameters (?a ?b) :precondition (and (at ?a) (adj ?a ?b))
  :effect (and (at ?b) (not (at ?a)))))"""


def grid_problem(n: int) -> str:
    cells = [f"c{x}-{y}" for x in range(n) for y in range(n)]
    adj = [f"(adj c{x}-{y} c{x + dx}-{y + dy})" for x in range(n) for y in range(n)
           for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= x + dx < n and 0 <= y + dy < n]
    return (f"(define (problem g) (:domain grid) (:objects {' '.join(cells)}) (:init (at c0-0) {' '.join(adj)}) "
            f"(:goal (at c{n - 1}-{n - 1})))")


@pytest.mark.timing
@pytest.mark.parametrize("backend", ["pysat-de", "cpsat", "pysat-de:glucose42+cadical195", "external:cadical",
                                     "abc:pdr"])
@pytest.mark.parametrize("board", ["peg", "grid"])
def test_the_boards_that_overran_the_limit_keep_it(tmp_path, board, backend):
    if board == "peg":
        path = tmp_path / "big.peg"
        path.write_text(peg_board(300))
    else:
        (tmp_path / "domain.pddl").write_text(GRID_DOMAIN)
        path = tmp_path / "grid.pddl"
        path.write_text(grid_problem(100))
    limit = 5.0
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", str(path), "-b", backend, "-q",
                           "--time-limit", str(limit)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    elapsed = time.monotonic() - t0
    assert proc.returncode == 0 and proc.stdout.startswith(("timeout", "feasible", "optimal")), proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert elapsed <= limit + max(0.1 * limit, 1.0) + 1.0, elapsed      # + the interpreter's start-up


def test_an_alarm_while_a_preemptive_block_is_left_does_not_disarm_later_blocks(monkeypatch):
    """The deadline can ring while the block is being left (a loaded machine makes it likely):
    the teardown is finished all the same, and the next block under a deadline is preempted."""
    real = limits.signal.setitimer
    rang = []

    def ring_once_while_disarming(which, seconds, *rest):
        if seconds == 0 and not rang:
            rang.append(True)
            raise limits.TimeUp()
        return real(which, seconds, *rest)

    monkeypatch.setattr(limits.signal, "setitimer", ring_once_while_disarming)
    with limits.time_limit(60):
        with limits.preemptive():
            pass
    assert rang
    monkeypatch.setattr(limits.signal, "setitimer", real)
    t0 = time.monotonic()
    with pytest.raises(limits.TimeUp):
        with limits.time_limit(0.3), limits.preemptive():
            while True:         # no checkpoint: only the alarm can stop this
                pass
    assert time.monotonic() - t0 < 30
