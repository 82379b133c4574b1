"""Methods as plug-ins: every way puzzleplan answers a puzzle is one row of this registry.

A row (:class:`Method`) names a method as users write it (``bfs``, ``pysat-de[:SOLVER]``,
``external:CMD``, ``abc:ENGINE``, ``fd-lmcut``...), says what kind it is and points at its
code, a :class:`Plugin` subclass, as ``"module:Class"``; nothing is imported until the method
is checked or run, so listing the methods is cheap.  The CLI's help texts and choices,
``puzzleplan solvers``, ``bench --methods``, the bench's provenance and the tests' method
matrices are all made from these rows: a new method is one file and one row (:data:`ROWS`,
or an entry point of another installed package in the group ``puzzleplan.methods`` naming a
:class:`Method` record).

Every method has one shape (:class:`Plugin`): the class is built from the option written
after the colon (:meth:`Plugin.build`); it declares what it needs on this machine as data
(``requires = (Program("cadical"), Package("ortools", ...))``, from which
:meth:`Plugin.unavailable` is derived), says before any run which puzzles it cannot take
(:meth:`Plugin.supports`: the family, the metric, the side conditions) and answers with
``solve(problem, metric, options) -> Result``.  The kinds differ only in what ``solve`` is:

search    a state-space search (:mod:`puzzleplan.search.methods`) on the problem's state
          space (:func:`puzzleplan.constraints.state_space`);
sat       a per-horizon :class:`~puzzleplan.planner.backends.base.Backend`, whose ``build``
          gives the deepening loop (:func:`puzzleplan.planner.solve`: enumeration first,
          limits, certification) driving that backend, or a :class:`Runner` that answers
          the whole puzzle (a model checker), also run through :func:`puzzleplan.planner.solve`;
planner   a :class:`Runner`: an outside planner on the PDDL export.

This module sits below the planner and imports none of the methods;
:mod:`puzzleplan.methods` runs them.
"""
from __future__ import annotations

import importlib
import importlib.util
import shutil
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
    """One row: ``name[:option]`` runs ``code`` (``"module:Class"``, a :class:`Plugin`, imported when used)."""

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
        return load(self.code, f"the method {self.name}'s code")


def load(code: str, what: str = "code") -> Any:
    """``"module:attribute"`` imported (see :meth:`Method.load`)."""
    from .limits import out_of_memory
    module, _, attr = code.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as err:
        if out_of_memory(err):
            raise MemoryError(f"{what} cannot be loaded within the memory limit") from None
        raise PuzzleError(f"{what} {code} cannot be loaded: {err}") from None


# -- what a method needs on this machine --------------------------------------------------
@dataclass(frozen=True)
class Program:
    """A program on PATH (the first of ``name`` and ``aliases`` found), with how to install it."""

    name: str
    install: str = ""
    aliases: tuple[str, ...] = ()
    what: str = "the program"

    def path(self) -> str | None:
        return next(filter(None, (shutil.which(n) for n in (self.name, *self.aliases))), None)

    def missing(self) -> str | None:
        """Why it is not here (one line), or None."""
        if self.path():
            return None
        return f"{self.what} {self.name} is not installed" + (f" ({self.install})" if self.install else "")


@dataclass(frozen=True)
class Package:
    """A Python package (its import name ``module``; ``dist``, its distribution's name, for its
    version in provenance), with how to install it."""

    module: str
    dist: str
    install: str = ""
    label: str = ""         # its name in messages (the distribution's by default)

    def missing(self) -> str | None:
        try:
            found = importlib.util.find_spec(self.module) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            return None
        return f"{self.label or self.dist} is not installed" + (f" ({self.install})" if self.install else "")

    def version(self) -> str | None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version(self.dist)
        except PackageNotFoundError:
            return None


Requirement = Program | Package


class Plugin:
    """One method, built from its option; what the registry and the runs ask of it.

    A subclass declares ``requires`` (the programs and packages it needs) and, where it takes
    one, checks its option (:meth:`check_option`); it answers :meth:`supports` before any run
    and :meth:`solve` for a run.  ``name`` and ``option`` are the method as written
    (``pysat-de``, ``glucose42+cadical195``)."""

    requires: tuple[Requirement, ...] = ()

    def __init__(self, name: str, option: str = ""):
        self.check_option(name, option)
        self.name, self.option = name, option

    @classmethod
    def build(cls, name: str, option: str = "", **settings) -> "Plugin":
        """The method ``name`` with ``option`` (checked: PuzzleError, one line); ``settings``
        are the method's own options (typed keyword arguments of its constructor)."""
        return cls(name, option, **settings)

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.option}" if self.option else self.name

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        """Refuse a wrong ``option`` of method ``name`` (PuzzleError, one line)."""
        if option:
            raise PuzzleError(f"{name}:{option}: {name} takes no option after ':'")

    @classmethod
    def needs(cls, option: str) -> tuple[Requirement, ...]:
        """What the method with ``option`` needs here: ``requires``, and for a method whose
        option names a program (``external:CMD``), that program."""
        return cls.requires

    @classmethod
    def unavailable(cls, name: str, option: str = "") -> str | None:
        """Why the method cannot run on this machine (the first of its needs missing), or None."""
        return next(filter(None, (r.missing() for r in cls.needs(option))), None)

    def supports(self, family, metric: str, conditions=()) -> str | None:
        """Why this method cannot take puzzles of ``family`` (a :class:`~puzzleplan.contract.Family`)
        in ``metric`` under the side ``conditions`` (move counts,
        :class:`~puzzleplan.puzzle.MoveCount`), or None.  Asked before any run."""
        return None

    def solve(self, problem, metric: str, options) -> Result:
        """Answer ``problem`` (a :class:`~puzzleplan.contract.Problem`) in ``metric``; ``options`` is the planner's
        :class:`~puzzleplan.planner.deepening.SolveOptions` (time limit, counts, say...)."""
        raise NotImplementedError


class Runner(Plugin):
    """A method that answers a whole puzzle at once (a model checker, an outside planner)."""


ROWS = (
    Method("bfs", SEARCH, "puzzleplan.search.methods:BreadthFirst",
           "breadth-first search (uniform-cost where moves cost other than 1: optimal in every metric)"),
    Method("astar", SEARCH, "puzzleplan.search.methods:AStar", "A* with the family's admissible heuristic"),
    Method("idastar", SEARCH, "puzzleplan.search.methods:IDAStar",
           "IDA* with the family's admissible heuristic (memory: the current path only)"),
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
    Method("abc", SAT, "puzzleplan.planner.abc:ModelChecker",
           "ABC's model checker on the AIGER export: pdr (invariant-checked optimum), bmc3; -back: backward",
           "ENGINE", True, example="abc:pdr"),
    Method("fd-lmcut", PLANNER, "puzzleplan.pddl.planners:FdLmcut", "Fast Downward, A* with LM-cut, on the PDDL export"),
    Method("fd-blind", PLANNER, "puzzleplan.pddl.planners:FdBlind", "Fast Downward, blind A*, on the PDDL export"),
    Method("fd-ms", PLANNER, "puzzleplan.pddl.abstractions:MergeAndShrink",
           "Fast Downward, A* with a merge-and-shrink heuristic (bisimulation, SCC-DFP merging), on the PDDL export"),
    Method("fd-ipdb", PLANNER, "puzzleplan.pddl.abstractions:HillClimbingPDBs",
           "Fast Downward, A* with pattern databases chosen by hill climbing (iPDB), on the PDDL export"),
    Method("symk", PLANNER, "puzzleplan.pddl.planners:Symk",
           "SymK, symbolic search on the PDDL export: bidirectional (bd, the default), forward (fw) or "
           "backward (bw), e.g. symk:fw", "MODE", example="symk:fw"),
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


def code(spec: str, kind: str | None = None) -> tuple[Method, str, type[Plugin]]:
    """The row, the option and the loaded class of ``spec`` (of ``kind`` if given), the option checked."""
    method, option = parse(spec, kind)
    impl = method.load()
    if not (isinstance(impl, type) and issubclass(impl, Plugin)):
        raise PuzzleError(f"the method {method.name}'s code {method.code} is not a puzzleplan Plugin class")
    impl.check_option(method.name, option)
    return method, option, impl


def build(spec: str, kind: str | None = None, **settings) -> Plugin:
    """The method ``spec`` built from its option (``settings``: the method's own, e.g. a
    search's ``progress``)."""
    method, option, impl = code(spec, kind)
    return impl.build(method.name, option, **settings)


def check(spec: str) -> Method:
    """Refuse a method that cannot run here, naming why (a wrong option, an unknown solver, a
    program or package not installed), before any work is done."""
    method, option, impl = code(spec)
    why = impl.unavailable(method.name, option)
    if why:
        raise PuzzleError(f"{spec}: {why}")
    return method


def requirements(specs) -> list[Requirement]:
    """Every program and package the methods ``specs`` need (each once): the bench's provenance."""
    out: dict = {}
    for spec in specs:
        try:
            method, option, impl = code(spec)
        except PuzzleError:
            continue
        out.update(dict.fromkeys(impl.needs(option)))
    return list(out)
