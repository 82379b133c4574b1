"""What every sequential encoding shares.

Semantics: at most one move per time step; a step without a move is a no-op and
no-ops come last (``act(t+1) -> act(t)``).  So horizon T is satisfiable iff a
plan of at most T moves exists, and refuting T refutes every shorter horizon.
Goals are alternatives; each may require move counts of given pieces, lowered as
cardinality constraints over that piece's move variables, guarded by the
alternative's literal for that horizon (so one solver serves every horizon).
A piece that no alternative lets move (``frozen``) is kept still at every step
instead, a rule rather than a count.
"""
from __future__ import annotations

import abc
from typing import Hashable, Sequence

from ..constraints import alternatives, end_places, movers_of
from ..encodings.model import BoolModel
from ..limits import checkpoint
from ..puzzle import Move, MoveCount

#: the most literals a distance sum (:meth:`Encoder.distance_sum`) may count; beyond, no bound
MAX_DISTANCE_LITS = 20_000
#: the most literals the clauses of one unary distance may hold written directly (see there)
DIRECT_LITS = 50_000


def frame(m: BoolModel, now: int, nxt: int, leaving: Sequence[int], arriving: Sequence[int]) -> None:
    """Explanatory frame axioms: a fact turns false only through a move in ``leaving``
    and turns true only through a move in ``arriving``."""
    m.add([-now, nxt, *leaving])
    m.add([now, -nxt, *arriving])


class Encoder(abc.ABC):
    """A family's encoding under one metric.  Subclasses define the abstract methods below
    (checked when the planner first asks for the encoder: :func:`puzzleplan.encodings.encoder_for`);
    the driver (:meth:`start`, :meth:`extend`, :meth:`step`, :meth:`goal`, :meth:`decode`)
    and the optional hooks (:meth:`invariant`, :meth:`goal_bound`) are written here once.

    The model ``m`` (:class:`~puzzleplan.encodings.model.BoolModel`) names variables by
    tuples (``m.var(key)``) and takes clauses (``m.add([lits])``), implications
    (``m.implies(a, [l1, l2])``: a -> l1 or l2), ``m.exactly_one``, ``m.at_most_one``,
    ``m.equiv_or`` and cardinalities (``m.card``).  Plans are decoded from the true variables
    keyed ``("mv", ..., t)``, the step last (:meth:`decode_move` reads one key).
    """

    # -- what a family writes -------------------------------------------------------
    @abc.abstractmethod
    def state_vars(self, m: BoolModel, t: int) -> None:
        """Make the state variables of step ``t`` and what every state satisfies (one-hots)."""

    @abc.abstractmethod
    def facts(self, m: BoolModel, t: int) -> dict:
        """The state variables of step ``t`` by time-free names (for reachability lemmas)."""

    @abc.abstractmethod
    def initial(self, m: BoolModel) -> None:
        """Fix step 0 to the start position."""

    @abc.abstractmethod
    def moves(self, m: BoolModel, t: int) -> list[tuple[int, Hashable]]:
        """The moves from step ``t`` to ``t + 1`` (preconditions, effects, frame axioms):
        ``[(lit, mover)]``.  For each counted mover, ``("moved", mover, t)`` is made the OR
        of its moves at t and counts run over those."""

    @abc.abstractmethod
    def placed(self, m: BoolModel, i: int, T: int) -> list[int]:
        """Literals that hold when goal alternative ``i``'s placement holds at step ``T``."""

    @abc.abstractmethod
    def place_lit(self, m: BoolModel, mover, place, T: int) -> int:
        """The literal: ``mover`` stands on ``place`` at step ``T`` (end conditions)."""

    def decode_move(self, key) -> Move:
        """The move of a true ``("mv", ..., t)`` variable (required unless :meth:`decode` is
        written whole)."""
        raise NotImplementedError(f"{type(self).__name__} defines neither decode_move nor decode")

    def __init__(self, domain, metric: str, counts: Sequence[MoveCount] = ()):
        self.domain = domain.base
        self.metric = metric
        extra = tuple(counts) + tuple(domain.extra)
        self.alts = [tuple(a) + extra for a in alternatives(self.domain)]
        self.counted = any(self.alts)
        self.counted_movers = sorted({mv for alt in self.alts for r in alt for mv in movers_of(self.domain, r)},
                                     key=str)
        self.finish = end_places(self.domain, domain.ends)
        # movers that every alternative keeps still (frozen pieces): a rule at every
        # step, not a count at the goal, so it also holds for reachability lemmas
        self.still = {mv for r in extra if r.k == 0 and r.op in ("<=", "==") for mv in movers_of(self.domain, r)}
        self.mover_lits: dict[Hashable, list[int]] = {}
        self.built = 0
        self.owed_cards = 0
        self.counters: dict[tuple, tuple[int, int]] = {}      # owed moves' counters (:meth:`_done`)

    # -- driver ---------------------------------------------------------------------
    def start(self, m: BoolModel) -> None:
        self.state_vars(m, 0)
        self.initial(m)

    def extend(self, m: BoolModel, horizon: int) -> None:
        """Add layers until the model has ``horizon`` move steps."""
        while self.built < horizon:
            t = self.built
            self.state_vars(m, t + 1)
            act = self.step(m, t)
            if t > 0:
                m.implies(act, [m.var(("act", t - 1))])
            self.built += 1

    def laid_out(self, horizon: int) -> int:
        """The move steps laid out for ``horizon``: the horizon itself, unless it bounds something
        else than the steps (the strips family's cost with actions of cost 0)."""
        return horizon

    def step(self, m: BoolModel, t: int) -> int:
        """The moves from step ``t`` to step ``t + 1`` (both steps' state variables made
        already): at most one; returns ``("act", t)``, true iff a move is made."""
        moves = self.moves(m, t)
        lits = [lit for lit, _ in moves]
        for mover in self.counted_movers:
            moved = m.var(("moved", mover, t))
            m.equiv_or(moved, [lit for lit, who in moves if who == mover])
            self.mover_lits.setdefault(mover, []).append(moved)
            if mover in self.still:
                m.add([-moved])
        act = m.var(("act", t))
        m.equiv_or(act, lits)
        m.at_most_one(lits)
        return act

    def invariant(self, m: BoolModel, t: int) -> None:
        """Constraints every reachable state keeps (piece counts), stated at step ``t``
        where the start does not imply them: the goal side of a double-ended
        encoding (:mod:`puzzleplan.planner.double`).  Default: none."""

    def escalate(self, m: BoolModel, horizon: int) -> None:
        """The run has proved hard (:data:`puzzleplan.planner.deepening.HARD_RUN` conflicts before
        horizon ``horizon``): add what costs more to find or to carry than an easy run takes,
        to the steps built so far and from now on.  Default: nothing."""

    def goal_bound(self, m: BoolModel, t: int, moves_left: int) -> bool:
        """Constraints on the state at step ``t`` when the goal is at most ``moves_left``
        moves away: an admissible distance as a cardinality constraint, stated on the goal
        side of a double-ended encoding, where it holds for every horizon.  True if a
        bound was added (it can cut).  Default: none."""
        return False

    def distance_sum(self, m: BoolModel, key: Hashable, groups, bound: int) -> bool:
        """Admissible distances added up, at most ``bound``: ``groups`` is a list of
        ``(distance, how)``, ``distance`` a mapping of literals (a piece here) to a number of
        moves.  ``how == "min"``: the group counts the least distance among its true literals
        (a lone piece's, or the nearest piece's to a target), in unary: ``(key, i, j)`` is
        forced true when no literal of group ``i`` with a distance under ``j`` holds: one clause
        naming them all, or on a large board (more than :data:`DIRECT_LITS` literals in those
        clauses) a chain, ``(key, i, j - 1)`` and none at distance ``j - 1``, each literal in
        one clause (it propagates less: knights/wide n=7 4,083 conflicts against 818).
        ``how == "sum"``: every true literal counts its distance (each repeated as often).
        False, and nothing added, when the distances cannot exceed ``bound``, or when the sum
        would take more than :data:`MAX_DISTANCE_LITS` literals (a huge board: the bound is
        optional)."""
        sizes = [0 if not distance else max(distance.values()) if how == "min" else sum(distance.values())
                 for distance, how in groups]
        if bound >= sum(sizes) or sum(sizes) > MAX_DISTANCE_LITS:
            return False
        lits = []
        for i, (distance, how) in enumerate(groups):
            checkpoint(1 + len(distance) // 64)
            if not distance:
                continue
            if how == "min":
                lits += self.at_least(m, (key, i), distance)
            else:
                lits += [x for x, d in distance.items() for _ in range(d)]
        m.card(lits, "<=", bound)
        return True

    @staticmethod
    def at_least(m: BoolModel, key: Hashable, distance) -> list[int]:
        """The least distance among the true literals of ``distance`` (literal -> moves), in
        unary: ``(*key, j)`` for j = 1 .. the largest distance, forced true when no literal at a
        distance under ``j`` holds (made once; see :meth:`distance_sum`)."""
        far = max(distance.values(), default=0)
        if m.has((*key, far)) or not far:
            return [m.var((*key, j)) for j in range(1, far + 1)]
        at = [[] for _ in range(far)]
        for x, d in distance.items():
            if d < far:
                at[d].append(x)
        direct = far * len(distance) <= DIRECT_LITS
        nearer: list[int] = []
        lits = []
        for j in range(1, far + 1):
            lit = m.var((*key, j))
            nearer += at[j - 1]
            if direct or j == 1:
                m.add([lit, *nearer])
            else:
                m.add([lit, -m.var((*key, j - 1)), *at[j - 1]])
            lits.append(lit)
        return lits

    def goal_distances(self, m: BoolModel, t: int, i: int) -> list | None:
        """For the moves owed by counts (:meth:`_owed`): ``(mover, distance)`` pairs, each
        ``distance`` a mapping of literals of step ``t`` to moves whose least true one bounds the
        moves ``mover`` makes on the way to goal alternative ``i``'s placement (the rules'
        :meth:`~puzzleplan.contract.Rules.mover_bounds`, as literals); None: none (the default)."""
        return None

    #: which of :meth:`goal_bound` (``"goal"``) and :meth:`start_bound` (``"start"``) are stated
    #: unless the run says otherwise (``SolveOptions.bounds``): a family turns on what was
    #: measured to pay
    bounds_by_default: frozenset = frozenset()

    #: why this encoding is no transition system (a goal over earlier steps, steps linking more
    #: than two layers), so that a model checker on the AIGER export refuses it before any
    #: run (:meth:`puzzleplan.planner.abc.ModelChecker.supports`); None: it is one
    no_system: str | None = None

    def start_bound(self, m: BoolModel, t: int, moves_done: int) -> bool:
        """Constraints on the state at step ``t`` when at most ``moves_done`` moves have been
        made since the start: an admissible distance from the start as a cardinality
        constraint, stated on the start side of a double-ended encoding (permanent: it holds
        for every horizon).  True if a bound was added.  Default: none."""
        return False

    def figures(self) -> dict:
        """What the encoding added beyond the rules (invariant clauses, barred pairs...), for
        the result's stats.  Default: nothing."""
        return {}

    def notes(self) -> list[str]:
        """One line for each analysis that stopped before its end (its work budget spent), said
        to the user once the encoder is built.  Default: none."""
        return []

    def double_ended(self) -> str | None:
        """Why this encoding cannot be unrolled from both ends, or None if it can: the
        layers must come from :meth:`step` alone, the goal is :meth:`state_goal`, and no
        move counts span the plan."""
        if type(self).extend is not Encoder.extend or type(self).goal is not Encoder.goal:
            return "its layers are not the standard ones"
        if self.counted_movers:
            return "move counts span the whole plan"
        return None

    def goal(self, m: BoolModel, T: int) -> int:
        """A literal that, assumed, asks for a goal state at step ``T``."""
        if m.has(("goal", T)):
            return m.var(("goal", T))
        g = m.var(("goal", T))
        options = []
        for i, alt in enumerate(self.alts):
            a = m.var(("alt", i, T))
            options.append(a)
            for lit in self.placed(m, i, T):
                m.implies(a, [lit])
            for req in alt:
                lits = [lit for mv in movers_of(self.domain, req) for lit in self.mover_lits.get(mv, [])[:T]]
                m.card(lits, req.op, req.k, guard=a)
            self._owed(m, i, alt, T, a)
        m.implies(g, options)
        for mover, places in self.finish.items():
            m.implies(g, [self.place_lit(m, mover, p, T) for p in sorted(places)])
        return g

    def _owed(self, m: BoolModel, i: int, alt, T: int, guard: int) -> None:
        """Moves still owed fit in the steps left: at each step ``t`` of horizon ``T``, the
        moves that the ``>=`` and ``==`` counts of ``alt`` (alternative ``i``) still need are at
        most ``T - t`` (one step moves one piece, and adds one to its count).  Implied by the
        counts at the goal, but a CDCL solver cannot count: with ten pieces that must each move
        in a ten-step plan it otherwise tries the steps' movers as a pigeonhole problem.  Summed
        over counts whose pieces do not overlap (a move of a piece in two counts would be owed
        twice); each count's moves so far in unary, ``("done", movers, t, j)``: at least j
        moves before step t.  Where the family bounds each mover's moves to the goal
        (:meth:`goal_distances`), a mover needs the larger of that and what its count owes, and
        the movers' needs add up: ``("need", i, mover, t, j)``, at least j moves left, true
        when the distance or the count's shortfall is at least j (a mover in a count of
        several movers adds its group's shortfall only)."""
        owed, chosen = [], set()
        for req in sorted((r for r in alt if r.op in (">=", "==") and r.k > 0), key=lambda r: -r.k):
            movers = tuple(movers_of(self.domain, req))
            if chosen & set(movers):
                continue
            chosen |= set(movers)
            owed.append((movers, req.k))
        if not owed:
            return
        total = sum(k for _, k in owed)
        first = max(1, T - total + 1)
        pairs = self.goal_distances(m, 0, i)
        alone = {movers[0]: k for movers, k in owed if len(movers) == 1}
        grouped = {mv for movers, _ in owed if len(movers) > 1 for mv in movers}
        rest = owed if pairs is None else [(movers, k) for movers, k in owed if len(movers) > 1]
        if pairs is not None:
            # a step's distances are at most these: the sum that could exceed the steps left
            most = sum(max(d.values(), default=0) for _, d in pairs)
            first = max(1, min(first, T - total - most + 1))
        for t in range(first, T):
            const, lits = 0, []
            if pairs is not None:
                by_mover: dict = {}
                for mover, distance in self.goal_distances(m, t, i):
                    if mover not in grouped:
                        by_mover.setdefault(mover, []).append(distance)
                for mover, dists in by_mover.items():
                    if mover in alone:          # (below)
                        continue
                    for n, distance in enumerate(dists):
                        if distance:
                            lits += self.at_least(m, ("near", i, mover, n, t), distance)
                for mover, k in alone.items():
                    dists = by_mover.get(mover, [])
                    if len(dists) != 1:         # several targets: their sum is not one unary, the count alone
                        dists = []
                    near = self.at_least(m, ("near", i, mover, 0, t), dists[0]) if dists and dists[0] else []
                    certain = max(0, k - t)
                    for j in range(1, max(k, len(near)) + 1):
                        if j <= certain:
                            const += 1
                            continue
                        key = ("need", i, mover, t, j)
                        if not m.has(key):
                            why = ([-self._done(m, (mover,), t, k - j + 1)] if j <= k else []) + near[j - 1:j]
                            for lit in why:
                                m.add([-lit, m.var(key)])
                        lits.append(m.var(key))
            for movers, k in rest:
                lits += [-self._done(m, movers, t, j) for j in range(1, min(k, t) + 1)]
                const += max(0, k - t)          # more than t moves in t steps: owed for certain
            if const > T - t:
                m.add([-guard])
                self.owed_cards += 1
                return
            m.card(lits, "<=", T - t - const, guard=guard)
            self.owed_cards += 1

    def _done(self, m: BoolModel, movers: tuple, t: int, j: int) -> int:
        """``("done", movers, t, j)``: at least ``j`` moves of ``movers`` in the steps before
        ``t`` (1 <= j <= t), a sequential counter over the steps' "moved" literals.  Made step
        by step from the last one made (a horizon of thousands, or the first horizon far from
        0, needs no recursion as deep as itself); ``self.counters[movers]``: the steps made and
        the largest j made at each."""
        steps, top = self.counters.get(movers, (0, 0))
        if t > steps or j > top:
            first = 1 if j > top else steps + 1
            top, steps = max(top, j), max(steps, t)
            for s in range(first, steps + 1):
                for i in range(1, min(top, s) + 1):
                    if not m.has(("done", movers, s, i)):
                        self._count(m, movers, s, i)
            self.counters[movers] = (steps, top)
        return m.var(("done", movers, t, j))

    def _count(self, m: BoolModel, movers: tuple, t: int, j: int) -> None:
        """The clauses of ``("done", movers, t, j)`` from those of step ``t - 1`` (made)."""
        d = m.var(("done", movers, t, j))
        moved = [m.var(("moved", mv, t - 1)) for mv in movers]
        if len(moved) == 1:
            any_moved = moved[0]
        elif m.has(("moved", movers, t - 1)):
            any_moved = m.var(("moved", movers, t - 1))
        else:
            any_moved = m.var(("moved", movers, t - 1))
            m.equiv_or(any_moved, moved)
        before = m.var(("done", movers, t - 1, j)) if j <= t - 1 else None      # None: false
        less = m.var(("done", movers, t - 1, j - 1)) if j > 1 else None         # None: true
        if before is not None:
            m.add([-before, d])
        m.add([-any_moved, d] if less is None else [-less, -any_moved, d])
        m.add([-d, any_moved] if before is None else [-d, before, any_moved])
        if less is not None:
            m.add([-d, less] if before is None else [-d, before, less])

    def state_goal(self, m: BoolModel, T: int) -> int:
        """A literal that asks for a goal state at step ``T`` through the facts of step ``T``
        only (for transition systems); the same as :meth:`goal` unless a family's goal
        counts earlier steps."""
        return self.goal(m, T)

    def decode(self, m: BoolModel, values: set[int]) -> list[Move]:
        keyed = sorted((m.key(v) for v in values if isinstance(m.key(v), tuple) and m.key(v)[0] == "mv"),
                       key=lambda key: key[-1])
        return [self.decode_move(key) for key in keyed]
