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

from ..constraints import end_places, movers_of
from ..puzzle import Move, MoveCount
from . import distances
from .counts import MoveCounts
from .model import BoolModel


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

    def __init__(self, problem, metric: str, counts: Sequence[MoveCount] = ()):
        """``problem``: a :class:`~puzzleplan.contract.Problem`; ``counts``: more move counts
        on top of its conditions.  ``self.rules`` is its rules."""
        self.problem = problem
        self.rules = problem.rules
        self.metric = metric
        extra = tuple(counts) + problem.counts
        self.alts = [tuple(a) + tuple(counts) for a in problem.alternatives()]
        self.counted = any(self.alts)
        self.counted_movers = sorted({mv for alt in self.alts for r in alt for mv in movers_of(self.rules, r)},
                                     key=str)
        self.finish = end_places(self.rules, problem.ends)
        # movers that every alternative keeps still (frozen pieces): a rule at every
        # step, not a count at the goal, so it also holds for reachability lemmas
        self.still = {mv for r in extra if r.k == 0 and r.op in ("<=", "==") for mv in movers_of(self.rules, r)}
        self.mover_lits: dict[Hashable, list[int]] = {}
        self.built = 0
        self.move_counts = MoveCounts(self.rules, self.goal_distances)     # lowers the counts at the goal

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

    #: admissible distances added up, as a cardinality (:func:`.distances.distance_sum`), for
    #: :meth:`goal_bound` and :meth:`start_bound`
    distance_sum = staticmethod(distances.distance_sum)

    def goal_distances(self, m: BoolModel, t: int, i: int) -> list | None:
        """For the moves owed by counts (:mod:`.counts`): ``(mover, distance)`` pairs, each
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
            self.move_counts.at_goal(m, alt, self.mover_lits, T, a)
            self.move_counts.owed(m, i, alt, T, a)
        m.implies(g, options)
        for mover, places in self.finish.items():
            m.implies(g, [self.place_lit(m, mover, p, T) for p in sorted(places)])
        return g

    def state_goal(self, m: BoolModel, T: int) -> int:
        """A literal that asks for a goal state at step ``T`` through the facts of step ``T``
        only (for transition systems); the same as :meth:`goal` unless a family's goal
        counts earlier steps."""
        return self.goal(m, T)

    def decode(self, m: BoolModel, values: set[int]) -> list[Move]:
        keyed = sorted((m.key(v) for v in values if isinstance(m.key(v), tuple) and m.key(v)[0] == "mv"),
                       key=lambda key: key[-1])
        return [self.decode_move(key) for key in keyed]
