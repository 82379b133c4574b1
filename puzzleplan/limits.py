"""Time limits that hold everywhere: while an encoding is built, lowered, solved or searched.

A run sets one deadline with :func:`time_limit`; long loops anywhere below it
(model building, CNF lowering, CP-SAT model construction, state-space search)
call :func:`checkpoint`, which costs a counter increment and, every 512 calls,
one clock read.  When the deadline has passed it raises :class:`TimeUp`, which
the planner and the searches turn into a ``timeout`` result with what was
proved so far.  Deadlines nest: an inner limit never extends an outer one.
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager

_deadline: float | None = None
_calls = 0


class TimeUp(Exception):
    """The run's time limit passed (raised by :func:`checkpoint`)."""


def check_seconds(seconds: float | None, what: str = "the time limit") -> float | None:
    """``seconds`` if it is a usable limit (finite, > 0) or None; else a PuzzleError."""
    from .puzzle import PuzzleError
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) \
            or math.isinf(seconds) or seconds <= 0:
        raise PuzzleError(f"{what} must be a positive number of seconds, not {seconds!r}")
    return float(seconds)


@contextmanager
def time_limit(seconds: float | None):
    """Within the block, :func:`checkpoint` raises :class:`TimeUp` after ``seconds``."""
    global _deadline
    outer = _deadline
    if seconds is not None:
        mine = time.monotonic() + seconds
        _deadline = mine if outer is None else min(outer, mine)
    try:
        yield
    finally:
        _deadline = outer


def left() -> float | None:
    """Seconds left before the current limit (None: no limit; may be negative)."""
    return None if _deadline is None else _deadline - time.monotonic()


def expired() -> bool:
    return _deadline is not None and time.monotonic() >= _deadline


def checkpoint() -> None:
    """Cheap; call it in any loop that may run long."""
    global _calls
    _calls += 1
    if _calls & 511 == 0 and _deadline is not None and time.monotonic() >= _deadline:
        raise TimeUp()

