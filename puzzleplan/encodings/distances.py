"""Admissible distances as cardinality constraints: the lowering behind the families'
bounds (:meth:`~puzzleplan.encodings.base.Encoder.goal_bound`,
:meth:`~puzzleplan.encodings.base.Encoder.start_bound`) and the moves owed by counts
(:mod:`.counts`).

A *distance* is a mapping of literals (a piece on a square at one step) to a number of
moves; a *unary* number is a list of literals ``(*key, j)``, j = 1 .. n, the j-th true
when the number is at least j.
"""
from __future__ import annotations

from typing import Hashable

from ..limits import checkpoint
from .model import BoolModel

#: the most literals a distance sum (:func:`distance_sum`) may count; beyond, no bound
MAX_DISTANCE_LITS = 20_000
#: the most literals the clauses of one unary distance may hold written directly (see there)
DIRECT_LITS = 50_000


def distance_sum(m: BoolModel, key: Hashable, groups, bound: int) -> bool:
    """Admissible distances added up, at most ``bound``: ``groups`` is a list of
    ``(distance, how)``, ``distance`` a mapping of literals (a piece here) to a number of
    moves.  ``how == "min"``: the group counts the least distance among its true literals
    (a lone piece's, or the nearest piece's to a target), in unary: ``(key, i, j)`` is
    forced true when no literal of group ``i`` with a distance under ``j`` holds: one clause
    naming them all, or on a large board (more than :data:`DIRECT_LITS` literals in those
    clauses) a chain, ``(key, i, j - 1)`` and none at distance ``j - 1``, each literal in
    one clause (it propagates less; see ``docs/results/measured.md``).
    ``how == "sum"``: every true literal counts its distance (each repeated as often).
    ``how == "sets"``: ``distance`` is a list of ``(literals, moves)``, each set of literals
    forcing at least that many moves when all hold (:func:`at_least_sets`).
    False, and nothing added, when the distances cannot exceed ``bound``, or when the sum
    would take more than :data:`MAX_DISTANCE_LITS` literals (a huge board: the bound is
    optional)."""
    sizes = [0 if not distance else max(distance.values()) if how == "min"
             else max(d for _, d in distance) if how == "sets" else sum(distance.values())
             for distance, how in groups]
    if bound >= sum(sizes) or sum(sizes) > MAX_DISTANCE_LITS:
        return False
    lits = []
    for i, (distance, how) in enumerate(groups):
        checkpoint(1 + len(distance) // 64)
        if not distance:
            continue
        if how == "min":
            lits += at_least(m, (key, i), distance)
        elif how == "sets":
            lits += at_least_sets(m, (key, i), distance)
        else:
            lits += [x for x, d in distance.items() for _ in range(d)]
    m.card(lits, "<=", bound)
    return True


def at_least(m: BoolModel, key: Hashable, distance) -> list[int]:
    """The least distance among the true literals of ``distance`` (literal -> moves), in
    unary: ``(*key, j)`` for j = 1 .. the largest distance, forced true when no literal at a
    distance under ``j`` holds (made once; see :func:`distance_sum`)."""
    far = max(distance.values(), default=0)
    if m.has((*key, far)) or not far:
        return [m.var((*key, j)) for j in range(1, far + 1)]
    at = [[] for _ in range(far)]
    for x, d in distance.items():
        if d < far:
            at[d].append(x)
    direct = far * len(distance) <= DIRECT_LITS
    nearer: list[int] = []
    lits = []
    for j in range(1, far + 1):
        lit = m.var((*key, j))
        nearer += at[j - 1]
        if direct or j == 1:
            m.add([lit, *nearer])
        else:
            m.add([lit, -m.var((*key, j - 1)), *at[j - 1]])
        lits.append(lit)
    return lits


def at_least_sets(m: BoolModel, key: Hashable, sets) -> list[int]:
    """A number in unary, ``(*key, j)`` for j = 1 .. the most any set forces, at least ``d``
    when every literal of a set ``(literals, d)`` holds (one clause per set, and
    ``(*key, j)`` implies ``(*key, j - 1)``)."""
    far = max((d for _, d in sets), default=0)
    lits = [m.var((*key, j)) for j in range(1, far + 1)]
    for j in range(1, far):
        m.add([-lits[j], lits[j - 1]])
    for held, d in sets:
        if d > 0:
            m.add([*(-x for x in held), lits[d - 1]])
    return lits
