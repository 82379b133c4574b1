"""What a lever is (:mod:`puzzleplan.strips.encoding.levers`): an object made with each encoder,
on or off as the task's levers say, that states its clauses at the encoder's fixed points and
reports its figures."""
from __future__ import annotations


class Lever:
    """One lever of one encoder (``enc``: :class:`~puzzleplan.strips.encoding.steps.StepsEncoder`).
    ``note``: why it adds nothing ("off", "off (move counts)", ...), empty when it is at work.
    Each hook adds clauses at one point of the encoding; the defaults add nothing."""

    name = ""

    def __init__(self, enc, on: bool):
        self.enc, self.on = enc, on
        self.note = "" if on else "off"

    def state(self, m, t: int, lit: list) -> None:
        """Every state layer t (``lit[v][x]``: its literal of each value)."""

    def goal_side(self, m, t: int) -> None:
        """A goal-side state t of the double-ended unrolling."""

    def step(self, m, t: int, mvs) -> None:
        """Each transition t -> t + 1, after its frame axioms (``mvs``: its action literals)."""

    def escalate(self, m, horizon: int) -> None:
        """Once the run proves hard."""

    def figures(self) -> dict:
        """What it added, for the run's figures."""
        return {}
