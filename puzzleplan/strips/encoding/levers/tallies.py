"""The ``tallies`` lever: the counts no action changes (:attr:`CountingBound.constant
<puzzleplan.strips.analyses.counting.CountingBound>`), those worth stating (:func:`tallies`): a
few facts of a group (one or two: a board's empty cells) counted at every step, larger counts
"exactly k" on the goal side of the double-ended unrolling."""
from __future__ import annotations

from .base import Lever

#: the largest count of a group stated at every step (:func:`tallies`): a board's one or two
#: empty cells, as the sliding family's own encoding says them
MAX_SCARCE = 2


def tallies(constant, values) -> tuple[list, list]:
    """The counts worth stating of those no action changes, as ``(tallies, scarce)``, each a
    list of ``(facts, k)``: none that every state holds by its variables' one-hots (each
    variable's values all in the group: the 8-puzzle's tiles).  *Scarce*: a predicate's whole
    count of at most :data:`MAX_SCARCE`, stated at every step, Booleans included (a sliding
    board's one or two empty cells: Pennant's export from 143k to 37k conflicts up to horizon
    45, as its native file says its empty cells at every step; a kind's two pieces too: 32k,
    but Rush Hour card 38 in slides 14.8k -> 17.2k, card 40 in steps 16.4k -> 17.2k: a kind's
    count stays on the goal side).  *Tallies*, the other counts above one, on the goal
    side only: a predicate's whole count (not only a kind's) when each of its facts is one of
    more than two values of its variable (a Sokoban cell holds a box, is clear, or holds the
    player: the boxes' count is said nowhere else), not when a fact is a Boolean beside its
    negation (Rush Hour's clear cells: their count follows from the cars', and its
    cardinality constraint cost card 38 in slides 3 s for no fewer conflicts), nor when its
    first arguments' counts add up to it (Rush Hour's ``at`` from each kind's cars)."""
    groups = {g: set(f) for g, f, _ in constant}
    out, scarce = [], []
    for g, facts, k in constant:
        in_group = {}
        for v, x in facts:
            in_group[v] = in_group.get(v, 0) + 1
        if all(n == len(values[v]) for v, n in in_group.items()):
            continue
        if k <= MAX_SCARCE and len(facts) > k and "(" not in g:
            scarce.append((facts, k))
            continue
        if k <= 1:
            continue
        if "(" not in g:
            if any(len(values[v]) <= 2 for v in in_group):
                continue
            parts = [f for h, f in groups.items() if h.startswith(g + "(")]
            if parts and set().union(*parts) >= set(facts):
                continue
        out.append((facts, k))
    return out, scarce


class Tallies(Lever):
    name = "tallies"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        self.tallies, self.scarce = tallies(enc.rules.counting().constant, enc.values) if on else ([], [])
        self.scarce_constraints = self.tally_constraints = 0

    def state(self, m, t, lit) -> None:
        for facts, k in self.scarce:
            m.card([lit[v][x] for v, x in facts], "==", k)
        self.scarce_constraints += len(self.scarce)

    def goal_side(self, m, t) -> None:
        """Each tally's "exactly k" (the whole "exactly k" at every step, or as cardinality
        constraints for k > 1 too on the start side, was no faster)."""
        for facts, k in self.tallies:
            m.card([self.enc.val(m, v, x, t) for v, x in facts], "==", k)
        self.tally_constraints += len(self.tallies)

    def figures(self) -> dict:
        if not self.on:
            return {"tallies": "off"}
        out = dict(tallies=len(self.tallies), tally_constraints=self.tally_constraints)
        if self.scarce:
            out.update(scarce_counts=len(self.scarce), scarce_constraints=self.scarce_constraints)
        return out
