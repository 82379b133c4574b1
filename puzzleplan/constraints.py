"""Move-count conditions on top of any domain, for search and validation.

A domain may offer several goal alternatives (``goal_alternatives()``, each with
its own :class:`MoveCount` requirements, as seed 003 does); extra counts given by
the user apply to every alternative.  The wrapped state is ``(state, counters)``
with one counter per counted piece, capped just above the largest bound so the
state space stays finite.
"""
from __future__ import annotations

from typing import Sequence

from .puzzle import MoveCount


def alternatives(domain) -> list[tuple[MoveCount, ...]]:
    return list(domain.goal_alternatives()) if hasattr(domain, "goal_alternatives") else [()]


class Counted:
    """``domain`` with move counters in its state; same protocol as a domain."""

    def __init__(self, domain, counts: Sequence[MoveCount] = ()):
        self.base = domain
        self.extra = tuple(counts)
        self.name, self.metrics = domain.name, domain.metrics
        self.alts = [tuple(alt) + tuple(counts) for alt in alternatives(domain)]
        movers = sorted({domain.mover_of(r.piece) for alt in self.alts for r in alt})
        self.slot = {m: i for i, m in enumerate(movers)}
        self.cap = 1 + max((r.k for alt in self.alts for r in alt), default=0)
        self.initial = (domain.initial, (0,) * len(movers))

    @property
    def needed(self) -> bool:
        return bool(self.slot)

    def _holds(self, counters, alt) -> bool:
        return all(r.holds(counters[self.slot[self.base.mover_of(r.piece)]]) for r in alt)

    def is_goal(self, state) -> bool:
        base, counters = state
        for i, alt in enumerate(self.alts):
            placed = self.base.is_goal_alt(base, i) if hasattr(self.base, "is_goal_alt") else self.base.is_goal(base)
            if placed and self._holds(counters, alt):
                return True
        return False

    def successors(self, state, metric):
        base, counters = state
        for move, nxt in self.base.successors(base, metric):
            slot = self.slot.get(move.mover)
            if slot is None:
                yield move, (nxt, counters)
            else:
                c = list(counters)
                c[slot] = min(c[slot] + 1, self.cap)
                yield move, (nxt, tuple(c))

    def heuristic(self, state, metric) -> int:
        return self.base.heuristic(state[0], metric)

    def __getattr__(self, attr):
        return getattr(self.base, attr)
