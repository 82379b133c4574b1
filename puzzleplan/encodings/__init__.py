"""Puzzle + horizon -> a solver-neutral Boolean model (:mod:`.model`); model -> plan.

:func:`encoder_for` asks the problem's family which encoder serves a metric.
:mod:`.lower` turns a model into CNF (cardinalities included), DIMACS, or a
CP-SAT model; it sits below the planner, so export and the planner share it.
"""
from __future__ import annotations

from typing import Sequence

from ..puzzle import MoveCount, PuzzleError

def encoder_for(problem, metric: str, counts: Sequence[MoveCount] = ()):
    """The encoder of ``problem`` (a :class:`~puzzleplan.contract.Problem`) under ``metric``,
    as its family declares it, with ``counts`` on top of its conditions; PuzzleError when none
    exists.  A bare rules object is made a problem here (:func:`puzzleplan.registry.problem`)."""
    from .. import registry
    problem = registry.problem(problem)
    family = problem.family
    if metric not in family.encoders:
        raise PuzzleError(f"no SAT encoding for {family.name} under the metric {metric!r}")
    return encoder_class(family, metric)(problem, metric, counts)


def encoder_class(family, metric: str) -> type:
    """The family's encoder class for ``metric``, checked against the contract
    (:class:`~puzzleplan.encodings.base.Encoder`); PuzzleError naming what it lacks."""
    from .base import Encoder
    cls = family.part(f"encoders.{metric}")
    if not (isinstance(cls, type) and issubclass(cls, Encoder)):
        raise PuzzleError(f"the {family.name} family's encoder for {metric!r} is not a subclass of "
                          "puzzleplan.encodings.base.Encoder")
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    if cls.decode is Encoder.decode and cls.decode_move is Encoder.decode_move:
        missing.append("decode_move (or decode)")
    if missing:
        raise PuzzleError(f"the {family.name} family's encoder for {metric!r} lacks: {', '.join(missing)}")
    return cls
