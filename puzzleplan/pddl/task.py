"""A puzzle as a STRIPS planning task (PDDL, with ``:action-costs`` where needed).

Representation
--------------
object   cells ``c-X-Y`` (the domain's own coordinates: sliding and Sokoban count
         rows from the top, knights ranks from the bottom, all 0-based), kinds
         ``k0 k1 ...`` (domain constants; pieces that are interchangeable share a
         kind, as in the domains, so identical pieces do not multiply the planners'
         states), counter values ``n0 ... nC``
fact     ``(at K C)`` a piece of kind K has its anchor on C (knights: stands on C);
         ``(clear C)`` nothing on C; Sokoban ``(player C)``, ``(box C)``;
         ``(count-I N)`` counter I stands at N (capped at C, one above the largest
         bound); ``(fresh-D K)`` kind K may slide in direction D next (see below)
schema   one action schema per kind, direction and distance (sliding), per direction
         (Sokoban walks and pushes) or per kind (knights).  Its parameters are
         ``?from ?to`` and the cells the move needs empty or empties; a static
         relation ``(legal-NAME ...)`` in the problem lists its legal groundings, so
         the geometry (shapes, walls, axes, avoided cells) lives in the problem
goal     the goal facts; when move counts, end cells or several goal alternatives
         are asked, ``(done)`` instead, reached by a ``finish-I`` action (cost 0)
         whose preconditions are alternative I's conditions.  Every move needs
         ``(playing)``, which ``finish`` deletes.

Costs: every move costs 1, except Sokoban walks under ``pushes`` (0, as in the IPC's
sokoban-opt track); without ``pushes`` or a ``finish`` action the task is plain
unit-cost STRIPS.

Side conditions: a frozen piece (``<= 0`` / ``= 0`` moves for every alternative) has no
actions; avoided cells never appear in a legal grounding; move counts are counters
stepped by the counted movers' actions (pushes only, under ``pushes``).  Under
``slides`` a counted piece may not slide on in the direction of its previous slide
(our metric would count both as one slide, the counter two): the ``fresh`` facts
forbid it, as :class:`puzzleplan.constraints.Counted` does.

The sliding ``moves`` metric (a piece goes anywhere it reaches alone) is not
exported: it raises :class:`PuzzleError`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable

from ..constraints import alternatives, movers_of
from ..domains.sliding import AXIS_DIRS, DIRS as SLIDE_DIRS, add
from ..domains.sokoban import DIRS as SOKO_DIRS
from ..puzzle import MoveCount, PuzzleError, check_metric

DIR_NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}
Atom = tuple[str, ...]


@dataclass
class Schema:
    """One action schema.  Atoms are tuples; ``?x`` names a parameter.  ``rows`` are
    the legal groundings of ``params`` (the static relation ``legal-NAME``);
    ``step`` says how a ground action becomes our steps (see :func:`decode`)."""

    name: str
    mover: Hashable
    params: tuple[str, ...]
    rows: list[tuple[str, ...]]
    pre: list[Atom]
    add: list[Atom]
    delete: list[Atom]
    cost: int
    step: tuple
    counted: bool = True         # does this action count as a move of its mover
    free: tuple[str, ...] = ()   # parameters after ``params``, outside ``legal-NAME`` (counters...)


@dataclass
class Task:
    """A grounded-geometry STRIPS task: schemas, facts and goal, plus what is needed
    to read a plan back (cell names, the schema of each action name)."""

    name: str
    metric: str
    constants: list[str]
    objects: list[str]
    schemas: list[Schema]
    init: list[Atom]
    goal: list[Atom]
    costs: bool
    comments: list[str] = field(default_factory=list)
    cells: dict[str, tuple[int, int]] = field(default_factory=dict)

    def schema(self, name: str) -> Schema | None:
        return next((s for s in self.schemas if s.name == name.lower()), None)


def cell(c) -> str:
    return f"c-{c[0]}-{c[1]}"


def _uniform(rows: list[tuple]) -> bool:
    return len({len(r) for r in rows}) <= 1


# -- sliding ------------------------------------------------------------------
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
                    cost=1, step=("sliding", k, d, n)))
    return out


def sliding_facts(dom) -> tuple[list[str], list[Atom], dict]:
    cells = [(x, y) for y in range(dom.spec.height) for x in range(dom.spec.width) if dom.inside((x, y))]
    occupied = dom.occupied(dom.initial)
    init = [("clear", cell(c)) for c in cells if c not in occupied]
    init += [("at", f"k{k}", cell(a)) for k, anchors in enumerate(dom.initial) for a in anchors]
    return [cell(c) for c in cells], init, {cell(c): c for c in cells}


# -- Sokoban ------------------------------------------------------------------
def sokoban_schemas(dom, metric: str) -> list[Schema]:
    """Walks ``(?from ?to)`` and pushes ``(?from ?box ?to)`` per direction, over the
    floor the domain computed (avoided cells and dead squares left out, as it does)."""
    out = []
    stand = [c for c in sorted(dom.floor) if c not in dom.no_player]
    for letter, d in SOKO_DIRS.items():
        walks = [(cell(c), cell(add(c, d))) for c in stand if add(c, d) in dom.floor and add(c, d) not in dom.no_player]
        pushes = [(cell(c), cell(add(c, d)), cell(add(add(c, d), d))) for c in stand
                  if add(c, d) in dom.floor and add(c, d) not in dom.no_player
                  and add(add(c, d), d) in dom.floor and add(add(c, d), d) not in dom.dead]
        name = DIR_NAMES[letter.upper()]
        if walks:
            out.append(Schema(f"walk-{name}", "player", ("?from", "?to"), walks,
                              pre=[("player", "?from"), ("clear", "?to")],
                              add=[("player", "?to"), ("clear", "?from")],
                              delete=[("player", "?from"), ("clear", "?to")],
                              cost=0 if metric == "pushes" else 1, step=("sokoban", letter),
                              counted=metric != "pushes"))
        if pushes:
            out.append(Schema(f"push-{name}", "player", ("?from", "?box", "?to"), pushes,
                              pre=[("player", "?from"), ("box", "?box"), ("clear", "?to")],
                              add=[("player", "?box"), ("box", "?to"), ("clear", "?from")],
                              delete=[("player", "?from"), ("box", "?box"), ("clear", "?to")],
                              cost=1, step=("sokoban", letter.upper())))
    return out


def sokoban_facts(dom) -> tuple[list[str], list[Atom], dict]:
    cells = sorted(dom.floor)
    player, boxes = dom.initial
    init = [("clear", cell(c)) for c in cells if c != player and c not in boxes]
    init += [("player", cell(player))] + [("box", cell(b)) for b in boxes]
    return [cell(c) for c in cells], init, {cell(c): c for c in cells}


# -- knights ------------------------------------------------------------------
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
                              cost=1, step=("knights", k)))
    return out


def knights_facts(dom) -> tuple[list[str], list[Atom], dict]:
    squares = sorted(dom.spec.squares)
    taken = {sq for group in dom.initial for sq in group}
    init = [("clear", cell(sq)) for sq in squares if sq not in taken]
    init += [("at", f"k{k}", cell(sq)) for k, group in enumerate(dom.initial) for sq in group]
    return [cell(sq) for sq in squares], init, {cell(sq): sq for sq in squares}


def goal_atoms(dom) -> list[list[Atom]]:
    """The goal facts of each goal alternative (without move counts)."""
    if dom.name == "sliding":
        return [[("at", f"k{k}", cell(a)) for k, a in dom.goal]]
    if dom.name == "sokoban":
        return [[("box", cell(g)) for g in dom.goal_boxes]]
    return [[("at", f"k{k}", cell(sq)) for k, want in alt for sq in want] for alt in dom.alternatives]


BUILDERS = {"sliding": (sliding_schemas, sliding_facts), "sokoban": (sokoban_schemas, sokoban_facts),
            "knights": (knights_schemas, knights_facts)}


# -- side conditions ----------------------------------------------------------
def frozen_movers(base, extra) -> set:
    """Movers that a condition holding for every alternative keeps still."""
    out = set()
    for r in extra:
        if r.op in ("<=", "==") and r.k == 0:
            out |= set(movers_of(base, r))
    return out


def add_counters(base, schemas: list[Schema], counts: list[MoveCount]) -> None:
    """Counter I is stepped by every counted action of a mover of count I."""
    for i, r in enumerate(counts):
        movers = set(movers_of(base, r))
        for s in schemas:
            if s.mover in movers and s.counted:
                a, b = f"?n{i}", f"?m{i}"
                s.free += (a, b)
                s.pre += [(f"count-{i}", a), (f"next", a, b)]
                s.delete.append((f"count-{i}", a))
                s.add.append((f"count-{i}", b))


def add_fresh(schemas: list[Schema], counted_movers: set) -> list[Atom]:
    """Under ``slides``: a counted kind may not slide on in its last direction."""
    facts = [(f"fresh-{DIR_NAMES[d].lower()}", f"k{k}") for k in sorted(counted_movers, key=str) for d in "UDLR"]
    for s in schemas:
        own = None
        if s.mover in counted_movers:
            own = (f"fresh-{DIR_NAMES[s.step[2]]}", f"k{s.mover}")
            s.pre.append(own)
            s.delete.append(own)
        s.add += [f for f in facts if f != own]
    return facts


def build(domain, metric: str | None = None) -> Task:
    """The STRIPS task of ``domain`` (possibly :class:`Counted`) under ``metric``.

    Raises :class:`PuzzleError` for what STRIPS cannot say here (the sliding
    ``moves`` metric; end cells under Sokoban ``pushes``)."""
    metric = check_metric(domain, metric)
    base = getattr(domain, "base", domain)
    if base.name == "sliding" and metric == "moves":
        raise PuzzleError("the sliding 'moves' metric (a piece anywhere it reaches alone) is not exported "
                          "to PDDL; use --metric steps or slides")
    extra, ends = tuple(getattr(domain, "extra", ())), tuple(getattr(domain, "ends", ()))
    if ends and metric == "pushes":
        raise PuzzleError("an end condition on the player needs the moves metric, not pushes")
    make_schemas, make_facts = BUILDERS[base.name]
    schemas = make_schemas(base, metric)
    objects, init, cells = make_facts(base)
    still = frozen_movers(base, extra)
    schemas = [s for s in schemas if s.mover not in still]
    alts = [tuple(r for r in tuple(alt) + extra if not (r in extra and set(movers_of(base, r)) <= still))
            for alt in alternatives(base)]
    counts = list(dict.fromkeys(r for alt in alts for r in alt))
    cap = 1 + max((r.k for r in counts), default=0)
    add_counters(base, schemas, counts)
    constants = [f"k{k}" for k in range(len(getattr(base, "kinds", ())))]
    if counts:
        objects += [f"n{x}" for x in range(cap + 1)]
        init += [("next", f"n{x}", f"n{min(x + 1, cap)}") for x in range(cap + 1)]
        init += [(f"count-{i}", "n0") for i in range(len(counts))]
    counted_movers = {mv for r in counts for mv in movers_of(base, r)}
    if metric == "slides" and counted_movers:
        init += add_fresh(schemas, counted_movers)
    places = goal_atoms(base)
    finish = bool(counts or ends or len(places) > 1)
    goal = places[0]
    if finish:
        finishers = finish_schemas(base, alts, counts, places, ends, domain)
        for s in schemas:
            s.pre.append(("playing",))
        schemas += finishers
        init.append(("playing",))
        for j, e in enumerate(ends):
            init += [(f"end-{j}", cell(p)) for p in sorted(domain.finish[base.mover_of(e.piece)])]
        init += [(f"sat-{i}", f"n{x}") for i, r in enumerate(counts) for x in range(cap + 1) if r.holds(x)]
        goal = [("done",)]
    init += [(f"legal-{s.name}", *row) for s in schemas for row in s.rows]
    comments = [f"metric: {metric}"] + [f"kind k{k}: pieces {' '.join(kd.labels)}" if hasattr(kd, "labels")
                                        else f"kind k{k}: knights {kd}" for k, kd in enumerate(getattr(base, "kinds", ()))]
    comments += [f"constraint: {r}" for r in extra] + [f"constraint: {e}" for e in ends]
    comments += [f"counter count-{i}: {r}" for i, r in enumerate(counts)]
    return Task(f"puzzleplan-{base.name}", metric, constants, objects, schemas, init, goal,
                costs=finish or metric == "pushes", comments=comments, cells=cells)


def finish_schemas(base, alts, counts, places, ends, domain) -> list[Schema]:
    """``finish-I``: alternative I's goal facts, counts and end cells hold; then ``(done)``."""
    out = []
    for i, (alt, facts) in enumerate(zip(alts, places)):
        # the goal cells are parameters bound by a one-row static relation: actions of
        # the domain may name only its constants (the kinds), not the problem's cells
        goal = [f"?g{j}" for j in range(len(facts))]
        pre = [a[:-1] + (g,) for a, g in zip(facts, goal)]
        params = []
        for r in alt:
            c = counts.index(r)
            params.append(f"?v{c}")
            pre += [(f"count-{c}", f"?v{c}"), (f"sat-{c}", f"?v{c}")]
        for j, e in enumerate(ends):
            mover = base.mover_of(e.piece)
            params.append(f"?p{j}")
            where = ("player", f"?p{j}") if base.name == "sokoban" else ("at", f"k{mover}", f"?p{j}")
            pre += [where, (f"end-{j}", f"?p{j}")]
        out.append(Schema(f"finish-{i}", None, tuple(goal), [tuple(a[-1] for a in facts)], pre, [("done",)],
                          [("playing",)], 0, ("finish",), counted=False, free=tuple(params)))
    return out
