"""Puzzle + horizon -> a solver-neutral Boolean model (:mod:`.model`); model -> plan.

:func:`encoder_for` is the registry: which encoder serves a domain and metric.
:mod:`.lower` turns a model into CNF (cardinalities included), DIMACS, or a
CP-SAT model; it sits below the planner, so export and the planner share it.
"""
from __future__ import annotations

from typing import Sequence

from ..puzzle import MoveCount, PuzzleError

# domain name -> metric -> "module:Class" (imported on use)
ENCODERS = {
    "sliding": {"steps": "sliding:SlidingEncoder", "slides": "sliding:SlidingEncoder",
                "moves": "sliding:SlidingEncoder"},
    "knights": {"steps": "knights:KnightsEncoder"},
    "sokoban": {"moves": "sokoban:SokobanEncoder", "pushes": "sokoban:SokobanPushEncoder"},
}


def encoder_for(domain, metric: str, counts: Sequence[MoveCount] = ()):
    """The encoder of ``domain`` (possibly a :class:`~puzzleplan.constraints.Counted`
    wrapper) under ``metric``; PuzzleError when none exists."""
    import importlib
    name = getattr(domain, "base", domain).name
    where = ENCODERS.get(name, {}).get(metric)
    if where is None:
        raise PuzzleError(f"no SAT encoding for {name} under the metric {metric!r}")
    module, _, cls = where.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)(domain, metric, counts)
