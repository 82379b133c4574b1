"""The ``order`` lever: actions that commute kept in one order
(:mod:`puzzleplan.strips.analyses.order`, where the rule and why it is exact are), added once a
run proves hard (:meth:`Order.escalate`: which pairs commute is found then, and the rule costs a
ladder and a clause per action a step, more than an easy run saves)."""
from __future__ import annotations

from ....encodings.order import above_ladder
from ...analyses.order import Interference, interfering_above, schema_ranks
from .base import Lever


class Order(Lever):
    name = "order"

    def __init__(self, enc, on: bool):
        super().__init__(enc, on)
        self.order: ActionOrder | None = None
        self.order_from: int | None = None

    def escalate(self, m, horizon) -> None:
        """One order for commuting actions between every two steps built so far and from now on:
        by schemas first (fewer ladder literals: the measured winner), by actions where schemas
        leave nothing to order (a task of one schema)."""
        if self.order is not None or self.note:
            return
        p = self.enc.rules
        mutexes = p.mutexes() if "mutex" in p.levers else None
        found = None
        for ranks in (schema_ranks(p.ops), None):
            if ranks is not None and len(set(ranks)) < 2:
                continue
            found = interfering_above(p.ops, p.known_ops(), p.task.values, mutexes, ranks)
            if found is None or any(found.free):
                break
        if found is None:
            self.note = "off (too many interfering pairs)"
        elif not any(found.free):
            self.note = "nothing to order (no two actions that can follow each other commute)"
        else:
            self.order = ActionOrder(found)
            self.order_from = horizon
            for t, lits in sorted(self.enc.step_moves.items()):
                self.order.step(m, t, lits)

    def step(self, m, t, mvs) -> None:
        if self.order is not None:
            self.order.step(m, t, mvs)

    def figures(self) -> dict:
        if self.note:
            return {"order": self.note}
        if self.order is not None:
            return dict(order_clauses=self.order.clauses, order_from_horizon=self.order_from, order_by=self.order.by)
        return {"order": "not needed (an easy run)"}


class ActionOrder:
    """Adds the rule between consecutive steps as they are built, in any order (the goal
    side of the double-ended unrolling builds its steps backwards)."""

    def __init__(self, found: Interference):
        self.above = found.above
        self.n = len(found.above)
        # actions that some independent action of higher rank could precede: the others need no clause
        self.free = found.free
        self.ranks = found.ranks or tuple(range(self.n))
        self.top = max(self.ranks, default=0)
        self.by_action = self.ranks == tuple(range(self.n))
        self.by = "actions" if self.by_action else f"{self.top + 1} ranks"
        self.steps: dict[int, list[int]] = {}
        self.clauses = 0

    def step(self, m, t: int, lits: list[int]) -> None:
        """Step ``t``'s action literals, by index; tie it to its built neighbours."""
        self.steps[t] = lits
        if self.by_action:
            above_ladder(m, "ord_above", self.n, t, lits.__getitem__)
        else:
            for k in range(self.top - 1):
                m.add([-m.var(("ord_above", k + 1, t)), m.var(("ord_above", k, t))])
            for a, r in enumerate(self.ranks):
                if r:
                    m.add([-lits[a], m.var(("ord_above", r - 1, t))])
        if t - 1 in self.steps:
            self._pair(m, t - 1)
        if t + 1 in self.steps:
            self._pair(m, t)

    def _pair(self, m, t: int) -> None:
        before, after = self.steps[t], self.steps[t + 1]
        for b in range(self.n):
            if self.free[b] and self.ranks[b] < self.top:
                m.add([-after[b], -m.var(("ord_above", self.ranks[b], t)), *(before[a] for a in self.above[b])])
                self.clauses += 1
