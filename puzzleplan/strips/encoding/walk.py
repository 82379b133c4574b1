"""A whole walk of actions of cost 0 in one transition (the ``walk`` lever, under cost:
:class:`~.cost.CostEncoder`): the free actions of a :class:`~puzzleplan.strips.analyses.free.Walk`
move one variable p, every other variable they change following it.

From step t to t + 1: p's values reached within j free actions, ``("reach", j, x, t)``, each
from one reached within j - 1 through a free action whose preconditions hold along the walk:
the actions into one value under the same preconditions as one literal a round (``via``: one of
their sources reached, the preconditions hold), or none where they are the only ones into it
(then the value's ``reach`` says so itself, each of its clauses with "reached the round before":
staying needs nothing; a Sokoban player's steps into a cell); the variables that follow p set
by where p ends, the others kept.  Its preconditions on a variable v that follows p, where p is
out of v's C (else it is ``in``, by the mutexes): v is ``out`` if p started in C or v did, else
v keeps its start value.
"""
from __future__ import annotations

from collections import Counter

from ... import limits


def walk_step(enc, m, t) -> int:
    """The walk from step t to t + 1 (see the module doc) in the encoder ``enc``'s model ``m``.
    Returns ``("act", t)``: p moved."""
    w = enc.closure
    p = w.p
    now, nxt = enc.lits(m, t), enc.lits(m, t + 1)
    follow = {v: (C, inn, out) for v, C, inn, out in w.follow}
    _kept(enc, m, now, nxt, p, follow)
    inside = _followers(enc, m, now, nxt, p, follow)
    groups = _groups(enc, now, p, follow, inside)
    reach = _rounds(enc, m, t, now, p, w.states, groups)
    for x in range(len(enc.values[p])):
        m.implies(nxt[p][x], [reach[x]])
    act = m.var(("act", t))
    for x in range(len(enc.values[p])):
        m.add([act, -now[p][x], nxt[p][x]])
    return act


def _kept(enc, m, now, nxt, p, follow) -> None:
    """The variables neither p nor following it keep their values."""
    for v, names in enumerate(enc.values):
        if v != p and v not in follow:
            for x in range(len(names)):
                if enc.kept[v] in (None, x):
                    m.add([-now[v][x], nxt[v][x]])
                    m.add([now[v][x], -nxt[v][x]])


def _followers(enc, m, now, nxt, p, follow) -> dict:
    """Each variable that follows p set by where p ends; returns, per such v, the literal "p
    starts in v's C"."""
    inside = {}
    for v, (C, inn, out) in follow.items():
        a0, a1 = m.fresh("walk"), m.fresh("walk")
        m.equiv_or(a0, [now[p][a] for a in sorted(C)])
        m.equiv_or(a1, [nxt[p][a] for a in sorted(C)])
        inside[v] = a0
        m.implies(a1, [nxt[v][inn]])
        m.add([a1, -a0, nxt[v][out]])
        for y in range(len(enc.values[v])):
            m.add([a1, a0, -now[v][y], nxt[v][y]])
            m.add([a1, a0, now[v][y], -nxt[v][y]])
    return inside


def _groups(enc, now, p, follow, inside) -> dict:
    """(value into, clauses the preconditions need) -> the values the free actions come from."""
    groups: dict = {}
    for o, op in enumerate(enc.rules.known_ops()):
        if enc.rules.ops[o].cost >= 1:
            continue
        pre, eff = dict(op.pre), dict(op.eff)
        if pre.get(p) is None or eff.get(p, pre[p]) == pre[p]:
            continue        # changes nothing (tracking: a free action that changes something moves p)
        a, needs = pre[p], []
        for v, y in pre.items():
            if v == p:
                continue
            if v not in follow:
                needs.append([now[v][y]])
                continue
            C, inn, out = follow[v]
            if a in C:
                needs = None if y != inn else needs
            elif y == out:
                needs.append([inside[v], now[v][out]])
            else:
                needs += [[-inside[v]], [now[v][y]]]
            if needs is None:
                break
        if needs is not None:
            groups.setdefault((eff[p], tuple(sorted(set(map(tuple, needs))))), set()).add(a)
    return groups


def _rounds(enc, m, t, now, p, states, groups) -> list:
    """p's values reached within each number of free actions, round by round; the last round's."""
    ways = Counter(b for b, _ in groups)        # per value, the groups into it
    reach = [now[p][x] for x in range(len(enc.values[p]))]
    for j in range(1, states):
        limits.checkpoint(len(groups))
        into: dict = {}
        new = [m.var(("reach", j, x, t)) for x in range(len(enc.values[p]))]
        for (b, needs), sources in groups.items():
            if ways[b] == 1:        # b's reach says it: reached before, or by this group
                head = [-new[b], reach[b]]
            else:
                u = m.fresh("via")
                head = [-u]
                into.setdefault(b, []).append(u)
            m.add([*head, *(reach[a] for a in sorted(sources))])
            for clause in needs:
                m.add([*head, *clause])
        for x in range(len(enc.values[p])):
            if ways[x] != 1:
                m.add([-new[x], reach[x], *into.get(x, [])])
            m.implies(reach[x], [new[x]])
        reach = new
    return reach
