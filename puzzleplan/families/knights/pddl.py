"""Knights as STRIPS: one jump schema per kind of knight (see :mod:`puzzleplan.pddl.task`)."""
from __future__ import annotations

from ...pddl.task import Atom, FamilyPDDL, Schema, cell
from ...puzzle import Move


def knights_schemas(dom, metric: str) -> list[Schema]:
    out = []
    for k in range(len(dom.kinds)):
        rows = [(cell(sq), cell(to)) for sq in sorted(dom.spec.squares) for to in dom.jumps[sq]
                if to not in dom.banned[k]]
        if rows:
            out.append(Schema(f"jump-k{k}", k, ("?from", "?to"), rows,
                              pre=[("at", f"k{k}", "?from"), ("clear", "?to")],
                              add=[("at", f"k{k}", "?to"), ("clear", "?from")],
                              delete=[("at", f"k{k}", "?from"), ("clear", "?to")],
                              cost=1, step=(k,)))
    return out


def knights_facts(dom) -> tuple[list[str], list[Atom], dict]:
    squares = sorted(dom.spec.squares)
    taken = {sq for group in dom.initial for sq in group}
    init = [("clear", cell(sq)) for sq in squares if sq not in taken]
    init += [("at", f"k{k}", cell(sq)) for k, group in enumerate(dom.initial) for sq in group]
    return [cell(sq) for sq in squares], init, {cell(sq): sq for sq in squares}


class PDDL(FamilyPDDL):
    def schemas(self, base, metric: str) -> list[Schema]:
        return knights_schemas(base, metric)

    def facts(self, base):
        return knights_facts(base)

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[("at", f"k{k}", cell(sq)) for k, want in alt for sq in want] for alt in base.alternatives]

    def at(self, base, mover, where: str) -> Atom:
        return ("at", f"k{mover}", where)

    def kinds(self, base) -> list[str]:
        return [f"knights {letter}" for letter in base.kinds]

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        return Move(schema.step[0], (cells[0], cells[1]))
