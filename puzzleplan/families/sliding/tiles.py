"""IDA* in place on boards of 1 x 1 tiles with one blank (the 8- and 15-puzzle), its
heuristic updated by the moved tile alone.

The rules' search (:mod:`puzzleplan.search.idastar`) builds a new state per move and sums
every table per state; here one board array is changed and changed back, and a move of tile
``k`` from cell a to cell b changes only the indexes of the tables that hold ``k``, each by
``(b - a) * weight`` (tables spread to ``n**k`` entries, :mod:`.projected`), so the bound
costs a few lookups per move.  The bound is the rules' own: the pattern tables
(:func:`.pdb.tables_for`) when the rules use them, else the Manhattan distance as one-tile
tables.  Offered by :meth:`SlidingPuzzle.tile_search` where it applies: every piece a tile
of its own kind named by the goal or not, one empty cell, tables that do not hold the blank.

A move that undoes the last one is not made; other cycles are searched (they cost, they do
not mislead).  ``expanded`` counts the states whose moves were made, as the rules' IDA* does.
"""
from __future__ import annotations

from ...limits import checkpoint

STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0))      # U D L R: the blank's direction
AXES = {"hv": {0, 1, 2, 3}, "h": {2, 3}, "v": {0, 1}}


class Budget(Exception):
    """More expansions than the budget."""


class TileSearch:
    """The board in place: ``at[cell]`` (a kind or -1), the blank's cell, each table's index."""

    def __init__(self, rules, patterns):
        cells = list(patterns.anchor)
        number = patterns.anchor
        self.rules, self.done, self.over_budget = rules, -1, False
        self.cells = cells
        self.at = [-1] * len(cells)
        for k, anchors in enumerate(rules.initial):
            self.at[number[anchors[0]]] = k
        self.blank = self.at.index(-1)
        # per cell: (neighbour, the direction the blank goes): a tile there moves the other way
        self.nb = [[(number[(x + dx, y + dy)], d) for d, (dx, dy) in enumerate(STEPS) if (x + dx, y + dy) in number]
                   for x, y in cells]
        self.may = [AXES[kind.axes] for kind in rules.kinds]       # a tile may move so if the blank goes d
        self.values = [[t.values for t in ts] for ts in patterns.sets]
        self.index = [[0] * len(ts) for ts in patterns.sets]
        self.uses: list[list] = [[] for _ in rules.kinds]     # kind -> (set, table, weight, cell map)
        for s, ts in enumerate(patterns.sets):
            for i, t in enumerate(ts):
                cm = t.cellmap or list(range(len(cells)))
                for k, w in zip(t.kinds, t.weights):
                    self.uses[k].append((s, i, w, cm))
                    self.index[s][i] += cm[number[rules.initial[k][0]]] * w
        self.sums = [sum(v[i] for v, i in zip(vs, ix)) for vs, ix in zip(self.values, self.index)]

    def h(self) -> int:
        return max(self.sums)

    def move(self, c: int) -> None:
        """The tile on cell ``c`` into the blank."""
        k, b = self.at[c], self.blank
        values, index, sums = self.values, self.index, self.sums
        for s, i, w, cm in self.uses[k]:
            old = index[s][i]
            new = old + (cm[b] - cm[c]) * w
            index[s][i] = new
            sums[s] += values[s][i][new] - values[s][i][old]
        self.at[b], self.at[c], self.blank = k, -1, c

    def run(self, budget: int | None, stats: dict, progress=None) -> list | None:
        """IDA* from the board as it is: the moves ``(kind, from cell, to cell)`` of an optimal
        plan, or None (no plan, or ``over_budget``: more than ``budget`` expansions).
        ``done``: the last bound searched in full (-1: none)."""
        path: list = []
        bound = self.h()
        if not solvable(self.rules):
            return None     # the parity test: no plan (this search, which repeats states, would not end)
        while True:
            stats["iterations"] += 1
            try:
                least = self._search(0, bound, -1, path, budget, stats, progress)
            except Budget:
                self.over_budget = True
                return None
            if least == -1:
                return path
            self.done = bound
            if least is None:
                return None
            bound = least

    def replay(self, moves: list, metric: str) -> list:
        """``(move, state)`` per move of :meth:`run`, by the rules' own successors."""
        state, out = self.rules.initial, []
        for k, a, b in moves:
            want = (k, (self.cells[a], self.cells[b]))
            move, state = next((m, s) for m, s in self.rules.successors(state, metric) if m.data == want)
            out.append((move, state))
        return out

    def _search(self, g, bound, came, path, budget, stats, progress):
        """Depth-first within ``bound``: -1 when a goal is reached (``path`` holds the way), else
        the least f beyond the bound (None: nothing beyond)."""
        if self.sums[0] == 0:           # every table at zero: every goal tile home
            return -1
        stats["expanded"] += 1
        if budget is not None and stats["expanded"] > budget:
            raise Budget
        if stats["expanded"] & 4095 == 0:
            checkpoint()
            if progress:
                progress(stats["expanded"], len(path))
        least = None
        b = self.blank
        for c, d in self.nb[b]:
            if c == came or d not in self.may[self.at[c]]:
                continue
            stats["generated"] += 1
            k = self.at[c]
            self.move(c)
            f = g + 1 + max(self.sums)
            if f <= bound:
                path.append((k, c, b))
                got = self._search(g + 1, bound, b, path, budget, stats, progress)
                if got == -1:
                    return -1
                path.pop()
                if got is not None and (least is None or got < least):
                    least = got
            elif least is None or f < least:
                least = f
            self.move(b)
        return least


def manhattan_sets(rules, number: dict) -> list[list]:
    """One-tile tables of the Manhattan distance to each goal tile's cell (hv tiles)."""
    from .pdb import Table
    out = []
    for k, (gx, gy) in rules.goal:
        values = bytes(min(255, abs(x - gx) + abs(y - gy)) for x, y in number)
        out.append(Table((k,), values, (1,), len(values), 0.0, "made, not written", len(values)))
    return [out]


def solvable(rules) -> bool:
    """The tile puzzle's parity test on a full rectangular board of hv tiles, every piece named
    by the goal: the permutation of cells from the start to the goal (the blank one of them)
    has the parity of the blank's distance to its goal cell (a move changes both)."""
    goal = dict(rules.goal)
    xs = {(x, y) for x in range(rules.spec.width) for y in range(rules.spec.height)}
    (gb,) = xs - set(goal.values())
    (sb,) = xs - {anchors[0] for anchors in rules.initial}
    to = {anchors[0]: goal[k] for k, anchors in enumerate(rules.initial)}
    to[sb] = gb
    seen, swaps = set(), 0
    for c in to:
        n = 0
        while c not in seen:
            seen.add(c)
            c, n = to[c], n + 1
        swaps += max(0, n - 1)
    return swaps % 2 == (abs(sb[0] - gb[0]) + abs(sb[1] - gb[1])) % 2


def tile_search(rules, metric: str) -> TileSearch | None:
    """The in-place search for ``rules`` where it applies (see the module doc), else None."""
    from .pdb import METRICS, Patterns, applies, board_of
    if metric not in METRICS or not rules.goal or not applies(rules):
        return None
    if any(len(anchors) != 1 for anchors in rules.initial) or getattr(rules, "avoid", None):
        return None
    spec = rules.spec
    board = board_of(rules)
    if len(board.cells) - len(rules.initial) != 1 or len(board.cells) != spec.width * spec.height:
        return None
    if len(rules.goal) != len(rules.initial) or any(rules.kinds[k].axes != "hv" for k, _ in rules.goal):
        return None
    if rules.patterns:
        tables = rules.pattern_tables(metric)
        if tables is None or tables.blank:
            return None
    elif all(rules.kinds[k].axes == "hv" for k, _ in rules.goal):
        tables = Patterns(manhattan_sets(rules, board.number), board.number, False)
    else:
        return None
    return TileSearch(rules, tables)
