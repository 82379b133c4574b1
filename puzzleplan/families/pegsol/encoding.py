"""Peg solitaire as SAT: a layer per jump.

State at jump layer j: ``("peg", hole, j)`` and, for reachability lemmas, its negation
``("empty", hole, j)``; for each *named* peg (a kind of its own)
``("at", kind, hole, j)``, which implies ``peg``.  Unnamed pegs carry no label: a peg
with no named kind on its hole is unnamed.

Jumps ``("mv", kind, a, b, c, j)``: a peg of ``kind`` on a jumps over b into the empty
hole c (never one its kind avoids); at most one per layer, no-ops last.  Explanatory
frame axioms.  A goal with n pegs left is "exactly pegs - n jumps happened": every jump
removes one peg, so no cardinality is needed for it.

``steps`` (:class:`StepsEncoder`): one jump per time step, the shared
:class:`~puzzleplan.encodings.base.Encoder` does the rest.

``moves`` (:class:`MovesEncoder`): consecutive jumps of one peg are one move, so the
horizon counts moves, not jumps.  All pegs - 1 jump layers are built at the start (no
plan has more); a jump *starts a move* unless it leaves the hole the previous jump
landed on (``("cont", j)``), and a sequential counter ``("starts", j, k)`` (at least k
moves started before jump j) bounds the moves by the horizon.  The state after move t
(``("after", ...)``, for lemmas and :meth:`facts`) is the jump state where move t+1
starts, or the last one; ``("act", t)`` is "move t happens", as the planner and
CP-SAT's objective expect.  Decoding joins each move's jumps.
"""
from __future__ import annotations

from ...encodings.base import Encoder, frame
from ...constraints import movers_of
from ...puzzle import Move, PuzzleError
from .rules import UNNAMED


class StepsEncoder(Encoder):
    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        if metric not in ("steps", "moves"):
            raise PuzzleError(f"unknown metric {metric!r} for peg solitaire")
        p = self.rules
        self.holes = range(len(p.holes))
        self.named = [k for k, lb in enumerate(p.kinds) if lb != UNNAMED]
        self.need = p.pegs - p.goal.count           # jumps in every plan to the goal

    # -- state ---------------------------------------------------------------------------
    def peg(self, m, h, j):
        return m.var(("peg", h, j))

    def at(self, m, k, h, j):
        return m.var(("at", k, h, j))

    def state_vars(self, m, j):
        for h in self.holes:
            empty = m.var(("empty", h, j))
            m.add([-empty, -self.peg(m, h, j)])
            m.add([empty, self.peg(m, h, j)])
            if self.named:
                for k in self.named:
                    m.implies(self.at(m, k, h, j), [self.peg(m, h, j)])
                m.at_most_one([self.at(m, k, h, j) for k in self.named])
        for k in self.named:            # a named peg is one peg
            m.at_most_one([self.at(m, k, h, j) for h in self.holes])

    def jump_facts(self, m, j):
        out = {("peg", h): self.peg(m, h, j) for h in self.holes}
        out.update({("empty", h): m.var(("empty", h, j)) for h in self.holes})
        out.update({("at", k, h): self.at(m, k, h, j) for k in self.named for h in self.holes})
        return out

    def facts(self, m, t):
        return self.jump_facts(m, t)

    def initial(self, m):
        p = self.rules
        occupied = 0
        for mask in p.initial:
            occupied |= mask
        for h in self.holes:
            lit = self.peg(m, h, 0)
            m.add([lit if occupied >> h & 1 else -lit])
            for k in self.named:
                lit = self.at(m, k, h, 0)
                m.add([lit if p.initial[k] >> h & 1 else -lit])

    # -- one jump layer -------------------------------------------------------------------
    def jumps(self, m, j):
        """The jump variables of layer j with their preconditions, effects and frame
        axioms: ``[(lit, mover letter)]``."""
        p = self.rules
        out, leaving, arriving, leaving_k, arriving_k = [], {}, {}, {}, {}
        for k, letter in enumerate(p.kinds):
            for a, b, c in p.jumps:
                if p.banned[k] >> c & 1:
                    continue
                mv = m.var(("mv", k, a, b, c, j))
                m.implies(mv, [self.peg(m, a, j)])
                m.implies(mv, [self.peg(m, b, j)])
                m.implies(mv, [-self.peg(m, c, j)])
                if letter == UNNAMED:
                    for n in self.named:
                        m.implies(mv, [-self.at(m, n, a, j)])
                else:
                    m.implies(mv, [self.at(m, k, a, j)])
                    m.implies(mv, [self.at(m, k, c, j + 1)])
                    leaving_k.setdefault((k, a), []).append(mv)
                    arriving_k.setdefault((k, c), []).append(mv)
                m.implies(mv, [-self.peg(m, a, j + 1)])
                m.implies(mv, [-self.peg(m, b, j + 1)])
                m.implies(mv, [self.peg(m, c, j + 1)])
                leaving.setdefault(a, []).append(mv)
                leaving.setdefault(b, []).append(mv)
                arriving.setdefault(c, []).append(mv)
                out.append((mv, letter))
        for h in self.holes:
            frame(m, self.peg(m, h, j), self.peg(m, h, j + 1), leaving.get(h, []), arriving.get(h, []))
            for k in self.named:
                over = [mv for mv in leaving.get(h, []) if m.key(mv)[3] == h]     # jumps over h
                frame(m, self.at(m, k, h, j), self.at(m, k, h, j + 1),
                      leaving_k.get((k, h), []) + over, arriving_k.get((k, h), []))
        return out

    def moves(self, m, t):
        return self.jumps(m, t)

    # -- goal -------------------------------------------------------------------------------
    def count_lits(self, m, act, layers: int) -> list[int]:
        """'Exactly ``need`` jumps happened' over ``layers`` jump layers (``act(j)``: jump j
        happens): the goal's peg count."""
        if self.need < 0 or self.need > layers:
            never = m.var(("no-plan", layers))
            m.add([-never])
            return [never]
        out = [act(self.need - 1)] if self.need > 0 else []
        return out + ([-act(self.need)] if self.need < layers else [])

    def state_goal(self, m, T):
        """The goal through the state at ``T`` alone: the pegs left, counted on the board."""
        g = m.var(("state-goal", T))
        m.card([self.peg(m, h, T) for h in self.holes], "==", self.rules.goal.count, guard=g)
        for lit in self.final_lits(m, 0, T):
            m.implies(g, [lit])
        for mover, places in self.finish.items():
            m.implies(g, [self.place_lit(m, mover, p, T) for p in sorted(places)])
        return g

    def final_lits(self, m, i, j) -> list[int]:
        p = self.rules
        out = [self.peg(m, h, j) for h in self.holes if p.goal_mask is not None and p.goal_mask >> h & 1]
        return out + [self.at(m, k, h, j) for k, h in p.goal_named]

    def placed(self, m, i, T):
        return self.count_lits(m, lambda j: m.var(("act", j)), T) + self.final_lits(m, i, T)

    def place_lit(self, m, mover, place, T):
        p = self.rules
        return self.at(m, p.kind_of[mover], p.index[place], T)

    def decode_move(self, key):
        _, k, a, _, c, _ = key
        return Move(self.rules.kinds[k], (a, c))


class MovesEncoder(StepsEncoder):
    """Jump layers, a move counter, and the state after each move (see the module doc)."""

    no_system = "its jump layers are built all at once"

    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        self.layers = max(0, self.rules.pegs - 1)      # no plan has more jumps
        self.columns = 0                                # counter columns built
        self.starts_of: dict = {}                       # counted mover -> its move-start literals

    def start(self, m):
        super().start(m)
        self.starting, before = [], []
        for j in range(self.layers):
            self.state_vars(m, j + 1)
            lits = self.jumps(m, j)
            for lit, letter in lits:
                if letter in self.still:
                    m.add([-lit])
            jact = m.var(("jact", j))
            m.equiv_or(jact, [lit for lit, _ in lits])
            m.at_most_one([lit for lit, _ in lits])
            if j > 0:
                m.implies(jact, [m.var(("jact", j - 1))])
            self.starting.append(self._start(m, j, before, lits))
            for mover in self.counted_movers:
                own = m.var(("mjump", mover, j))
                m.equiv_or(own, [lit for lit, letter in lits if letter == mover])
                s = m.var(("mstart", mover, j))
                m.equiv_and(s, [own, self.starting[j]])
                self.starts_of.setdefault(mover, []).append(s)
            before = lits

    def _start(self, m, j, before, lits) -> int:
        """``("start", j)``: jump j happens and does not leave the hole where jump j-1
        (``before``) landed."""
        start, jact = m.var(("start", j)), m.var(("jact", j))
        if j == 0:
            m.equiv_and(start, [jact])
            return start
        links = []
        for h in self.holes:
            landed, left = m.var(("landed", h, j - 1)), m.var(("left", h, j))
            m.equiv_or(landed, [lit for lit, _ in before if m.key(lit)[4] == h])
            m.equiv_or(left, [lit for lit, _ in lits if m.key(lit)[2] == h])
            link = m.var(("link", h, j))
            m.equiv_and(link, [landed, left])
            links.append(link)
        cont = m.var(("cont", j))
        m.equiv_or(cont, links)
        m.equiv_and(start, [jact, -cont])
        return start

    # -- the move counter and the state after each move ---------------------------------
    def count(self, m, j, k) -> int:
        """At least k moves started among jumps 0..j-1 (k >= 1)."""
        return m.var(("starts", j, k))

    def _column(self, m, k):
        """Counter column k: ``starts(j+1, k) <-> starts(j, k) or (starts(j, k-1) and start(j))``."""
        m.add([-self.count(m, 0, k)])
        for j in range(self.layers):
            now, nxt, s = self.count(m, j, k), self.count(m, j + 1, k), self.starting[j]
            m.implies(now, [nxt])
            m.implies(nxt, [now, s])
            if k == 1:
                m.implies(s, [nxt])
            else:
                below = self.count(m, j, k - 1)
                m.add([-below, -s, nxt])
                m.implies(nxt, [now, below])

    def _columns(self, m, n):
        while self.columns < n:
            self.columns += 1
            self._column(m, self.columns)

    def extend(self, m, horizon):
        while self.built < horizon:
            t = self.built
            self._columns(m, t + 2)
            act = m.var(("act", t))
            final = self.count(m, self.layers, t + 1)
            m.add([-act, final])
            m.add([act, -final])
            self._after(m, t + 1)
            self.built += 1

    def _after(self, m, t):
        """``("after", fact, t)``: the facts after move t.  Jump index j is where move t
        ended when t moves started before it and no move continues there."""
        J = self.layers
        for j in range(t, J + 1):
            guard = [-self.count(m, j, t), self.count(m, j, t + 1)]
            if 0 < j < J:
                guard.append(m.var(("cont", j)))
            for name, lit in self.jump_facts(m, j).items():
                q = m.var(("after", name, t))
                m.add(guard + [-lit, q])
                m.add(guard + [lit, -q])
        for name, lit in self.jump_facts(m, J).items():      # fewer than t moves: the end
            q = m.var(("after", name, t))
            m.add([self.count(m, J, t), -lit, q])
            m.add([self.count(m, J, t), lit, -q])

    def facts(self, m, t):
        if t == 0:
            return self.jump_facts(m, 0)
        return {name: m.var(("after", name, t)) for name in self.jump_facts(m, 0)}

    # -- goal and decoding ----------------------------------------------------------------------
    def goal(self, m, T):
        if m.has(("goal", T)):
            return m.var(("goal", T))
        g = m.var(("goal", T))
        J = self.layers
        self._columns(m, T + 1)
        m.implies(g, [-self.count(m, J, T + 1)])          # at most T moves
        options = []
        for i, alt in enumerate(self.alts):
            a = m.var(("alt", i, T))
            options.append(a)
            for lit in self.count_lits(m, lambda j: m.var(("jact", j)), J) + self.final_lits(m, i, J):
                m.implies(a, [lit])
            for req in alt:
                lits = [s for mover in movers_of(self.rules, req) for s in self.starts_of.get(mover, [])]
                m.card(lits, req.op, req.k, guard=a)
        m.implies(g, options)
        for mover, places in self.finish.items():
            m.implies(g, [self.place_lit(m, mover, p, J) for p in sorted(places)])
        return g

    def decode(self, m, values):
        """The jumps of the model joined into moves: the first ``built`` moves (a model
        without a goal may go on jumping after the horizon)."""
        keys = sorted((key for key in (m.key(v) for v in values) if isinstance(key, tuple) and key[0] == "mv"),
                      key=lambda key: key[-1])
        out: list[Move] = []
        for _, k, a, _, c, _ in keys:
            if out and out[-1].data[-1] == a:
                path = out[-1].data + (c,)
                out[-1] = Move(out[-1].mover, path, len(path) - 1)
            else:
                out.append(Move(self.rules.kinds[k], (a, c)))
        return out[:self.built]
