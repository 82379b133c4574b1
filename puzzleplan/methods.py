"""Any method by name: ``puzzleplan.methods.run("fd-lmcut", instance, "slides")``.

The methods are the rows of the registry (:mod:`puzzleplan.plugins`, whose names are
re-exported here): ``bfs``, ``astar``, ``pysat[:SOLVER]``, ``pysat-plain[:SOLVER]``,
``pysat-de[:SOLVER]``, ``cpsat[:WORKERS]``, ``cpsat-horizons``, ``external:CMD``,
``abc:ENGINE``, ``fd-lmcut``, ``fd-blind``, ``fd-ms``, ``fd-ipdb``, ``symk[:MODE]`` and those
of other installed packages.  Every one is built from its option and answers through one
``solve(problem, metric, options)``; :func:`refusal` asks it first whether it takes the puzzle.
"""
from __future__ import annotations

from .plugins import (GROUP, KINDS, NOUNS, PLANNER, ROWS, SAT, SEARCH, Method, Package, Plugin, Program, Runner,
                      build, check, code, help_text, names, parse, requirements, table, usage)
from .puzzle import PuzzleError, Result

__all__ = ["GROUP", "KINDS", "NOUNS", "PLANNER", "ROWS", "SAT", "SEARCH", "Method", "Package", "Plugin", "Program",
           "Runner", "build", "check", "code", "help_text", "names", "parse", "requirements", "table", "usage",
           "availability", "backends", "matrix", "refusal", "run"]


def availability() -> list[dict]:
    """Every method with whether it runs here (``puzzleplan solvers``)."""
    rows = []
    for m in table().values():
        try:
            impl = m.load()
            why = impl.unavailable(m.name, "") if isinstance(impl, type) and issubclass(impl, Plugin) else \
                f"the method {m.name}'s code {m.code} is not a puzzleplan Plugin class"
        except PuzzleError as err:
            why = str(err)
        rows.append({"name": m.name, "kind": m.kind, "use": m.usage(), "summary": m.summary, "runs_here": not why,
                     **({"why_not": why} if why else {})})
    return rows


def matrix(kind: str | None = None, per_horizon: bool | None = None, here: bool = True) -> list[str]:
    """Each method of ``kind`` as it runs without more said (its name, or the example of a
    method that needs an option), of those that run here (``here=False``: all of them): the
    tests' method lists.  ``per_horizon``: only SAT backends asked one horizon at a time
    (True), or only methods that are not (False)."""
    from .planner.backends.base import Backend
    out = []
    for m in table().values():
        if kind is not None and m.kind != kind:
            continue
        spec = m.example if m.needs_option else m.name
        if not spec:
            continue
        impl = m.load()
        if per_horizon is not None and (isinstance(impl, type) and issubclass(impl, Backend)) != per_horizon:
            continue
        if not here or not impl.unavailable(m.name, parse(spec)[1]):
            out.append(spec)
    return out


def backends() -> list[str]:
    """The per-horizon SAT backends that take no option and run here: the conformance matrix."""
    return [spec for spec in matrix(SAT, per_horizon=True) if not table()[spec.partition(":")[0]].needs_option]


def refusal(spec: str, target, metric: str | None = None, counts=()) -> str | None:
    """Why method ``spec`` does not take ``target`` (a :class:`~puzzleplan.contract.Problem`, a
    loaded instance or bare rules) in ``metric`` under its side conditions and ``counts``, or
    None (:meth:`~puzzleplan.plugins.Plugin.supports`)."""
    from . import registry
    from .puzzle import check_metric
    problem = registry.problem(target, counts)
    return build(spec).supports(problem.family, check_metric(problem, metric), problem.counts)


def run(spec: str, problem, metric: str | None, time_limit: float | None = None, **options) -> Result:
    """Run method ``spec`` on ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    instance or a bare rules object); a method that does not take the puzzle refuses it before
    any work (PuzzleError with the reason).  ``options``: for a
    search, ``progress(expanded, states)``; for a SAT method, any field of the planner's
    :class:`~puzzleplan.planner.deepening.SolveOptions`; planners take none."""
    from . import registry
    method, option, impl = code(spec)
    if method.kind == SAT:
        from .planner import solve
        return solve(problem, metric, spec, time_limit, **options)
    settings = {"progress": options.pop("progress", None)} if method.kind == SEARCH else {}
    if options:
        raise PuzzleError(f"{spec} takes no options ({', '.join(options)})")
    built = impl.build(method.name, option, **settings)
    from .planner.deepening import SolveOptions
    from .puzzle import check_metric
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    why = built.supports(problem.family, metric, problem.counts)
    if why:
        raise PuzzleError(why)
    return built.solve(problem, metric, SolveOptions(spec, time_limit))
