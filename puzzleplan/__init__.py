"""puzzleplan: SAT and CP-SAT planning for move puzzles, measured against search.

>>> import puzzleplan as pp
>>> inst = pp.load("instances/seeds/rushhour_card40_bmodel_v2.rh",
...                constraints=[pp.MoveCount("A", ">=", 3), pp.frozen("K")])
>>> result = pp.solve(inst.domain, "slides")          # SAT, deepening
>>> result.status, result.length, result.steps
>>> pp.methods.run("fd-lmcut", inst.domain, "slides")  # any method by name (puzzleplan.methods)
>>> [f.name for f in pp.registry.all_families()]       # the puzzle families
"""
from . import methods, registry
from .formats.load import load
from .planner import SolveOptions, solve
from .puzzle import Avoid, EndsOn, MoveCount, PuzzleError, Result, Status, frozen
from .search import astar_search, breadth_first_search
from .plans import read_plan
from .validate import check_plan

__all__ = ["load", "solve", "SolveOptions", "breadth_first_search", "astar_search", "check_plan", "read_plan",
           "MoveCount", "Avoid", "EndsOn", "frozen", "PuzzleError", "Result", "Status", "methods", "registry"]
