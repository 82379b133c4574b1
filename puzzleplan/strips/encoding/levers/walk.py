"""The ``walk`` lever: under cost, a run of actions of cost 0 that follows one variable (a
Sokoban player's walk, :func:`puzzleplan.strips.analyses.free.tracking`) as one transition
that reaches p's values (:mod:`..walk`), not a layer per action.  Not with move counts (they
count a walk's actions) nor avoided facts (a walk's own states are not laid out)."""
from __future__ import annotations

from .base import Lever


class Walk(Lever):
    name = "walk"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        if on and (enc.counted or enc.rules.avoided):
            self.note = "off (move counts or avoided facts)"
