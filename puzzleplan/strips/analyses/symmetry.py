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
action literals), see :class:`puzzleplan.strips.encoding.levers.symmetry.Symmetry`.
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
    swaps = _Swaps(values, ops, names, index, initial, alternatives)
    groups: dict = {}
    for a, prof in swaps.profile.items():
        if a in swaps.touches:
            groups.setdefault(frozenset(prof.items()), []).append(a)
    classes, complete = swaps.classes(groups.values())
    pairs = [(c[i], c[i + 1]) for c in classes for i in range(len(c) - 1) if swaps.lowers(c[i], c[i + 1])]
    # the objects in name order: their clauses (and variables) are added in this order, which a
    # set of names would leave to the interpreter's string hashing, run by run
    objects = sorted({x for pair in pairs for x in pair})
    return Symmetry(sorted(classes), pairs, {a: sorted(swaps.touches[a]) for a in objects},
                    round(time.perf_counter() - t0, 4), complete)


def _swapped(args, a, b) -> tuple:
    return tuple(b if x == a else a if x == b else x for x in args)


def _swap_key(k, a, b, var_map):
    if k[0] == "none":
        return ("none", var_map(k[1]))
    if k[0] != "atom":
        return k
    return ("atom", k[1], k[2], _swapped(k[3], a, b))


class _Swaps:
    """The task read for swaps: each fact's key, each object's operators (those naming it:
    ``touches``; those reading or setting a variable that names it: ``involved``), variables and
    profile (what it appears in, where, how often: objects of one profile may be interchangeable)."""

    def __init__(self, values, ops, names, index, initial, alternatives):
        self.ops, self.names, self.index, self.initial = ops, names, index, initial
        self.keys = [[_fact_key(n, v) for n in vals] for v, vals in enumerate(values)]
        self.where = {k: (v, x) for v, row in enumerate(self.keys) for x, k in enumerate(row)}
        self.touches: dict = {}
        self.involved: dict = {}
        self.profile: dict = {}
        self.var_of: dict = {}
        self._read_ops(names, ops)
        start = {self.keys[v][x] for v, x in enumerate(initial)}
        for k in start:
            if k[0] == "atom":
                for i, a in enumerate(k[3]):
                    self.profile.setdefault(a, Counter())[("init", k[2], i)] += 1
        self.goals = {frozenset(self.keys[v][x] for v, x in alt) for alt in alternatives}
        self.in_goal = {a for alt in self.goals for k in alt if k[0] == "atom" for a in k[3]}
        for alt in self.goals:
            for k in alt:
                if k[0] == "atom":
                    for i, a in enumerate(k[3]):
                        self.profile.setdefault(a, Counter())[("goal", k[2], i)] += 1
        self.work = 0

    def _read_ops(self, names, ops) -> None:
        for o, (schema, args) in enumerate(names):
            for i, a in enumerate(args):
                self.touches.setdefault(a, set()).add(o)
                self.involved.setdefault(a, set()).add(o)
                self.profile.setdefault(a, Counter())[("op", schema, i)] += 1
        named = []          # per variable: the objects its values name
        for v, row in enumerate(self.keys):
            named.append({a for k in row if k[0] == "atom" for a in k[3]})
            for a in named[v]:
                self.var_of.setdefault(a, set()).add(v)
            for k in row:
                if k[0] == "atom":
                    for a in set(k[3]):
                        self.profile.setdefault(a, Counter())[("fact", k[1], k[2])] += 1
        for o, op in enumerate(ops):
            limits.checkpoint()
            for v in {v for v, _ in op.pre} | {v for v, _ in op.eff}:
                for a in named[v]:
                    self.involved.setdefault(a, set()).add(o)

    def spend(self) -> None:
        self.work += 1
        if self.work > WORK_BUDGET:
            raise _OverBudget
        limits.checkpoint()

    def classes(self, groups) -> tuple[list, bool]:
        """The classes of interchangeable objects within each group of one profile, and whether
        the search finished within its budget."""
        classes: list = []
        complete = True
        for members in groups:
            found: list = []
            try:
                for a in sorted(members):
                    for c in found:
                        if self.interchangeable(c[0], a):
                            c.append(a)
                            break
                    else:
                        found.append([a])
            except _OverBudget:
                complete = False
            classes.extend(c for c in found if len(c) > 1)
            if not complete:
                break
        return classes, complete

    def interchangeable(self, a: str, b: str) -> bool:
        """Whether swapping a and b maps the task onto itself."""
        self.spend()
        keys, where, initial = self.keys, self.where, self.initial
        cache: dict = {}

        def var_map(v):
            if v not in cache:
                atom = next((k for k in keys[v] if k[0] == "atom"), None)
                if atom is None:
                    cache[v] = v
                else:
                    w = where.get(_swap_key(atom, a, b, None))
                    cache[v] = w[0] if w is not None else -1
            return cache[v]

        def fact(f):
            return where.get(_swap_key(keys[f[0]][f[1]], a, b, var_map))
        for v in self.var_of.get(a, set()) | self.var_of.get(b, set()):
            w = var_map(v)
            if w < 0 or fact((v, initial[v])) != (w, initial[w]):
                return False
            if {_swap_key(k, a, b, var_map) for k in keys[v]} != set(keys[w]):
                return False
        if (a in self.in_goal or b in self.in_goal) and \
                {frozenset(_swap_key(k, a, b, var_map) for k in alt) for alt in self.goals} != self.goals:
            return False
        return self._ops_map(a, b, fact)

    def _ops_map(self, a: str, b: str, fact) -> bool:
        """Every operator involving a or b maps onto one of the same cost whose preconditions and
        effects are the swapped ones."""
        for o in self.involved.get(a, set()) | self.involved.get(b, set()):
            self.spend()
            schema, args = self.names[o]
            image = self.index.get((schema, _swapped(args, a, b)))
            if image is None:
                return False
            op, other = self.ops[o], self.ops[image]
            if op.cost != other.cost:
                return False
            if {fact(f) for f in op.pre} != set(other.pre) or {fact(f) for f in op.eff} != set(other.eff):
                return False
        return True

    def lowers(self, a: str, b: str) -> bool:
        """sigma lowers the index of every operator touching b and not a."""
        for o in self.touches.get(b, ()):
            schema, args = self.names[o]
            if a not in args and self.index[(schema, _swapped(args, a, b))] >= o:
                return False
        return True


class _OverBudget(Exception):
    pass
