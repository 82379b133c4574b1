"""One order for commuting moves (puzzleplan.encodings.order): fewer move sequences, the same
states at every step, the same optima."""
import random

import pytest
from pysat.solvers import Solver

import families_gen as generate
from puzzleplan.encodings import encoder_for
from puzzleplan.encodings.lower import clauses_of
from puzzleplan.encodings.model import BoolModel
from puzzleplan.planner import solve
from puzzleplan.puzzle import Status
from puzzleplan.search import breadth_first_search


def sequences_and_states(domain, horizon: int, ordered: bool) -> tuple[int, set]:
    """Every model of ``horizon`` steps with a move at each: the number of move sequences,
    and the set of states they end in."""
    enc = encoder_for(domain, "steps")
    if not ordered:
        enc.order = None
    m = BoolModel()
    enc.start(m)
    enc.extend(m, horizon)
    moves = sorted(v for k, v in m.ids.items() if isinstance(k, tuple) and k[0] in ("mv", "umv"))
    facts = enc.facts(m, horizon)
    sequences, states = 0, set()
    with Solver(name="glucose42", bootstrap_with=list(clauses_of(m))) as s:
        acts = [m.var(("act", t)) for t in range(horizon)]
        while s.solve(assumptions=acts):
            model = set(s.get_model())
            sequences += 1
            states.add(frozenset(key for key, v in facts.items() if v in model))
            s.add_clause([-v if v in model else v for v in moves])
    return sequences, states


def board(text):
    from puzzleplan.families.sliding.slide import parse
    from puzzleplan.families.sliding.rules import SlidingPuzzle
    return SlidingPuzzle(parse(text))


def test_commuting_moves_come_in_one_order_and_reach_the_same_states():
    domain = board("board:\nA..\n...\n..B\ngoal:\n...\n...\n..A\n")
    for horizon in (2, 3):
        free, every = sequences_and_states(domain, horizon, ordered=False)
        kept, ordered = sequences_and_states(domain, horizon, ordered=True)
        assert ordered == every
        assert kept < free
    # two pieces far apart, two moves: each pair of moves of A and B in one order only
    free, _ = sequences_and_states(domain, 2, ordered=False)
    kept, _ = sequences_and_states(domain, 2, ordered=True)
    a_moves, b_moves = 2, 2         # A in a corner: right or down; B likewise: left or up
    assert free - kept == a_moves * b_moves


def test_a_move_that_needs_the_cell_just_freed_keeps_its_place():
    # B can go right only after A left: B right then A would be illegal, the rule allows it
    domain = board("board:\nBA.\n...\ngoal:\n.B.\n...\n")
    r = solve(domain, "steps", "pysat", enumerate_first=False)
    assert r.status is Status.OPTIMAL and r.length == 2 and domain.replay(r.steps).solved


@pytest.mark.parametrize("seed", range(3))
def test_sat_with_the_order_equals_bfs_on_random_boards(seed):
    rng = random.Random(f"order-{seed}")
    for _ in range(6):
        domain = generate.sliding(rng)
        bfs = breadth_first_search(domain, "steps")
        for backend in ("pysat", "pysat-de"):
            r = solve(domain, "steps", backend, enumerate_first=False, max_horizon=40)
            if bfs.status is Status.UNSOLVABLE:     # deepening alone proves no absence: none within 40
                assert r.status in (Status.UNSOLVABLE, Status.NO_PLAN_WITHIN), (backend, domain.spec)
                continue
            assert r.status is bfs.status and r.length == bfs.length, (backend, domain.spec)
            if r.status is Status.OPTIMAL:
                assert domain.replay(r.steps).solved
