"""The seed puzzles (``instances/seeds``, the catalogue's rows under ``seeds/``), each by
breadth-first search and by SAT: ``puzzleplan seeds`` is this, with its printing."""
from __future__ import annotations

from typing import Callable

from ..catalogue import catalogue, instances_root
from ..formats.load import load
from ..planner import solve
from ..plugins import DEFAULT_SAT
from ..puzzle import PuzzleError
from ..search import breadth_first_search


def seed_rows() -> list[dict[str, str]]:
    """The catalogue's rows of the seed puzzles."""
    return [r for r in catalogue() if r["file"].startswith("seeds/")]


def solve_seed(row: dict, backend: str = DEFAULT_SAT, time_limit: float | None = 60,
               doing: Callable[[str], None] = lambda text: None) -> dict:
    """One seed by BFS and by SAT: known optimum, BFS length and seconds, the SAT result
    (JSON; None with ``sat_error`` for a metric no SAT encoding covers).  ``doing(text)``
    hears what is being done, for a progress line."""
    name = f"{row['name']} {row['metric']}"
    problem = load(instances_root() / row["file"]).problem
    doing(f"{name}: BFS")
    bfs = breadth_first_search(problem, row["metric"], None,
                               lambda expanded, states: doing(f"{name}: BFS, {expanded:,} expanded"))
    doing(f"{name}: SAT")
    entry = {"name": row["name"], "metric": row["metric"], "known": int(row["optimum"]), "bfs": bfs.length,
             "bfs_seconds": bfs.stats["seconds"], "sat": None, "sat_seconds": None}
    try:
        sat = solve(problem, row["metric"], backend, time_limit,
                    progress=lambda h: doing(f"{name}: SAT, horizon {h['horizon']} {h['result']}"))
        entry.update(sat=sat.to_json(), sat_seconds=sat.stats["seconds"])
    except PuzzleError as err:     # a metric the SAT encodings do not cover
        entry["sat_error"] = str(err)
    return entry
