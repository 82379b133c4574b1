"""The ``bound`` lever in the encoding: the transition graphs' distances
(:mod:`puzzleplan.strips.analyses.dtg`) as constraints on a layer of the double-ended
unrolling (:mod:`puzzleplan.planner.double`), the goal side's always, the start side's with
``--bounds``.  (The search's side of the lever, h^max, the counting bound and LM-cut, is the
rules' heuristic.)"""
from __future__ import annotations

from .base import Lever


class Bound(Lever):
    name = "bound"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        self.sum_pays: bool | None = None     # whether the goal side's distances are summed

    def _distances(self):
        return self.enc.rules.distances() if self.on else None

    def goal_bound(self, m, t, moves_left) -> bool:
        """No goal variable has a value more moves from its goal value than are left (nor one from
        which none leads there: a state of no plan, not stated on the start side, where a step
        keeps every successor of the rules), and the distances of the variables no action
        changes two of add up to at most the moves left (the sliding family's goal bound, for
        any task) where that sum at the start is more than LM-cut there (the 8-puzzle's tiles,
        not a knight swap's squares nor a Sokoban room's cells, where it cost more than it
        saved).  With several goal alternatives, none (the bound would be the least of theirs)."""
        dist = self._distances()
        if dist is None or len(dist.to_goal) != 1:
            return False
        if self.sum_pays is None:
            p = self.enc.rules
            self.sum_pays = dist(p.initial) > max(p.relaxed().hmax(p.initial), p.lmcut_at_start())
        return self._within(m, t, dist.to_goal[0], dist.summed[0] if self.sum_pays else (), moves_left, ("far", t))

    def start_bound(self, m, t, moves_done) -> bool:
        """No variable has a value further from its start value than the moves made, and the
        variables no action changes two of have made, together, at most the moves made: their
        values' distances from the start's add up to at most ``moves_done``."""
        dist = self._distances()
        if dist is None:
            return False
        ds, summed = dist.from_start()
        return self._within(m, t, enumerate(ds), summed, moves_done, ("from", t))

    def _within(self, m, t, distances, summed, moves, key) -> bool:
        """At step t, no value of ``distances``' variables (``(v, its values' distances)``) more
        than ``moves`` away, and the ``summed`` variables' distances adding up to at most
        ``moves`` (:meth:`~puzzleplan.encodings.base.Encoder.distance_sum`); True if anything
        was added."""
        lit = self.enc.lits(m, t)
        added = False
        groups = []
        for v, ds in distances:
            for x, d in enumerate(ds):
                if d > moves:
                    m.add([-lit[v][x]])
                    added = True
            if v in summed:
                groups.append(({lit[v][x]: d for x, d in enumerate(ds) if d <= moves}, "min"))
        return (bool(groups) and self.enc.distance_sum(m, key, groups, moves)) or added

    def figures(self) -> dict:
        if self.sum_pays is None:
            return {}
        return {"distance_sum": "stated" if self.sum_pays else "not stated (no more than LM-cut at the start)"}
