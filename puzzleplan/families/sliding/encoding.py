"""Sliding blocks, unlabelled: per kind, ``at(kind, anchor, t)`` over its legal
anchors (a kind with n pieces has n true), ``empty(cell, t)``, and each cell
covered exactly once (by a piece or by ``empty``).

A board with one or two empty cells (the 8-puzzle, Klotski, Pennant, Century) also says at
every step, on either end of the unrolling, that exactly that many cells are empty: every
reachable state keeps the start's number (pieces keep their sizes), and the cover alone
leaves the solver to count it.  Measured in ``benchmarks/empty_cells`` (``pysat-de``, 60 s a
run): the hard 8-puzzles (31 steps) proven in 21-22 s where they were not, Pennant in slides
proven (62, 48.7 s), Klotski, Pennant and Century 7-33 more horizons refuted in the minute.
With more empty cells the count costs more than it gives (Ma's puzzle, 4 empty cells: 7-8%
slower; Rush Hour, 11 or more: 1.5-2x slower), so it is left out there.

Moves ``("mv", kind, anchor, dir, n, t)``: the piece of ``kind`` at ``anchor``
goes ``n`` cells in ``dir`` (n = 1 for ``steps``; any n for ``slides``).
Explanatory frame axioms.  Under ``steps``, moves of different pieces that commute come
in one order only (:mod:`puzzleplan.encodings.order`).  Without move-count conditions, a piece that just moved
may not move straight back (``steps``), nor slide again along the same axis
(``slides``): neither is ever part of a shortest plan.  With move-count conditions
only the rules remain: a slide may not continue the previous slide of its piece in
the same direction (that is one slide, and it counts once).

``moves`` (one piece goes any way through free cells, turns allowed): the mover is
``("src", kind, anchor, t)``, its end ``("dst", kind, anchor, t)``; the end must be
reachable in layers ``("reach", kind, anchor, i, t)`` over anchors whose cells are
empty or the mover's own.  A path visits distinct placements inside those free
cells, so ``size + empty cells - 1`` layers suffice.  A piece never moves twice in a
row: the two would be one move.
"""
from __future__ import annotations

from .rules import AXIS_DIRS, DIRS, add, apart, normalise
from ...encodings.order import CommutingOrder
from ...limits import checkpoint
from ...puzzle import Move, PuzzleError
from ...encodings.base import Encoder, frame

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
# the most empty cells whose number is stated at every step (``empty_cells`` in the stats)
MAX_COUNTED_EMPTIES = 2


class SlidingEncoder(Encoder):
    # the goal side's: fewer conflicts on wide boards with short plans; the start side's did not
    # pay on top of it (Rush Hour cards +17% CPU, benchmarks/bounds)
    bounds_by_default = frozenset({"goal"})

    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        if metric not in ("steps", "slides", "moves"):
            raise PuzzleError(f"unknown metric {metric!r} for sliding blocks")
        p = self.rules
        self.cells = []
        for y in range(p.spec.height):
            for x in range(p.spec.width):
                checkpoint()        # the time limit holds while a huge board is encoded
                if p.inside((x, y)):
                    self.cells.append((x, y))
        self.cover = {c: [] for c in self.cells}
        for k, kind in enumerate(p.kinds):
            for a in kind.anchors:
                checkpoint()
                for c in kind.cells(a):
                    self.cover[c].append((k, a))
        self.transitions = []   # (k, a, d, n, b, cells that must be empty)
        for k, kind in enumerate(p.kinds if metric != "moves" else []):
            for a in kind.anchors:
                own = set(kind.cells(a))
                for d in AXIS_DIRS[kind.axes]:
                    b, swept = a, set()
                    for n in range(1, max(p.spec.width, p.spec.height)):
                        checkpoint(1 + len(swept) // 16)    # a long slide copies a long set
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
        if metric == "moves":
            self._paths_setup()
        # steps: moves of different pieces that commute are kept in one order (encodings.order);
        # a slide passes cells it does not change, which that rule does not see
        self.order = CommutingOrder(len(p.kinds), lambda m, c, t: m.var(("empty", c, t))) \
            if metric == "steps" else None
        # every state has as many empty cells as the start (pieces keep their cells' number);
        # with one or two, stated at every step (see the module doc)
        empties = len(self.cells) - sum(len(p.kinds[k].shape) * len(placed) for k, placed in enumerate(p.initial))
        self.empty_count = empties if empties <= MAX_COUNTED_EMPTIES else None

    def unit(self, k, a):
        axes = self.rules.kinds[k].axes
        return (k, a[1] if axes == "h" else a[0] if axes == "v" else None)

    def at(self, m, k, a, t):
        return m.var(("at", k, a, t))

    def state_vars(self, m, t):
        for c, options in self.cover.items():
            m.exactly_one([self.at(m, k, a, t) for k, a in options] + [m.var(("empty", c, t))])
        for u, anchors in self.unit_anchors.items():
            if self.single[u]:
                m.exactly_one([self.at(m, u[0], a, t) for a in anchors])
        if self.empty_count is not None:
            m.card([m.var(("empty", c, t)) for c in self.cells], "==", self.empty_count)

    def starts(self, u) -> list:
        """The start anchors of unit ``u``'s pieces."""
        return [a for a in self.rules.initial[u[0]] if self.unit(u[0], a) == u]

    def invariant(self, m, t):
        """Each unit (a kind, on one line for pieces that keep their row or column) keeps
        its number of pieces; the cover then fixes the empty cells."""
        for u, anchors in self.unit_anchors.items():
            m.card([self.at(m, u[0], a, t) for a in anchors], "==", len(self.starts(u)))

    # -- admissible bounds (double-ended unrolling, :mod:`puzzleplan.planner.double`) ----------
    def goal_bound(self, m, t, moves_left):
        """One move moves one piece: over the goal's placements, the moves of the nearest
        piece of the kind (the rules' bound) add up to at most the moves left
        (:meth:`~puzzleplan.encodings.base.Encoder.distance_sum`)."""
        groups = [(distance, "min") for _, distance in self.goal_distances(m, t, 0)]
        groups += [([(tuple(self.at(m, k, a, t) for k, a in cells), d) for cells, d in placements], "sets")
                   for _, placements in self.conflicts()]
        return self.distance_sum(m, ("far", t), groups, moves_left)

    #: True: the goal side adds to the tiles' distances what tiles in each other's way cost
    #: (:mod:`.conflicts`).  Off: measured on two hard 8-puzzles and six 15-puzzle positions
    #: (``benchmarks/bounds``), conflicts within 10 % either way; the solver's lemmas already
    #: refute what a goal row's conflicts add
    conflicts_bound = False

    def conflicts(self) -> list:
        """The placements of tiles that cost moves beyond their distances (:mod:`.conflicts`),
        made once, less those on a cell a tile must avoid (it is never there)."""
        if "_conflicts" not in self.__dict__:
            from .conflicts import excess_clauses
            made = excess_clauses(self.rules, self.metric) if self.conflicts_bound else []
            fits = [set(kind.anchors) for kind in self.rules.kinds]
            self._conflicts = [(kinds, [(cells, d) for cells, d in placements if all(a in fits[k] for k, a in cells)])
                               for kinds, placements in made]
        return self._conflicts

    def goal_distances(self, m, t, i):
        """Per goal placement, its kind (the mover) and the moves of the kind's nearest piece."""
        return [(k, {self.at(m, k, a, t): apart(a, g, self.metric) for a in self.rules.kinds[k].anchors})
                for k, g in self.rules.goal]

    def start_bound(self, m, t, moves_done):
        """Each piece has made at least the moves between its start and where it stands (a
        unit's lone piece), or from the unit's nearest start anchor (each piece of a unit of
        several); one move moves one piece: these add up to at most the moves made."""
        groups = []
        for u, anchors in self.unit_anchors.items():
            starts = self.starts(u)
            dist = {self.at(m, u[0], a, t): min(apart(a, b, self.metric) for b in starts) for a in anchors}
            groups.append((dist, "min" if self.single[u] else "sum"))
        return self.distance_sum(m, ("from", t), groups, moves_done)

    def facts(self, m, t):
        out = {("at", k, a): self.at(m, k, a, t) for k, kind in enumerate(self.rules.kinds) for a in kind.anchors}
        out.update({("empty", c): m.var(("empty", c, t)) for c in self.cells})
        return out

    def initial(self, m):
        for k, kind in enumerate(self.rules.kinds):
            for a in kind.anchors:
                lit = self.at(m, k, a, 0)
                m.add([lit if a in self.rules.initial[k] else -lit])

    def moves(self, m, t):
        if self.metric == "moves":
            return self._path_moves(m, t)
        out, leaving, arriving, entries = [], {}, {}, []
        for u, transitions in self.by_unit.items():
            k = u[0]
            if self.single[u]:
                out += self._unit_moves(m, u, transitions, t, leaving, arriving, entries)
                continue
            for _, a, d, n, b, swept in transitions:
                mv = m.var(("mv", k, a, d, n, t))
                entries.append((mv, k, (), swept))
                m.implies(mv, [self.at(m, k, a, t)])
                for c in swept:
                    m.implies(mv, [m.var(("empty", c, t))])
                m.implies(mv, [self.at(m, k, b, t + 1)])
                m.implies(mv, [-self.at(m, k, a, t + 1)])
                leaving.setdefault((k, a), []).append(mv)
                arriving.setdefault((k, b), []).append(mv)
                out.append((mv, k))
                # steps: no move straight back; slides: no second slide along the same axis
                # (with the step before, and with the step after where it was built first)
                for d2 in self._barred_after(d):
                    for n2 in range(1, max(self.rules.spec.width, self.rules.spec.height)):
                        prev_a = add(a, (-DIRS[d2][0] * n2, -DIRS[d2][1] * n2))
                        for key in (("mv", k, prev_a, d2, n2, t - 1), ("mv", k, b, d2, n2, t + 1)):
                            if m.has(key):
                                m.add([-m.var(key), -mv])
        for k, kind in enumerate(self.rules.kinds):
            for a in kind.anchors:
                frame(m, self.at(m, k, a, t), self.at(m, k, a, t + 1),
                      leaving.get((k, a), []), arriving.get((k, a), []))
        if self.order is not None:
            self.order.step(m, t, entries)
        return out

    def _paths_setup(self):
        p = self.rules
        free = len(self.cells) - sum(len(kind.shape) * len(p.initial[k]) for k, kind in enumerate(p.kinds))
        self.layers, self.before = [], []
        for k, kind in enumerate(p.kinds):
            per_unit = max(len(v) for u, v in self.unit_anchors.items() if u[0] == k)
            self.layers.append(max(1, min(len(kind.shape) + free, per_unit) - 1))
            # anchors one unit step before each anchor, along the kind's axes
            self.before.append({b: [add(b, (-DIRS[d][0], -DIRS[d][1])) for d in AXIS_DIRS[kind.axes]
                                    if add(b, (-DIRS[d][0], -DIRS[d][1])) in p.anchor_set[k]]
                                for b in kind.anchors})

    def _path_moves(self, m, t):
        p, out = self.rules, []
        src = {(k, a): m.var(("src", k, a, t)) for k, kind in enumerate(p.kinds) for a in kind.anchors}
        for (k, a), s in src.items():
            m.implies(s, [self.at(m, k, a, t)])
            m.implies(s, [-self.at(m, k, a, t + 1)])
            out.append((s, k))
        for c, options in self.cover.items():
            m.equiv_or(m.var(("own", c, t)), [src[o] for o in options])
        for k, kind in enumerate(p.kinds):
            reach = {a: src[(k, a)] for a in kind.anchors}
            for i in range(1, self.layers[k] + 1):
                nxt = {}
                for b in kind.anchors:
                    r = nxt[b] = m.var(("reach", k, b, i, t))
                    m.add([-r, reach[b], *(reach[b0] for b0 in self.before[k][b])])
                    for c in kind.cells(b):
                        m.add([-r, m.var(("empty", c, t)), m.var(("own", c, t))])
                reach = nxt
            moving = m.var(("moving", k, t))
            m.equiv_or(moving, [src[(k, a)] for a in kind.anchors])
            dst = [m.var(("dst", k, b, t)) for b in kind.anchors]
            m.add([-moving, *dst])
            m.at_most_one(dst)
            for b, d in zip(kind.anchors, dst):
                m.implies(d, [moving])
                m.implies(d, [reach[b]])
                m.implies(d, [-src[(k, b)]])
                m.implies(d, [self.at(m, k, b, t + 1)])
                # two moves in a row of one piece are one move
                if m.has(("dst", k, b, t - 1)):
                    m.add([-m.var(("dst", k, b, t - 1)), -src[(k, b)]])
                if m.has(("src", k, b, t + 1)):
                    m.add([-d, -m.var(("src", k, b, t + 1))])
        for k, kind in enumerate(p.kinds):
            for a in kind.anchors:
                frame(m, self.at(m, k, a, t), self.at(m, k, a, t + 1), [src[(k, a)]], [m.var(("dst", k, a, t))])
        return out

    def _decode_paths(self, m, values, start=None):
        """Each step's mover and end, joined by the domain's own path search from ``start``
        (default the puzzle's start)."""
        ends = {}
        for key in (m.key(v) for v in values):
            if isinstance(key, tuple) and key[0] in ("src", "dst"):
                ends.setdefault(key[-1], {})[key[0]] = key[1:3]
        state = tuple(tuple(sorted(anchors)) for anchors in start) if start else self.rules.initial
        out = []
        for t in sorted(ends):
            (k, a), (_, b) = ends[t]["src"], ends[t]["dst"]
            move, state = next((mv, nxt) for mv, nxt in self.rules.successors(state, "moves")
                               if mv.data[0] == k and mv.data[1][0] == a and mv.data[1][-1] == b)
            out.append(move)
        return out

    def _barred_after(self, d):
        """Directions a piece may not take right after moving ``d``: moving straight
        back (``steps``) or along the same axis again (``slides``) is no use in a
        shortest plan.  Under move-count conditions only the rules remain: a slide
        in the same direction continues the previous one (one slide, not two)."""
        if self.counted:
            return (d,) if self.metric == "slides" else ()
        return (OPPOSITE[d],) if self.metric == "steps" else (d, OPPOSITE[d])

    def figures(self) -> dict:
        out = {"order_clauses": self.order.clauses} if self.order is not None else {}
        if self.empty_count is not None:
            out["empty_cells"] = self.empty_count
        return out

    def _unit_moves(self, m, u, transitions, t, leaving, arriving, entries):
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
                entries.append((mv, k, (self.at(m, k, a, t),), swept))
                m.add([-mv, -self.at(m, k, a, t), self.at(m, k, b, t + 1)])
                for c in swept:
                    m.add([-mv, -self.at(m, k, a, t), m.var(("empty", c, t))])
                leaving.setdefault((k, a), []).append(mv)
                arriving.setdefault((k, b), []).append(mv)
            for a in self.unit_anchors[u]:
                if a not in sources:
                    m.add([-mv, -self.at(m, k, a, t)])
            out.append((mv, k))
            for d2, n2 in shifts:
                if d2 in self._barred_after(d):
                    for key in (("umv", k, u[1], d2, n2, t - 1), ("umv", k, u[1], d2, n2, t + 1)):
                        if m.has(key):
                            m.add([-m.var(key), -mv])
        return out

    def decode(self, m, values, start=None):
        """The plan's moves; ``start``: the state of step 0 (default the puzzle's start)."""
        if self.metric == "moves":
            return self._decode_paths(m, values, start)
        keys = sorted((key for key in (m.key(v) for v in values)
                       if isinstance(key, tuple) and key[0] in ("mv", "umv")), key=lambda key: key[-1])
        where = {self.unit(k, a): a for k, starts in enumerate(start or self.rules.initial) for a in starts}
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
        return [self.at(m, k, a, T) for k, a in self.rules.goal]

    def decode_move(self, key):
        _, k, a, d, n, _ = key
        path, cur = [a], a
        for _ in range(n):
            cur = add(cur, DIRS[d])
            path.append(cur)
        return Move(k, (k, tuple(path)), n)

    # -- windows of a plan (:mod:`puzzleplan.planner.windows`) ----------------------------
    def window_state(self, m, entry, t, whole=True):
        """Literals that put the pieces where the replay entry ``entry`` (label -> cells) has
        them at step ``t``: every placement (``whole``: every other one false as well)."""
        p = self.rules
        placed = {(p.kind_of[label], normalise(cells)[0]) for label, cells in entry.items()}
        lits = [self.at(m, k, a, t) for k, a in sorted(placed)]
        if whole:
            lits += [-self.at(m, k, a, t) for k, kind in enumerate(p.kinds) for a in kind.anchors
                     if (k, a) not in placed]
        return lits

    def window_steps(self, m, values, entry, to_entry, suffix):
        """The steps of a window's model from ``entry``, then ``suffix`` (the plan's steps after
        the window, written for the labels of ``to_entry``) with identical pieces' labels
        renamed to where the window left them."""
        p = self.rules
        start = [[] for _ in p.kinds]
        for label, cells in entry.items():
            start[p.kind_of[label]].append(normalise(cells)[0])
        moves = self.decode(m, values, [sorted(anchors) for anchors in start])
        steps = p.render_steps(moves, entry)
        end = dict(entry)
        for step in steps:          # where each piece ends (legality is the replay's job)
            end[step[:-1]] = frozenset(add(c, DIRS[step[-1]]) for c in end[step[:-1]])
        owner = {cells: label for label, cells in end.items()}
        rename = {label: owner.get(frozenset(cells)) for label, cells in to_entry.items()}
        if None in rename.values():
            return None
        return steps + [rename[s[:-1]] + s[-1] for s in suffix]

