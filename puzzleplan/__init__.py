"""puzzleplan: SAT and CP-SAT planning for move puzzles, measured against search.

>>> import puzzleplan as pp
>>> inst = pp.load("instances/seeds/rushhour_card40_bmodel_v2.rh",
...                constraints=[pp.MoveCount("A", ">=", 3), pp.frozen("K")])
>>> result = pp.solve(inst.problem, "slides")          # SAT, deepening
>>> result.status, result.length, result.steps
>>> pp.methods.run("fd-lmcut", inst.problem, "slides")  # any method by name (puzzleplan.methods)
>>> [f.name for f in pp.registry.all_families()]       # the puzzle families

The names are loaded when first used: ``import puzzleplan``, which the command line's start
goes through, loads nothing else, so that the command line answers a Ctrl-C from its first
moment (:mod:`puzzleplan.cli.entry`).
"""
from importlib import import_module

_WHERE = {"load": "formats.load", "solve": "planner", "SolveOptions": "planner", "Avoid": "puzzle",
          "EndsOn": "puzzle", "MoveCount": "puzzle", "PuzzleError": "puzzle", "Result": "puzzle", "Status": "puzzle",
          "frozen": "puzzle", "astar_search": "search", "breadth_first_search": "search", "read_plan": "plans",
          "check_plan": "validate", "methods": None, "registry": None}

__all__ = ["load", "solve", "SolveOptions", "breadth_first_search", "astar_search", "check_plan", "read_plan",
           "MoveCount", "Avoid", "EndsOn", "frozen", "PuzzleError", "Result", "Status", "methods", "registry"]


def __getattr__(name: str):
    """A name of ``__all__``, or a module of the package (``puzzleplan.limits``), loaded now."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name in _WHERE and _WHERE[name] is not None:
        value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    else:
        try:
            value = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
