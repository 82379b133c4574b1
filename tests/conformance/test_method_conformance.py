"""The method conformance matrix, made from the two registries: every search method, every
per-horizon SAT backend that runs here (:func:`puzzleplan.methods.backends`, entry points of
other installed packages included) and every outside planner (heavy) on small generated
instances of every family (those breadth-first search solves),
in each of the family's metrics, against its optimum; and each stops at once on a time limit
already spent.  A new method or family is tested here with no edit of this file."""
import functools
import random

import pytest

from conftest import need
from puzzleplan import methods, registry
from puzzleplan.puzzle import Status

FAMILIES = registry.all_families()


def heavy_if_outside(spec: str):
    """An outside planner takes a second or more per case (its start-up, the translation)."""
    kind = methods.parse(spec)[0].kind
    return pytest.param(spec, marks=pytest.mark.heavy) if kind == methods.PLANNER else spec


MATRIX = ([m for m in methods.matrix(methods.SEARCH, here=False) if m != "bfs"] + methods.backends()
          + [heavy_if_outside(m) for m in methods.matrix(methods.PLANNER, here=False)])

@functools.lru_cache(maxsize=None)
def solved(name: str, wanted: int = 3) -> list:
    """The family's first ``wanted`` generated instances that breadth-first search solves,
    with their optimum in each metric: ``(seed, rules, metric, length)``."""
    family, out, seeds = registry.get(name), [], set()
    make = family.part("generate")
    for seed in range(50):
        rules = make(random.Random(seed))
        for metric in rules.metrics:
            reference = methods.run("bfs", rules, metric, 120)
            assert reference.status in (Status.OPTIMAL, Status.UNSOLVABLE), (name, seed, reference)
            if reference.status is Status.OPTIMAL:
                out.append((seed, rules, metric, reference.length))
                seeds.add(seed)
        if len(seeds) >= wanted:
            return out
    return out


@pytest.mark.parametrize("spec", MATRIX)
@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_every_method_finds_the_optimum_of_breadth_first_search(family, spec):
    need(spec)
    method = methods.build(spec)
    refused = {m: method.supports(family, m) for m in family.metrics}
    if all(refused.values()):
        pytest.skip(f"{spec} takes no metric of {family.name}: {refused}")
    cases = solved(family.name)
    assert cases, f"no generated {family.name} instance is solvable"
    for seed, rules, metric, length in cases:
        if refused[metric]:         # said before any run (Plugin.supports)
            continue
        got = methods.run(spec, rules, metric, 120)
        where = (family.name, seed, metric, spec)
        assert got.status is Status.OPTIMAL and got.length == length, (where, got.status, got.length, length, got.message)


@pytest.mark.parametrize("spec", methods.backends())
def test_every_backend_stops_on_a_spent_time_limit(spec):
    rules = solved("sliding")[0][1]
    result = methods.run(spec, rules, None, 1e-9)
    assert result.status in (Status.TIMEOUT, Status.OPTIMAL, Status.UNSOLVABLE), result


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_first_plans_from_the_first_conflict_keep_every_optimum(family, monkeypatch):
    """The first plans (greedy search, the parallel steps, windows re-solved) asked at once, not
    only on hard runs: every plan they offer replays, and the optimum is breadth-first search's,
    in each of the family's metrics."""
    from puzzleplan.planner import deepening, solve
    monkeypatch.setattr(deepening, "HARD_RUN", 0)
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    monkeypatch.setattr(deepening, "WINDOWS_AFTER", 0)
    tried = 0
    for seed, rules, metric, length in solved(family.name):
        if metric not in family.encoders:
            continue
        got = solve(registry.problem(rules, (), ()), metric, enumerate_first=False)
        assert got.status is Status.OPTIMAL and got.length == length, (family.name, seed, metric, got.status, got.length)
        tried += bool(got.stats.get("first_plans"))
    assert tried, "no run asked for a first plan"
