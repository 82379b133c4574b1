"""python-sat without its own Ctrl-C handling.

In the main thread, python-sat's C code (its solvers and its cardinality
encodings) swaps in a SIGINT handler that ``longjmp``s out of the running C++
code.  That leaves the library's state, and at times the heap, half-updated: a
Ctrl-C on ``solve`` aborted the process now and then ("munmap_chunk(): invalid
pointer") when the solver was deleted.  python-sat decides by asking
``pysat._utils.MainThread.check()``; :func:`disable` makes it answer False, so
python-sat never installs that handler and a Ctrl-C stays Python's own: a
KeyboardInterrupt raised once the C call has returned.  The solver backends keep
their calls short or interruptible (:mod:`puzzleplan.planner.backends.pysat_backend`).
"""
from __future__ import annotations


_done = False


def _never() -> bool:
    return False


def disable() -> None:
    """Idempotent and cheap after the first call; call it before any python-sat
    call that may run long."""
    global _done
    if not _done:
        from pysat import _utils
        _utils.MainThread.check = staticmethod(_never)
        _done = True
