"""Sliding blocks as STRIPS: per kind, direction and distance an action schema (see
:mod:`puzzleplan.pddl.task` for the representation)."""
from __future__ import annotations

from ...pddl.task import DIR_NAMES, Atom, FamilyPDDL, Schema, _uniform, cell
from ...puzzle import Move, PuzzleError
from .rules import AXIS_DIRS, DIRS as SLIDE_DIRS, add


def sliding_schemas(dom, metric: str) -> list[Schema]:
    """Per kind, direction and distance (1 under ``steps``): the piece goes from ``?from``
    to ``?to``; ``?e..`` are the cells it enters, ``?t..`` those it only passes
    over (empty before and after), ``?l..`` those it leaves."""
    out = []
    longest = 1 if metric == "steps" else max(dom.spec.width, dom.spec.height)
    for k, kind in enumerate(dom.kinds):
        legal = dom.anchor_set[k]
        for d in AXIS_DIRS[kind.axes]:
            for n in range(1, longest + 1):
                rows = []
                for a in kind.anchors:
                    path = [a]
                    for _ in range(n):
                        path.append(add(path[-1], SLIDE_DIRS[d]))
                    if not all(p in legal for p in path[1:]):
                        continue
                    start, end = set(kind.cells(a)), set(kind.cells(path[-1]))
                    swept = set().union(*(kind.cells(p) for p in path[1:]))
                    groups = (sorted(end - start), sorted(swept - start - end), sorted(start - end))
                    rows.append((a, path[-1], groups))
                if not rows:
                    break
                sizes = [len(g) for g in rows[0][2]]
                names = ([f"?e{i}" for i in range(sizes[0])], [f"?t{i}" for i in range(sizes[1])],
                         [f"?l{i}" for i in range(sizes[2])])
                verb = "step" if metric == "steps" else "slide"
                ground = [(cell(a), cell(b), *map(cell, g[0] + g[1] + g[2])) for a, b, g in rows]
                assert _uniform(ground)
                enter, through, leave = names
                out.append(Schema(
                    f"{verb}-k{k}-{DIR_NAMES[d]}-{n}", k, ("?from", "?to", *enter, *through, *leave), ground,
                    pre=[("at", f"k{k}", "?from")] + [("clear", c) for c in enter + through],
                    add=[("at", f"k{k}", "?to")] + [("clear", c) for c in leave],
                    delete=[("at", f"k{k}", "?from")] + [("clear", c) for c in enter],
                    cost=1, step=(k, d, n)))
    return out


def sliding_facts(dom) -> tuple[list[str], list[Atom], dict]:
    cells = [(x, y) for y in range(dom.spec.height) for x in range(dom.spec.width) if dom.inside((x, y))]
    occupied = dom.occupied(dom.initial)
    init = [("clear", cell(c)) for c in cells if c not in occupied]
    init += [("at", f"k{k}", cell(a)) for k, anchors in enumerate(dom.initial) for a in anchors]
    return [cell(c) for c in cells], init, {cell(c): c for c in cells}


class PDDL(FamilyPDDL):
    def check(self, base, metric: str) -> None:
        if metric == "moves":
            raise PuzzleError("the sliding 'moves' metric (a piece anywhere it reaches alone) is not exported "
                              "to PDDL; use --metric steps or slides")

    def schemas(self, base, metric: str) -> list[Schema]:
        return sliding_schemas(base, metric)

    def facts(self, base):
        return sliding_facts(base)

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[("at", f"k{k}", cell(a)) for k, a in base.goal]]

    def at(self, base, mover, where: str) -> Atom:
        return ("at", f"k{mover}", where)

    def kinds(self, base) -> list[str]:
        return [f"pieces {' '.join(kind.labels)}" for kind in base.kinds]

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        k, d, dist = schema.step
        a = cells[0]
        dx, dy = SLIDE_DIRS[d]
        path = tuple((a[0] + i * dx, a[1] + i * dy) for i in range(dist + 1))
        return Move(k, (k, path), dist)

    def counted(self, base, metric: str, schemas: list[Schema], movers: set) -> list[Atom]:
        """Under ``slides``: a counted kind may not slide on in its last direction (our
        metric would count both as one slide, the counter two)."""
        if metric != "slides":
            return []
        facts = [(f"fresh-{DIR_NAMES[d]}", f"k{k}") for k in sorted(movers, key=str) for d in "UDLR"]
        for s in schemas:
            own = None
            if s.mover in movers:
                own = (f"fresh-{DIR_NAMES[s.step[1]]}", f"k{s.mover}")
                s.pre.append(own)
                s.delete.append(own)
            s.add += [f for f in facts if f != own]
        return facts
