"""Knights: ``at(kind, square, t)``; a square holds at most one knight.

Moves ``("mv", kind, from, to, t)``.  Explanatory frame axioms; the number of
knights of each kind is kept by them.  Move counts per knight (seed 003's
"exactly 8 moves") are cardinalities over that knight's move variables.
Without move-count conditions a knight may not jump straight back.
"""
from __future__ import annotations

from ...puzzle import Move
from ...encodings.base import Encoder, frame


class KnightsEncoder(Encoder):
    def __init__(self, domain, metric, counts=()):
        super().__init__(domain, metric, counts)
        self.squares = sorted(self.domain.spec.squares)
        self.nk = len(self.domain.kinds)

    def at(self, m, k, s, t):
        return m.var(("at", k, s, t))

    def state_vars(self, m, t):
        for s in self.squares:
            m.at_most_one([self.at(m, k, s, t) for k in range(self.nk)])

    def invariant(self, m, t):
        """Each colour keeps its number of knights."""
        for k in range(self.nk):
            m.card([self.at(m, k, s, t) for s in self.squares], "==", len(self.domain.initial[k]))

    def facts(self, m, t):
        return {("at", k, s): self.at(m, k, s, t) for k in range(self.nk) for s in self.squares}

    def initial(self, m):
        for k in range(self.nk):
            for s in self.squares:
                lit = self.at(m, k, s, 0)
                m.add([lit if s in self.domain.initial[k] else -lit])

    def moves(self, m, t):
        out, leaving, arriving = [], {}, {}
        for k in range(self.nk):
            for s in self.squares:
                for s2 in self.domain.jumps[s]:
                    if s2 in self.domain.banned[k]:
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
            for s in self.squares:
                frame(m, self.at(m, k, s, t), self.at(m, k, s, t + 1),
                      leaving.get((k, s), []), arriving.get((k, s), []))
        return out

    def place_lit(self, m, k, s, T):
        return self.at(m, k, s, T)

    def placed(self, m, i, T):
        return [self.at(m, k, s, T) for k, want in self.domain.alternatives[i] for s in want]

    def decode_move(self, key):
        _, k, s, s2, _ = key
        return Move(k, (s, s2))
