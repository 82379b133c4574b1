"""Solver backends; each follows a BoolModel and answers one horizon at a time
(:mod:`.base` says what the loop expects and the capabilities a backend declares).

``pysat[:SOLVER]`` (incremental, assumptions; the loop adds reachability lemmas),
``pysat-plain[:SOLVER]`` (the same without lemmas), ``pysat-de[:SOLVER]`` (the
double-ended encoding); ``SOLVER`` may be two names joined by ``+``: a race (:mod:`.race`); ``cpsat[:WORKERS]`` (one
CP-SAT model minimising moves, over a doubling horizon), ``cpsat-horizons`` (a
CP-SAT model per horizon) and ``external:CMD`` (a solver program per horizon).
Solver libraries are imported only when a backend is made.
"""
from __future__ import annotations

from ...puzzle import PuzzleError

def make_backend(spec: str, model, card_encoding: str = "seqcounter"):
    name, _, option = spec.partition(":")
    if name in ("pysat", "pysat-plain", "pysat-de") and "+" in option:
        from .race import RaceBackend
        return RaceBackend(model, option.split("+"), card_encoding, lemmas=name != "pysat-plain",
                           double_ended=name == "pysat-de", family=name)
    if name in ("pysat", "pysat-plain", "pysat-de"):
        from .pysat_backend import PysatBackend
        return PysatBackend(model, option or None, card_encoding, lemmas=name != "pysat-plain",
                            double_ended=name == "pysat-de")
    if name in ("cpsat", "cpsat-horizons"):
        if option and not (option.isascii() and option.isdigit() and int(option) >= 1):
            raise PuzzleError(f"{spec}: give a number of workers, e.g. {name}:2")
        from .cpsat_backend import CpsatBackend
        return CpsatBackend(model, int(option or 1), minimise=name == "cpsat")
    if name == "external":
        from .external_backend import ExternalBackend
        return ExternalBackend(model, option, card_encoding)
    raise PuzzleError(f"unknown backend {spec!r}; use pysat[:SOLVER], pysat-plain[:SOLVER], pysat-de[:SOLVER], cpsat[:WORKERS], "
                      "cpsat-horizons or external:CMD")

