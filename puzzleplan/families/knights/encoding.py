"""Knights: ``at(kind, square, t)``; a square holds at most one knight.

Moves ``("mv", kind, from, to, t)``.  Explanatory frame axioms; the number of
knights of each kind is kept by them.  Move counts per knight (seed 003's
"exactly 8 moves") are cardinalities over that knight's move variables.
Without move-count conditions a knight may not jump straight back.

A kind of one knight (every labelled knight) jumps by direction instead:
``("jmp", kind, d, t)``, one of the eight knight's jumps ``JUMPS[d]`` from wherever it
stands, its effects conditional on the square it leaves (as the sliding encoding moves a
line's single piece): eight literals a knight per step instead of one per legal jump
(336 on 8 x 8).  A square then becomes the knight's only through a jump that lands on it
from the square it stood on, and stops being its only through a jump; one knight per kind
is kept by these.
"""
from __future__ import annotations

from ...puzzle import Move
from ...encodings.base import Encoder, frame
from .rules import JUMPS

BACK = {d: JUMPS.index((-dx, -dy)) for d, (dx, dy) in enumerate(JUMPS)}


class KnightsEncoder(Encoder):
    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        self.squares = sorted(self.rules.spec.squares)
        self.nk = len(self.rules.kinds)
        # kinds of a single knight jump by direction (see the module doc)
        self.single = [len(self.rules.initial[k]) == 1 for k in range(self.nk)]
        self.landing = {}       # (kind, square, d) -> the square a jump d lands on, if it may
        for k in range(self.nk):
            if self.single[k]:
                for s in self.squares:
                    for s2 in self.rules.jumps[s]:     # the rules' jumps that stay on the board
                        if s2 not in self.rules.banned[k]:
                            self.landing[(k, s, JUMPS.index((s2[0] - s[0], s2[1] - s[1])))] = s2

    def at(self, m, k, s, t):
        return m.var(("at", k, s, t))

    def state_vars(self, m, t):
        for s in self.squares:
            m.at_most_one([self.at(m, k, s, t) for k in range(self.nk)])

    def invariant(self, m, t):
        """Each colour keeps its number of knights."""
        for k in range(self.nk):
            m.card([self.at(m, k, s, t) for s in self.squares], "==", len(self.rules.initial[k]))

    def facts(self, m, t):
        return {("at", k, s): self.at(m, k, s, t) for k in range(self.nk) for s in self.squares}

    def initial(self, m):
        for k in range(self.nk):
            for s in self.squares:
                lit = self.at(m, k, s, 0)
                m.add([lit if s in self.rules.initial[k] else -lit])

    def moves(self, m, t):
        out, leaving, arriving = [], {}, {}
        for k in range(self.nk):
            if self.single[k]:
                out += self._jumps(m, k, t)
                continue
            for s in self.squares:
                for s2 in self.rules.jumps[s]:
                    if s2 in self.rules.banned[k]:
                        continue
                    mv = m.var(("mv", k, s, s2, t))
                    m.implies(mv, [self.at(m, k, s, t)])
                    for j in range(self.nk):
                        m.implies(mv, [-self.at(m, j, s2, t)])
                    m.implies(mv, [self.at(m, k, s2, t + 1)])
                    m.implies(mv, [-self.at(m, k, s, t + 1)])
                    leaving.setdefault((k, s), []).append(mv)
                    arriving.setdefault((k, s2), []).append(mv)
                    out.append((mv, k))
                    if not self.counted:    # no jump straight back, before or after
                        for key in (("mv", k, s2, s, t - 1), ("mv", k, s2, s, t + 1)):
                            if m.has(key):
                                m.add([-mv, -m.var(key)])
        for k in range(self.nk):
            if self.single[k]:
                continue
            for s in self.squares:
                frame(m, self.at(m, k, s, t), self.at(m, k, s, t + 1),
                      leaving.get((k, s), []), arriving.get((k, s), []))
        return out

    def _taken(self, m, t):
        """``("taken", square, t)``: true where a knight stands (made once per step)."""
        if not m.has(("taken", self.squares[0], t)):
            for s in self.squares:
                for j in range(self.nk):
                    m.implies(self.at(m, j, s, t), [m.var(("taken", s, t))])
        return {s: m.var(("taken", s, t)) for s in self.squares}

    def _jumps(self, m, k, t):
        """The single knight of kind ``k`` jumps in direction d (see the module doc)."""
        lits = [m.var(("jmp", k, d, t)) for d in range(len(JUMPS))]
        taken = self._taken(m, t)
        for d, jmp in enumerate(lits):
            for s in self.squares:
                here = self.at(m, k, s, t)
                s2 = self.landing.get((k, s, d))
                if s2 is None:          # off the board or onto a square it must avoid
                    m.add([-jmp, -here])
                    continue
                m.add([-jmp, -here, self.at(m, k, s2, t + 1)])
                m.add([-jmp, -here, -self.at(m, k, s, t + 1)])
                m.add([-jmp, -here, -taken[s2]])
            if not self.counted:        # no jump straight back, before or after
                for key in (("jmp", k, BACK[d], t - 1), ("jmp", k, BACK[d], t + 1)):
                    if m.has(key):
                        m.add([-jmp, -m.var(key)])
        for s in self.squares:
            now, nxt = self.at(m, k, s, t), self.at(m, k, s, t + 1)
            m.add([-now, nxt, *lits])               # the knight leaves only by a jump
            # ... and arrives only by a jump landing here from where it stood
            m.add([now, -nxt, *lits])
            for d, jmp in enumerate(lits):
                back = (s[0] - JUMPS[d][0], s[1] - JUMPS[d][1])
                if self.landing.get((k, back, d)) == s:
                    m.add([-jmp, now, -nxt, self.at(m, k, back, t)])
                else:
                    m.add([-jmp, now, -nxt])
        return [(jmp, k) for jmp in lits]

    # -- admissible bounds (double-ended unrolling, :mod:`puzzleplan.planner.double`) ----------
    bounds_by_default = frozenset({"goal", "start"})    # together: knights/wide n=8 72k -> 2.9k conflicts, each alone 26-36k

    def goal_bound(self, m, t, moves_left):
        """One jump moves one knight: over the goal's targets, the jumps from the nearest
        knight of the target's kind (on the board with no other knight: the rules' bound) add
        up to at most the moves left (:meth:`~puzzleplan.encodings.base.Encoder.distance_sum`).
        A lone knight never stands where its target cannot be reached from.  With several
        goal alternatives, none (the bound would be the least of theirs)."""
        if len(self.rules.alternatives) != 1:
            return False
        for k, want in self.rules.alternatives[0]:
            for w in want:
                dist = self.rules.target_distances()[k, w]
                if self.single[k]:
                    for sq in self.squares:
                        if sq not in dist:
                            m.add([-self.at(m, k, sq, t)])
        groups = [(distance, "min") for _, distance in self.goal_distances(m, t, 0)]
        return self.distance_sum(m, ("far", t), groups, moves_left)

    def goal_distances(self, m, t, i):
        """Per target of alternative ``i``, its kind (the mover) and the jumps of the kind's
        nearest knight (a knight on a square the target cannot be reached from counts as far
        as the farthest: it cannot get there)."""
        to = self.rules.target_distances()
        return [(k, {self.at(m, k, sq, t): d for sq, d in to[k, w].items()})
                for k, want in self.rules.alternatives[i] for w in want]

    def start_bound(self, m, t, moves_done):
        """Each knight has made at least as many jumps as separate it from the nearest start
        square of its kind, and one jump moves one knight: these add up to at most the moves
        made (a lone knight's distance, or each square of a kind of several counting its
        own).  No knight stands where no start square of its kind reaches."""
        groups = []
        for k in range(self.nk):
            dist = self._from_start()[k]
            for sq in self.squares:
                if sq not in dist:
                    m.add([-self.at(m, k, sq, t)])
            groups.append(({self.at(m, k, sq, t): d for sq, d in dist.items()}, "min" if self.single[k] else "sum"))
        return self.distance_sum(m, ("from", t), groups, moves_done)

    def _from_start(self) -> list[dict]:
        """Per kind: {square: jumps from the nearest start square of the kind}, over the squares
        the kind may use (on the board with no other knight)."""
        if not hasattr(self, "_start_dist"):
            self._start_dist = [self.rules.jump_distances(k, self.rules.initial[k]) for k in range(self.nk)]
        return self._start_dist

    def place_lit(self, m, k, s, T):
        return self.at(m, k, s, T)

    def placed(self, m, i, T):
        return [self.at(m, k, s, T) for k, want in self.rules.alternatives[i] for s in want]

    def decode_move(self, key):
        _, k, s, s2, _ = key
        return Move(k, (s, s2))

    def decode(self, m, values):
        """Moves in step order; a jump by direction from where its knight stands then."""
        keys = sorted((k for k in (m.key(v) for v in values if v > 0)
                       if isinstance(k, tuple) and k[0] in ("mv", "jmp")), key=lambda key: key[-1])
        where = {k: self.rules.initial[k][0] for k in range(self.nk) if self.single[k]}
        out = []
        for key in keys:
            if key[0] == "mv":
                out.append(self.decode_move(key))
                continue
            _, k, d, _ = key
            s = where[k]
            where[k] = (s[0] + JUMPS[d][0], s[1] + JUMPS[d][1])
            out.append(Move(k, (s, where[k])))
        return out
