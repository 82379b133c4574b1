"""Sokoban, ``moves`` metric: ``player(cell, t)`` one-hot over the floor,
``box(cell, t)``, and one direction ``("mv", d, t)`` per step (or none).

``push(cell, d, t)`` <-> player behind the box at ``cell`` ∧ direction d ∧ box
there; a push needs the cell beyond free and not dead (a cell from which no box
can reach a storage cell: such a box could never be stored).  Explanatory frame
axioms for boxes; the player stays put on a no-op.

``pushes`` metric (:class:`SokobanPushEncoder`): one push per step; the walk to
the push is a reachability condition inside the step, unrolled in layers
``reach(cell, t, i)`` ("the player can be here after i walking steps"): a
reach literal holds only with support from the layer before, so a push is
allowed only from a cell truly reachable around the boxes.  The walk itself is
rebuilt when decoding (a shortest one).
"""
from __future__ import annotations

from .rules import DIRS, add
from ...puzzle import Move, PuzzleError
from ...encodings.base import Encoder, frame


class SokobanEncoder(Encoder):
    METRIC = "moves"

    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        if metric != self.METRIC:
            raise PuzzleError(f"this encoder is for the {self.METRIC} metric, not {metric!r}")
        self.floor = sorted(self.rules.floor)
        self.fset = set(self.floor)

    def player(self, m, c, t):
        return m.var(("player", c, t))

    def box(self, m, c, t):
        return m.var(("box", c, t))

    def state_vars(self, m, t):
        m.exactly_one([self.player(m, c, t) for c in self.floor])
        for c in self.floor:
            m.add([-self.box(m, c, t), -self.player(m, c, t)])
            if c in self.rules.no_player:
                m.add([-self.player(m, c, t)])
            if t > 0 and c in self.rules.no_box:
                m.add([-self.box(m, c, t)])

    def goal_bound(self, m, t, moves_left):
        """Every push moves one box one cell: the boxes' push distances to their nearest goals
        add up to at most the moves left (each box's distance counted by repeating its
        literal); a box on a cell from which no goal can be reached is never there."""
        distance = self.rules.distance
        for c in self.floor:
            if c not in distance:
                m.add([-self.box(m, c, t)])
        most = sum(sorted((distance[c] for c in self.floor if c in distance), reverse=True)
                   [:len(self.rules.level.boxes)])
        if moves_left >= most:
            return False
        m.card([self.box(m, c, t) for c in self.floor if c in distance for _ in range(distance[c])],
               "<=", moves_left)
        return True

    def invariant(self, m, t):
        """The number of boxes."""
        m.card([self.box(m, c, t) for c in self.floor], "==", len(self.rules.level.boxes))

    def facts(self, m, t):
        return {**{("player", c): self.player(m, c, t) for c in self.floor},
                **{("box", c): self.box(m, c, t) for c in self.floor}}

    def initial(self, m):
        level = self.rules.level
        for c in self.floor:
            m.add([self.player(m, c, 0) if c == level.player else -self.player(m, c, 0)])
            m.add([self.box(m, c, 0) if c in level.boxes else -self.box(m, c, 0)])

    def moves(self, m, t):
        dirs = {d: m.var(("mv", d, t)) for d in DIRS}
        act = m.var(("act", t))
        pushes_at, pushes_into = {}, {}
        for c in self.floor:
            here, there = self.player(m, c, t), self.player(m, c, t + 1)
            m.add([act, -here, there])
            for d, vec in DIRS.items():
                n = add(c, vec)
                if n in self.fset:
                    m.add([-here, -dirs[d], self.player(m, n, t + 1)])
                else:
                    m.add([-here, -dirs[d]])
            for d, vec in DIRS.items():
                behind, beyond = add(c, vec, -1), add(c, vec)
                if behind not in self.fset:
                    continue
                p = m.var(("push", c, d, t))
                m.equiv_and(p, [self.player(m, behind, t), dirs[d], self.box(m, c, t)])
                if beyond not in self.fset or beyond in self.rules.dead:
                    m.add([-p])
                    continue
                m.implies(p, [-self.box(m, beyond, t)])
                m.implies(p, [self.box(m, beyond, t + 1)])
                m.implies(p, [-self.box(m, c, t + 1)])
                pushes_at.setdefault(c, []).append(p)
                pushes_into.setdefault(beyond, []).append(p)
        for c in self.floor:
            frame(m, self.box(m, c, t), self.box(m, c, t + 1), pushes_at.get(c, []), pushes_into.get(c, []))
        return [(lit, "player") for lit in dirs.values()]

    def place_lit(self, m, mover, c, T):
        return self.player(m, c, T)

    def placed(self, m, i, T):
        return [self.box(m, g, T) for g in self.rules.goals]

    def decode(self, m, values):
        pushes = {(key[2], key[3]) for key in m.true_keys(values, "push")}
        moves = sorted(m.true_keys(values, "mv"), key=lambda key: key[-1])
        return [Move("player", d.upper() if (d, t) in pushes else d) for _, d, t in moves]


class SokobanPushEncoder(SokobanEncoder):
    METRIC = "pushes"

    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        if self.finish:
            raise PuzzleError("an end condition on the player needs the moves metric, not pushes")
        self.depth = max(1, len(self.floor) - len(self.rules.level.boxes))
        self.adj = {c: [add(c, v) for v in DIRS.values() if add(c, v) in self.fset] for c in self.floor}

    def reach(self, m, t):
        """Layered reachability of the player at step t; returns the last layer's literals."""
        layer = {c: self.player(m, c, t) for c in self.floor}
        for i in range(1, self.depth + 1):
            nxt = {}
            for c in self.floor:
                r = m.var(("reach", c, t, i))
                m.implies(r, [layer[c], *(layer[n] for n in self.adj[c])])
                m.implies(r, [-self.box(m, c, t)])
                if c in self.rules.no_player:
                    m.add([-r])
                nxt[c] = r
            layer = nxt
        return layer

    def moves(self, m, t):
        reach = self.reach(m, t)
        act = m.var(("act", t))
        out, pushes_at, pushes_into = [], {}, {}
        for c in self.floor:
            for d, vec in DIRS.items():
                behind, beyond = add(c, vec, -1), add(c, vec)
                if behind not in self.fset or beyond not in self.fset or beyond in self.rules.dead:
                    continue
                p = m.var(("mv", c, d, t))
                m.implies(p, [reach[behind]])
                m.implies(p, [self.box(m, c, t)])
                m.implies(p, [-self.box(m, beyond, t)])
                m.implies(p, [self.box(m, beyond, t + 1)])
                m.implies(p, [-self.box(m, c, t + 1)])
                m.implies(p, [self.player(m, c, t + 1)])
                pushes_at.setdefault(c, []).append(p)
                pushes_into.setdefault(beyond, []).append(p)
                out.append((p, "player"))
        for c in self.floor:
            m.add([act, -self.player(m, c, t), self.player(m, c, t + 1)])
            frame(m, self.box(m, c, t), self.box(m, c, t + 1), pushes_at.get(c, []), pushes_into.get(c, []))
        return out

    def decode(self, m, values):
        pushes = sorted(m.true_keys(values, "mv"), key=lambda key: key[-1])
        player, boxes = self.rules.initial
        moves = []
        for _, c, d, _ in pushes:
            vec = DIRS[d]
            behind = add(c, vec, -1)
            parent = self.rules.walk(player, set(boxes))
            path, cur = [d.upper()], behind
            while parent[cur] is not None:
                cur, letter = parent[cur]
                path.append(letter)
            moves.append(Move("player", "".join(reversed(path)), len(path)))
            boxes = tuple(sorted((set(boxes) - {c}) | {add(c, vec)}))
            player = c
        return moves
