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

import signal
import threading
import abc
from dataclasses import dataclass

from ... import limits
from ...limits import Watchdog, watchdog  # noqa: F401  (backends and methods import them from here)
from ...plugins import Plugin
from ...puzzle import Verdict


@dataclass
class Answer:
    """``status``: the verdict (unknown: a limit was reached).
    ``bound``: with ``minimise``, a proven lower bound on the number of moves."""

    status: Verdict
    bound: int | None = None
    proof: str | None = None

    def __post_init__(self):
        self.status = Verdict(self.status)      # a method plug-in may say "sat", "unsat", "unknown"

    @classmethod
    def of(cls, answer: bool | None) -> "Answer":
        """From a SAT solver's True / False / None (limit reached)."""
        return cls({True: Verdict.SAT, False: Verdict.UNSAT, None: Verdict.UNKNOWN}[answer])


CAPABILITIES = frozenset({"lemmas", "minimise", "double-ended"})


class Deepening(Plugin):
    """A per-horizon backend as a method of the registry: its ``solve`` is the deepening loop
    (:func:`puzzleplan.planner.solve`: enumeration first, limits, certification) driving
    ``backend``, the class of its row."""

    def __init__(self, backend: type["Backend"], name: str, option: str = ""):
        backend.check_option(name, option)
        self.backend, self.name, self.option = backend, name, option

    def supports(self, family, metric: str, conditions=()) -> str | None:
        if metric not in family.encoders:
            return f"no SAT encoding for {family.name} under the metric {metric!r}"
        return self.backend.refuses(family, metric, conditions)

    # the loop, named as the registry names code (the loop imports the backends: no import back)
    LOOP = "puzzleplan.planner.deepening:solve"

    def solve(self, problem, metric: str, options):
        from dataclasses import replace

        from ...plugins import load
        return load(self.LOOP)(problem, metric, options=replace(options, backend=self.spec))


class Backend(Plugin, abc.ABC):
    """What the deepening loop calls.  ``method`` names the backend in results
    (``pysat:glucose42``); ``capabilities`` is a subset of :data:`CAPABILITIES`.

    A backend is a method of the registry (:mod:`puzzleplan.methods`): its row names the
    class; :meth:`build` gives the method (the deepening loop over this backend,
    :class:`Deepening`), :meth:`make` the backend itself for one run, from the option written
    after the colon; it is a context manager that closes its solver on the way out."""

    method: str = ""
    capabilities: frozenset = frozenset()
    #: the backend's own options, a dataclass whose fields :func:`puzzleplan.planner.solve`
    #: takes by name (``pysat-de``'s ``goal_lemmas``...), or None: it has none
    own_options: type | None = None

    @classmethod
    def build(cls, name: str, option: str = "", **settings) -> Deepening:
        """The method: the deepening loop driving this backend."""
        return Deepening(cls, name, option, **settings)

    @classmethod
    def refuses(cls, family, metric: str, conditions=()) -> str | None:
        """Why this backend cannot take ``family`` in ``metric`` (beyond having its SAT
        encoding), or None: :meth:`Deepening.supports`."""
        return None

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

    def conflicts(self) -> int:
        """Conflicts of every call so far (lemma questions and goals alike): the work that
        :class:`~puzzleplan.planner.lemmas.Allowance` measures its budgets in."""
        return 0

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
        try:
            worker.start()
        except RuntimeError as err:     # no room for its stack under the memory limit: the run's memout
            if limits.out_of_memory(err):
                raise MemoryError("no room to start the solver's thread") from None
            raise
        stopping = False
        while worker.is_alive():
            worker.join(poll)
            stopping = stopping or sigint.hit
            if stopping and worker.is_alive():
                stop()
    if "error" in box:
        raise box["error"]
    return box.get("value")


