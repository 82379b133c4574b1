"""SAT and CP-SAT optima equal BFS optima on many generated instances; every plan
replays; encodings have exactly the domain's transitions."""
import random

import pytest

from conftest import INSTANCES, catalogue
import families_gen as generate
from puzzleplan import methods
from puzzleplan.kit import freeze, successors_by_sat
from puzzleplan.registry import problem as problem_of
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

# the registry's per-horizon backends that run here, and python-sat's other default solver
BACKENDS = methods.backends() + ["pysat:cadical195"]
MAX = 14


def agree(domain, metric, backend):
    ref = breadth_first_search(domain, metric)
    if ref.status is Status.UNSOLVABLE or ref.length > MAX:
        bound = MAX if ref.status is Status.UNSOLVABLE else ref.length - 1
        got = solve(domain, metric, backend, max_horizon=bound)
        assert got.status is Status.NO_PLAN_WITHIN and got.bound == bound
        return None
    got = solve(domain, metric, backend)
    assert got.status is Status.OPTIMAL, got
    assert got.length == ref.length
    assert check_plan(domain, got.steps, metric)["solved"]
    return got.length


def cases(make, count, seed):
    rng = random.Random(seed)
    return [make(rng) for _ in range(count)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("metric", ["steps", "slides", "moves"])
def test_sliding_random(backend, metric):
    lengths = [agree(d, metric, backend) for d in cases(generate.sliding, 12, 1)]
    assert sum(x is not None for x in lengths) >= 6     # most instances are solvable


@pytest.mark.parametrize("backend", BACKENDS)
def test_rush_hour_like_random(backend):
    make = lambda rng: generate.sliding(rng, 5, 4, pieces=5, walls=0, rush=True)
    for metric in ("steps", "slides", "moves"):
        lengths = [agree(d, metric, backend) for d in cases(make, 8, 2)]
        assert any(lengths)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("closed", [True, False])
def test_sokoban_random(backend, closed):
    make = lambda rng: generate.sokoban(rng, 4, 3, boxes=1 + rng.random().__lt__(0.4), closed=closed)
    lengths = [agree(d, "moves", backend) for d in cases(make, 10, 3 + closed)]
    assert any(lengths)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("closed", [True, False])
def test_sokoban_pushes_random(backend, closed):
    make = lambda rng: generate.sokoban(rng, 4, 4, boxes=2, closed=closed)
    lengths = [agree(d, "pushes", backend) for d in cases(make, 10, 7 + closed)]
    assert any(lengths)


@pytest.mark.parametrize("backend", BACKENDS)
def test_knights_random(backend):
    make = lambda rng: generate.knights(rng, 3, 4, n=rng.choice([2, 4]), holes=2)
    assert any(agree(d, "steps", backend) for d in cases(make, 10, 5))


@pytest.mark.parametrize("backend", BACKENDS)
def test_knights_with_move_counts_random(backend):
    make = lambda rng: problem_of(generate.knights(rng, 3, 3, n=2, holes=1, counted=True))
    assert any(agree(d, "steps", backend) for d in cases(make, 10, 6))


@pytest.mark.parametrize("seed", range(6))
def test_encodings_have_exactly_the_domain_transitions(seed):
    rng = random.Random(100 + seed)
    moving = 0
    for domain, metric in [(generate.sliding(rng), "steps"), (generate.sliding(rng), "slides"),
                           (generate.sliding(rng), "moves"), (generate.sliding(rng, 4, 4, 3, 1), "moves"),
                           (generate.sliding(rng, 5, 4, 5, 0, rush=True), "steps"),
                           (generate.sokoban(rng, 4, 3, 2, closed=bool(seed % 2)), "moves"),
                           (generate.sokoban(rng, 4, 4, 2, closed=bool(seed % 2)), "pushes"),
                           (generate.knights(rng, 3, 4, 4, 2), "steps")]:
        expected = {freeze(domain.replay(domain.render_steps([move])).history[-1])
                    for move, _ in domain.successors(domain.initial, metric)}
        states, positions = successors_by_sat(domain, metric)
        assert positions == expected
        assert len(states) == len({nxt for _, nxt in domain.successors(domain.initial, metric)})
        moving += bool(expected)
    assert moving >= 6          # most instances have moves (an empty set on both sides tests little)


@pytest.mark.heavy
def test_seed_rush_hour_both_metrics():
    d = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    r = solve(d, "slides", "pysat")
    assert r.status is Status.OPTIMAL and r.length == 51


def test_seed_knights_by_sat():
    d = load(INSTANCES / "seeds/knights_seed003.knights").rules
    r = solve(d, "steps", "pysat")
    assert r.status is Status.OPTIMAL and r.length == 13
    assert sorted(d.replay(r.steps).moved[-1].values()) == [5, 8]


def test_guarini_by_cpsat():
    r = solve(load(INSTANCES / "knights/guarini.knights").problem, "steps", "cpsat")
    assert r.status is Status.OPTIMAL and r.length == 16


def test_microban_moves_by_sat_match_search():
    for level in (1, 2, 4):
        d = load(INSTANCES / "sokoban/Microban.txt", level).problem
        assert solve(d, "moves").length == breadth_first_search(d, "moves").length


@pytest.mark.parametrize("level", [1, 3, 6, 8, 10, 13, 19, 20])
def test_microban_push_optimal_by_sat(level):
    rows = {int(r["level"]): int(r["optimum"]) for r in catalogue() if r["domain"] == "sokoban"}
    r = solve(load(INSTANCES / "sokoban/Microban.txt", level).problem, "pushes")
    assert r.status is Status.OPTIMAL and r.length == rows[level]


@pytest.mark.slow
def test_microban_1_to_20_push_optimal_by_sat():
    rows = {int(r["level"]): int(r["optimum"]) for r in catalogue() if r["domain"] == "sokoban"}
    for level, optimum in rows.items():
        r = solve(load(INSTANCES / "sokoban/Microban.txt", level).problem, "pushes")
        assert r.status is Status.OPTIMAL and r.length == optimum, level


def test_doubling_schedule_reports_feasible_or_optimal_honestly():
    d = load(INSTANCES / "knights/guarini.knights").problem
    r = solve(d, "steps", optimal=False)
    refuted = max(h["horizon"] for h in r.horizons if h["result"] == "unsat")
    assert r.length == 16 and [h["horizon"] for h in r.horizons if h["result"] == "sat"] == [16]
    if refuted == 15:
        assert r.status is Status.OPTIMAL and r.proof == "horizon 15 refuted"
    else:
        assert r.status is Status.FEASIBLE and r.bound == refuted < 15


def test_time_limit_gives_timeout_with_bound():
    d = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    r = solve(d, "steps", "pysat", time_limit=0.5, first_plan=False)
    assert r.status is Status.TIMEOUT and r.bound is not None and r.bound < 81 and r.steps is None


def test_a_first_plan_at_the_time_limit_is_feasible_with_the_bound_beside_it():
    d = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    r = solve(d, "steps", "pysat", time_limit=30, gap=50)       # stops at the first plan within 50 %
    assert r.status is Status.FEASIBLE and r.steps is not None and r.length >= 81
    assert r.bound is not None and r.bound < 81 and check_plan(d, r.steps, "steps")["solved"]


@pytest.mark.slow
def test_seed_rush_hour_steps_81():
    d = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    r = solve(d, "steps", "pysat")
    assert r.status is Status.OPTIMAL and r.length == 81


def test_cpsat_time_limit_keeps_a_proven_bound():
    d = load(INSTANCES / "rushhour/thinkfun40.rh", 40).problem       # 51 slides
    r = solve(d, "slides", "cpsat", time_limit=3)
    assert r.status in (Status.TIMEOUT, Status.FEASIBLE, Status.OPTIMAL)
    if r.status is Status.OPTIMAL:
        assert r.length == 51
    else:
        assert r.bound is not None and r.bound <= 50
    if r.steps:
        assert check_plan(d, r.steps, "slides")["solved"] and r.length >= 51


@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_fast_mode_plans_replay_and_claim_optimal_only_when_proved(backend):
    for seed in range(6):
        d = generate.sliding(random.Random(seed))
        ref = breadth_first_search(d, "steps")
        if ref.status is not Status.OPTIMAL:
            continue
        r = solve(d, "steps", backend, optimal=False)
        assert check_plan(d, r.steps, "steps")["solved"] and r.length >= ref.length
        if r.status is Status.OPTIMAL:
            assert r.length == ref.length
        else:
            assert r.status is Status.FEASIBLE and r.bound < ref.length


@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_a_high_start_horizon_finds_a_plan_but_proves_only_what_it_refuted(backend):
    d = load(INSTANCES / "rushhour/thinkfun40.rh", 1).rules       # 8 slides
    r = solve(d, "slides", backend, optimal=False, start_horizon=20)
    assert check_plan(d, r.steps, "slides")["solved"] and 8 <= r.length <= 20
    lower = d.heuristic(d.initial, "slides")
    assert lower < 8 and r.status is Status.FEASIBLE and r.bound == lower - 1
    with pytest.raises(PuzzleError, match="start horizon"):
        solve(d, "slides", backend, start_horizon=50, max_horizon=40)
