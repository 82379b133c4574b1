"""Any method by name: ``puzzleplan.methods.run("fd-lmcut", instance, "slides")``.

The methods are the rows of the registry (:mod:`puzzleplan.plugins`, whose names are
re-exported here): ``bfs``, ``astar``, ``pysat[:SOLVER]``, ``pysat-plain[:SOLVER]``,
``pysat-de[:SOLVER]``, ``cpsat[:WORKERS]``, ``cpsat-horizons``, ``external:CMD``,
``abc:ENGINE``, ``fd-lmcut``, ``fd-blind``, ``symk`` and those of other installed packages.
"""
from __future__ import annotations

from .plugins import (GROUP, KINDS, NOUNS, PLANNER, ROWS, SAT, SEARCH, Method, Plugin, Runner, check, code,
                      help_text, names, parse, table, usage)
from .puzzle import PuzzleError, Result

__all__ = ["GROUP", "KINDS", "NOUNS", "PLANNER", "ROWS", "SAT", "SEARCH", "Method", "Plugin", "Runner", "check", "code",
           "help_text", "names", "parse", "table", "usage", "availability", "backends", "run"]


def availability() -> list[dict]:
    """Every method with whether it runs here (``puzzleplan solvers``)."""
    rows = []
    for m in table().values():
        try:
            impl = m.load()
            why = impl.unavailable(m.name, "") if hasattr(impl, "unavailable") else None
        except PuzzleError as err:
            why = str(err)
        rows.append({"name": m.name, "kind": m.kind, "use": m.usage(), "summary": m.summary, "runs_here": not why,
                     **({"why_not": why} if why else {})})
    return rows


def backends() -> list[str]:
    """The per-horizon SAT backends that take no option and run here: the conformance matrix."""
    out = []
    for m in table().values():
        if m.kind != SAT or m.needs_option:
            continue
        impl = m.load()
        per_horizon = isinstance(impl, type) and issubclass(impl, Plugin) and not issubclass(impl, Runner)
        if per_horizon and not impl.unavailable(m.name, ""):
            out.append(m.name)
    return out


def run(spec: str, problem, metric: str | None, time_limit: float | None = None, **options) -> Result:
    """Run method ``spec`` on ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    instance or a bare rules object).  ``options``: for a
    search, ``progress(expanded, states)``; for a SAT method, any field of the planner's
    :class:`~puzzleplan.planner.deepening.SolveOptions`; planners take none."""
    from . import registry
    method, option, impl = code(spec)
    if method.kind == SAT:
        from .planner import solve
        return solve(problem, metric, spec, time_limit, **options)
    problem = registry.problem(problem)
    if method.kind == SEARCH:
        return impl(problem, metric, time_limit, options.pop("progress", None), **options)
    if method.kind == PLANNER:
        if options:
            raise PuzzleError(f"{spec} takes no options ({', '.join(options)})")
        from .planner.deepening import SolveOptions
        return impl.solve(problem, metric, method.name, option, SolveOptions(spec, time_limit))
