"""Reachability lemmas: each unit the planner adds is implied by the rules, and with
an unlimited budget they are exactly the facts' earliest steps found by search."""
import random
from collections import deque

import pytest

import families_gen as generate
from puzzleplan.encodings.model import BoolModel
from puzzleplan.planner import solve
from puzzleplan.planner.backends import make_backend
from puzzleplan.encodings import encoder_for
from puzzleplan.planner.lemmas import ReachabilityLemmas
from puzzleplan.puzzle import Status
from puzzleplan.families.sliding.rules import SlidingPuzzle
from puzzleplan.search import breadth_first_search

HORIZON = 10


def state_facts(domain, state):
    """The encoders' fact names that hold in a search state (sliding blocks, knights)."""
    names = {("at", k, a) for k, anchors in enumerate(state) for a in anchors}
    if isinstance(domain, SlidingPuzzle):
        covered = {c for k, anchors in enumerate(state) for a in anchors for c in domain.kinds[k].cells(a)}
        cells = [(x, y) for y in range(domain.spec.height) for x in range(domain.spec.width) if domain.inside((x, y))]
        names |= {("empty", c) for c in cells if c not in covered}
    return names


def earliest(domain, metric):
    """Each fact's first BFS depth."""
    depth = {domain.initial: 0}
    queue = deque([domain.initial])
    first = {}
    while queue:
        state = queue.popleft()
        for name in state_facts(domain, state):
            first.setdefault(name, depth[state])
        for _, nxt in domain.successors(state, metric):
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                queue.append(nxt)
    return first


def saturated(domain, metric, budget, backend="pysat"):
    enc = encoder_for(domain, metric)
    m = BoolModel()
    enc.start(m)
    lemmas = ReachabilityLemmas(enc, m, make_backend(backend, m), budget)
    assert lemmas.saturate(HORIZON)
    return enc, m, lemmas


CASES = [("steps", lambda rng: generate.sliding(rng)), ("slides", lambda rng: generate.sliding(rng)),
         ("moves", lambda rng: generate.sliding(rng, 4, 4, 3, 1)),
         ("steps", lambda rng: generate.sliding(rng, 5, 4, pieces=5, walls=0, rush=True)),
         ("steps", lambda rng: generate.knights(rng, 3, 4, n=rng.choice([2, 4]), holes=2))]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_units_are_exactly_the_earliest_steps_found_by_search(case):
    metric, make = CASES[case]
    rng = random.Random(40 + case)
    for _ in range(6):
        domain = make(rng)
        first = earliest(domain, metric)
        enc, m, lemmas = saturated(domain, metric, budget=10 ** 9)
        assert not lemmas.dropped
        for name in enc.facts(m, 0):
            # refuted up to the step before the first one search reaches it (or at every
            # step); step 0 needs no unit: the start fixes it
            want = min(first.get(name, HORIZON + 1), HORIZON + 1) - 1
            assert lemmas.refuted.get(name, 0) == max(want, 0), name


@pytest.mark.parametrize("case", range(len(CASES)))
def test_a_tiny_budget_drops_facts_but_every_unit_still_holds(case):
    metric, make = CASES[case]
    rng = random.Random(60 + case)
    dropped = units = 0
    for _ in range(4):
        domain = make(rng)
        first = earliest(domain, metric)
        _, _, lemmas = saturated(domain, metric, budget=1, backend="pysat:cadical195")   # it needs conflicts
        for name, t in lemmas.refuted.items():
            assert t < first.get(name, HORIZON + 1), name
        dropped += len(lemmas.dropped)
        units += lemmas.units
    assert dropped > 0 and units > 0


def test_dropped_facts_still_give_the_optimum():
    rng = random.Random(7)
    checked = dropped = 0
    for _ in range(12):
        domain = generate.sliding(rng, 4, 4, 4, 1)
        ref = breadth_first_search(domain, "steps")
        if ref.status is not Status.OPTIMAL or ref.length > 14:
            continue
        got = solve(domain, "steps", "pysat:cadical195", lemma_budget=1, first_probe=False)
        assert got.status is Status.OPTIMAL and got.length == ref.length
        checked += 1
        dropped += got.stats["lemma_dropped"]
    assert checked >= 4 and dropped > 0


def test_time_limit_inside_saturation_reports_a_timeout_with_its_bound():
    from conftest import INSTANCES
    from puzzleplan.formats.load import load
    d = load(INSTANCES / "seeds/klotski_seed000.slide").problem
    r = solve(d, "steps", "pysat", time_limit=1.0, first_plan=False)
    assert r.status is Status.TIMEOUT and r.steps is None and r.bound is not None and r.bound < 116
    assert r.stats["lemma_units"] > 0


def test_a_spent_allowance_asks_the_horizon_early_and_says_so(monkeypatch):
    """The lemma questions made while one horizon is prepared share an allowance of conflicts;
    spent, the horizon is asked with the layers saturated so far (one line says so) and the
    saturation goes on with the next horizon: the optimum is unchanged, and every run of the
    same input takes the same conflicts, also with a clock ten thousand times faster (a busy
    machine): the allowance counts conflicts, never seconds."""
    import time
    from conftest import INSTANCES
    from puzzleplan.formats.load import load
    from puzzleplan.planner import lemmas
    monkeypatch.setattr(lemmas, "FLOOR", 300)
    domain = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem

    def run():
        said = []
        r = solve(domain, "steps", say=said.append)
        return r, [line for line in said if line.startswith("lemmas:")], [h["conflicts"] for h in r.horizons]

    result, said, conflicts = run()
    assert result.status is Status.OPTIMAL and result.length == 81
    assert result.stats["lemma_paused"] > 0 and len(said) == 1 and "allowance" in said[0]
    real = time.monotonic
    start = real()
    monkeypatch.setattr(time, "monotonic", lambda: start + (real() - start) * 10_000)
    again, said_again, conflicts_again = run()
    assert (again.length, said_again, conflicts_again) == (81, said, conflicts)
