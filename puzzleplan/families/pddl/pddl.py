"""A grounded PDDL task written back as STRIPS, so that the outside planners (Fast
Downward, SymK) run on exactly what our search and SAT see, side conditions included
(:mod:`puzzleplan.pddl.task` adds counters and ``finish`` actions on top).

Facts: ``(vV xX)`` variable V has value X (one unary predicate per variable, the values
``x0 x1 ...`` as objects).  Actions: one schema per ground action, named
``aO-NAME`` (O its index, NAME the action with ``_`` for spaces); the values it reads
and writes are its parameters, bound by its one-row static relation, so the domain
names no object.  An effect deletes every other value of its variable (a STRIPS
delete of a fact that does not hold changes nothing)."""
from __future__ import annotations

import re

from ...pddl.task import Atom, FamilyPDDL, Schema
from ...puzzle import Move, PuzzleError


def schema_name(o: int, name: str) -> str:
    return f"a{o}-" + re.sub(r"[^a-z0-9_-]", "_", "_".join(name.lower().split()))


class PDDL(FamilyPDDL):
    def schemas(self, base, metric: str) -> list[Schema]:
        out = []
        ranges = [len(v) for v in base.task.values]
        for o, op in enumerate(base.ops):
            post = dict(op.eff)
            pre = [(f"v{v}", f"?x{x}") for v, x in op.pre]
            add = [(f"v{v}", f"?x{x}") for v, x in op.eff]
            delete = [(f"v{v}", f"?x{y}") for v, x in op.eff for y in range(ranges[v]) if y != x]
            used = sorted({int(a[1][2:]) for a in pre + add + delete})
            out.append(Schema(schema_name(o, op.name), base.mover[o], tuple(f"?x{x}" for x in used),
                              [tuple(f"x{x}" for x in used)], pre, [a for a in add if a not in pre or a[0] in post],
                              delete, op.cost if metric == "cost" else 1, (o,)))
        return out

    def facts(self, base):
        values = [f"x{x}" for x in range(max((len(v) for v in base.task.values), default=1))]
        init = [(f"v{v}", f"x{x}") for v, x in enumerate(base.initial)]
        return values, init, {f"x{x}": x for x in range(len(values))}

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[(f"v{v}", f"x{x}") for v, x in base.task.goal]]

    def at(self, base, mover, where: str) -> Atom:
        raise PuzzleError("a PDDL task has no cells for end conditions")

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        o = schema.step[0]
        return Move(base.mover[o], o)
