"""What a backend is to the deepening loop.

A backend (a :class:`Backend`) follows a :class:`~puzzleplan.encodings.model.BoolModel`
as it grows and answers one question per horizon: is there a plan ending in the goal
literal ``goal`` (within the horizon's steps)?  It declares in ``capabilities`` what
changes how the loop (:mod:`..deepening`) drives it; the loop reads them and nothing else:

``lemmas``       the loop adds reachability lemmas, asking through ``solve_budget``
``double-ended`` the loop unrolls the encoding from both ends (:mod:`..double`)
``minimise``     finds the fewest moves within a horizon with a proven lower bound, so
                 the loop doubles the horizon instead of adding one

Every backend stops within a fraction of a second on a time limit or Ctrl-C.

Time limits come from :mod:`puzzleplan.limits` (``limits.left()``); Ctrl-C
arrives as ``KeyboardInterrupt``, raised by the backend after it has stopped its
solver.
"""
from __future__ import annotations

import os
import select
import signal
import threading
import time
import abc
from contextlib import contextmanager
from dataclasses import dataclass

from ... import limits
from ...plugins import Plugin


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


CAPABILITIES = frozenset({"lemmas", "minimise", "double-ended"})


class Backend(Plugin, abc.ABC):
    """What the deepening loop calls.  ``method`` names the backend in results
    (``pysat:glucose42``); ``capabilities`` is a subset of :data:`CAPABILITIES`.

    A backend is a method of the registry (:mod:`puzzleplan.methods`): its row names the
    class, :meth:`make` builds it from the option written after the colon, and it is a
    context manager that closes its solver on the way out."""

    method: str = ""
    capabilities: frozenset = frozenset()

    @classmethod
    def make(cls, name: str, option: str, model, card_encoding: str = "seqcounter") -> "Backend":
        """The backend of method ``name`` with ``option`` (checked), following ``model``."""
        return cls(name, option, model, card_encoding)

    @classmethod
    def default_option(cls, family) -> str | None:
        """The option used when none is written, for a puzzle of ``family`` (None: the backend's own)."""
        return None

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc) -> bool:
        self.close()
        return False

    @abc.abstractmethod
    def solve(self, goal: int, horizon: int | None = None, minimise: bool = False) -> "Answer":
        """Is there a plan reaching ``goal`` (a literal of the model) within ``horizon``?"""

    @abc.abstractmethod
    def values(self) -> set[int]:
        """The true variables of the last model."""

    @abc.abstractmethod
    def figures(self) -> dict:
        """The last call's figures for the per-horizon line: vars, clauses, conflicts."""

    @abc.abstractmethod
    def close(self) -> None: ...

    def stats(self) -> dict:
        """Figures of the whole run for the result's stats (a race's wins)."""
        return {}

    def solve_budget(self, assumptions, conflicts: int | None) -> bool | None:
        """With ``lemmas``: one question under a conflict budget (None: budget spent)."""
        raise NotImplementedError(f"{self.method} has no lemma questions")


class DeferredSigint:
    """Within the block, Ctrl-C only sets ``hit``; on leaving it, KeyboardInterrupt
    is raised.  For solver libraries whose C++ code must not see a Python
    exception raised in the middle of a call (OR-Tools aborts the process), and
    for code that must not be left half-done (a thread started, not joined)."""

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


def run_stoppable(call, stop, poll: float = 0.05):
    """Run ``call()`` in a worker thread while this (main) thread waits.  On
    Ctrl-C ``stop()`` is called, again every ``poll`` seconds, until the call has
    returned (the solver must never be deleted while it runs); then the interrupt
    is raised.  Within, Ctrl-C only sets a flag, so that no KeyboardInterrupt can
    leave a started thread behind."""
    box: dict = {}

    def work():
        try:
            box["value"] = call()
        except BaseException as err:      # handed to the waiting thread
            box["error"] = err

    worker = threading.Thread(target=work, daemon=True)
    with DeferredSigint() as sigint:
        worker.start()
        stopping = False
        while worker.is_alive():
            worker.join(poll)
            stopping = stopping or sigint.hit
            if stopping and worker.is_alive():
                stop()
    if "error" in box:
        raise box["error"]
    return box.get("value")


class Watchdog:
    """Stops solver calls that run in their callers' threads, from a thread of its own.

    Within ``guard(stop)``, ``stop()`` is called (again every ``poll`` seconds,
    until the block ends) once Ctrl-C is pressed or the caller's time limit
    passes; several threads may be guarded at once.  Python's C-level signal
    handler writes to the wakeup fd even while the main thread is inside the
    solver; this thread waits on that fd.  The interrupt itself is raised by
    Python in the main thread when the call has returned.  A Ctrl-C recorded by
    :func:`puzzleplan.limits.interrupts_recorded` stops the main thread's calls too:
    one whose KeyboardInterrupt Python dropped in a finaliser as the call started,
    after landing before the wakeup fd was set, wrote nothing to it.  Solving in the
    caller's thread, rather than waiting for a solver thread, is ~8% faster on
    Rush Hour card 40 (209 short calls; a thread's wake-ups moved the solver
    between cores)."""

    def __init__(self, poll: float = 0.05):
        self.poll = poll
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        os.set_blocking(self.w, False)
        self.lock = threading.Lock()
        self.jobs: dict[int, list] = {}     # id -> [stop, deadline or None, fired, main thread]
        self.busy = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="puzzleplan-watchdog", daemon=True)
        self.thread.start()

    def _drain(self) -> bool:
        got = False
        try:
            while os.read(self.r, 512):
                got = True
        except BlockingIOError:
            pass
        return got

    def _loop(self):
        while True:
            self.busy.wait()
            with self.lock:
                if not self.jobs:
                    self.busy.clear()
                    continue
                # jobs already stopped are stopped again every poll, not in a busy loop
                deadlines = [job[1] for job in self.jobs.values() if job[1] is not None and not job[2]]
            wait = self.poll if not deadlines else max(0.0, min(self.poll, min(deadlines) - time.monotonic()))
            sigint = bool(select.select([self.r], [], [], wait)[0]) and self._drain()
            recorded = limits.interrupt_pending()
            now = time.monotonic()
            with self.lock:
                for job in self.jobs.values():
                    if sigint or job[2] or (recorded and job[3]) or (job[1] is not None and now >= job[1]):
                        job[2] = True
                        try:
                            job[0]()
                        except Exception:   # a stop that fails must not end the thread
                            pass            # that stops every other call of the process

    @contextmanager
    def guard(self, stop):
        """Within the block, ``stop`` is called on Ctrl-C or at the caller's deadline."""
        main = threading.current_thread() is threading.main_thread()
        old = None
        key = object()
        try:        # a Ctrl-C while the job is being set up leaves neither the job nor the fd behind
            if main:
                self._drain()
                old = signal.set_wakeup_fd(self.w, warn_on_full_buffer=False)
            left = limits.left()
            with self.lock:
                self.jobs[id(key)] = [stop, None if left is None else time.monotonic() + left, False, main]
                self.busy.set()
            yield
        finally:
            with self.lock:
                self.jobs.pop(id(key), None)
            if old is not None:
                signal.set_wakeup_fd(old)


_watchdog: Watchdog | None = None
_watchdog_lock = threading.Lock()


def watchdog() -> Watchdog:
    """The process's watchdog (started on first use, and again if its thread has ended)."""
    global _watchdog
    with _watchdog_lock:
        if _watchdog is None or not _watchdog.thread.is_alive():
            _watchdog = Watchdog()
        return _watchdog
