"""Solver backends; each follows a BoolModel and answers one horizon at a time
(:mod:`.base` says what the loop expects and the capabilities a backend declares).

Each backend is a row of the method registry (:mod:`puzzleplan.methods`) pointing at its
class here: ``pysat``, ``pysat-plain`` and ``pysat-de`` (:mod:`.pysat_backend`; two
solvers joined by ``+`` race, :mod:`.race`), ``cpsat`` and ``cpsat-horizons``
(:mod:`.cpsat_backend`), ``external:CMD`` (:mod:`.external_backend`).  Solver libraries
are imported only when a backend is made.
"""
from __future__ import annotations

from ...puzzle import PuzzleError


def make_backend(spec: str, model, card_encoding: str = "seqcounter", family=None):
    """The backend ``spec`` names (``pysat-de:cadical195``), following ``model``; without an
    option, the one ``family`` prefers (its measured default solver)."""
    from ... import plugins
    from .base import Backend
    method, option, cls = plugins.code(spec, plugins.SAT)
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise PuzzleError(f"{method.name} answers a whole puzzle, not one horizon at a time")
    if not option:
        option = cls.default_option(family) or ""
    return cls.make(method.name, option, model, card_encoding)
