"""The searches as methods of the registry (:mod:`puzzleplan.plugins`): ``bfs``, ``astar``, ``idastar``.

Each is the class of its row; ``solve`` runs the search function of
:mod:`.algorithms` under the run's time limit.  Their own option: ``progress(expanded,
states)``, called as the search goes (the CLI's status line)."""
from __future__ import annotations

from typing import Callable

from ..plugins import Plugin
from ..puzzle import Result


class Search(Plugin):
    """A complete state-space search; it takes every family, metric and side condition."""

    def __init__(self, name: str, option: str = "", progress: Callable[[int, int], None] | None = None):
        super().__init__(name, option)
        self.progress = progress

    @staticmethod
    def function():
        raise NotImplementedError

    def solve(self, problem, metric: str, options) -> Result:
        return self.function()(problem, metric, options.time_limit, self.progress)


class BreadthFirst(Search):
    """``bfs``: breadth-first search, uniform-cost where moves cost other than 1."""

    @staticmethod
    def function():
        from .algorithms import breadth_first_search
        return breadth_first_search


class AStar(Search):
    """``astar``: A* with the family's admissible heuristic."""

    @staticmethod
    def function():
        from .algorithms import astar_search
        return astar_search


class IDAStar(Search):
    """``idastar``: IDA* with the family's admissible heuristic (memory: the current path only)."""

    @staticmethod
    def function():
        from .idastar import ida_star_search
        return ida_star_search
