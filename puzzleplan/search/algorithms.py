"""Breadth-first search, A* and full enumeration, one plain function each.

Every move costs 1 in the chosen metric, so BFS is optimal under any metric and
A* is optimal with the domain's admissible heuristic.  Figures reported:
``expanded``, ``generated``, ``seconds`` and ``peak_rss_mb`` (process peak).
"""
from __future__ import annotations

import heapq
import resource
import time
from collections import deque
from typing import Callable

from ..puzzle import Result, Status, check_metric
from ..validate import check_plan

Progress = Callable[[int, int], None] | None


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _plan(parent: dict, state) -> list:
    moves = []
    while parent[state] is not None:
        state, move = parent[state]
        moves.append(move)
    return moves[::-1]


def _finish(domain, metric, method, parent, goal_state, stats, t0, time_limit=None) -> Result:
    stats.update(seconds=round(time.perf_counter() - t0, 4), peak_rss_mb=_peak_mb())
    if goal_state is None:
        status = Status.TIMEOUT if stats.get("timed_out") else Status.UNSOLVABLE
        stats.pop("timed_out", None)
        return Result(status, metric, method, stats=stats, board=domain.board(),
                      message="time limit reached" if status is Status.TIMEOUT
                      else "the reachable state space holds no goal")
    steps = domain.render_steps(_plan(parent, goal_state))
    report = check_plan(domain, steps, metric)
    if not report["solved"]:
        raise AssertionError(f"{method} produced a plan that fails replay: {report['problem']}")
    return Result(Status.OPTIMAL, metric, method, domain.count(steps, metric), steps,
                  proof=f"complete {method}", stats=stats, board=domain.board())


def breadth_first_search(domain, metric: str | None = None, time_limit: float | None = None,
                         progress: Progress = None) -> Result:
    """Optimal in ``metric``; UNSOLVABLE when the reachable space holds no goal."""
    metric = check_metric(domain, metric)
    t0 = time.perf_counter()
    start = domain.initial
    parent = {start: None}
    stats = {"expanded": 0, "generated": 0}
    goal = start if domain.is_goal(start) else None
    frontier = deque([start])
    while frontier and goal is None:
        state = frontier.popleft()
        stats["expanded"] += 1
        if progress and stats["expanded"] % 10000 == 0:
            progress(stats["expanded"], len(parent))
            if time_limit and time.perf_counter() - t0 > time_limit:
                stats["timed_out"] = True
                break
        for move, nxt in domain.successors(state, metric):
            stats["generated"] += 1
            if nxt not in parent:
                parent[nxt] = (state, move)
                if domain.is_goal(nxt):
                    goal = nxt
                    break
                frontier.append(nxt)
    return _finish(domain, metric, "bfs", parent, goal, stats, t0)


def astar_search(domain, metric: str | None = None, time_limit: float | None = None,
                 progress: Progress = None) -> Result:
    """A* with the domain's admissible heuristic: optimal in ``metric``."""
    metric = check_metric(domain, metric)
    t0 = time.perf_counter()
    start = domain.initial
    parent = {start: None}
    g = {start: 0}
    stats = {"expanded": 0, "generated": 0}
    tie = 0
    heap = [(domain.heuristic(start, metric), tie, start)]
    closed = set()
    goal = None
    while heap:
        _, _, state = heapq.heappop(heap)
        if state in closed:
            continue
        if domain.is_goal(state):
            goal = state
            break
        closed.add(state)
        stats["expanded"] += 1
        if stats["expanded"] % 10000 == 0:
            if progress:
                progress(stats["expanded"], len(parent))
            if time_limit and time.perf_counter() - t0 > time_limit:
                stats["timed_out"] = True
                break
        for move, nxt in domain.successors(state, metric):
            stats["generated"] += 1
            cost = g[state] + 1
            if cost < g.get(nxt, cost + 1):
                g[nxt] = cost
                parent[nxt] = (state, move)
                tie += 1
                heapq.heappush(heap, (cost + domain.heuristic(nxt, metric), tie, nxt))
    return _finish(domain, metric, "astar", parent, goal, stats, t0)


def explore(domain, metric: str | None = None, progress: Progress = None) -> dict:
    """Enumerate every reachable state; also report the nearest goal's distance."""
    metric = check_metric(domain, metric)
    t0 = time.perf_counter()
    depth = {domain.initial: 0}
    frontier = deque([domain.initial])
    transitions, goals, nearest = 0, 0, None
    while frontier:
        state = frontier.popleft()
        if domain.is_goal(state):
            goals += 1
            nearest = depth[state] if nearest is None else nearest
        for _, nxt in domain.successors(state, metric):
            transitions += 1
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                frontier.append(nxt)
                if progress and len(depth) % 10000 == 0:
                    progress(len(depth), len(frontier))
    return {"reachable": len(depth), "transitions": transitions, "goal_states": goals,
            "nearest_goal": nearest, "max_depth": max(depth.values()), "metric": metric,
            "seconds": round(time.perf_counter() - t0, 4), "peak_rss_mb": _peak_mb()}


SEARCHES = {"bfs": breadth_first_search, "astar": astar_search}
