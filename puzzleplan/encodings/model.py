"""A solver-neutral Boolean model: variables named by tuples, clauses, and
cardinality constraints kept symbolic until a backend lowers them.

Variables are numbered 1, 2, ... in order of creation; the number exists only
inside the model and the backends.  Every variable has a key (a tuple such as
``("at", kind, (x, y), t)``); auxiliaries made by a backend get ``("aux", n)``.
The model is append-only: a backend asks for what is new since it last looked,
so one incremental solver can follow a model as horizons are added.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

from ..limits import checkpoint


@dataclass(frozen=True)
class Card:
    """``sum(lits) op k`` with op in ``<= >= ==``; enforced only when ``guard`` is true
    (``guard=None``: always)."""

    lits: tuple[int, ...]
    op: str
    k: int
    guard: int | None = None


class BoolModel:
    def __init__(self) -> None:
        self.ids: dict[Hashable, int] = {}
        self.keys: list[Hashable] = [None]
        self.items: list[tuple[int, ...] | Card] = []
        # step -> the literals whose number is what the step's move weighs, for an encoding
        # whose moves weigh other than 1 (PDDL action costs); a minimising backend counts
        # these instead of the moves
        self.cost_units: dict[int, list[int]] = {}

    # -- variables ---------------------------------------------------------------
    def var(self, key: Hashable) -> int:
        """The variable named ``key``, created on first use."""
        v = self.ids.get(key)
        if v is None:
            checkpoint()
            v = self.ids[key] = len(self.keys)
            self.keys.append(key)
        return v

    def has(self, key: Hashable) -> bool:
        return key in self.ids

    def fresh(self, tag: str = "aux") -> int:
        return self.var((tag, len(self.keys)))

    def reserve(self, top: int) -> None:
        """Name variables up to ``top`` made outside (a backend's cardinality auxiliaries)."""
        while len(self.keys) <= top:
            self.fresh("aux")

    @property
    def top(self) -> int:
        return len(self.keys) - 1

    def key(self, v: int) -> Hashable:
        return self.keys[abs(v)]

    # -- constraints --------------------------------------------------------------
    def add(self, clause: Iterable[int]) -> None:
        checkpoint()
        self.items.append(tuple(clause))

    def implies(self, a: int, clause: Iterable[int]) -> None:
        """``a -> (l1 or l2 ...)``."""
        self.add((-a, *clause))

    def card(self, lits: Sequence[int], op: str, k: int, guard: int | None = None) -> None:
        lits = tuple(lits)
        if op == "<=" and k >= len(lits) or op == ">=" and k <= 0:
            return
        self.items.append(Card(lits, op, k, guard))

    def at_most_one(self, lits: Sequence[int], guard: int | None = None) -> None:
        self.card(lits, "<=", 1, guard)

    def exactly_one(self, lits: Sequence[int], guard: int | None = None) -> None:
        self.card(lits, "==", 1, guard)

    def equiv_or(self, out: int, lits: Sequence[int]) -> None:
        """``out <-> OR(lits)``."""
        self.add((-out, *lits))
        for lit in lits:
            self.add((out, -lit))

    def equiv_and(self, out: int, lits: Sequence[int]) -> None:
        """``out <-> AND(lits)``."""
        self.add((out, *(-lit for lit in lits)))
        for lit in lits:
            self.add((-out, lit))

    # -- reading -------------------------------------------------------------------
    def since(self, index: int) -> list[tuple[int, ...] | Card]:
        return self.items[index:]

    def true_keys(self, values: set[int], prefix: str) -> list[Hashable]:
        """Keys starting with ``prefix`` whose variable is true in ``values``."""
        return [self.keys[v] for v in values if 0 < v < len(self.keys)
                and isinstance(self.keys[v], tuple) and self.keys[v][0] == prefix]
