"""What a backend is to the deepening loop.

A backend follows a :class:`~puzzleplan.encodings.model.BoolModel` as it grows
and answers one question per horizon: is there a plan ending in the goal literal
``goal`` (within the horizon's steps)?  It declares what it can do in
``capabilities``; the loop (:mod:`..deepening`) reads them and nothing else:

``incremental``  keeps what it learnt from one horizon to the next
``assumptions``  takes the goal as an assumption (one solver serves every horizon)
``interrupt``    stops within a fraction of a second on a time limit or Ctrl-C
``lemmas``       the loop may add reachability lemmas through ``solve_budget``
``minimise``     finds the fewest moves within a horizon and a proven lower bound
``proof``        can log a DRAT proof (used by certification)

Time limits come from :mod:`puzzleplan.limits` (``limits.left()``); Ctrl-C
arrives as ``KeyboardInterrupt``, raised by the backend after it has stopped its
solver.
"""
from __future__ import annotations

import signal
import threading
from dataclasses import dataclass


@dataclass
class Answer:
    """``status``: ``sat``, ``unsat`` or ``unknown`` (a limit was reached).
    ``bound``: with ``minimise``, a proven lower bound on the number of moves."""

    status: str
    bound: int | None = None
    proof: str | None = None

    @classmethod
    def of(cls, answer: bool | None) -> "Answer":
        """From a SAT solver's True / False / None (limit reached)."""
        return cls({True: "sat", False: "unsat", None: "unknown"}[answer])


class DeferredSigint:
    """Within the block, Ctrl-C only sets ``hit``; on leaving it, KeyboardInterrupt
    is raised.  For solver libraries whose C++ code must not see a Python
    exception raised in the middle of a call (OR-Tools aborts the process)."""

    def __init__(self):
        self.hit = False
        self.old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, signum, frame):
        self.hit = True

    def __exit__(self, kind, value, tb):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        if self.hit and kind is None:
            raise KeyboardInterrupt
        return False


def run_stoppable(call, stop, poll: float = 0.05, pending=lambda: False):
    """Run ``call()`` in a thread while this (main) thread waits, so that a
    KeyboardInterrupt reaches us at once: then ``stop()`` is called, the thread
    joined, and the interrupt raised again.  The solver must release the GIL."""
    box: dict = {}

    def work():
        try:
            box["value"] = call()
        except BaseException as err:      # handed to the waiting thread
            box["error"] = err

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(poll)
            if pending():           # a Ctrl-C held back by DeferredSigint
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        stop()
        worker.join(5)
        raise
    if "error" in box:
        raise box["error"]
    return box.get("value")
