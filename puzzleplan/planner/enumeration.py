"""The enumeration before the deepening (``SolveOptions.enumerate_first``): a small reachable
space with no goal is ``unsolvable`` before any SAT call.  Its budget counts states, never
seconds, so that the same puzzle gets the same answer on an idle and on a busy machine."""
from __future__ import annotations

from .. import limits
from ..constraints import state_space
from ..puzzle import Result, Status

# a space of at most ENUMERATE_STATES states is enumerated whole; past ENUMERATE_OPEN states the enumeration goes on
# only while its frontier is under 2/5 of the states seen, so that a space still opening up (the
# 15-puzzle's frontier is half of what it has seen) costs about a second of CPU, not four, while
# Rush Hour's larger spaces (card 14's 78,501 states: frontiers at 7-31 % of the states seen) and
# narrow ones (Klotski: 1-8 %) are enumerated to their end
ENUMERATE_STATES = 100_000
ENUMERATE_OPEN = 20_000


def enumerated_first(problem, metric, say) -> Result | None:
    """The enumeration's answer, None to go on deepening, or what stopped the run there (the
    user's time limit, Ctrl-C, the memory)."""
    try:
        return enumerated(problem, metric, say)
    except KeyboardInterrupt:
        space = state_space(problem)
        return Result(Status.INTERRUPTED, metric, "enumeration", board=problem.rules.board(),
                      lower_bound=space.heuristic(space.initial, metric), message="interrupted")
    except limits.TimeUp:
        status, message = Status.TIMEOUT, "time limit reached while the states were enumerated"
    except MemoryError:
        status, message = Status.MEMOUT, limits.memout_message()
    return Result(status, metric, "enumeration", board=problem.rules.board(), message=message)


def enumerated(problem, metric, say) -> Result | None:
    """UNSOLVABLE if the whole reachable space is small, enumerated, and goal-free; says on
    one line why the enumeration stopped otherwise (a goal reached, a space too wide)."""
    from ..search import Stopped, explore

    class Open(Exception):
        """The space is still opening up: given up (see ENUMERATE_OPEN)."""

    def closing(reached: int, frontier: int) -> None:     # called every 10,000 states
        if reached >= ENUMERATE_OPEN and frontier * 5 > reached * 2:
            raise Open(f"{reached:,} states seen and {frontier:,} still to expand")

    try:
        # a goal among the states seen rules out the one answer sought (unsolvable): stop there;
        # the states are those of the walk metric's moves (makespan's: unit steps, one at a time)
        walk = problem.rules.walk_metric(metric)
        figures = explore(problem, walk, progress=closing, max_states=ENUMERATE_STATES, stop_at_goal=True)
    except Open as why:
        say(f"enumeration stopped: the state space is still opening up ({why}); deepening")
        return None
    stopped = Stopped(figures["stopped"]) if "stopped" in figures else None
    if stopped is Stopped.INTERRUPTED:
        raise KeyboardInterrupt
    if stopped is Stopped.TIMEOUT:
        raise limits.TimeUp()
    if stopped is Stopped.MEMOUT:
        raise MemoryError
    if figures.get("complete") and not figures["goal_states"]:
        say(f"the reachable state space ({figures['reachable']:,} states) holds no goal")
        return Result(Status.UNSOLVABLE, metric, "enumeration", board=problem.rules.board(),
                      proof=f"complete enumeration of {figures['reachable']:,} reachable states",
                      stats={"reachable": figures["reachable"]},
                      message="unsolvable: found by enumerating the states before any SAT call")
    if stopped is Stopped.GOAL:
        say(f"enumeration stopped: a goal state is reachable ({figures['nearest_goal']} {walk} away, "
            f"{figures['reachable']:,} states seen); deepening")
    elif stopped is Stopped.MAX_STATES:
        say(f"enumeration stopped at {ENUMERATE_STATES:,} states (its budget): the space is larger; deepening")
    return None
