"""One order for moves that commute: a partial-order reduction for sequential encodings.

Two consecutive moves of different pieces often commute: either order is legal and
leads to the same state.  A sequential encoding then holds every interleaving of a plan's
independent moves, and refuting a horizon means refuting each of them: on a wide board
with many pieces (or many pieces that must each move) that is most of the solver's work.
This module keeps one interleaving: a move of a piece of a lower kind (an index the
encoder chooses) may follow a move of a higher kind only when it needs a cell the move
before it changed.

Why that is exact, for moves on cells (a move newly occupies some cells and frees others,
and needs the cells it newly occupies to be empty): let X change cells S at step t and Y,
another piece's move, newly occupy cells N at step t + 1.  If N and S are disjoint, N was
already empty before X, so Y could come first; X's own new cells lie in S, so Y does not
fill them, and the two orders end in the same state.  Swapping such an adjacent pair with
the higher kind first makes the plan's sequence of kinds lexicographically smaller and
keeps its length, its moves per piece (counts) and each piece's positions (cells to
avoid), so every plan has a reordered one that meets the rule: a horizon is satisfiable
with it exactly when it is without it.  The states reachable in t steps do not change
either, so reachability lemmas stay valid.  No-op steps carry no mover and constrain
nothing; a double-ended unrolling meets the rule on each side.  A transition system (the
AIGER export) leaves the rule out: it reads the cells that changed two steps back (made
with the step before, as a transition system would need, it cost more than it saved).
"""
from __future__ import annotations

from typing import Callable, Hashable, Sequence

from .model import BoolModel

# a move as the rule sees it: (literal, kind, extra literals that must hold with it, cells it newly occupies)
Entry = tuple[int, int, Sequence[int], Sequence[Hashable]]


def above_ladder(m: BoolModel, name: str, n: int, t: int, lit_of: Callable[[int], int | None]) -> None:
    """``(name, k, t)`` for k < n - 1: true when item j > k is, ``lit_of(j)`` its literal
    (None: it has none); forced true by them, never by anything else, so the solver may set
    it false whenever none above k holds."""
    for k in range(n - 2, -1, -1):
        up = m.var((name, k, t))
        lit = lit_of(k + 1)
        if lit is not None:
            m.add([-lit, up])
        if k + 1 < n - 1:
            m.add([-m.var((name, k + 1, t)), up])


class CommutingOrder:
    """Adds the rule between consecutive steps as they are built, in any order.

    ``occupied(m, cell, t)``: a literal, true iff ``cell`` is taken at step ``t`` (its
    negation works as well: only changes matter); ``kinds``: the number of kinds."""

    def __init__(self, kinds: int, occupied: Callable[[BoolModel, Hashable, int], int]):
        self.kinds = kinds
        self.occupied = occupied
        self.steps: dict[int, list[Entry]] = {}
        self.clauses = 0

    def step(self, m: BoolModel, t: int, entries: list[Entry]) -> None:
        """Record step ``t``'s moves (``t`` to ``t + 1``) and tie it to its built neighbours."""
        self.steps[t] = entries
        moved = {}
        for lit, k, _, _ in entries:
            moved.setdefault(k, m.var(("ord_moved", k, t)))
            m.add([-lit, moved[k]])
        # ord_higher(k, t): a piece of a kind above k moved at step t
        above_ladder(m, "ord_higher", self.kinds, t, moved.get)
        if t - 1 in self.steps:
            self._pair(m, t - 1)
        if t + 1 in self.steps:
            self._pair(m, t)

    def _changed(self, m: BoolModel, cell, t: int) -> int:
        key = ("ord_changed", cell, t)
        if not m.has(key):
            ch, now, nxt = m.var(key), self.occupied(m, cell, t), self.occupied(m, cell, t + 1)
            m.add([-ch, now, nxt])          # true only if the cell's state differs
            m.add([-ch, -now, -nxt])
        return m.var(key)

    def _pair(self, m: BoolModel, t: int) -> None:
        """Steps t and t + 1: a move at t + 1 of kind k after a higher kind's move at t needs
        a cell that changed at t."""
        for lit, k, pre, cells in self.steps[t + 1]:
            if k >= self.kinds - 1:
                continue        # no kind above it
            m.add([-lit, *(-p for p in pre), -m.var(("ord_higher", k, t)),
                   *(self._changed(m, c, t) for c in cells)])
            self.clauses += 1
