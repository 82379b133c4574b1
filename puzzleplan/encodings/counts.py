"""Move counts at the goal, and the moves they still owe at each step.

Vocabulary (variables are keyed by tuples, the step ``t`` among them):

- a *count* is a :class:`~puzzleplan.puzzle.MoveCount` of a goal alternative: the moves
  of some movers (pieces), compared with ``k``;
- ``("moved", mover, t)``: the mover moves between step ``t`` and ``t + 1`` (made by the
  encoder's :meth:`~puzzleplan.encodings.base.Encoder.step`);
- ``("done", movers, t, j)``: at least ``j`` moves of ``movers`` in the steps before ``t``,
  a sequential counter (:meth:`MoveCounts.done`);
- ``("need", i, mover, t, j)``: at step ``t``, ``mover`` needs at least ``j`` more moves to
  reach goal alternative ``i`` (its distance or its count's shortfall);
- ``("near", i, mover, n, t)``: the unary distance of ``mover`` to its ``n``-th target of
  alternative ``i`` at step ``t`` (:func:`~puzzleplan.encodings.distances.at_least`).

Moves still owed fit in the steps left: at each step ``t`` of horizon ``T``, the moves
that the ``>=`` and ``==`` counts of an alternative still need are at most ``T - t`` (one
step moves one piece, and adds one to its count).  Implied by the counts at the goal, but
a CDCL solver cannot count: with ten pieces that must each move in a ten-step plan it
otherwise tries the steps' movers as a pigeonhole problem.  Summed over counts whose
pieces do not overlap (a move of a piece in two counts would be owed twice).  Where the
family bounds each mover's moves to the goal
(:meth:`~puzzleplan.encodings.base.Encoder.goal_distances`), a mover needs the larger of
that and what its count owes, and the movers' needs add up (a mover in a count of several
movers adds its group's shortfall only).
"""
from __future__ import annotations

from typing import Callable, Hashable

from ..constraints import movers_of
from .distances import at_least
from .model import BoolModel

#: ``distances(m, t, i)``: ``[(mover, distance)]`` at step ``t`` toward alternative ``i``, or None
Distances = Callable[[BoolModel, int, int], "list | None"]


class MoveCounts:
    """The counters and owed-move cardinalities of one encoder's model, shared by every
    horizon.  ``cards``: the cardinalities of owed moves stated so far (the result's
    ``owed_cards``)."""

    def __init__(self, rules, distances: Distances):
        self.rules = rules
        self.distances = distances
        self.cards = 0
        self.counters: dict[tuple, tuple[int, int]] = {}     # movers -> (steps made, largest j made)

    def at_goal(self, m: BoolModel, alt, moved: dict[Hashable, list[int]], T: int, guard: int) -> None:
        """The counts of ``alt`` over the first ``T`` steps' ``moved`` literals, under ``guard``."""
        for req in alt:
            lits = [lit for mv in movers_of(self.rules, req) for lit in moved.get(mv, [])[:T]]
            m.card(lits, req.op, req.k, guard=guard)

    def owed(self, m: BoolModel, i: int, alt, T: int, guard: int) -> None:
        """Under ``guard``, at each step of horizon ``T`` the moves alternative ``i``'s counts
        ``alt`` still owe fit in the steps left (see the module doc)."""
        owed = self.disjoint_owed(alt)
        if not owed:
            return
        total = sum(k for _, k in owed)
        first = max(1, T - total + 1)
        pairs = self.distances(m, 0, i)
        if pairs is not None:
            # a step's distances are at most these: the sum that could exceed the steps left
            most = sum(max(d.values(), default=0) for _, d in pairs)
            first = max(1, min(first, T - total - most + 1))
        for t in range(first, T):
            const, lits = self.owed_at(m, i, owed, t, pairs is not None)
            if const > T - t:
                m.add([-guard])
                self.cards += 1
                return
            m.card(lits, "<=", T - t - const, guard=guard)
            self.cards += 1

    def disjoint_owed(self, alt) -> list[tuple[tuple, int]]:
        """``[(movers, k)]``: the counts of ``alt`` that ask for moves (``>=``, ``==``), largest
        first, each kept only if its movers are in none kept before."""
        owed, chosen = [], set()
        for req in sorted((r for r in alt if r.op in (">=", "==") and r.k > 0), key=lambda r: -r.k):
            movers = tuple(movers_of(self.rules, req))
            if chosen & set(movers):
                continue
            chosen |= set(movers)
            owed.append((movers, req.k))
        return owed

    def owed_at(self, m: BoolModel, i: int, owed, t: int, by_distance: bool) -> tuple[int, list[int]]:
        """What is owed at step ``t``: ``(moves owed for certain, literals of moves perhaps owed)``.
        With ``by_distance``, lone movers owe the larger of their count's shortfall and their
        distance (:meth:`needs`); counts of several movers their shortfall alone."""
        const, lits = 0, []
        rest = owed
        if by_distance:
            const, lits = self.needs(m, i, owed, t)
            rest = [(movers, k) for movers, k in owed if len(movers) > 1]
        for movers, k in rest:
            lits += [-self.done(m, movers, t, j) for j in range(1, min(k, t) + 1)]
            const += max(0, k - t)          # more than t moves in t steps: owed for certain
        return const, lits

    def needs(self, m: BoolModel, i: int, owed, t: int) -> tuple[int, list[int]]:
        """The moves movers need at step ``t`` by their distances to alternative ``i``: a mover
        outside the counts its distances' unaries; a lone counted mover
        ``("need", i, mover, t, j)``, the larger of its distance (one target) and its count's
        shortfall.  ``(moves needed for certain, literals)``."""
        alone = {movers[0]: k for movers, k in owed if len(movers) == 1}
        grouped = {mv for movers, _ in owed if len(movers) > 1 for mv in movers}
        by_mover: dict = {}
        for mover, distance in self.distances(m, t, i):
            if mover not in grouped:
                by_mover.setdefault(mover, []).append(distance)
        const, lits = 0, []
        for mover, dists in by_mover.items():
            if mover in alone:          # (below)
                continue
            for n, distance in enumerate(dists):
                if distance:
                    lits += at_least(m, ("near", i, mover, n, t), distance)
        for mover, k in alone.items():
            dists = by_mover.get(mover, [])
            if len(dists) != 1:         # several targets: their sum is not one unary, the count alone
                dists = []
            near = at_least(m, ("near", i, mover, 0, t), dists[0]) if dists and dists[0] else []
            certain = max(0, k - t)
            for j in range(1, max(k, len(near)) + 1):
                if j <= certain:
                    const += 1
                    continue
                key = ("need", i, mover, t, j)
                if not m.has(key):
                    why = ([-self.done(m, (mover,), t, k - j + 1)] if j <= k else []) + near[j - 1:j]
                    for lit in why:
                        m.add([-lit, m.var(key)])
                lits.append(m.var(key))
        return const, lits

    def done(self, m: BoolModel, movers: tuple, t: int, j: int) -> int:
        """``("done", movers, t, j)``: at least ``j`` moves of ``movers`` in the steps before
        ``t`` (1 <= j <= t), a sequential counter over the steps' "moved" literals.  Made step
        by step from the last one made (a horizon of thousands, or the first horizon far from
        0, needs no recursion as deep as itself)."""
        steps, top = self.counters.get(movers, (0, 0))
        if t > steps or j > top:
            first = 1 if j > top else steps + 1
            top, steps = max(top, j), max(steps, t)
            for s in range(first, steps + 1):
                for i in range(1, min(top, s) + 1):
                    if not m.has(("done", movers, s, i)):
                        self._count(m, movers, s, i)
            self.counters[movers] = (steps, top)
        return m.var(("done", movers, t, j))

    @staticmethod
    def _count(m: BoolModel, movers: tuple, t: int, j: int) -> None:
        """The clauses of ``("done", movers, t, j)`` from those of step ``t - 1`` (made)."""
        d = m.var(("done", movers, t, j))
        moved = [m.var(("moved", mv, t - 1)) for mv in movers]
        if len(moved) == 1:
            any_moved = moved[0]
        elif m.has(("moved", movers, t - 1)):
            any_moved = m.var(("moved", movers, t - 1))
        else:
            any_moved = m.var(("moved", movers, t - 1))
            m.equiv_or(any_moved, moved)
        before = m.var(("done", movers, t - 1, j)) if j <= t - 1 else None      # None: false
        less = m.var(("done", movers, t - 1, j - 1)) if j > 1 else None         # None: true
        if before is not None:
            m.add([-before, d])
        m.add([-any_moved, d] if less is None else [-less, -any_moved, d])
        m.add([-d, any_moved] if before is None else [-d, before, any_moved])
        if less is not None:
            m.add([-d, less] if before is None else [-d, before, less])
