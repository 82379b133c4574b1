"""Side constraints: SAT and search agree; plans satisfy them by independent replay."""
import random

import pytest

from conftest import INSTANCES
from puzzleplan import generate
from puzzleplan.constraints import Counted
from puzzleplan.domains.knights import Knights
from puzzleplan.domains.sliding import SlidingPuzzle
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import IllegalStep, MoveCount, PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan


@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_random_sliding_with_counts_and_avoided_cells(backend):
    rng = random.Random(11)
    compared = 0
    for _ in range(25):
        base = generate.sliding(rng)
        label = rng.choice(list(base.spec.pieces))
        free = sorted({(x, y) for x in range(base.spec.width) for y in range(base.spec.height)}
                      - base.spec.walls - set().union(*base.spec.pieces.values()))
        count = MoveCount(label, rng.choice([">=", "<=", "=="]), rng.randint(0, 3))
        try:
            d = Counted(SlidingPuzzle(base.spec, [label], {label: {rng.choice(free)}}), [count])
        except PuzzleError:     # the avoided cell is part of the goal: rejected, as it should be
            continue
        ref = breadth_first_search(d, "steps")
        if ref.status is Status.UNSOLVABLE or ref.length > 12:
            continue
        got = solve(d, "steps", backend)
        assert got.status is Status.OPTIMAL and got.length == ref.length
        assert check_plan(d, got.steps, "steps")["solved"]
        compared += 1
    assert compared >= 3


def test_rush_hour_card_40_red_car_at_least_3_and_frozen_car():
    path = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"
    assert breadth_first_search(load(path, constraints=["A.moves>=3"]).domain, "slides").length == 51
    frozen = load(path, constraints=["A.moves>=3", "B.frozen"]).domain
    assert breadth_first_search(frozen, "slides").status is Status.UNSOLVABLE
    assert solve(frozen, "slides", max_horizon=12).status is Status.NO_PLAN_WITHIN


def test_avoid_is_checked_by_replay():
    d = load(INSTANCES / "seeds/klotski_seed000.slide", constraints=["g.avoid=b5"]).domain
    with pytest.raises(IllegalStep, match="may not enter"):
        d.replay(["gR"])


def test_knights_avoid_square_agrees():
    d = load(INSTANCES / "knights/guarini.knights", constraints=["*.avoid=b3"]).domain
    assert isinstance(d, Knights)
    ref = breadth_first_search(d)
    got = solve(d, "steps", max_horizon=ref.length if ref.length else 20)
    assert ref.status is got.status or (ref.status is Status.UNSOLVABLE and got.status is Status.NO_PLAN_WITHIN)


def test_microban_level_with_a_forbidden_cell():
    d = load(INSTANCES / "sokoban/Microban.txt", 2, constraints=["player.avoid=b5"]).domain
    ref = breadth_first_search(d, "pushes")
    got = solve(d, "pushes")
    assert ref.length == got.length and got.status is Status.OPTIMAL
    assert check_plan(d, got.steps, "pushes")["solved"]
