"""Breadth-first search, A* and full enumeration, one plain function each.

Each takes a :class:`~puzzleplan.contract.Problem` (or a loaded instance, or a bare rules
object) and runs on its state space (:func:`~puzzleplan.constraints.state_space`: the rules,
with move counters when the problem has side conditions).
Every move costs 1 in the chosen metric (so BFS is optimal), unless the rules say
otherwise (``unit_costs``, ``move_cost``: PDDL action costs): then ``bfs`` runs as
uniform-cost search, and A* adds the moves' costs.  A* is optimal with the rules'
admissible heuristic.  Figures reported:
``expanded``, ``generated``, ``seconds`` and ``peak_rss_mb`` (process peak).

Time limits hold whether or not a progress callback is given
(:mod:`puzzleplan.limits`); a search stopped by its limit (``timeout``), by the memory
limit (``memout``) or by
Ctrl-C (``interrupted``) reports the depth it had completed: BFS has checked
every state within it, so no plan that short exists (``bound``).
"""
from __future__ import annotations

import enum
import heapq
import resource
import time
from collections import deque
from typing import Callable

from .. import limits, registry
from ..constraints import state_space
from ..puzzle import Result, Status, check_metric
from ..validate import check_plan

Progress = Callable[[int, int], None] | None


class Stopped(str, enum.Enum):
    """What stopped a search or an enumeration before its end."""

    GOAL = "goal"                   # the first goal state reached (enumeration, ``stop_at_goal``)
    MAX_STATES = "max_states"       # more states than ``max_states`` (enumeration)
    TIMEOUT = "timeout"             # the time limit
    INTERRUPTED = "interrupted"     # Ctrl-C
    MEMOUT = "memout"               # the memory limit
    BUDGET = "budget"               # more states expanded than the search's budget


#: the status and message of a search stopped by a limit
STOPPED_RESULT = {Stopped.TIMEOUT: (Status.TIMEOUT, "time limit reached"),
                  Stopped.MEMOUT: (Status.MEMOUT, None),
                  Stopped.BUDGET: (Status.TIMEOUT, "expansion budget reached"),
                  Stopped.INTERRUPTED: (Status.INTERRUPTED, "interrupted")}


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _plan(parent: dict, state) -> list:
    moves = []
    while parent[state] is not None:
        state, move = parent[state]
        moves.append(move)
    return moves[::-1]


def _finish(problem, metric, method, parent, goal_state, stats, t0, stopped: Stopped | None = None,
            bound=None, proof: str | None = None) -> Result:
    rules = problem.rules
    stats.update(seconds=round(time.perf_counter() - t0, 4), peak_rss_mb=_peak_mb())
    if goal_state is None:
        if stopped is not None:
            status, message = STOPPED_RESULT[stopped]
            message = message or limits.memout_message()
        else:
            status, message = Status.UNSOLVABLE, "the reachable state space holds no goal"
        return Result(status, metric, method, stats=stats, board=rules.board(), message=message,
                      bound=bound if stopped is not None and bound is not None and bound >= 0 else None,
                      ).scoped(rules)
    steps = rules.render_steps(_plan(parent, goal_state))
    report = check_plan(problem, steps, metric)
    if not report["solved"]:
        raise AssertionError(f"{method} produced a plan that fails replay: {report['problem']}")
    return Result(Status.OPTIMAL, metric, method, rules.count(steps, metric), steps,
                  proof=proof or f"complete {method}", stats=stats, board=rules.board()).scoped(rules)


def breadth_first_search(problem, metric: str | None = None, time_limit: float | None = None,
                         progress: Progress = None) -> Result:
    """Optimal in ``metric``; UNSOLVABLE when the reachable space holds no goal.  Moves of
    other costs than 1: uniform-cost search (A* without a heuristic)."""
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    time_limit = limits.check_seconds(time_limit)
    if not problem.rules.unit_costs(metric):
        return _best_first(problem, metric, time_limit, progress, "bfs", False)
    space = state_space(problem)
    t0 = time.perf_counter()
    start = space.initial
    parent = {start: None}
    stats = {"expanded": 0, "generated": 0}
    goal = start if space.is_goal(start) else None
    frontier = deque([(start, 0)])
    done, stopped = -1, None          # every state within ``done`` moves was goal-checked
    try:
        with limits.time_limit(time_limit), limits.preemptive():     # a family's heuristic or successors too
            while frontier and goal is None:
                limits.checkpoint()
                state, depth = frontier.popleft()
                done = depth                     # all states of depth <= this one are generated
                stats["expanded"] += 1
                if progress and stats["expanded"] % 10000 == 0:
                    progress(stats["expanded"], len(parent))
                for move, nxt in space.successors(state, metric):
                    limits.checkpoint()          # per state generated: one expansion may make thousands
                    stats["generated"] += 1
                    if nxt not in parent:
                        parent[nxt] = (state, move)
                        if space.is_goal(nxt):
                            goal = nxt
                            break
                        frontier.append((nxt, depth + 1))
    except limits.TimeUp:
        stopped = Stopped.TIMEOUT
    except KeyboardInterrupt:
        stopped = Stopped.INTERRUPTED
    except MemoryError:       # what filled the memory goes first: the result needs no plan
        stopped, goal = Stopped.MEMOUT, None
        frontier.clear(), parent.clear()
    return _finish(problem, metric, "bfs", parent, goal, stats, t0, stopped, done)


def astar_search(problem, metric: str | None = None, time_limit: float | None = None,
                 progress: Progress = None, max_expanded: int | None = None) -> Result:
    """A* with the rules' admissible heuristic: optimal in ``metric``, consistent or not (a
    state reached more cheaply after its expansion is opened again: the knights' bound, the
    nearest knight's jumps summed over targets, drops by 2 when one jump brings a knight
    nearer to two targets).  Among states of
    equal f the deeper goes first (ties on f are common where the heuristic is nearly exact,
    as in peg solitaire's every-plan-has-31-jumps; breadth-first among them would expand a
    whole layer before reaching any goal).  ``max_expanded``: stop (status timeout, "expansion
    budget reached") after that many expansions."""
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    return _best_first(problem, metric, limits.check_seconds(time_limit), progress, "astar", True, max_expanded)


def _best_first(problem, metric, time_limit, progress, method: str, use_h: bool,
                max_expanded: int | None = None) -> Result:
    """A* (``use_h``) or uniform-cost search; moves cost ``rules.move_cost``."""
    space, move_cost = state_space(problem), problem.rules.move_cost
    h = space.heuristic if use_h else (lambda state, metric: 0)
    t0 = time.perf_counter()
    start = space.initial
    parent = {start: None}
    g = {start: 0}
    stats = {"expanded": 0, "generated": 0}
    tie = 0
    heap: list = []
    closed = set()
    goal, stopped, floor = None, None, -1       # every plan costs at least the least f popped
    try:
        with limits.time_limit(time_limit), limits.preemptive():     # a family's heuristic or successors too
            heap.append((h(start, metric), 0, tie, start))      # the start's bound within the limit too
            while heap:
                limits.checkpoint()
                f, neg, _, state = heapq.heappop(heap)
                if state in closed or -neg > g[state]:      # expanded, or reached more cheaply since
                    continue
                if space.is_goal(state):
                    goal = state
                    break
                floor = max(floor, f)
                if max_expanded is not None and stats["expanded"] >= max_expanded:
                    stopped = Stopped.BUDGET
                    break
                closed.add(state)
                stats["expanded"] += 1
                if progress and stats["expanded"] % 10000 == 0:
                    progress(stats["expanded"], len(parent))
                for move, nxt in space.successors(state, metric):
                    limits.checkpoint()          # per state generated: one expansion may make thousands
                    stats["generated"] += 1
                    cost = g[state] + move_cost(move, metric)
                    if cost < g.get(nxt, cost + 1):
                        g[nxt] = cost
                        parent[nxt] = (state, move)
                        closed.discard(nxt)     # reopened: an admissible bound need not be consistent
                        tie += 1
                        heapq.heappush(heap, (cost + h(nxt, metric), -cost, tie, nxt))
    except limits.TimeUp:
        stopped = Stopped.TIMEOUT
    except KeyboardInterrupt:
        stopped = Stopped.INTERRUPTED
    except MemoryError:       # what filled the memory goes first: the result needs no plan
        stopped, goal = Stopped.MEMOUT, None
        heap.clear(), closed.clear(), g.clear(), parent.clear()
    return _finish(problem, metric, method, parent, goal, stats, t0, stopped, floor - 1,
                   None if use_h else "complete uniform-cost search")


def explore(problem, metric: str | None = None, progress: Progress = None, time_limit: float | None = None,
            max_states: int | None = None, stop_at_goal: bool = False) -> dict:
    """Enumerate every reachable state; also report the nearest goal's distance.

    ``complete`` is false when ``time_limit`` (seconds), ``max_states``, Ctrl-C or, with
    ``stop_at_goal``, the first goal state reached stopped the enumeration first
    (``stopped``, a :class:`Stopped`, says which); the figures are then those of the
    states seen so far."""
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    time_limit = limits.check_seconds(time_limit)
    space = state_space(problem)
    t0 = time.perf_counter()
    depth = {space.initial: 0}
    frontier = deque([space.initial])
    transitions, goals, nearest, stopped = 0, 0, None, None
    try:
        with limits.time_limit(time_limit), limits.preemptive():     # a family's heuristic or successors too
            while frontier:
                limits.checkpoint()
                state = frontier.popleft()
                if space.is_goal(state):
                    goals += 1
                    nearest = depth[state] if nearest is None else nearest
                    if stop_at_goal:
                        stopped = Stopped.GOAL
                        break
                for _, nxt in space.successors(state, metric):
                    limits.checkpoint()
                    transitions += 1
                    if nxt not in depth:
                        depth[nxt] = depth[state] + 1
                        frontier.append(nxt)
                        if progress and len(depth) % 10000 == 0:
                            progress(len(depth), len(frontier))
                if max_states is not None and len(depth) > max_states:
                    stopped = Stopped.MAX_STATES
                    break
    except limits.TimeUp:
        stopped = Stopped.TIMEOUT
    except KeyboardInterrupt:
        stopped = Stopped.INTERRUPTED
    except MemoryError:
        stopped = Stopped.MEMOUT
    out = {"reachable": len(depth), "transitions": transitions, "goal_states": goals,
           "nearest_goal": nearest, "max_depth": max(depth.values()), "metric": metric,
           "complete": stopped is None, "seconds": round(time.perf_counter() - t0, 4), "peak_rss_mb": _peak_mb()}
    if stopped:
        out["stopped"] = stopped.value
    return out
