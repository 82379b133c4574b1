"""The finite-domain (SAS+) task both grounders make (:mod:`.grounder` and the translator,
:mod:`.translator`).

Representation
--------------
variable   ``v``: an index; its values ``0 .. range-1`` are named facts
           (``at(box1, pos-2-3)``, ``not clear(c-0-1)``, ``<none of those>``)
state      ``tuple`` of one value per variable
operator   :class:`Operator`: a ground action, its name as a plan writes it
           (``push-to-goal player-01 pos-2-3 pos-3-3 pos-4-3 dir-right stone-01``),
           preconditions ``((v, x), ...)``, effects ``((v, x), ...)``, cost
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Operator:
    name: str
    pre: tuple[tuple[int, int], ...]       # every (variable, value) that must hold
    eff: tuple[tuple[int, int], ...]       # (variable, new value)
    cost: int


@dataclass(frozen=True)
class Grounded:
    """A SAS+ task."""

    name: str                                   # the problem's name
    domain: str                                 # the domain's name
    values: tuple[tuple[str, ...], ...]         # per variable, its values' fact names
    init: tuple[int, ...]
    goal: tuple[tuple[int, int], ...]
    operators: tuple[Operator, ...]
    mutexes: tuple[tuple[tuple[int, int], ...], ...]
    costs: bool                                 # the task has action costs
    seconds: float = 0.0                        # the grounder's wall time
    levers: tuple[str, ...] | None = None       # what the rules add (None: the defaults, rules.LEVERS)
    goals: tuple[tuple[tuple[int, int], ...], ...] = ()     # goal alternatives, if any (then ``goal`` is unused)
    grounder: str = "translator"                # who grounded it: "own" (:mod:`.grounder`) or the translator

    def alternatives(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The goal as alternatives: each a conjunction of (variable, value); one, ``goal``,
        unless the problem's goal was a disjunction or an ``exists`` (:func:`parse_sas`)."""
        return self.goals or (self.goal,)

    @property
    def facts(self) -> int:
        return sum(len(v) for v in self.values)

    def size(self) -> str:
        return (f"{len(self.values):,} variables, {self.facts:,} facts, {len(self.operators):,} actions"
                + (", action costs" if self.costs else ""))
