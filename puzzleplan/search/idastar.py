"""IDA*: depth-first searches bounded by f = g + h, the bound raised to the least f that
passed it, until a goal is reached (Korf 1985).

Memory is the current path only, so it reaches depths A* cannot hold; states reached by
several paths are searched again (no table of states seen: the price of the small memory).
A state already on the path is not entered again.  Optimal with the rules' admissible
heuristic, whatever the moves' costs (``rules.move_cost``).  Like the other searches it takes
a :class:`~puzzleplan.contract.Problem` (or a loaded instance, or bare rules) and runs on its
state space (:func:`~puzzleplan.constraints.state_space`).

Figures: ``expanded`` (states whose successors were made, summed over the iterations),
``generated``, ``iterations``, ``seconds``, ``peak_rss_mb``.  Stopped by its time limit,
Ctrl-C or the memory limit, it reports the last bound it searched in full: no plan costs
that much or less (``bound``).
"""
from __future__ import annotations

import time

from .. import limits, registry
from ..constraints import state_space
from ..puzzle import Result, check_metric
from .algorithms import Progress, Stopped, _finish

FOUND = -1


def ida_star_search(problem, metric: str | None = None, time_limit: float | None = None,
                    progress: Progress = None, max_expanded: int | None = None) -> Result:
    """Optimal in ``metric`` (see the module doc); UNSOLVABLE when no path from the start
    reaches a goal (every path without a repeated state searched).  ``max_expanded``: stop
    (status timeout, "expansion budget reached") after that many expansions.  Where the rules
    offer a search in place (``rules.tile_search(metric)``: one board changed and changed back,
    the bound updated by the moved piece alone) and the problem counts nothing, it runs
    instead of the generic one."""
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    time_limit = limits.check_seconds(time_limit)
    space = state_space(problem)
    t0 = time.perf_counter()
    stats = {"expanded": 0, "generated": 0, "iterations": 0}
    inplace = getattr(space, "tile_search", None) if space is problem.rules else None
    inplace = inplace(metric) if inplace is not None else None
    if inplace is not None:
        return _in_place(problem, metric, inplace, time_limit, progress, max_expanded, stats, t0)
    start = space.initial
    path: list = []             # (state, move) from the start; the moves that lead to each state
    goal, stopped, done = None, None, -1
    try:
        with limits.time_limit(time_limit), limits.preemptive():
            bound = space.heuristic(start, metric)
            while True:
                stats["iterations"] += 1
                found, least = _bounded(space, problem.rules.move_cost, metric, start, bound, stats, progress, path,
                                        max_expanded)
                if found:
                    goal = path[-1][0] if path else start
                    break
                done = bound        # every path of cost up to the bound searched: no plan within it
                if least is None:
                    break           # nothing passed the bound: the start reaches no goal
                bound = least
    except limits.TimeUp:
        stopped = Stopped.TIMEOUT
    except _Budget:
        stopped = Stopped.BUDGET
    except KeyboardInterrupt:
        stopped = Stopped.INTERRUPTED
    except MemoryError:
        stopped, goal = Stopped.MEMOUT, None
        path.clear()
    parent = {start: None}
    previous = start
    for state, move in path if goal is not None else ():
        parent[state] = (previous, move)
        previous = state
    return _finish(problem, metric, "idastar", parent, goal, stats, t0, stopped, done)


class _Budget(Exception):
    """More expansions than ``max_expanded``."""


def _in_place(problem, metric, search, time_limit, progress, max_expanded, stats, t0) -> Result:
    """IDA* by the rules' in-place search; its moves ``(piece, from, to)`` replayed by the rules
    into the plan (:func:`_finish` checks it again)."""
    stopped, steps = None, None
    try:
        with limits.time_limit(time_limit), limits.preemptive():
            steps = search.run(max_expanded, stats, progress)
            if steps is None and search.over_budget:
                stopped = Stopped.BUDGET
    except limits.TimeUp:
        stopped = Stopped.TIMEOUT
    except KeyboardInterrupt:
        stopped = Stopped.INTERRUPTED
    start = problem.rules.initial
    parent, goal = {start: None}, None
    if steps is not None and stopped is None:
        goal = start
        for move, state in search.replay(steps, metric):
            parent[state] = (goal, move)
            goal = state
    return _finish(problem, metric, "idastar", parent, goal, stats, t0, stopped, search.done)


def _bounded(space, move_cost, metric, start, bound, stats, progress, path, max_expanded=None) -> tuple[bool, int | None]:
    """One depth-first search within ``bound``: (found, the least f beyond the bound).  On a
    goal, ``path`` holds the way there."""
    h = space.heuristic
    if h(start, metric) > bound:
        return False, h(start, metric)
    if space.is_goal(start):
        return True, None
    on_path = {start}
    path.clear()
    stack = [(start, 0, iter(space.successors(start, metric)))]   # (state, g, its successors left)
    stats["expanded"] += 1
    least = None
    while stack:
        limits.checkpoint()
        state, g, succ = stack[-1]
        step = next(succ, None)
        if step is None:
            stack.pop()
            on_path.discard(state)
            if path:
                path.pop()
            continue
        move, nxt = step
        stats["generated"] += 1
        if nxt in on_path:
            continue
        cost = g + move_cost(move, metric)
        f = cost + h(nxt, metric)
        if f > bound:
            least = f if least is None else min(least, f)
            continue
        path.append((nxt, move))
        if space.is_goal(nxt):
            return True, None
        on_path.add(nxt)
        stack.append((nxt, cost, iter(space.successors(nxt, metric))))
        stats["expanded"] += 1
        if max_expanded is not None and stats["expanded"] > max_expanded:
            raise _Budget
        if progress and stats["expanded"] % 10000 == 0:
            progress(stats["expanded"], len(stack))
    return False, least
