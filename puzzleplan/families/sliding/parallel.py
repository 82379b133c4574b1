"""Sliding blocks in parallel steps: Rintanen's relaxed ∃-step semantics, for a first plan.

One time step holds any set of unit steps (the ``steps`` metric: one cell each) that can be
carried out one after another in a fixed order ``key`` (below); the plan is that order,
step by step, and it is replayed by the rules like any other plan.

The fixed order: by direction (``L``, ``U``, ``R``, ``D``), then the piece's front along the
direction, foremost first (the projection of its cells on the direction, largest first), then
kind and anchor.  A move's preconditions are its piece at its anchor and each cell it enters
free, and a cell it enters is free *when its turn comes* if it was free at the start of the
step or a move earlier in the order left it (the relaxed ∃-step: an earlier move may enable
a later one).  That lets a whole train of pieces move in one step, each into the cell the one
ahead of it left, and a lone empty cell travel along a row, then down a column, and so on:
a single-blank puzzle (the 15-puzzle) gets several moves per step, which the plain ∃-step
(every precondition true at the start of the step) would not give it.

Why a step's moves in that order are a legal sequence ending in the state of step ``t+1``:
each piece moves at most once a step (one move per anchor; a piece that moves is not at its
anchor afterwards), every cell is covered exactly once at ``t+1``, and at most one move
arrives at each anchor of a kind (two interchangeable pieces entering the same anchor would
make one ``at`` variable true, which the cover counts once).  A cell the move enters is free
at its turn: either it was free at ``t`` and no earlier move entered it (that one and this one
would both cover it at ``t+1``, through two ``at`` variables), or an earlier move left it and
none entered it since (the same reason).  The piece is at its anchor at its turn: only a move of that
piece leaves it.  The state at ``t+1`` is then the one the sequence reaches, by the frame
axioms.  No plan of the sequential encoding is lost (one move a step is a parallel plan), so
horizon ``T`` here is satisfiable when a plan of ``T`` moves exists; an ``unsat`` here proves
nothing about the sequential optimum, which is why this encoding is used for first plans only
(:mod:`puzzleplan.planner.first`).

What the sequential encoding adds and this one leaves out: the commuting order of moves
(several moves share a step here), no step straight back (a piece may step aside in one step
and back in the next while another passes), the single-piece unit variables and the empty
cells' count (kept: they are facts of every state).
"""
from __future__ import annotations

from .encoding import OPPOSITE, SlidingEncoder
from .rules import DIRS, apart
from ...encodings.base import Encoder, frame
from ...puzzle import PuzzleError

# the order of the directions within a step (any fixed order is sound)
RANK = {"L": 0, "U": 1, "R": 2, "D": 3}


class ParallelSteps(SlidingEncoder):
    """Relaxed ∃-step encoding of the ``steps`` metric (see the module doc)."""

    no_system = "parallel steps are for first plans only"
    #: an earlier move of a step may free a cell a later one enters (relaxed ∃-step)
    relaxed = True
    #: windows of a plan are re-solved in the sequential encoding only (:mod:`puzzleplan.planner.first`)
    windows = False

    def __init__(self, problem, metric="steps", counts=()):
        if metric != "steps":
            raise PuzzleError(f"parallel steps are for the steps metric, not {metric!r}")
        super().__init__(problem, metric, counts)
        if self.counted or self.finish:
            raise PuzzleError("parallel steps take no move counts nor end conditions")
        self._ordered()

    def _ordered(self):
        """The fixed order of the moves within a step, and the moves leaving each cell."""
        self.order = None
        kinds = self.rules.kinds
        self.keys = {}              # transition -> its place in the fixed order
        self.leaves: dict = {}      # cell -> transitions that leave it
        for tr in self.transitions:
            k, a, d, _, b, _ = tr
            vx, vy = DIRS[d]
            front = max(x * vx + y * vy for x, y in kinds[k].cells(a))
            self.keys[tr] = (RANK[d], -front, k, a)
            for c in set(kinds[k].cells(a)) - set(kinds[k].cells(b)):
                self.leaves.setdefault(c, []).append(tr)

    def double_ended(self):
        return "parallel steps are unrolled from the start only"

    def mv(self, m, tr, t):
        k, a, d, n, _, _ = tr
        return m.var(("mv", k, a, d, n, t))

    def moves(self, m, t):
        out, leaving, arriving = [], {}, {}
        for tr in self.transitions:
            k, a, d, n, b, entered = tr
            mv = self.mv(m, tr, t)
            m.implies(mv, [self.at(m, k, a, t)])
            m.implies(mv, [self.at(m, k, b, t + 1)])
            m.implies(mv, [-self.at(m, k, a, t + 1)])
            for c in entered:       # free at the start of the step, or left by an earlier move
                earlier = [self.mv(m, q, t) for q in self.leaves.get(c, ()) if self.keys[q] < self.keys[tr]] \
                    if self.relaxed else []
                m.add([-mv, m.var(("empty", c, t)), *earlier])
            self.barred(m, tr, mv, t)
            leaving.setdefault((k, a), []).append(mv)
            arriving.setdefault((k, b), []).append(mv)
            out.append((mv, k))
        for lits in leaving.values():
            m.at_most_one(lits)
        # two pieces of one kind entering the same anchor would make the same ``at`` true at
        # t + 1, which the cover counts once: one piece would vanish.  One arrival per anchor.
        for lits in arriving.values():
            if len(lits) > 1:
                m.at_most_one(lits)
        for k, kind in enumerate(self.rules.kinds):
            for a in kind.anchors:
                frame(m, self.at(m, k, a, t), self.at(m, k, a, t + 1),
                      leaving.get((k, a), []), arriving.get((k, a), []))
        return out

    def barred(self, m, tr, mv, t):
        """What a step may not be followed or preceded by (nothing here)."""

    def step(self, m, t):
        """Any set of moves the fixed order can carry out: ``("act", t)`` iff one is made."""
        lits = [lit for lit, _ in self.moves(m, t)]
        act = m.var(("act", t))
        m.equiv_or(act, lits)
        return act

    def decode(self, m, values):
        """The moves, step by step, each step's in the fixed order: a sequential plan."""
        order = {(k, a, d): key for (k, a, d, _, _, _), key in self.keys.items()}
        chosen = []
        for key in (m.key(v) for v in values):
            if isinstance(key, tuple) and key[0] == "mv":
                _, k, a, d, _, t = key
                chosen.append((t, order[(k, a, d)], key))
        return [self.decode_move(key) for _, _, key in sorted(chosen)]

    def parallel_steps(self, m, values) -> int:
        """How many time steps hold a move."""
        return len({m.key(v)[-1] for v in values if isinstance(m.key(v), tuple) and m.key(v)[0] == "mv"})


class SimultaneousSteps(ParallelSteps):
    """The ``makespan`` metric (:mod:`.makespan`): in a time step, pieces that do not interfere
    each move one cell -- every cell entered empty at the start of the step (the plain ∀-step
    semantics: any order of the step's moves is legal and ends in the same position), no cell
    entered twice (the cover at ``t + 1`` says so).  Horizon ``T`` is satisfiable iff a plan
    of at most ``T`` time steps exists, so refuting it proves the makespan, as the sequential
    encoding proves the steps.

    A piece never steps straight back in the next time step: the two steps can be dropped
    (nobody else entered either cell meanwhile: each was covered at the start of one of the two
    time steps), leaving a plan of no more time steps.  Distance bounds count time steps: a
    piece moves one cell a time step at most, so each goal needs its nearest piece within the
    steps left (goal side) and no piece is farther from its start than the steps made."""

    no_system = None
    relaxed = False

    def __init__(self, problem, metric="makespan", counts=()):
        if metric != "makespan":
            raise PuzzleError(f"simultaneous steps are the makespan metric, not {metric!r}")
        SlidingEncoder.__init__(self, problem, "steps", counts)
        self.metric = "makespan"
        if self.counted:
            raise PuzzleError(self.rules.counts_refused("makespan"))
        self._ordered()

    def double_ended(self):
        return Encoder.double_ended(self)

    def barred(self, m, tr, mv, t):
        k, _, d, _, b, _ = tr
        for key in (("mv", k, b, OPPOSITE[d], 1, t - 1), ("mv", k, b, OPPOSITE[d], 1, t + 1)):
            if m.has(key):
                m.add([-m.var(key), -mv])

    def goal_bound(self, m, t, moves_left):
        """Each goal placement has a piece of its kind within ``moves_left`` cells at step ``t``."""
        added = False
        for k, g in self.rules.goal:
            anchors = self.rules.kinds[k].anchors
            near = [self.at(m, k, a, t) for a in anchors if apart(a, g, "steps") <= moves_left]
            if not near:            # no piece can make it: no state at t does
                for a in anchors:
                    m.add([-self.at(m, k, a, t)])
            elif len(near) < len(anchors):
                m.add(near)
            added = added or len(near) < len(anchors)
        return added

    def start_bound(self, m, t, moves_done):
        """No piece of a unit is farther than ``moves_done`` cells from the unit's start anchors."""
        added = False
        for u, anchors in self.unit_anchors.items():
            starts = self.starts(u)
            for a in anchors:
                if min(apart(a, b, "steps") for b in starts) > moves_done:
                    m.add([-self.at(m, u[0], a, t)])
                    added = True
        return added
