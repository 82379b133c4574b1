"""One registry of the methods that answer a puzzle: searches, SAT and CP-SAT backends of
the deepening loop, outside SAT solvers, outside PDDL planners.

A method is named as users write it: ``bfs``, ``astar``, ``pysat[:SOLVER]``,
``pysat-plain[:SOLVER]``, ``cpsat[:WORKERS]``, ``cpsat-horizons``, ``external:CMD``,
``abc:ENGINE``, ``fd-lmcut``, ``fd-blind``, ``symk``.  :func:`parse` splits a name into its
:class:`Method` and option, :func:`run` runs it on a domain, :func:`check` refuses a
wrong name or a missing tool before any work.  The CLI (``search``, ``solve``,
``bench``), the bench worker and the tests use this table; nothing is imported until
a method runs (so listing them is cheap).
"""
from __future__ import annotations

from dataclasses import dataclass

from .puzzle import PuzzleError, Result

SEARCH, SAT, PLANNER = "search", "sat", "planner"


@dataclass(frozen=True)
class Method:
    name: str
    kind: str                   # search | sat | planner
    summary: str
    option: str | None = None   # what may follow a colon (SOLVER, WORKERS, CMD), or None

    def usage(self) -> str:
        if self.option is None:
            return self.name
        return f"{self.name}:{self.option}" if self.name in ("external", "abc") else f"{self.name}[:{self.option}]"


METHODS = {m.name: m for m in [
    Method("bfs", SEARCH, "breadth-first search (uniform-cost where moves cost other than 1: optimal in every metric)"),
    Method("astar", SEARCH, "A* with the family's admissible heuristic"),
    Method("pysat", SAT, "incremental python-sat solver with reachability lemmas", "SOLVER"),
    Method("pysat-plain", SAT, "the same without the lemmas", "SOLVER"),
    Method("pysat-de", SAT, "double-ended incremental encoding, lemmas from the start and the goal", "SOLVER"),
    Method("cpsat", SAT, "one CP-SAT model minimising moves over a doubling horizon", "WORKERS"),
    Method("cpsat-horizons", SAT, "a CP-SAT model per horizon", "WORKERS"),
    Method("external", SAT, "a SAT solver program per horizon (DIMACS in, s/v lines out)", "CMD"),
    Method("abc", SAT, "ABC's model checker on the AIGER export: pdr (invariant-checked optimum), bmc3; "
                       "-back: backward", "ENGINE"),
    Method("fd-lmcut", PLANNER, "Fast Downward, A* with LM-cut, on the PDDL export"),
    Method("fd-blind", PLANNER, "Fast Downward, blind A*, on the PDDL export"),
    Method("symk", PLANNER, "SymK, symbolic bidirectional search, on the PDDL export"),
]}


def names(kind: str | None = None) -> list[str]:
    return [n for n, m in METHODS.items() if kind is None or m.kind == kind]


def usage(kind: str | None = None) -> str:
    """``bfs, astar, pysat[:SOLVER], ...``: for help texts and errors."""
    return ", ".join(METHODS[n].usage() for n in names(kind))


def parse(spec: str) -> tuple[Method, str]:
    """``"pysat:cadical195"`` -> (the pysat method, ``"cadical195"``)."""
    name, sep, option = spec.strip().partition(":")
    method = METHODS.get(name)
    if method is None:
        raise PuzzleError(f"unknown method {spec!r}; use {usage()}")
    if sep and method.option is None:
        raise PuzzleError(f"{spec}: {name} takes no option after ':'")
    if method.name == "external" and not option:
        raise PuzzleError("external needs a command, e.g. external:cadical")
    if method.name == "abc" and not option:
        raise PuzzleError("abc needs an engine, e.g. abc:pdr or abc:bmc3")
    return method, option


def check(spec: str) -> Method:
    """Refuse a method that cannot run here, naming why (an unknown solver, a planner not
    installed), before any work is done."""
    method, option = parse(spec)
    if method.kind == PLANNER:
        from .pddl.planners import driver
        driver(method.name)
    elif method.name == "abc":
        from .planner.abc import check as check_abc
        check_abc(option)
    elif method.kind == SAT:
        from .encodings.model import BoolModel
        from .planner.backends import make_backend
        make_backend(spec, BoolModel()).close()
    return method


def run(spec: str, domain, metric: str | None, time_limit: float | None = None, **options) -> Result:
    """Run method ``spec`` on ``domain``.  ``options``: for a search, ``progress(expanded,
    states)``; for a SAT method, any field of the planner's
    :class:`~puzzleplan.planner.deepening.SolveOptions`; planners take none."""
    method, _ = parse(spec)
    if method.kind == SEARCH:
        from .search import SEARCHES
        return SEARCHES[method.name](domain, metric, time_limit, options.pop("progress", None), **options)
    if method.kind == PLANNER:
        if options:
            raise PuzzleError(f"{spec} takes no options ({', '.join(options)})")
        from .pddl import plan
        return plan(domain, metric, method.name, time_limit)
    from .planner import solve
    return solve(domain, metric, spec, time_limit, **options)
