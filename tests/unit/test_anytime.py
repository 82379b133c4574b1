"""Anytime planning: the best plan so far never grows and is replayed; probes keep every optimum;
``--gap`` stops within the gap asked (0: at the optimum, as without it); a run stopped midway
reports both bounds.  Budgets are counted in conflicts (``PROBE_AFTER`` set to 0 here makes
the probes start at once), never in seconds."""
import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from families_gen import FAMILIES, instances
from puzzleplan.cli import main
from puzzleplan.formats.load import load
from puzzleplan.planner import anytime, deepening, solve
from puzzleplan.puzzle import Outcome, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

pytestmark = pytest.mark.smoke

EIGHT = INSTANCES / "sliding/eight_puzzle.slide"
KNIGHTS = INSTANCES / "seeds/knights_seed003.knights"
CARD40 = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"


@pytest.fixture
def probing_at_once(monkeypatch):
    monkeypatch.setattr(deepening, "PROBE_AFTER", 0)


def test_the_incumbent_never_grows():
    best = anytime.Incumbent()
    kept = [best.offer(["x"] * n, n, f"plan {n}") for n in (30, 35, 30, 24, 28, 20)]
    assert kept == [True, False, False, True, False, True]
    assert best.length == 20 and [n for n, _ in best.history] == [30, 24, 20]


def test_the_gap_is_in_per_cent_of_the_plan():
    assert anytime.gap(None, 3) is None
    assert anytime.gap(20, 15) == 25.0 and anytime.gap(16, 16) == 0.0 and anytime.gap(0, 0) == 0.0


def test_a_loop_is_cut_out_and_the_plan_still_replays():
    """A step and its way back put in front of an optimal plan: the shortened plan is the
    optimal one again, checked by replay."""
    problem = load(EIGHT).problem
    rules = problem.rules
    optimal = solve(load(EIGHT), "steps")
    move, there = next(iter(rules.successors(rules.initial, "steps")))
    back = next(m for m, s in rules.successors(there, "steps") if s == rules.initial)
    looped = rules.render_steps([move, back]) + optimal.steps
    assert check_plan(problem, looped, "steps")["solved"]
    steps, length = anytime.shortened(problem, looped, len(looped), "steps")
    assert length == optimal.length and check_plan(problem, steps, "steps")["solved"]


@pytest.mark.parametrize("path", [EIGHT, KNIGHTS], ids=["eight", "knights"])
def test_probes_find_plans_that_only_shrink_and_keep_the_optimum(path, probing_at_once, monkeypatch):
    from puzzleplan.families.sliding.rules import SlidingPuzzle
    monkeypatch.setattr(SlidingPuzzle, "patterns", False)   # the tables' bound is the 8-puzzle's optimum: no
    plain = solve(load(path), "steps")
    probed = solve(load(path), "steps", probes=True)
    assert plain.status is probed.status is Status.OPTIMAL and probed.length == plain.length
    found = [row["length"] for row in probed.stats["improvements"]]
    assert found == sorted(found, reverse=True) and len(set(found)) == len(found)
    assert any(row["result"] == "sat" for row in probed.stats["probes"])       # a plan came from a probe
    assert check_plan(load(path).problem, probed.steps, "steps")["solved"]


def test_a_gap_of_100_stops_at_the_first_plan_with_both_bounds(probing_at_once):
    result = solve(load(KNIGHTS), "steps", probes=True, gap=100)
    assert result.status is Status.FEASIBLE and result.steps is not None
    assert result.stats["upper"] == result.length and result.stats["optimum_at_least"] == result.bound + 1
    assert result.stats["gap"] == anytime.gap(result.length, result.bound + 1)
    assert check_plan(load(KNIGHTS).problem, result.steps, "steps")["solved"]


def test_a_gap_of_0_is_the_optimum_as_without_it(probing_at_once):
    plain = solve(load(EIGHT), "steps")
    for probes in (False, True):
        zero = solve(load(EIGHT), "steps", probes=probes, gap=0)
        assert zero.status is Status.OPTIMAL and zero.length == plain.length


def test_stopped_midway_with_a_plan_both_bounds_are_reported(probing_at_once):
    """Ctrl-C on the first horizon row after a plan is in hand (raised from the progress
    callback, where a real Ctrl-C lands between two solver slices)."""
    def progress(row):
        if row.get("upper") is not None:
            raise KeyboardInterrupt
    result = solve(load(KNIGHTS), "steps", probes=True, progress=progress)
    assert result.status is Status.FEASIBLE and result.message == "interrupted"
    assert result.outcome is Outcome.INTERRUPTED        # the command exits 130 with the plan printed
    assert result.bound is not None and result.stats["optimum_at_least"] == result.bound + 1
    assert result.stats["upper"] == result.length and result.stats["gap"] > 0
    assert check_plan(load(KNIGHTS).problem, result.steps, "steps")["solved"]


def test_solve_prints_the_plan_the_lower_bound_and_the_gap():
    """``--fast`` stops at its first plan: ``feasible N, optimum >= M (gap G %)`` and the same
    in the JSON, whose plan replays."""
    args = ["solve", str(CARD40), "--fast", "--gap", "100"]
    text = CliRunner().invoke(main, args + ["-q"])
    doc = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    assert doc["status"] == "feasible" and doc["upper"] == doc["length"]
    assert doc["optimum_at_least"] == doc["bound"] + 1 and doc["gap"] == anytime.gap(doc["length"], doc["bound"] + 1)
    first = text.output.splitlines()[0]
    assert first.startswith("feasible: ") and f"{doc['length']} steps" in first
    assert f"optimum >= {doc['optimum_at_least']} (gap {doc['gap']} %)" in first
    assert check_plan(load(CARD40).problem, doc["steps"], "steps")["solved"]


SERIES = [(f, m) for f in FAMILIES for m in f.encoders]


@pytest.mark.parametrize("family,metric", SERIES, ids=[f"{f.name}-{m}" for f, m in SERIES])
def test_probes_on_generated_series_keep_the_bfs_optimum(family, metric, probing_at_once):
    """Probes from the first conflict, every answer against breadth-first search: an optimum is
    the same, never a plan longer than one found before, every plan replayed."""
    for problem in instances(family, 3, seed=5):
        bfs = breadth_first_search(problem, metric)
        got = solve(problem, metric, probes=True, enumerate_first=True)     # a tiny space without a goal: at once
        if bfs.status is Status.UNSOLVABLE:
            assert got.status is Status.UNSOLVABLE and got.steps is None, got.status
            continue
        assert got.status is Status.OPTIMAL and got.length == bfs.length, (got.status, got.length, bfs.length)
        assert check_plan(problem, got.steps, metric)["solved"]
        found = [row["length"] for row in got.stats.get("improvements", [])]
        assert found == sorted(found, reverse=True)
