"""The method conformance matrix, made from the two registries: every search method and every
per-horizon SAT backend that runs here (:func:`puzzleplan.methods.backends`, entry points of
other installed packages included) on small generated instances of every family (those breadth-first search solves),
in each of the family's metrics, against its optimum; and each stops at once on a time limit
already spent.  A new method or family is tested here with no edit of this file."""
import functools
import random

import pytest

from puzzleplan import methods, registry
from puzzleplan.puzzle import Status

FAMILIES = registry.all_families()
MATRIX = [m for m in methods.names(methods.SEARCH) if m != "bfs"] + methods.backends()

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
    if methods.parse(spec)[0].kind == methods.SAT and not family.encoders:
        pytest.skip(f"{family.name} has no SAT encoding")
    cases = solved(family.name)
    assert cases, f"no generated {family.name} instance is solvable"
    for seed, rules, metric, length in cases:
        if methods.parse(spec)[0].kind == methods.SAT and metric not in family.encoders:
            continue
        got = methods.run(spec, rules, metric, 120)
        where = (family.name, seed, metric, spec)
        assert got.status is Status.OPTIMAL and got.length == length, (where, got.status, got.length, length, got.message)


@pytest.mark.parametrize("spec", methods.backends())
def test_every_backend_stops_on_a_spent_time_limit(spec):
    rules = solved("sliding")[0][1]
    result = methods.run(spec, rules, None, 1e-9)
    assert result.status in (Status.TIMEOUT, Status.OPTIMAL, Status.UNSOLVABLE), result
