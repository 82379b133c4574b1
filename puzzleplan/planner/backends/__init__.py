"""Solver backends; each follows a BoolModel and answers solve(assumptions).

``make_backend("pysat")``, ``"pysat:glucose4"`` (the planner adds reachability lemmas
to these; ``"pysat-plain"`` is the same solver without them), ``"cpsat-horizons"`` (a
CP-SAT model per horizon; plain ``cpsat`` is the planner's single minimising model).  Optional solvers
are imported lazily; :func:`available` says which can run here.
"""
from __future__ import annotations

from ...puzzle import PuzzleError


def make_backend(spec: str, model, card_encoding: str = "seqcounter"):
    name, _, option = spec.partition(":")
    if name in ("pysat", "pysat-plain"):     # pysat: the planner adds reachability lemmas
        from .pysat_backend import DEFAULT_SOLVER, PysatBackend
        return PysatBackend(model, option or DEFAULT_SOLVER, card_encoding)
    if name in ("cpsat", "cpsat-horizons"):     # cpsat: the planner's minimising loop uses this model
        from .cpsat_backend import CpsatBackend
        return CpsatBackend(model, int(option) if option.isdigit() else 1)
    if name == "external":
        from .external_backend import ExternalBackend
        return ExternalBackend(model, option, card_encoding)
    raise PuzzleError(f"unknown backend {spec!r}; use pysat[:SOLVER], pysat-plain[:SOLVER], cpsat[:WORKERS], "
                      "cpsat-horizons or external:CMD")


def available() -> dict[str, bool]:
    out = {}
    for name, module in (("pysat", "pysat.solvers"), ("cpsat", "ortools.sat.python.cp_model")):
        try:
            __import__(module)
            out[name] = True
        except ImportError:
            out[name] = False
    return out
