"""A grounded PDDL task written back as STRIPS, so that the outside planners (Fast
Downward, SymK) run on exactly what our search and SAT see, side conditions included
(:mod:`puzzleplan.pddl.task` adds counters and ``finish`` actions on top).

Facts: ``(val V X)`` variable V has value X, one binary predicate; values and variables
are the domain's constants (the "kinds" ``k0 k1 ...`` of :mod:`puzzleplan.pddl.task`:
values first, then variables), so that the planner's invariant synthesis finds "one
value per variable" from one predicate.
Actions: schemas without parameters, named ``aO-NAME`` (O the ground action's index,
NAME the action with ``_`` for spaces).  An effect on a variable the action does not
read is split: one schema per previous value (``aO-Y-NAME``), which it reads and
deletes, so that every add has its delete and the planner proves "one value per
variable" (beyond 16 copies the action stays one schema deleting every other value:
a STRIPS delete of a fact that does not hold changes nothing).  Without
parameters the planners' translator grounds it at once: schemas whose values were
parameters bound by static relations cost Fast Downward's invariant synthesis 23 s of
CPU on IPC Sokoban p09, with a unary predicate per variable 5 s, this way 0.1 s."""
from __future__ import annotations

import itertools
import math
import re

from ...pddl.task import Atom, FamilyPDDL, Schema
from ...puzzle import Move, PuzzleError


SPLIT = 16      # an action whose blind effects have more previous values than this stays one schema


def schema_name(o: int, name: str, tag: str = "") -> str:
    return f"a{o}{tag}-" + re.sub(r"[^a-z0-9_-]", "_", "_".join(name.lower().split()))


def widest(base) -> int:
    return max((len(v) for v in base.task.values), default=1)


def val(base, v: int, x: int) -> Atom:
    return ("val", f"k{widest(base) + v}", f"k{x}")


class PDDL(FamilyPDDL):
    def schemas(self, base, metric: str) -> list[Schema]:
        out = []
        ranges = [len(v) for v in base.task.values]
        for o, op in enumerate(base.ops):
            pre = dict(op.pre)
            blind = [v for v, _ in op.eff if v not in pre]     # effects on a variable the action does not read
            if math.prod(ranges[v] for v in blind) > SPLIT:
                blind = []
            for olds in itertools.product(*(range(ranges[v]) for v in blind)):
                known = {**pre, **dict(zip(blind, olds))}
                delete = [val(base, v, known[v]) if v in known else val(base, v, y)
                          for v, x in op.eff for y in ([None] if v in known else range(ranges[v]))
                          if (known.get(v) if v in known else y) != x]
                tag = "".join(f"-{x}" for x in olds)
                out.append(Schema(schema_name(o, op.name, tag), base.mover[o], (), [],
                                  [val(base, v, x) for v, x in sorted(known.items())],
                                  [val(base, v, x) for v, x in op.eff if known.get(v) != x], delete,
                                  op.cost if metric == "cost" else 1, (o,)))
        return out

    def kinds(self, base) -> list[str]:
        values = [f"value {x} of a variable" for x in range(widest(base))]
        return values + [f"variable {v}: {' / '.join(names)}"[:200] for v, names in enumerate(base.task.values)]

    def facts(self, base):
        return [], [val(base, v, x) for v, x in enumerate(base.initial)], {}

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[val(base, v, x) for v, x in alt] for alt in base.task.alternatives()]

    def at(self, base, mover, where: str) -> Atom:
        raise PuzzleError("a PDDL task has no cells for end conditions")

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        o = schema.step[0]
        return Move(base.mover[o], o)
