"""Sliding blocks, unlabelled: per kind, ``at(kind, anchor, t)`` over its legal
anchors (a kind with n pieces has n true), ``empty(cell, t)``, and each cell
covered exactly once (by a piece or by ``empty``).

Moves ``("mv", kind, anchor, dir, n, t)``: the piece of ``kind`` at ``anchor``
goes ``n`` cells in ``dir`` (n = 1 for ``steps``; any n for ``slides``).
Explanatory frame axioms.  Without move-count conditions, a piece that just moved
may not move straight back (``steps``), nor slide again along the same axis
(``slides``): neither is ever part of a shortest plan.
The ``moves`` metric (turns allowed) is not encoded: use search for it.
"""
from __future__ import annotations

from ..domains.sliding import AXIS_DIRS, DIRS, add
from ..puzzle import Move, PuzzleError
from .base import Encoder, frame

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


class SlidingEncoder(Encoder):
    def __init__(self, domain, metric, counts=()):
        super().__init__(domain, metric, counts)
        if metric not in ("steps", "slides"):
            raise PuzzleError(f"the SAT encoding of sliding blocks covers steps and slides, not {metric!r}; "
                              "use search for it")
        p = self.domain
        self.cells = [(x, y) for y in range(p.spec.height) for x in range(p.spec.width) if p.inside((x, y))]
        self.cover = {c: [] for c in self.cells}
        for k, kind in enumerate(p.kinds):
            for a in kind.anchors:
                for c in kind.cells(a):
                    self.cover[c].append((k, a))
        self.transitions = []   # (k, a, d, n, b, cells that must be empty)
        for k, kind in enumerate(p.kinds):
            for a in kind.anchors:
                own = set(kind.cells(a))
                for d in AXIS_DIRS[kind.axes]:
                    b, swept = a, set()
                    for n in range(1, max(p.spec.width, p.spec.height)):
                        b = add(b, DIRS[d])
                        if b not in p.anchor_set[k]:
                            break
                        swept |= set(kind.cells(b)) - own
                        self.transitions.append((k, a, d, n, b, tuple(sorted(swept))))
                        if metric == "steps":
                            break

        # A *unit* is where one group of pieces lives: a piece moving along one axis
        # keeps its row (h) or column (v), so (kind, line); otherwise (kind, None).
        # A unit holding a single piece gets one move variable per (direction,
        # distance) instead of one per (anchor, direction, distance): its position is
        # one-hot, so the anchor is implied (about 2x fewer conflicts on Rush Hour).
        self.unit_anchors: dict[tuple, list] = {}
        for k, kind in enumerate(p.kinds):
            for a in kind.anchors:
                self.unit_anchors.setdefault(self.unit(k, a), []).append(a)
        self.single = {u: sum(1 for a in p.initial[u[0]] if self.unit(u[0], a) == u) == 1
                       for u in self.unit_anchors}
        self.by_unit: dict[tuple, list] = {}
        for tr in self.transitions:
            self.by_unit.setdefault(self.unit(tr[0], tr[1]), []).append(tr)

    def unit(self, k, a):
        axes = self.domain.kinds[k].axes
        return (k, a[1] if axes == "h" else a[0] if axes == "v" else None)

    def at(self, m, k, a, t):
        return m.var(("at", k, a, t))

    def state_vars(self, m, t):
        for c, options in self.cover.items():
            m.exactly_one([self.at(m, k, a, t) for k, a in options] + [m.var(("empty", c, t))])
        for u, anchors in self.unit_anchors.items():
            if self.single[u]:
                m.exactly_one([self.at(m, u[0], a, t) for a in anchors])

    def initial(self, m):
        for k, kind in enumerate(self.domain.kinds):
            for a in kind.anchors:
                lit = self.at(m, k, a, 0)
                m.add([lit if a in self.domain.initial[k] else -lit])

    def moves(self, m, t):
        out, leaving, arriving = [], {}, {}
        for u, transitions in self.by_unit.items():
            k = u[0]
            if self.single[u]:
                out += self._unit_moves(m, u, transitions, t, leaving, arriving)
                continue
            for _, a, d, n, b, swept in transitions:
                mv = m.var(("mv", k, a, d, n, t))
                m.implies(mv, [self.at(m, k, a, t)])
                for c in swept:
                    m.implies(mv, [m.var(("empty", c, t))])
                m.implies(mv, [self.at(m, k, b, t + 1)])
                m.implies(mv, [-self.at(m, k, a, t + 1)])
                leaving.setdefault((k, a), []).append(mv)
                arriving.setdefault((k, b), []).append(mv)
                out.append((mv, k))
                if t > 0 and not self.counted:
                    # steps: no move straight back; slides: no second slide along the same axis
                    for d2 in self._barred_after(d):
                        for n2 in range(1, max(self.domain.spec.width, self.domain.spec.height)):
                            prev_a = add(a, (-DIRS[d2][0] * n2, -DIRS[d2][1] * n2))
                            if m.has(("mv", k, prev_a, d2, n2, t - 1)):
                                m.add([-m.var(("mv", k, prev_a, d2, n2, t - 1)), -mv])
        for k, kind in enumerate(self.domain.kinds):
            for a in kind.anchors:
                frame(m, self.at(m, k, a, t), self.at(m, k, a, t + 1),
                      leaving.get((k, a), []), arriving.get((k, a), []))
        return out

    def _barred_after(self, d):
        """Directions a piece may not take right after moving ``d`` (no use in a shortest plan)."""
        return (OPPOSITE[d],) if self.metric == "steps" else (d, OPPOSITE[d])

    def _unit_moves(self, m, u, transitions, t, leaving, arriving):
        """Moves ``("umv", kind, line, dir, n, t)`` of the single piece of unit ``u``."""
        k, out = u[0], []
        shifts = sorted({(d, n) for _, _, d, n, _, _ in transitions})
        for d, n in shifts:
            mv = m.var(("umv", k, u[1], d, n, t))
            sources = set()
            for _, a, d2, n2, b, swept in transitions:
                if (d2, n2) != (d, n):
                    continue
                sources.add(a)
                m.add([-mv, -self.at(m, k, a, t), self.at(m, k, b, t + 1)])
                for c in swept:
                    m.add([-mv, -self.at(m, k, a, t), m.var(("empty", c, t))])
                leaving.setdefault((k, a), []).append(mv)
                arriving.setdefault((k, b), []).append(mv)
            for a in self.unit_anchors[u]:
                if a not in sources:
                    m.add([-mv, -self.at(m, k, a, t)])
            out.append((mv, k))
            if t > 0 and not self.counted:
                for d2, n2 in shifts:
                    if d2 in self._barred_after(d):
                        m.add([-m.var(("umv", k, u[1], d2, n2, t - 1)), -mv])
        return out

    def decode(self, m, values):
        keys = sorted((key for key in (m.key(v) for v in values)
                       if isinstance(key, tuple) and key[0] in ("mv", "umv")), key=lambda key: key[-1])
        where = {self.unit(k, a): a for k, starts in enumerate(self.domain.initial) for a in starts}
        out = []
        for key in keys:
            if key[0] == "mv":
                out.append(self.decode_move(key))
                continue
            _, k, line, d, n, _ = key
            a = where[(k, line)]
            move = self.decode_move(("mv", k, a, d, n, None))
            where[(k, line)] = move.data[1][-1]
            out.append(move)
        return out

    def place_lit(self, m, k, a, T):
        return self.at(m, k, a, T)

    def placed(self, m, i, T):
        return [self.at(m, k, a, T) for k, a in self.domain.goal]

    def decode_move(self, key):
        _, k, a, d, n, _ = key
        path, cur = [a], a
        for _ in range(n):
            cur = add(cur, DIRS[d])
            path.append(cur)
        return Move(k, (k, tuple(path)), n)
