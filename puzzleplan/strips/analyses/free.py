"""Actions of cost 0 under SAT: how many layers hold every plan of cost at most T.

With every action costing at least 1, a plan of cost T has at most T actions, and T layers
(one action each) hold it.  An action of cost 0 breaks that: a plan of cost T may be as
long as it likes.  Among the plans of cost at most T, take one of the fewest actions; it
never comes back to a state it has been in (the loop between would cost nothing to cut).
Two bounds on its actions of cost 0 ("free" actions), from the operators alone:

monotone   a variable whose transition graph (over every operator: y -> x where it sets
           the variable from y to x; from every other value where it does not say) has no
           cycle changes at most as often as that graph's longest path, in any plan.  When
           every variable a free action can change is such a variable, each free action in
           the plan changes one of them (one that changes nothing is cut too): the free
           actions number at most the sum of those longest paths, ``total``.  The finishing
           actions of our exports (goal alternatives, move counts) turn "playing" off and
           "done" on: ``total`` = 2.
runs       otherwise, between two actions of cost at least 1 (at most T of them, so at most
           T + 1 runs) the free actions pass through states that differ only in the variables
           free actions change, never twice the same: a run has at most (the states those
           variables can be in) - 1 actions, ``per_run``: the product of their values, or,
           where one variable p moves in every free action and the others follow it
           (:func:`tracking`: a Sokoban player's walk, each cell's "clear" false exactly
           while the player is on it), p's values.  Past :data:`MAX_RUN` SAT is refused (past
           :data:`MAX_WALK` for a walk in one transition, below).

So horizon T (a cost bound) needs ``T + total + per_run * (T + 1)`` layers
(:meth:`FreeActions.layers`), a layer per free action; a walk that follows p is laid out
in one transition per unit of cost instead (``walk`` in ``FreeActions``;
:mod:`puzzleplan.strips.encoding.walk`), where p's values reached within j free actions
say in clauses what the hand-written Sokoban encoding's reachability says.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ... import limits

#: the longest run of free actions given layers of their own; past it SAT is refused
MAX_RUN = 64
#: the longest walk that follows one variable laid out in one transition (its rounds)
MAX_WALK = 1024


@dataclass(frozen=True)
class Walk:
    """Free actions that move one variable ``p``, every other variable they change following it
    (:func:`tracking`): ``follow`` holds ``(v, C, in, out)``, v is ``in`` exactly while p is in C
    (or stays where it bars p from C)."""
    p: int
    follow: tuple[tuple[int, frozenset, int, int], ...]
    states: int         # p's values (no reachable state has the others)


@dataclass(frozen=True)
class FreeActions:
    total: int          # free actions in a whole plan, at most
    per_run: int        # free actions between two actions of cost >= 1, at most
    walk: Walk | None = None        # how the runs move, where :func:`tracking` finds it

    def layers(self, horizon: int) -> int:
        """The layers that hold every plan of cost at most ``horizon`` (see the module doc)."""
        return horizon + self.total + self.per_run * (horizon + 1)


def changes(op, values) -> dict[int, list[tuple[int, int]]]:
    """The transitions ``op`` can make, per variable: (old, new), old over every value but
    new when its precondition does not name the variable; none where it sets what it requires."""
    pre = dict(op.pre)
    out: dict[int, list[tuple[int, int]]] = {}
    for v, x in op.eff:
        if pre.get(v) == x:
            continue
        olds = [pre[v]] if v in pre else [y for y in range(len(values[v])) if y != x]
        out.setdefault(v, []).extend((y, x) for y in olds)
    return out


def longest_paths(values, ops) -> dict[int, int | None]:
    """Per variable that some operator changes: its transition graph's longest path (edges),
    or None where the graph has a cycle."""
    edges: dict[int, set[tuple[int, int]]] = {}
    for op in ops:
        limits.checkpoint()
        for v, moves in changes(op, values).items():
            edges.setdefault(v, set()).update(moves)
    out: dict[int, int | None] = {}
    for v, arcs in edges.items():
        n = len(values[v])
        into = [0] * n
        nexts: list[list[int]] = [[] for _ in range(n)]
        for a, b in arcs:
            nexts[a].append(b)
            into[b] += 1
        depth = [0] * n
        ready = [x for x in range(n) if into[x] == 0]
        seen = 0
        while ready:
            a = ready.pop()
            seen += 1
            for b in nexts[a]:
                depth[b] = max(depth[b], depth[a] + 1)
                into[b] -= 1
                if into[b] == 0:
                    ready.append(b)
        out[v] = max(depth) if seen == n else None
    return out


def free_actions(values, ops, costs, names, mutexes=None) -> FreeActions | str:
    """The bounds of the module doc for operators ``ops`` (with the preconditions reachable
    states imply: :func:`.inverse.known`) of costs ``costs`` and names ``names``; ``mutexes``
    (:func:`.mutex.mutexes`, or None) for a walk's bound (:func:`tracking`).  Or why SAT cannot
    take the task (a run too long)."""
    free = [(op, name) for op, c, name in zip(ops, costs, names) if c < 1]
    if not free:
        return FreeActions(0, 0)
    longest = longest_paths(values, ops)
    changed = {v for op, _ in free for v in changes(op, values)}
    if all(longest[v] is not None for v in changed):
        return FreeActions(sum(longest[v] for v in changed), 0)
    walk = tracking(values, [op for op, _ in free], changed, mutexes)
    states = math.prod(len(values[v]) for v in changed) if walk is None else walk.states
    if states - 1 > (MAX_RUN if walk is None else MAX_WALK):
        walker = next(name for op, name in free if any(longest[v] is None for v in changes(op, values)))
        return too_long(walker, len(changed), states - 1, MAX_RUN if walk is None else MAX_WALK)
    return FreeActions(0, states - 1, walk)


def too_long(walker: str, changed: int, steps: int, most: int) -> str:
    """Why SAT refuses free actions whose runs may be ``steps`` long, past ``most``."""
    return (f"actions of cost 0 ({walker}) change {changed} variables back and forth: a run of them between two "
            f"costly actions may take up to {steps:,} steps, more than SAT is given ({most})")


def tracking(values, free, changed, mutexes) -> Walk | None:
    """A variable p whose value, along any run of free actions, the state is a function of (so
    a run that never repeats a state has at most as many states as p has values), or None.
    A Sokoban player's walk: p the player's cell, every cell's "clear" follows it.

    Each free action that changes anything moves p (a -> b, both named), and every other
    variable v they change *follows p*: for a set C of p's values and two values of v, ``in``
    and ``out``, an action that takes p into C sets v to ``in`` and requires ``out``, one that
    takes p out of C sets v to ``out``, any other leaves v alone; and no reachable state has p in
    C and v other than ``in`` (the mutexes say so).  Along a run v then either stays at a value
    that bars p from C (a box on the cell: no walk enters it), or is ``in`` exactly while p is
    in C: with the variables free actions do not change, the state is a function of p."""
    if mutexes is None:
        return None
    never = set(mutexes.unreachable)
    apart = set(mutexes.pairs) | {(b, a) for a, b in mutexes.pairs}
    for p in sorted(changed, key=lambda v: -len(values[v])):
        moves = []
        limits.checkpoint(len(free))
        for op in free:
            pre, eff = dict(op.pre), dict(op.eff)
            if not changes(op, values):
                continue
            if p not in pre or p not in eff or pre[p] == eff[p]:
                break
            moves.append((pre[p], eff[p], pre, eff))
        else:
            follow = [follows(values, v, p, moves, never, apart) for v in sorted(changed - {p})]
            if all(follow):
                return Walk(p, tuple(follow), sum(1 for x in range(len(values[p])) if (p, x) not in never))
    return None


def follows(values, v, p, moves, never, apart) -> tuple | None:
    """``(v, C, in, out)`` if v follows p along the moves (see :func:`tracking`), else None."""
    setters = [(a, b, eff[v]) for a, b, pre, eff in moves if v in eff and pre.get(v) != eff[v]]
    if len({x for _, _, x in setters}) != 2:
        return None
    x, y = sorted({x for _, _, x in setters})
    for inn, out in ((x, y), (y, x)):
        C = {b for a, b, z in setters if z == inn} | {a for a, b, z in setters if z == out}
        ok = True
        limits.checkpoint(len(moves))
        for a, b, pre, eff in moves:
            sets = eff.get(v) if v in eff and pre.get(v) != eff[v] else None
            if a not in C and b in C:
                ok = sets == inn and pre.get(v) == out
            elif a in C and b not in C:
                ok = sets == out
            else:
                ok = sets is None
            if not ok:
                break
        if ok and all((p, a) in never or (v, z) in never or ((p, a), (v, z)) in apart
                      for a in C for z in range(len(values[v])) if z != inn):
            return v, frozenset(C), inn, out
    return None
