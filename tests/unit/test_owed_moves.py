"""Moves owed by the counts fit in the steps left (``encodings.counts``), and the first horizon
asked before its lemmas (``lemmas.FirstProbe``): both keep SAT's optimum that of search."""
import random

import pytest

import families_gen as generate
from puzzleplan.registry import problem as problem_of
from puzzleplan.families.sliding.rules import SlidingPuzzle
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import MoveCount, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

# counts that ask for moves, overlapping on purpose: a move of B serves "B>=1" and "B+C>=2"
# at once, so owed moves may be summed only over counts whose pieces differ
CONDITIONS = [("B>=1", "C>=1", "D>=1"), ("B>=2", "C==1"), ("B>=1", "B+C>=2", "D>=1"),
              ("A+B>=3", "B>=2", "C>=1"), ("A==2", "B<=1", "C>=1")]


def counts(text):
    out = []
    for part in text:
        op = next(o for o in (">=", "<=", "==") if o in part)
        piece, k = part.split(op)
        out.append(MoveCount(piece, op, int(k)))
    return out


@pytest.mark.parametrize("backend,metric", [("pysat", "steps"), ("pysat-plain", "slides"), ("cpsat", "steps")])
def test_sat_equals_search_under_counts_that_ask_for_moves(backend, metric):
    rng = random.Random(5)
    compared = owed = 0
    for i in range(30):
        spec = generate.sliding(rng, 4, 3, 4, 1).spec
        wanted = CONDITIONS[i % len(CONDITIONS)]
        named = sorted({p for c in counts(wanted) for p in c.pieces})
        if not set(named) <= set(spec.pieces):
            continue
        d = problem_of(SlidingPuzzle(spec, named), counts(wanted))
        ref = breadth_first_search(d, metric)
        if ref.status is not Status.OPTIMAL or ref.length > 12:
            continue
        got = solve(d, metric, backend)
        assert got.status is Status.OPTIMAL and got.length == ref.length, (wanted, spec)
        assert all(row["horizon"] < ref.length for row in got.horizons if row["result"] == "unsat")
        assert check_plan(d, got.steps, metric)["solved"]
        compared += 1
        owed += got.stats.get("owed_cards", 0)
    assert compared >= 6 and (owed > 0 or backend == "cpsat")


BOARD = """board:
A.B.
....
C.D.
goal:
A...
....
....
constraints: {}
"""


def test_a_plan_as_long_as_its_counts_is_found_by_the_probe_without_lemmas(write):
    """Three pieces that must each move once, A to stay: the optimum is the counts' bound of
    3, so the first horizon is the answer, found before any lemma is sought."""
    path = write("each.slide", BOARD.format("B.moves>=1 C.moves>=1 D.moves>=1"))
    domain = load(path).problem
    ref = breadth_first_search(domain, "steps")
    got = solve(domain, "steps", "pysat")
    assert ref.length == got.length == 3 and got.status is Status.OPTIMAL
    assert got.stats["first_probe"] == "sat" and got.stats["lemma_calls"] == 0
    assert got.stats["owed_cards"] > 0


def test_a_probe_that_fails_leaves_the_lemmas_and_the_optimum_as_they_were():
    rng = random.Random(3)
    seen = set()
    for _ in range(60):
        if "sat" in seen and seen - {"sat"}:
            break
        d = generate.sliding(rng, 4, 3, 4, 1)
        ref = breadth_first_search(d, "steps")
        if ref.status is not Status.OPTIMAL or ref.length > 12:
            continue
        for backend in ("pysat-de", "pysat"):
            with_probe = solve(d, "steps", backend)
            without = solve(d, "steps", backend, first_probe=False)
            assert with_probe.length == without.length == ref.length
            assert "first_probe" not in without.stats
            seen.add(with_probe.stats["first_probe"])
    assert "sat" in seen and seen - {"sat"}      # both ways taken


def test_counts_sharing_a_piece_are_not_owed_twice(write):
    """B must move twice, and B and C together twice: two moves of B do both.  B can move only
    once A has left, so every 4-move plan starts with A; owing B's moves twice (4 owed after
    A's first move, 3 steps left) would refute the optimum."""
    path = write("shared.slide", "board:\nBA..\nC###\ngoal:\n...A\n....\n"
                                 "constraints: B.moves>=2 B+C.moves>=2\n")
    domain = load(path).problem
    assert breadth_first_search(domain, "steps").length == 4
    for backend in ("pysat", "pysat-plain", "cpsat"):
        got = solve(domain, "steps", backend)
        assert got.status is Status.OPTIMAL and got.length == 4, backend
        assert all(row["horizon"] < 4 for row in got.horizons if row["result"] == "unsat"), backend


@pytest.mark.heavy
def test_owed_moves_far_from_the_start(write):
    """The counters of owed moves are made step by step: a first horizon of 1,500 (or
    doubling to it) asks for them at every step at once, once a RecursionError."""
    path = write("far.slide", BOARD.format("B.moves>=1 C.moves>=1 D.moves>=1"))
    domain = load(path).problem
    got = solve(domain, "steps", "pysat-plain", start_horizon=1500, max_horizon=1500)
    assert got.status in (Status.FEASIBLE, Status.OPTIMAL) and check_plan(domain, got.steps, "steps")["solved"]
    assert got.stats["owed_cards"] > 0
