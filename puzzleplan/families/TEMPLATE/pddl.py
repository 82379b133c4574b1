"""Tokens on a line as STRIPS: one schema per token, ``(move-kI ?from ?to)`` over the
legal neighbouring cells (the static relation ``legal-move-kI`` lists them)."""
from __future__ import annotations

from puzzleplan.pddl.task import Atom, FamilyPDDL, Schema, cell
from puzzleplan.puzzle import Move


class PDDL(FamilyPDDL):
    def schemas(self, base, metric: str) -> list[Schema]:
        out = []
        for i in range(len(base.tokens)):
            rows = [(cell((x, 0)), cell((to, 0))) for x in range(base.spec.width) for to in (x - 1, x + 1)
                    if 0 <= to < base.spec.width and x not in base.banned[i] and to not in base.banned[i]]
            if rows:
                out.append(Schema(f"move-k{i}", i, ("?from", "?to"), rows,
                                  pre=[("at", f"k{i}", "?from"), ("clear", "?to")],
                                  add=[("at", f"k{i}", "?to"), ("clear", "?from")],
                                  delete=[("at", f"k{i}", "?from"), ("clear", "?to")], cost=1, step=(i,)))
        return out

    def facts(self, base):
        cells = [(x, 0) for x in range(base.spec.width)]
        taken = set(base.initial)
        init = [("clear", cell(c)) for c in cells if c[0] not in taken]
        init += [("at", f"k{i}", cell((x, 0))) for i, x in enumerate(base.initial)]
        return [cell(c) for c in cells], init, {cell(c): c for c in cells}

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[("at", f"k{i}", cell((x, 0))) for i, x in base.goal.items()]]

    def at(self, base, mover, where: str) -> Atom:
        return ("at", f"k{mover}", where)

    def kinds(self, base) -> list[str]:
        return [f"token {t}" for t in base.tokens]

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        return Move(schema.step[0], (cells[0][0], cells[1][0]))
