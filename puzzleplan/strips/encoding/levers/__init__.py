"""The levers: what the encoding (and the search's bound) adds to a grounded task, one row of
:data:`TABLE` each -- its name as ``--levers`` names it, whether it is on by default, what it
adds, and the class that adds it (``module:Class`` in this package, loaded when an encoder is
made).  A new analysis is one module here (a :class:`~.base.Lever`, with the analysis it reads
from :mod:`puzzleplan.strips.analyses`) and one row below.

The rows are in the order their clauses are added where two add at the same point (each state:
mutex, then tallies; each goal-side state: tallies, then counts; each step: symmetry, then
order; once a run proves hard: counts, then order), so that the formula is the same whichever
levers are on.  The measurements behind each default are on the results pages
(``docs/guides/pddl-in.md``, ``benchmarks/pddl_levers``, ``benchmarks/pddl_round_trip``).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from ....puzzle import PuzzleError


@dataclass(frozen=True)
class Row:
    """One lever: ``name`` (its ``--levers`` word), ``default`` (on unless asked), ``summary``
    (what it adds), ``where`` (``module:Class`` in this package)."""

    name: str
    default: bool
    summary: str
    where: str

    def load(self) -> type:
        module, _, cls = self.where.partition(":")
        return getattr(importlib.import_module(f"{__name__}.{module}"), cls)


TABLE = (
    Row("bound", True, "admissible lower bounds: h^max, the counting bound, the transition graphs' distances "
        "(A*, the first horizon, the goal side of the double-ended unrolling), LM-cut at the start", "bound:Bound"),
    Row("mutex", True, "2-literal invariants: h^2 mutex pairs, unreachable facts, implications", "mutex:Mutex"),
    Row("inverse", True, "no action followed straight by one that undoes it", "barred:Inverse"),
    Row("shortcut", False, "no action followed straight by one that a single action does together with it",
        "barred:Shortcut"),
    Row("tallies", True, "counts no action changes: 'exactly k' on the goal side, a count of one or two at every step",
        "tallies:Tallies"),
    Row("counts", False, "sets of facts every reachable state holds exactly one of, on the goal side, once a run "
        "proves hard", "counts:Counts"),
    Row("symmetry", True, "interchangeable objects touched in one order on the start side", "symmetry:Symmetry"),
    Row("order", True, "actions that commute kept in one order, once a run proves hard", "order:Order"),
    Row("walk", True, "under cost, a run of actions of cost 0 that follows one variable as one transition",
        "walk:Walk"),
    Row("factor", True, "actions that are a product (a move times its counter's step) as two literals",
        "factor:Factor"),
)
LEVERS = tuple(row.name for row in TABLE)
DEFAULT_LEVERS = tuple(row.name for row in TABLE if row.default)


def parse_levers(text: str) -> tuple[str, ...]:
    """``--levers``: names (``bound,mutex``), changes to the defaults (``+shortcut,-mutex``),
    ``none`` or ``default``."""
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if words in (["none"], ["default"]):
        return () if words == ["none"] else DEFAULT_LEVERS
    changes = [w[0] in "+-" for w in words]
    if not words or (any(changes) and not all(changes)):
        raise PuzzleError(f"--levers {text}: give names ({', '.join(LEVERS)}), or changes to the defaults "
                          "(+shortcut,-mutex), or none")
    for w in words:
        if w.lstrip("+-") not in LEVERS:
            raise PuzzleError(f"--levers: no lever {w.lstrip('+-')!r}; the levers: {', '.join(LEVERS)} "
                              f"(default: {','.join(DEFAULT_LEVERS)})")
    if not any(changes):
        return tuple(dict.fromkeys(words))
    out = list(DEFAULT_LEVERS)
    for w in words:
        if w[0] == "+" and w[1:] not in out:
            out.append(w[1:])
        elif w[0] == "-" and w[1:] in out:
            out.remove(w[1:])
    return tuple(out)
