"""Interchangeable objects: which plans the sequential encoding of a grounded task may leave
out because a plan that only swaps two objects is kept (the ``symmetry`` lever).

Two objects a and b are *interchangeable* when swapping their names everywhere (``sigma``)
maps the grounded task onto itself: every operator onto an operator of the same cost whose
preconditions and effects are the swapped ones, the initial state onto itself and the goal
onto itself (the balls of gripper, all in room a and all wanted in room b).  Then sigma maps
every plan onto a plan of the same length and cost.  An operator *touches* an object that
its name names ("pick ball2 rooma left" touches ball2, rooma and left).

The rule, for such a pair with a before b: b is never touched at a step where a has not
been touched yet (at that step or before).  Why that is exact, with the operators'
ranks as the order lever (:mod:`.order`) reads them: of the plans of a horizon, take one
with the fewest actions, among those the smallest sequence of ranks (compared in order) --
the plans the order lever's own rule rests on -- and among those the smallest sequence of
indices.  Were b touched first at step t, a not until later, sigma of that plan would be a
plan as short, the same up to step t (its actions there touch neither), whose action at t
has a lower index and no higher rank (ranks by schema: sigma maps every operator onto one of
its own schema, so every rank stays; ranks by index: the index is the rank): the
pair is taken only when sigma lowers the index of every operator that touches b and not a
(:func:`symmetric_pairs` checks it; the translator's order by name does that for a before
b in name order).  So that plan keeps the rule for every pair at once, and with it the
order lever's rule and the barred pairs (which no plan with the fewest actions breaks): a
horizon is satisfiable with the rule exactly when it is without it.  The rule binds the
start side of the double-ended unrolling (the steps from the start, whose numbers are
those of the plan); a subset of true constraints is true.

Not with move counts, frozen pieces or avoided facts (a condition names actions or facts,
and the swap may not keep it), nor with actions of cost 0 (a walk in one transition has no
action literals), see :meth:`.encoding.StepsEncoder._symmetry`.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from ... import limits
from ..names import action_parts, fact_parts

#: swaps tried and operators looked at in them, at most: beyond, the search stops with the
#: classes found so far (each checked; a task of 10^5 look-alike actions stops at it within a second)
WORK_BUDGET = 50_000


@dataclass
class Symmetry:
    classes: list            # interchangeable objects, each class in name order
    pairs: list              # (a, b): b is never touched before a
    touches: dict = field(default_factory=dict)     # object -> the operators that touch it
    seconds: float = 0.0
    complete: bool = True    # false: stopped at WORK_BUDGET


def _fact_key(name: str, v: int):
    if name.startswith("<"):            # "<none of those>": the variable's own
        return ("none", v)
    neg = name.startswith("not ")
    parts = fact_parts(name[4:] if neg else name)
    if parts is None:
        return ("other", v, name)
    return ("atom", neg, parts[0], tuple(parts[1]))


def symmetric_pairs(values, ops, initial, alternatives) -> Symmetry | None:
    """The interchangeable objects of a grounded task and the pairs the rule may bind (see the
    module doc); None when an operator name stands for several operators.  Past
    :data:`WORK_BUDGET` the search stops (``complete`` false) with the classes found so far."""
    t0 = time.perf_counter()
    names = [action_parts(op.name) for op in ops]
    index: dict = {}
    for o, (schema, args) in enumerate(names):
        key = (schema, tuple(args))
        if key in index:
            return None
        index[key] = o
    keys = [[_fact_key(n, v) for n in vals] for v, vals in enumerate(values)]
    where = {k: (v, x) for v, row in enumerate(keys) for x, k in enumerate(row)}
    # each object: the operators and variables whose names hold it, and its profile
    touches: dict = {}
    involved: dict = {}
    profile: dict = {}
    for o, (schema, args) in enumerate(names):
        for i, a in enumerate(args):
            touches.setdefault(a, set()).add(o)
            involved.setdefault(a, set()).add(o)
            profile.setdefault(a, Counter())[("op", schema, i)] += 1
    var_of: dict = {}
    named = []          # per variable: the objects its values name
    for v, row in enumerate(keys):
        named.append({a for k in row if k[0] == "atom" for a in k[3]})
        for a in named[v]:
            var_of.setdefault(a, set()).add(v)
        for k in row:
            if k[0] == "atom":
                for a in set(k[3]):
                    profile.setdefault(a, Counter())[("fact", k[1], k[2])] += 1
    for o, op in enumerate(ops):
        limits.checkpoint()
        for v in {v for v, _ in op.pre} | {v for v, _ in op.eff}:
            for a in named[v]:
                involved.setdefault(a, set()).add(o)
    start = {keys[v][x] for v, x in enumerate(initial)}
    for k in start:
        if k[0] == "atom":
            for i, a in enumerate(k[3]):
                profile.setdefault(a, Counter())[("init", k[2], i)] += 1
    goals = {frozenset(keys[v][x] for v, x in alt) for alt in alternatives}
    in_goal = {a for alt in goals for k in alt if k[0] == "atom" for a in k[3]}
    for alt in goals:
        for k in alt:
            if k[0] == "atom":
                for i, a in enumerate(k[3]):
                    profile.setdefault(a, Counter())[("goal", k[2], i)] += 1
    work = [0]

    def spend() -> None:
        work[0] += 1
        if work[0] > WORK_BUDGET:
            raise _OverBudget
        limits.checkpoint()

    def swapped(args, a, b) -> tuple:
        return tuple(b if x == a else a if x == b else x for x in args)

    def swap_key(k, a, b, var_map):
        if k[0] == "none":
            return ("none", var_map(k[1]))
        if k[0] != "atom":
            return k
        return ("atom", k[1], k[2], swapped(k[3], a, b))

    def interchangeable(a: str, b: str) -> bool:
        spend()
        cache: dict = {}

        def var_map(v):
            if v not in cache:
                atom = next((k for k in keys[v] if k[0] == "atom"), None)
                if atom is None:
                    cache[v] = v
                else:
                    w = where.get(swap_key(atom, a, b, None))
                    cache[v] = w[0] if w is not None else -1
            return cache[v]

        def fact(f):
            return where.get(swap_key(keys[f[0]][f[1]], a, b, var_map))
        for v in var_of.get(a, set()) | var_of.get(b, set()):
            w = var_map(v)
            if w < 0 or fact((v, initial[v])) != (w, initial[w]):
                return False
            if {swap_key(k, a, b, var_map) for k in keys[v]} != set(keys[w]):
                return False
        if (a in in_goal or b in in_goal) and \
                {frozenset(swap_key(k, a, b, var_map) for k in alt) for alt in goals} != goals:
            return False
        for o in involved.get(a, set()) | involved.get(b, set()):
            spend()
            schema, args = names[o]
            image = index.get((schema, swapped(args, a, b)))
            if image is None:
                return False
            op, other = ops[o], ops[image]
            if op.cost != other.cost:
                return False
            if {fact(f) for f in op.pre} != set(other.pre) or {fact(f) for f in op.eff} != set(other.eff):
                return False
        return True

    def lowers(a: str, b: str) -> bool:
        """sigma lowers the index of every operator touching b and not a."""
        for o in touches.get(b, ()):
            schema, args = names[o]
            if a not in args and index[(schema, swapped(args, a, b))] >= o:
                return False
        return True

    groups: dict = {}
    for a, prof in profile.items():
        if a in touches:
            groups.setdefault(frozenset(prof.items()), []).append(a)
    classes: list = []
    complete = True
    for members in groups.values():
        found: list = []
        try:
            for a in sorted(members):
                for c in found:
                    if interchangeable(c[0], a):
                        c.append(a)
                        break
                else:
                    found.append([a])
        except _OverBudget:
            complete = False
        classes.extend(c for c in found if len(c) > 1)
        if not complete:
            break
    pairs = [(c[i], c[i + 1]) for c in classes for i in range(len(c) - 1) if lowers(c[i], c[i + 1])]
    objects = {x for pair in pairs for x in pair}
    return Symmetry(sorted(classes), pairs, {a: sorted(touches[a]) for a in objects},
                    round(time.perf_counter() - t0, 4), complete)


class _OverBudget(Exception):
    pass
