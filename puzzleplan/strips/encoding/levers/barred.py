"""The ``inverse`` and ``shortcut`` levers: pairs (a, b) with b never straight after a -- b undoes
a (:mod:`puzzleplan.strips.analyses.inverse`), or one action does both
(:mod:`puzzleplan.strips.analyses.shortcut`).  Each lever finds its pairs; the encoder bars
them all, per action as its step is built (:meth:`~..steps.StepsEncoder.bar`)."""
from __future__ import annotations

from ...analyses.inverse import inverse_pairs
from ...analyses.shortcut import shortcuts
from .base import Lever


class Inverse(Lever):
    """Not when a move count ``>= k`` or ``== k`` could need the moves undone."""

    name = "inverse"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        rewarded = any(r.op in (">=", "==") and r.k > 0 for alt in enc.alts for r in alt)
        if on and rewarded:
            self.note = "off (a move count >= k or == k may need moves undone)"
        self.pairs = set() if self.note else set(inverse_pairs(enc.rules.known_ops()))

    def figures(self) -> dict:
        return {"inverse": self.note} if self.note else {"inverse_pairs": len(self.pairs)}


class Shortcut(Lever):
    """Not with move counts or frozen pieces: the one action doing two may be another mover's."""

    name = "shortcut"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        if on and (enc.counted or enc.still):
            self.note = "off (move counts or frozen pieces)"
        self.pairs = set()
        if not self.note:
            costs = [op.cost if enc.costed else 1 for op in enc.rules.ops]
            self.pairs = {(i, j) for i, j, _ in shortcuts(enc.rules.known_ops(), costs)}

    def figures(self) -> dict:
        return {"shortcut": self.note} if self.note else {"shortcut_pairs": len(self.pairs)}
