"""The translator's order of the finite-domain variables (Helmert 2006, section 5.2, with its
weights), from the causal graph: an edge from each variable an action needs to each it
changes, weighted by the actions (used by :mod:`.finite_domain`)."""
from __future__ import annotations

import heapq
from collections import defaultdict, deque


def causal_order(n: int, ops: list, goal_vars: set) -> list[int]:
    """The translator's order of the variables (Helmert 2006, section 5.2, with its weights):
    the strongly connected components of the causal graph (an edge from each variable an
    action needs to each it changes, weighted by the actions) in topological order, each
    made acyclic greedily (the variable with the least weight coming in first, a goal
    variable's edges weighing 100,000 more)."""
    weight = [defaultdict(int) for _ in range(n)]
    for _, pre, eff, _ in ops:
        for t, _ in eff:
            for s, _ in pre:
                if s != t:
                    weight[s][t] += 1
    order = []
    for scc in _components([sorted(w) for w in weight]):
        if len(scc) == 1:
            order.append(scc[0])
            continue
        inside = set(scc)
        edges = {v: [] for v in scc}
        for v in scc:
            for t, w in sorted(weight[v].items()):
                if t in inside:
                    if t in goal_vars:
                        edges[v].append((t, 100_000 + w))
                    edges[v].append((t, w))
        order += _greedy_dag(edges, scc)
    return order


def _components(succ: list[list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components, in topological order, each in the order its
    vertices were reached (vertices and successors visited in increasing order)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in range(len(succ)):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, 0)]
        while work:
            v, i = work[-1]
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                at = stack.index(v)
                scc = stack[at:]
                del stack[at:]
                on_stack.difference_update(scc)
                out.append(scc)
    out.reverse()
    return out


def _greedy_dag(edges: dict, given: list) -> list:
    """The vertices of one component, each next the one with the least weight still coming in
    (ties: the one waiting longest at that weight, first in ``given`` order)."""
    incoming: dict = defaultdict(int)
    for out in edges.values():
        for t, w in out:
            incoming[t] += w
    waiting: dict = defaultdict(deque)
    for v in given:
        waiting[incoming[v]].append(v)
    heap = list(waiting)
    heapq.heapify(heap)
    done, result = set(), []
    while heap:
        key = heap[0]
        entries = waiting[key]
        pick = None
        while entries and (pick is None or pick in done or key > incoming[pick]):
            pick = entries.popleft()
        if not entries:
            del waiting[key]
            heapq.heappop(heap)
        if pick is None or pick in done:
            continue
        done.add(pick)
        result.append(pick)
        for t, w in edges[pick]:
            if t not in done and w % 100_000:
                incoming[t] -= w % 100_000
                if incoming[t] not in waiting:
                    heapq.heappush(heap, incoming[t])
                waiting[incoming[t]].append(t)
    return result
