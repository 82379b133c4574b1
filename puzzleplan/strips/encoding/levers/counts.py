"""The ``counts`` lever (off by default: its search cost more than it saved): once a run proves
hard, the goal side of the double-ended unrolling also says "at least one" of each set of facts
that every reachable state holds exactly one of (:mod:`puzzleplan.strips.analyses.counts`: a
cell is empty or covered), which its otherwise free states lack and the start side keeps by
itself; the mutexes say "at most one"."""
from __future__ import annotations

from .base import Lever


class Counts(Lever):
    name = "counts"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        self.one_of: list | None = None       # sought once the run proves hard (:meth:`escalate`)
        self.counts_from: int | None = None
        self.clauses = 0

    def goal_side(self, m, t) -> None:
        self._one_of(m, [t])

    def escalate(self, m, horizon) -> None:
        """The counting invariants (their search costs more than an easy run's whole time), stated
        on every goal-side state built so far and from now on."""
        if self.one_of is None and self.on and self.enc.goal_steps:
            self.one_of = [c for c in self.enc.rules.counts() if c.k == 1]
            self.counts_from = horizon
            self._one_of(m, self.enc.goal_steps)

    def _one_of(self, m, steps) -> None:
        if self.one_of is None:
            return
        for t in steps:
            for c in self.one_of:
                m.add([self.enc.val(m, v, x, t) for v, x in c.facts])
            self.clauses += len(self.one_of)

    def figures(self) -> dict:
        if not self.on:
            return {"exactly_one_sets": "off"}
        if self.one_of is not None:
            return dict(exactly_one_sets=len(self.one_of), count_clauses=self.clauses, counts_from_horizon=self.counts_from)
        if self.enc.goal_steps:
            return {"exactly_one_sets": "not sought (an easy run)"}
        return {}
