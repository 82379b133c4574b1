"""Distances in each variable's domain transition graph: an admissible bound that adds up.

A variable's domain transition graph has an edge x -> y for every action that sets the
variable to y from x (its precondition on the variable, or from every other value when it
has none; an effect that sets what its precondition already says is no edge), weighed by
the action's cost (1 in ``steps``).  The distance from x to the goal's value ignores every
other precondition, so it is never more than what a plan spends on that variable.  An
action moves a variable along one edge at most, so a plan changes the distance by at most
its cost per step.  Over a set of variables no action changes two of (*independent*: a
sliding puzzle's pieces, each its own variable), those distances add up: each action
serves one of them at most.  The set is chosen greedily, the variables with the longest
distances first.

What uses it:

- the rules' heuristic (:meth:`puzzleplan.families.strips.rules.StripsTask.heuristic`): the sum at a state (the least over goal
  alternatives), beside h^max and the counting bound; consistent (a step of cost c lowers it
  by at most c), so A* never reopens a state for it.
- the SAT encoding's goal side (:meth:`puzzleplan.strips.encoding.levers.bound.Bound.goal_bound`): on a layer j
  moves from the goal, a goal variable has no value more than j away, and the summed
  variables' distances add up to at most j (the sliding family's goal bound, for any task);
  the start side (:meth:`puzzleplan.strips.encoding.levers.bound.Bound.start_bound`, on with ``--bounds``) likewise
  from the start's values.
  A goal variable's value from which no path leads to its goal value is false on every
  goal-side layer (a state of no plan; the start side keeps every successor of the rules).
"""
from __future__ import annotations

import heapq
from typing import Sequence

from ... import limits

INF = float("inf")


def _changes(op) -> list[tuple[int, int | None, int]]:
    """``(variable, from value or None for any, to value)`` of each effect that changes a value."""
    pre = dict(op.pre)
    return [(v, pre.get(v), y) for v, y in op.eff if pre.get(v) != y]


class Distances:
    """Per variable the edges of its transition graph; per goal alternative each goal variable's
    distances to its goal value and the variables summed; the distances from the start."""

    def __init__(self, values: Sequence, ops: Sequence, costs: Sequence[int], alternatives: Sequence,
                 initial: Sequence[int]):
        n = len(values)
        # edges into y: (from x or None, cost); per variable
        self.into: list[dict[int, list]] = [{} for _ in range(n)]
        self.out: list[dict] = [{} for _ in range(n)]
        touched: list[set[int]] = []       # per action: the variables it changes
        for op, cost in zip(ops, costs):
            limits.checkpoint()
            ch = _changes(op)
            for v, x, y in ch:
                self.into[v].setdefault(y, []).append((x, cost))
                self.out[v].setdefault(x, []).append((y, cost))
            touched.append({v for v, _, _ in ch})
        self.together: dict[int, set[int]] = {}     # variables changed by one action with v
        for vs in touched:
            if len(vs) > 1:
                for v in vs:
                    self.together.setdefault(v, set()).update(vs - {v})
        self.sizes = [len(names) for names in values]
        # per alternative: [(v, distances to its goal value)], and the variables summed
        self.to_goal: list[list[tuple[int, list]]] = []
        self.summed: list[frozenset[int]] = []
        for alt in alternatives:
            dist = [(v, self._to(v, g)) for v, g in alt]
            self.to_goal.append(dist)
            self.summed.append(self._independent(dist))
        self.initial = tuple(initial)
        self._from_start: list | None = None
        self._start_summed: frozenset | None = None

    def _to(self, v: int, g: int) -> list:
        """Distances from each value of v to g (the edges read backwards)."""
        everyone = range(self.sizes[v])
        into = self.into[v]
        return self._shortest(v, g, lambda y: ((s, c) for x, c in into.get(y, ()) for s in (everyone if x is None else (x,))))

    def _from(self, v: int, s: int) -> list:
        """Distances from s to each value of v."""
        out = self.out[v]
        return self._shortest(v, s, lambda x: out.get(x, []) + out.get(None, []))

    def _shortest(self, v: int, source: int, step) -> list:
        """Dijkstra over v's values from ``source``, ``step(a)`` giving ``(b, cost)`` pairs."""
        dist = [INF] * self.sizes[v]
        dist[source] = 0
        heap = [(0, source)]
        while heap:
            d, a = heapq.heappop(heap)
            if d > dist[a]:
                continue
            for b, c in step(a):
                if b != a and d + c < dist[b]:
                    dist[b] = d + c
                    heapq.heappush(heap, (d + c, b))
        return dist

    def _independent(self, distances) -> frozenset[int]:
        """Of ``distances`` (``(v, its values' distances)``), variables no action changes two of,
        those whose farthest reachable value is farthest first (none at all: left out)."""
        weight = {v: max((d for d in ds if d < INF), default=0) for v, ds in distances}
        chosen: set[int] = set()
        for v in sorted(weight, key=lambda v: (-weight[v], v)):
            if weight[v] > 0 and not (self.together.get(v, set()) & chosen):
                chosen.add(v)
        return frozenset(chosen)

    def __call__(self, state) -> float:
        """The least over goal alternatives of the summed variables' distances at ``state``
        (INF when every alternative has a goal variable whose value cannot reach its goal's)."""
        best = INF
        for dist, summed in zip(self.to_goal, self.summed):
            total = single = 0
            for v, ds in dist:
                d = ds[state[v]]
                if d == INF:
                    total = INF
                    break
                single = max(single, d)
                if v in summed:
                    total += d
            best = min(best, max(total, single))
        return best

    def from_start(self) -> tuple[list, frozenset]:
        """Per variable the distances of its values from the start's value, and the variables
        summed on the start side (no action changes two of them), made once."""
        if self._from_start is None:
            self._from_start = [self._from(v, s) for v, s in enumerate(self.initial)]
            self._start_summed = self._independent(enumerate(self._from_start))
        return self._from_start, self._start_summed
