"""Random small SAS+ tasks, for the conformance suite: a few variables with two to
four values, random operators (preconditions on some variables, effects on others),
a goal on one or two variables of a state a random walk reaches (on most tasks; on
the rest, random values, often unreachable); costs 1 to 3 on some tasks (costs of 0 are tested
on the exports of Sokoban under pushes, whose walks cost 0).  Built directly, without
PDDL or the translator, so that the suite runs fast and covers what the translator's
output may hold (operators without preconditions, effects without a previous value)."""
from __future__ import annotations

import random

from ...strips.sas import Grounded, Operator
from .rules import StripsTask


def huge(rng: random.Random, variables: int = 2000, operators: int = 100_000) -> StripsTask:
    """A task of many variables and 10^5 operators (each changes one variable under a condition
    on another): for the limits conformance test."""
    values = tuple(tuple(f"p{v}(x{x})" for x in range(3)) for v in range(variables))
    ops = []
    for k in range(operators):
        v, w = rng.sample(range(variables), 2)
        x = rng.randrange(3)
        ops.append(Operator(f"a o{k}", ((v, (x + 1) % 3), (w, rng.randrange(3))), ((v, x),), 1))
    goal = tuple(sorted((v, 2) for v in rng.sample(range(variables), 5)))
    return StripsTask(Grounded("huge", "huge", values, (0,) * variables, goal, tuple(ops), (), False))


def generate(rng: random.Random, size: str = "small") -> StripsTask:
    """A random small SAS+ task (``size="huge"``: :func:`huge`)."""
    if size == "huge":
        return huge(rng)
    n = rng.randint(2, 4)
    ranges = [rng.randint(2, 4) for _ in range(n)]
    values = tuple(tuple(f"p{v}(x{x})" for x in range(r)) for v, r in enumerate(ranges))
    init = tuple(rng.randrange(r) for r in ranges)
    costs = rng.random() < 0.4
    ops = []
    for k in range(rng.randint(3, 9)):
        vs = rng.sample(range(n), rng.randint(1, min(3, n)))
        split = rng.randint(0, len(vs) - 1)
        pre = tuple(sorted((v, rng.randrange(ranges[v])) for v in vs[:split]))
        eff = tuple((v, rng.randrange(ranges[v])) for v in vs[split:])
        pre += tuple((v, rng.randrange(ranges[v])) for v in vs[split:] if rng.random() < 0.5)
        ops.append(Operator(f"a{k % 3} o{k}", tuple(sorted(set(pre))), eff, rng.randint(1, 3) if costs else 1))
    task = Grounded("random", "random", values, init, (), tuple(ops), (), costs)
    state = init
    walker = StripsTask(task)
    for _ in range(rng.randint(1, 6)):
        moves = [nxt for _, nxt in walker.successors(state)]
        if not moves:
            break
        state = rng.choice(moves)
    if rng.random() < 0.2:
        state = tuple(rng.randrange(r) for r in ranges)
    goal = tuple(sorted((v, state[v]) for v in rng.sample(range(n), rng.randint(1, min(2, n)))))
    return StripsTask(Grounded("random", "random", values, init, goal, tuple(ops), (), costs))
