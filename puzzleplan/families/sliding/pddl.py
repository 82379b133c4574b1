"""Sliding blocks as STRIPS: per kind, direction and distance an action schema (see
:mod:`puzzleplan.pddl.task` for the representation)."""
from __future__ import annotations

from ...pddl.task import DIR_NAMES, Atom, FamilyPDDL, Schema, _uniform, cell
from ...puzzle import Move
from .rules import AXIS_DIRS, DIRS as SLIDE_DIRS, add, normalise


def lane(kind, anchor) -> int | None:
    """The line a piece that slides along one axis never leaves: its row (horizontal), its
    column (vertical); None for a piece that slides both ways."""
    return anchor[1] if kind.axes == "h" else anchor[0] if kind.axes == "v" else None


def export_kinds(dom) -> list[tuple[int, int | None, int | None]]:
    """The export's kinds, ``(the domain's kind, lane, rank)``: a kind of several pieces that
    slide along one axis only (Rush Hour's cars) is split, one kind per piece, the rank-th
    of its lane (lane and rank None: the whole kind).  A piece never leaves its lane and
    pieces in one lane never pass each other, so the states are the same, one to one; but
    a kind of one piece is a fact ``(at K C)`` true for one C exactly, which the translator
    makes one variable of the piece's positions, where the kind's facts were Booleans tied by
    pairwise mutexes (Rush Hour card 40: 2 variables of more than two values -> 13).  Kept
    whole: a kind whose goal cells in a lane are not one per piece there (a goal that any of
    several pieces may meet)."""
    out = []
    for k, kind in enumerate(dom.kinds):
        ranked = _ranked(kind, dom.initial[k])
        goals = _ranked(kind, [a for g, a in dom.goal if g == k])
        if len(dom.initial[k]) < 2 or len(kind.axes) != 1 or \
                any(len(goals[ln]) != len(ranked.get(ln, ())) for ln in goals):
            out.append((k, None, None))
        else:
            out += [(k, ln, r) for ln in sorted(ranked) for r in range(len(ranked[ln]))]
    return out


def _ranked(kind, anchors) -> dict:
    """lane -> its anchors in order along the lane."""
    out: dict = {}
    for a in sorted(anchors):
        out.setdefault(lane(kind, a), []).append(a)
    return out


def export_kind(dom, k: int, anchor=None, among=None) -> int:
    """The export's kind of the domain's kind ``k``; where it is split, of its piece at
    ``anchor`` among the anchors ``among`` (the initial state's, or the goal's)."""
    rank = None
    if anchor is not None:
        kind = dom.kinds[k]
        rank = _ranked(kind, among)[lane(kind, anchor)].index(anchor)
    for j, (g, ln, r) in enumerate(export_kinds(dom)):
        if g == k and (ln is None or (anchor is not None and (ln, r) == (lane(dom.kinds[k], anchor), rank))):
            return j
    raise ValueError(f"kind {k} is split: name one of its pieces' anchors")


def label_kind(dom, label: str) -> int:
    """The export's kind of the piece ``label`` (``k3`` in its actions' names and facts)."""
    k = dom.kind_of[label]
    return export_kind(dom, k, normalise(dom.spec.pieces[label])[0], dom.initial[k])


def sliding_schemas(dom, metric: str) -> list[Schema]:
    """Per kind of the domain, direction and distance (1 under ``steps``): the piece goes from
    ``?from`` to ``?to``; ``?e..`` are the cells it enters, ``?t..`` those it only passes over
    (empty before and after), ``?l..`` those it leaves.  Where the kind's pieces are kinds of
    their own in the export (:func:`export_kinds`), the export's kind is a parameter ``?k``
    of the schema (named ``g`` and the domain's kind), its legal rows naming it: as many
    schemas as before (the translator's invariant search grows with them: Rush Hour cards in
    slides took it 0.3-0.4 s, 0.6-1.0 s with a schema per car).  An action's mover and step
    name the domain's kind."""
    out = []
    longest = 1 if metric == "steps" else max(dom.spec.width, dom.spec.height)
    kinds = export_kinds(dom)
    for k, kind in enumerate(dom.kinds):
        members = [(j, ln) for j, (g, ln, _) in enumerate(kinds) if g == k]
        split = members[0][1] is not None
        lanes = [(j, dom.anchor_set[k] if ln is None else frozenset(a for a in dom.anchor_set[k] if lane(kind, a) == ln))
                 for j, ln in members]
        for d in AXIS_DIRS[kind.axes]:
            for n in range(1, longest + 1):
                rows = []
                for j, legal in lanes:
                    for a in (a for a in kind.anchors if a in legal):
                        path = [a]
                        for _ in range(n):
                            path.append(add(path[-1], SLIDE_DIRS[d]))
                        if not all(p in legal for p in path[1:]):
                            continue
                        start, end = set(kind.cells(a)), set(kind.cells(path[-1]))
                        swept = set().union(*(kind.cells(p) for p in path[1:]))
                        groups = (sorted(end - start), sorted(swept - start - end), sorted(start - end))
                        rows.append((j, a, path[-1], groups))
                if not rows:
                    break
                sizes = [len(g) for g in rows[0][3]]
                names = ([f"?e{i}" for i in range(sizes[0])], [f"?t{i}" for i in range(sizes[1])],
                         [f"?l{i}" for i in range(sizes[2])])
                verb = "step" if metric == "steps" else "slide"
                ground = [((f"k{j}",) if split else ()) + (cell(a), cell(b), *map(cell, g[0] + g[1] + g[2]))
                          for j, a, b, g in rows]
                assert _uniform(ground)
                enter, through, leave = names
                who = "?k" if split else f"k{members[0][0]}"
                out.append(Schema(
                    f"{verb}-{'g' + str(k) if split else who}-{DIR_NAMES[d]}-{n}", k,
                    ("?k",) * split + ("?from", "?to", *enter, *through, *leave), ground,
                    pre=[("at", who, "?from")] + [("clear", c) for c in enter + through],
                    add=[("at", who, "?to")] + [("clear", c) for c in leave],
                    delete=[("at", who, "?from")] + [("clear", c) for c in enter],
                    cost=1, step=(k, d, n)))
    return out


def sliding_facts(dom) -> tuple[list[str], list[Atom], dict]:
    cells = [(x, y) for y in range(dom.spec.height) for x in range(dom.spec.width) if dom.inside((x, y))]
    occupied = dom.occupied(dom.initial)
    init = [("clear", cell(c)) for c in cells if c not in occupied]
    init += [("at", f"k{export_kind(dom, k, a, anchors)}", cell(a)) for k, anchors in enumerate(dom.initial) for a in anchors]
    return [cell(c) for c in cells], init, {cell(c): c for c in cells}


class PDDL(FamilyPDDL):
    def refuses(self, metric: str) -> str | None:
        if metric == "moves":
            return ("the sliding 'moves' metric (a piece anywhere it reaches alone) is not exported "
                    "to PDDL; use --metric steps or slides")
        if metric == "makespan":
            return ("the sliding 'makespan' metric (pieces moving at once) is not exported to PDDL; "
                    "use --metric steps or slides")
        return None

    def schemas(self, base, metric: str) -> list[Schema]:
        return sliding_schemas(base, metric)

    def facts(self, base):
        return sliding_facts(base)

    def goal_atoms(self, base) -> list[list[Atom]]:
        return [[("at", f"k{export_kind(base, k, a, [b for g, b in base.goal if g == k])}", cell(a))
                 for k, a in base.goal]]

    def at(self, base, mover, where: str) -> Atom:
        return ("at", f"k{export_kind(base, mover)}", where)     # a piece of a kind of its own

    def kinds(self, base) -> list[str]:
        out = []
        for k, ln, r in export_kinds(base):
            kind = base.kinds[k]
            if ln is None:
                out.append(f"pieces {' '.join(kind.labels)}")
                continue
            at = {normalise(base.spec.pieces[lb])[0]: lb for lb in kind.labels}
            label = at[_ranked(kind, base.initial[k])[ln][r]]
            out.append(f"piece {label} ({'row' if kind.axes == 'h' else 'column'} {ln})")
        return out

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
        facts = [(f"fresh-{DIR_NAMES[d]}", f"k{export_kind(base, k)}") for k in sorted(movers, key=str) for d in "UDLR"]
        for s in schemas:
            own = None
            if s.mover in movers:
                own = (f"fresh-{DIR_NAMES[s.step[1]]}", f"k{export_kind(base, s.mover)}")
                s.pre.append(own)
                s.delete.append(own)
            s.add += [f for f in facts if f != own]
        return facts
