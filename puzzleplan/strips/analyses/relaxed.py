"""Admissible lower bounds on a grounded task by delete relaxation: h^max (Bonet and
Geffner 2001) and LM-cut (Helmert and Domshlak 2009).

Representation
--------------
fact     a number ``f`` for each value ``(v, x)`` of each variable: ``offset[v] + x``
state    one value per variable; its facts are ``offset[v] + state[v]``
action   a ground operator that can be used in a plan: preconditions and effects as
         facts, a cost (1 in ``steps``; its own cost in ``cost``).  An operator whose
         effect makes an avoided fact true is never usable and is left out
relaxed  facts only accumulate: an action applies once each of its preconditions has
         been reached, and reaches its effects

h^max(s): the cost of the costliest goal fact, where a fact costs the cheapest action
adding it plus that action's costliest precondition.  Admissible and consistent
(A* needs no reopening with it).  LM-cut is h^max's cost-partitioned refinement:
it repeatedly cuts the justification graph in front of the goal, adds the cheapest
action of the cut and takes that cost off the cut's actions; admissible, at least
h^max, often much more, but not consistent: it is used where one state is bounded
(the SAT deepening's first horizon), and A* reopens states for it.

Both cost one pass over the actions per state (LM-cut: one per cut); facts the
relaxation never reaches make the state a dead end (:data:`DEAD_END`).
"""
from __future__ import annotations

import heapq
from typing import Sequence

from ... import limits

DEAD_END = 10 ** 6      # no relaxed plan: the goal cannot be reached (as Sokoban's dead boxes)
INF = float("inf")


class Relaxed:
    """The delete relaxation of a task (:class:`~puzzleplan.strips.analyses.Analyses`: its
    ``task``, ``ops`` and ``avoided`` facts), each action costing its own cost (``costed``) or 1."""

    def __init__(self, task, costed: bool):
        values = task.task.values
        self.offset = []
        n = 0
        for names in values:
            self.offset.append(n)
            n += len(names)
        self.nfacts = n
        avoided = {self.offset[v] + x for v, x in task.avoided}
        self.pre: list[tuple[int, ...]] = []
        self.eff: list[tuple[int, ...]] = []
        self.cost: list[int] = []
        for op in task.ops:
            limits.checkpoint()
            eff = tuple(self.offset[v] + x for v, x in op.eff)
            if avoided.intersection(eff):
                continue
            self.pre.append(tuple(self.offset[v] + x for v, x in op.pre))
            self.eff.append(eff)
            self.cost.append(op.cost if costed else 1)
        alts = task.task.alternatives()
        if len(alts) > 1:       # goal alternatives: one more fact, reached at no cost from any of them
            for alt in alts:
                self.pre.append(tuple(sorted({self.offset[v] + x for v, x in alt})))
                self.eff.append((n,))
                self.cost.append(0)
            n = self.nfacts = n + 1
            self.goal = (n - 1,)
        else:
            self.goal = tuple(sorted({self.offset[v] + x for v, x in alts[0]}))
        self.pre_of: list[list[int]] = [[] for _ in range(n)]
        for a, pre in enumerate(self.pre):
            for f in pre:
                self.pre_of[f].append(a)
        self.free = [a for a, pre in enumerate(self.pre) if not pre]
        self.unit = all(c == 1 for c in self.cost)
        self.missing = [len(p) for p in self.pre]

    def facts(self, state) -> list[int]:
        return [self.offset[v] + x for v, x in enumerate(state)]

    # -- h^max --------------------------------------------------------------------
    def hmax(self, state) -> int:
        """h^max of ``state`` (:data:`DEAD_END` if the relaxation never reaches the goal)."""
        if not self.goal:
            return 0
        if self.unit:
            return self._layers(self.facts(state))
        dist = self._costs(self.facts(state), self.cost, stop=self.goal)
        worst = max(dist.get(g, INF) for g in self.goal)
        return DEAD_END if worst == INF else int(worst)

    def _layers(self, start: list[int]) -> int:
        """h^max with unit costs: the relaxed planning graph's first layer holding the goal."""
        reached = bytearray(self.nfacts)
        for f in start:
            reached[f] = 2          # 1: reached in the layer being made, 2: before it
        goal = self.goal
        left = sum(1 for g in goal if not reached[g])
        if left == 0:
            return 0
        missing = self.missing[:]
        pre_of, eff = self.pre_of, self.eff
        layer, level = start, 0
        fired = list(self.free)
        while True:
            for f in layer:
                for a in pre_of[f]:
                    missing[a] -= 1
                    if missing[a] == 0:
                        fired.append(a)
            limits.checkpoint(len(layer) + len(fired))
            nxt = []
            for a in fired:
                for g in eff[a]:
                    if not reached[g]:
                        reached[g] = 1
                        nxt.append(g)
            level += 1
            left -= sum(1 for g in goal if reached[g] == 1)
            if left <= 0:
                return level
            for g in nxt:
                reached[g] = 2          # counted
            if not nxt:
                return DEAD_END
            layer, fired = nxt, []

    def _costs(self, start: Sequence[int], cost: Sequence[int], stop: Sequence[int] = ()) -> dict[int, float]:
        """h^max cost of every fact reached from ``start`` (a generalised Dijkstra); with
        ``stop``, it ends once every fact of ``stop`` is settled."""
        dist = {f: 0 for f in start}
        heap = [(0, f) for f in start]
        missing = [len(p) for p in self.pre]
        done: set[int] = set()
        left = len(set(stop))
        wanted = set(stop)

        def reach(a: int, d: float) -> None:
            c = d + cost[a]
            for g in self.eff[a]:
                if c < dist.get(g, INF):
                    dist[g] = c
                    heapq.heappush(heap, (c, g))

        for a in self.free:
            reach(a, 0)
        while heap:
            d, f = heapq.heappop(heap)
            if f in done:
                continue
            done.add(f)
            limits.checkpoint(1 + len(self.pre_of[f]))
            if f in wanted:
                left -= 1
                if left == 0:
                    break
            for a in self.pre_of[f]:
                missing[a] -= 1
                if missing[a] == 0:        # f is its costliest precondition: settled last
                    reach(a, d)
        return dist

    # -- LM-cut ---------------------------------------------------------------------
    def lmcut(self, state, work: int | None = None) -> int:
        """LM-cut of ``state`` (:data:`DEAD_END` if the relaxation never reaches the goal).
        Past ``work`` units (a cut's pass over the actions and facts counts as many units) it
        returns the cuts' costs found so far: less, still admissible.  Counted, not timed: the
        same bound on a busy machine."""
        if not self.goal:
            return 0
        start = self.facts(state)
        cost = list(self.cost)
        total = 0
        spent, per_cut = 0, len(self.pre) + len(self.pre_of)
        while work is None or spent < work:
            spent += per_cut
            dist = self._costs(start, cost)
            if any(g not in dist for g in self.goal):
                return DEAD_END if total == 0 else total      # (not after a cut: costs only drop)
            if max(dist[g] for g in self.goal) == 0:
                return total
            cut = self._cut(start, dist, cost)
            least = min(cost[a] for a in cut)
            total += least
            for a in cut:
                cost[a] -= least
        return total

    def _cut(self, start: Sequence[int], dist: dict, cost: Sequence[int]) -> list[int]:
        """The actions of the landmark cut: those reaching the goal zone (facts from which
        the goal is reached through zero-cost supporters) from outside it."""
        # each action's supporter: its costliest precondition (ties: any; the start for none)
        supporter = {}
        for a, pre in enumerate(self.pre):
            if all(p in dist for p in pre):
                supporter[a] = max(pre, key=lambda p: dist[p]) if pre else None
        # the goal zone: backward from the costliest goal fact (the goal's supporter) through
        # zero-cost actions to their supporters; its facts cost at least as much, none is a start fact
        zone = {max(self.goal, key=lambda g: dist[g])}
        adders: dict[int, list[int]] = {}
        for a, s in supporter.items():
            for g in self.eff[a]:
                adders.setdefault(g, []).append(a)
        todo = list(zone)
        while todo:
            g = todo.pop()
            limits.checkpoint()
            for a in adders.get(g, ()):
                s = supporter[a]
                if cost[a] == 0 and s is not None and s not in zone:
                    zone.add(s)
                    todo.append(s)
        # forward from the start, not entering the zone: the actions that cross into it
        seen = set(start)
        todo = list(start)
        cut = set()
        by_supporter: dict[int | None, list[int]] = {}
        for a, s in supporter.items():
            by_supporter.setdefault(s, []).append(a)
        frontier = list(by_supporter.get(None, ()))
        while True:
            for a in frontier:
                limits.checkpoint()
                for g in self.eff[a]:
                    if g in zone:
                        cut.add(a)
                    elif g not in seen:
                        seen.add(g)
                        todo.append(g)
            if not todo:
                break
            f = todo.pop()
            frontier = by_supporter.get(f, [])
        return sorted(cut)
