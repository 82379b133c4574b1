"""Peg solitaire as STRIPS (steps only): one jump schema per kind of the jumping peg and
kind of the peg jumped over (see :mod:`puzzleplan.pddl.task`).  ``(full C)`` and
``(clear C)`` say whether hole C holds a peg; ``(at K C)`` which kind.

A goal "one peg anywhere" becomes one goal alternative per hole; "N pegs anywhere"
for N > 1 is not exported.  The ``moves`` metric is not exported: a jump costs 1 or 0
depending on the jump before it, and the export declares action costs only for goals
with move counts or alternatives, not for a metric of this family.
"""
from __future__ import annotations

from ...pddl.task import Atom, FamilyPDDL, Schema, cell
from ...puzzle import Move, PuzzleError


class PDDL(FamilyPDDL):
    def refuses(self, metric: str) -> str | None:
        if metric == "moves":
            return ("the pegsol 'moves' metric (a run of jumps by one peg counts once) is not "
                    "exported to PDDL; use --metric steps")
        return None

    def check(self, base, metric: str) -> None:
        super().check(base, metric)
        if base.goal.cells is None and base.goal.count != 1:
            raise PuzzleError(f"a goal of {base.goal.count} pegs on any holes is not exported to PDDL; "
                              "draw the goal as a picture")

    def schemas(self, base, metric: str) -> list[Schema]:
        out = []
        for k in range(len(base.kinds)):
            rows = [(cell(base.holes[a]), cell(base.holes[b]), cell(base.holes[c])) for a, b, c in base.jumps
                    if not base.banned[k] >> c & 1]
            for v in range(len(base.kinds)):
                if rows:
                    out.append(Schema(f"jump-k{k}-over-k{v}", base.kinds[k], ("?from", "?over", "?to"), rows,
                                      pre=[("at", f"k{k}", "?from"), ("at", f"k{v}", "?over"), ("clear", "?to")],
                                      add=[("at", f"k{k}", "?to"), ("full", "?to"), ("clear", "?from"),
                                           ("clear", "?over")],
                                      delete=[("at", f"k{k}", "?from"), ("at", f"k{v}", "?over"), ("clear", "?to"),
                                              ("full", "?from"), ("full", "?over")],
                                      cost=1, step=(k,)))
        return out

    def facts(self, base):
        occupied = 0
        for mask in base.initial:
            occupied |= mask
        init: list[Atom] = []
        for h, c in enumerate(base.holes):
            init.append(("full", cell(c)) if occupied >> h & 1 else ("clear", cell(c)))
        init += [("at", f"k{k}", cell(base.holes[h])) for k, mask in enumerate(base.initial)
                 for h in range(len(base.holes)) if mask >> h & 1]
        return [cell(c) for c in base.holes], init, {cell(c): c for c in base.holes}

    def goal_atoms(self, base) -> list[list[Atom]]:
        goal = base.goal
        named = [("at", f"k{base.kind_of[lb]}", cell(c)) for lb, c in goal.named]
        if goal.cells is not None:
            return [[("full", cell(c)) if c in goal.cells else ("clear", cell(c)) for c in base.holes] + named]
        return [[("full", cell(c)) if c == h else ("clear", cell(c)) for c in base.holes] for h in base.holes]

    def at(self, base, mover, where: str) -> Atom:
        return ("at", f"k{base.kind_of[mover]}", where)

    def kinds(self, base) -> list[str]:
        return ["unnamed pegs" if lb == "o" else f"peg {lb}" for lb in base.kinds]

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        return Move(base.kinds[schema.step[0]], (base.index[cells[0]], base.index[cells[2]]))
