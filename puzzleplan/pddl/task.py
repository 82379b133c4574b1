"""A puzzle as a STRIPS planning task (PDDL, with ``:action-costs`` where needed).

Representation
--------------
object   cells ``c-X-Y`` (the domain's own coordinates: sliding and Sokoban count
         rows from the top, knights ranks from the bottom, all 0-based), kinds
         ``k0 k1 ...`` (domain constants; pieces that are interchangeable share a
         kind, as in the domains, so identical pieces do not multiply the planners'
         states; but sliding pieces that move along one axis only, Rush Hour's cars,
         never exchange places and each is a kind of its own, whose positions the
         translator makes one variable: :func:`..families.sliding.pddl.export_kinds`),
         counter values ``n0 ... nC``
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
sokoban-opt track) and a PDDL task's actions under ``cost``; when every move costs 1
and there is no ``finish`` action, the task is plain unit-cost STRIPS.

Side conditions: a frozen piece (``<= 0`` / ``= 0`` moves for every alternative) has no
actions; avoided cells never appear in a legal grounding; move counts are counters
stepped by the counted movers' actions (pushes only, under ``pushes``).  Under
``slides`` a counted piece may not slide on in the direction of its previous slide
(our metric would count both as one slide, the counter two): the ``fresh`` facts
forbid it, as :class:`puzzleplan.constraints.Counters` does.

The sliding ``moves`` metric (a piece goes anywhere it reaches alone) is not
exported: it raises :class:`PuzzleError`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable

from ..constraints import end_places, movers_of
from ..puzzle import Move, MoveCount, PuzzleError, check_metric

DIR_NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}
Atom = tuple[str, ...]


@dataclass
class Schema:
    """One action schema.  Atoms are tuples; ``?x`` names a parameter.  ``rows`` are
    the legal groundings of ``params`` (the static relation ``legal-NAME``);
    ``step`` is the family's note of what the action does (its ``to_move`` reads it;
    ``("finish",)`` for the finishing actions)."""

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


class FamilyPDDL:
    """A family's PDDL part (its ``pddl`` in :class:`~puzzleplan.contract.Family`): the
    schemas, objects and facts of an instance, its goal, and how a ground action of a
    plan becomes one of the family's moves.  Subclassed in each family's folder."""

    def refuses(self, metric: str) -> str | None:
        """Why no instance of the family is exported in ``metric`` (one line), or None; asked
        before any run (:meth:`puzzleplan.pddl.planners.Planner.supports`)."""
        return None

    def check(self, base, metric: str) -> None:
        """Raise PuzzleError for what this family's export cannot say of ``base``."""
        why = self.refuses(metric)
        if why:
            raise PuzzleError(why)

    def schemas(self, base, metric: str) -> list[Schema]:
        raise NotImplementedError

    def facts(self, base) -> tuple[list[str], list[Atom], dict]:
        """(cell objects, initial facts, cell object -> the domain's cell)."""
        raise NotImplementedError

    def goal_atoms(self, base) -> list[list[Atom]]:
        """The goal facts of each goal alternative (without move counts)."""
        raise NotImplementedError

    def at(self, base, mover, where: str) -> Atom:
        """The fact 'mover stands on ``where``' (end conditions)."""
        raise NotImplementedError

    def kinds(self, base) -> list[str]:
        """What each kind constant ``k0, k1, ...`` stands for (none: no kinds)."""
        return []

    def to_move(self, base, schema: Schema, cells: list) -> Move:
        """The move a ground action makes; ``cells`` are its parameters' cells, in order."""
        raise NotImplementedError

    def counted(self, base, metric: str, schemas: list[Schema], movers: set) -> list[Atom]:
        """Extra facts that keep the counters of ``movers`` right (initial facts returned)."""
        return []


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
                s.pre += [(f"count-{i}", a), ("next", a, b)]
                s.delete.append((f"count-{i}", a))
                s.add.append((f"count-{i}", b))


def build(problem, metric: str | None = None) -> Task:
    """The STRIPS task of ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    instance or a bare rules object) under ``metric``, with its side conditions.

    Raises :class:`PuzzleError` for what STRIPS cannot say here (the sliding
    ``moves`` metric; end cells under Sokoban ``pushes``)."""
    from .. import registry
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    base = problem.rules
    part = family_part(problem)
    part.check(base, metric)
    extra, ends = problem.counts, problem.ends
    refused = base.ends_refused(metric) if ends else None
    if refused:
        raise PuzzleError(refused)
    schemas = part.schemas(base, metric)
    objects, init, cells = part.facts(base)
    still = frozen_movers(base, extra)
    schemas = [s for s in schemas if s.mover not in still]
    alts = [tuple(r for r in tuple(alt) + extra if not (r in extra and set(movers_of(base, r)) <= still))
            for alt in base.goal_alternatives()]
    counts = list(dict.fromkeys(r for alt in alts for r in alt))
    cap = 1 + max((r.k for r in counts), default=0)
    add_counters(base, schemas, counts)
    kinds = part.kinds(base)
    constants = [f"k{k}" for k in range(len(kinds))]
    if counts:
        objects += [f"n{x}" for x in range(cap + 1)]
        init += [("next", f"n{x}", f"n{min(x + 1, cap)}") for x in range(cap + 1)]
        init += [(f"count-{i}", "n0") for i in range(len(counts))]
    counted_movers = {mv for r in counts for mv in movers_of(base, r)}
    if counted_movers:
        init += part.counted(base, metric, schemas, counted_movers)
    places = part.goal_atoms(base)
    finish = bool(counts or ends or len(places) > 1)
    goal = places[0]
    if finish:
        finishers = finish_schemas(base, part, alts, counts, places, ends)
        for s in schemas:
            s.pre.append(("playing",))
        schemas += finishers
        init.append(("playing",))
        ending = end_places(base, ends)
        for j, e in enumerate(ends):
            init += [(f"end-{j}", cell(p)) for p in sorted(ending[base.mover_of(e.piece)])]
        init += [(f"sat-{i}", f"n{x}") for i, r in enumerate(counts) for x in range(cap + 1) if r.holds(x)]
        goal = [("done",)]
    init += [(f"legal-{s.name}", *row) for s in schemas for row in s.rows]
    comments = [f"metric: {metric}"] + [f"kind k{k}: {text}" for k, text in enumerate(kinds)]
    comments += [f"constraint: {r}" for r in extra] + [f"constraint: {e}" for e in ends]
    comments += [f"counter count-{i}: {r}" for i, r in enumerate(counts)]
    return Task(f"puzzleplan-{problem.name}", metric, constants, objects, schemas, init, goal,
                costs=finish or any(s.cost != 1 for s in schemas), comments=comments, cells=cells)


def family_part(problem) -> FamilyPDDL:
    """The PDDL part of the problem's family; PuzzleError if it has none."""
    family = problem.family
    if not family.pddl:
        raise PuzzleError(f"the {family.name} family has no PDDL export")
    return family.part("pddl")()


def finish_schemas(base, part, alts, counts, places, ends) -> list[Schema]:
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
            where = part.at(base, mover, f"?p{j}")
            pre += [where, (f"end-{j}", f"?p{j}")]
        out.append(Schema(f"finish-{i}", None, tuple(goal), [tuple(a[-1] for a in facts)], pre, [("done",)],
                          [("playing",)], 0, ("finish",), counted=False, free=tuple(params)))
    return out
