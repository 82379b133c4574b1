"""Tokens on a line as SAT: ``("at", i, x, t)`` token i stands on cell x after t steps
(exactly one cell per token, at most one token per cell); moves ``("mv", i, x, to, t)``.
Explanatory frame axioms (:func:`~puzzleplan.encodings.base.frame`); the framework adds
one move per step, no-ops last, goals and move counts."""
from __future__ import annotations

from puzzleplan.encodings.base import Encoder, frame
from puzzleplan.puzzle import Move


class LineEncoder(Encoder):
    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        self.cells = range(self.rules.spec.width)
        self.n = len(self.rules.tokens)

    def at(self, m, i, x, t):
        return m.var(("at", i, x, t))

    def state_vars(self, m, t):
        for i in range(self.n):
            m.exactly_one([self.at(m, i, x, t) for x in self.cells])
        for x in self.cells:
            m.at_most_one([self.at(m, i, x, t) for i in range(self.n)])

    def facts(self, m, t):
        return {("at", i, x): self.at(m, i, x, t) for i in range(self.n) for x in self.cells}

    def initial(self, m):
        for i, start in enumerate(self.rules.initial):
            m.add([self.at(m, i, start, 0)])

    def moves(self, m, t):
        out, leaving, arriving = [], {}, {}
        for i in range(self.n):
            for x in self.cells:
                for to in (x - 1, x + 1):
                    if to not in self.cells or to in self.rules.banned[i] or x in self.rules.banned[i]:
                        continue
                    mv = m.var(("mv", i, x, to, t))
                    m.implies(mv, [self.at(m, i, x, t)])
                    for j in range(self.n):
                        m.implies(mv, [-self.at(m, j, to, t)])
                    m.implies(mv, [self.at(m, i, to, t + 1)])
                    m.implies(mv, [-self.at(m, i, x, t + 1)])
                    leaving.setdefault((i, x), []).append(mv)
                    arriving.setdefault((i, to), []).append(mv)
                    out.append((mv, i))
        for i in range(self.n):
            for x in self.cells:
                frame(m, self.at(m, i, x, t), self.at(m, i, x, t + 1),
                      leaving.get((i, x), []), arriving.get((i, x), []))
        return out

    def place_lit(self, m, i, x, T):
        return self.at(m, i, x, T)

    def placed(self, m, alt, T):
        return [self.at(m, i, x, T) for i, x in self.rules.goal.items()]

    def decode_move(self, key):
        _, i, x, to, _ = key
        return Move(i, (x, to))
