"""Methods as plug-ins: every way puzzleplan answers a puzzle is one row of this registry.

A row (:class:`Method`) names a method as users write it (``bfs``, ``pysat-de[:SOLVER]``,
``external:CMD``, ``abc:ENGINE``, ``fd-lmcut``...), says what kind it is and points at its
code as ``"module:attribute"``; nothing is imported until the method is checked or run,
so listing the methods is cheap.  The CLI's help texts and choices, ``puzzleplan solvers``,
``bench --methods`` and the tests' method matrices are all made from these rows: a new
method is one file and one row (:data:`ROWS`, or an entry point of another installed
package in the group ``puzzleplan.methods`` naming a :class:`Method` record).

What the code of each kind is:

search    a function ``(problem, metric, time_limit, progress, **options) -> Result``
          (:mod:`puzzleplan.search`);
sat       a :class:`~puzzleplan.planner.backends.base.Backend` subclass, which the
          deepening loop asks one horizon at a time, or a :class:`Runner` (a model
          checker), which answers the whole puzzle; both run through
          :func:`puzzleplan.planner.solve` (enumeration first, limits, certification);
planner   a :class:`Runner`: an outside planner on the PDDL export.

Backends and runners check their own option (:meth:`Plugin.check_option`) and say why they
cannot run on this machine (:meth:`Plugin.unavailable`): :func:`check` asks both before
any work is done.  This module sits below the planner and imports none of the methods;
:mod:`puzzleplan.methods` runs them.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .puzzle import PuzzleError, Result

SEARCH, SAT, PLANNER = "search", "sat", "planner"
DEFAULT_SAT = "pysat-de"        # the SAT method solve, bench and seeds use unless told (a row of ROWS)
KINDS = (SEARCH, SAT, PLANNER)
GROUP = "puzzleplan.methods"


@dataclass(frozen=True)
class Method:
    """One row: ``name[:option]`` runs ``code`` (``"module:attribute"``, imported when used)."""

    name: str
    kind: str                   # search | sat | planner
    code: str
    summary: str
    option: str | None = None   # what may follow a colon (SOLVER, WORKERS, CMD, ENGINE), or None
    needs_option: bool = False  # the option must be given (external:CMD, abc:ENGINE)
    example: str = ""           # a spec that runs here when the method's tools are installed

    def usage(self) -> str:
        if self.option is None:
            return self.name
        return f"{self.name}:{self.option}" if self.needs_option else f"{self.name}[:{self.option}]"

    def load(self) -> Any:
        """The method's code, imported; PuzzleError if it cannot be (a MemoryError, the run's
        memout, if a library it loads does not fit within the memory limit)."""
        from .limits import out_of_memory
        module, _, attr = self.code.partition(":")
        try:
            return getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as err:
            if out_of_memory(err):
                raise MemoryError(f"the method {self.name}'s code cannot be loaded within the memory limit") from None
            raise PuzzleError(f"the method {self.name}'s code {self.code} cannot be loaded: {err}") from None


class Plugin:
    """What the registry asks of a backend's or a runner's code, before it runs."""

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        """Refuse a wrong ``option`` of method ``name`` (PuzzleError, one line)."""

    @classmethod
    def unavailable(cls, name: str, option: str) -> str | None:
        """Why the method cannot run on this machine (a missing program or package), or None."""
        return None


class Runner(Plugin):
    """A method that answers a whole puzzle at once (a model checker, an outside planner)."""

    def solve(self, problem, metric: str, name: str, option: str, options) -> Result:
        """Answer ``problem`` (a :class:`~puzzleplan.contract.Problem`) in ``metric``; ``options`` is the planner's
        :class:`~puzzleplan.planner.deepening.SolveOptions` (time limit, counts, say...)."""
        raise NotImplementedError


ROWS = (
    Method("bfs", SEARCH, "puzzleplan.search.algorithms:breadth_first_search",
           "breadth-first search (uniform-cost where moves cost other than 1: optimal in every metric)"),
    Method("astar", SEARCH, "puzzleplan.search.algorithms:astar_search", "A* with the family's admissible heuristic"),
    Method("pysat", SAT, "puzzleplan.planner.backends.pysat_backend:Forward",
           "incremental python-sat solver unrolling forward, with reachability lemmas", "SOLVER",
           example="pysat:cadical195"),
    Method("pysat-plain", SAT, "puzzleplan.planner.backends.pysat_backend:Plain", "the same without the lemmas",
           "SOLVER"),
    Method(DEFAULT_SAT, SAT, "puzzleplan.planner.backends.pysat_backend:DoubleEnded",
           "double-ended incremental encoding, lemmas from the start and the goal (the default; solver "
           "glucose42 unless named, e.g. pysat-de:cadical195; two joined by + race on two cores, e.g. "
           "pysat-de:glucose42+cadical195)", "SOLVER", example="pysat-de:glucose42+cadical195"),
    Method("cpsat", SAT, "puzzleplan.planner.backends.cpsat_backend:Minimising",
           "one CP-SAT model minimising moves over a doubling horizon", "WORKERS"),
    Method("cpsat-horizons", SAT, "puzzleplan.planner.backends.cpsat_backend:PerHorizon", "a CP-SAT model per horizon",
           "WORKERS"),
    Method("external", SAT, "puzzleplan.planner.backends.external_backend:ExternalBackend",
           "a SAT solver program per horizon (DIMACS in, s/v lines out)", "CMD", True, example="external:cadical"),
    Method("abc", SAT, "puzzleplan.planner.abc:ABC",
           "ABC's model checker on the AIGER export: pdr (invariant-checked optimum), bmc3; -back: backward",
           "ENGINE", True, example="abc:pdr"),
    Method("fd-lmcut", PLANNER, "puzzleplan.pddl.planners:FD_LMCUT", "Fast Downward, A* with LM-cut, on the PDDL export"),
    Method("fd-blind", PLANNER, "puzzleplan.pddl.planners:FD_BLIND", "Fast Downward, blind A*, on the PDDL export"),
    Method("symk", PLANNER, "puzzleplan.pddl.planners:SYMK", "SymK, symbolic bidirectional search, on the PDDL export"),
)


@lru_cache(maxsize=1)
def table() -> dict[str, Method]:
    """Every method: the rows above, then those of other installed packages (entry points)."""
    found = {m.name: m for m in ROWS}
    from importlib.metadata import entry_points
    for ep in entry_points(group=GROUP):
        try:
            method = ep.load()
        except Exception as err:        # a broken third-party package: say which, not a traceback
            raise PuzzleError(f"the method of entry point {ep.name} ({ep.value}) cannot be loaded: "
                              f"{type(err).__name__}: {err}") from None
        if not isinstance(method, Method) or method.kind not in KINDS:
            raise PuzzleError(f"entry point {ep.name} ({ep.value}) is not a puzzleplan Method record")
        if method.name in found and found[method.name] != method:
            raise PuzzleError(f"two methods are named {method.name!r}")
        found[method.name] = method
    return found


def names(kind: str | None = None) -> list[str]:
    return [n for n, m in table().items() if kind is None or m.kind == kind]


def usage(kind: str | None = None) -> str:
    """``bfs, astar, pysat[:SOLVER], ...``: for help texts and errors."""
    return ", ".join(table()[n].usage() for n in names(kind))


def help_text(kind: str) -> str:
    """One line per method of ``kind``: ``usage: summary`` (the CLI's help)."""
    return "; ".join(f"{m.usage()}: {m.summary}" for m in table().values() if m.kind == kind)


NOUNS = {SEARCH: "search algorithm", SAT: "backend", PLANNER: "planner", None: "method"}


def parse(spec: str, kind: str | None = None) -> tuple[Method, str]:
    """``"pysat:cadical195"`` -> (the pysat row, ``"cadical195"``), of ``kind`` if given; the
    option is checked by :func:`code`."""
    name, sep, option = spec.strip().partition(":")
    method = table().get(name)
    if method is None or (kind is not None and method.kind != kind):
        raise PuzzleError(f"unknown {NOUNS[kind]} {spec!r}; use {usage(kind)}")
    if sep and method.option is None:
        raise PuzzleError(f"{spec}: {name} takes no option after ':'")
    if method.needs_option and not option:
        example = f", e.g. {method.example}" if method.example else ""
        raise PuzzleError(f"{name} needs {'a command' if method.option == 'CMD' else 'an ' + method.option.lower()}"
                          f"{example}")
    return method, option


def code(spec: str, kind: str | None = None) -> tuple[Method, str, Any]:
    """The row, the option and the loaded code of ``spec`` (of ``kind`` if given), the option checked."""
    method, option = parse(spec, kind)
    impl = method.load()
    if isinstance(impl, Plugin) or (isinstance(impl, type) and issubclass(impl, Plugin)):
        impl.check_option(method.name, option)
    return method, option, impl


def check(spec: str) -> Method:
    """Refuse a method that cannot run here, naming why (a wrong option, an unknown solver, a
    program or package not installed), before any work is done."""
    method, option, impl = code(spec)
    why = impl.unavailable(method.name, option) if hasattr(impl, "unavailable") else None
    if why:
        raise PuzzleError(f"{spec}: {why}")
    return method
