"""What a pattern of tiles adds to their distances, as clauses SAT can state on one layer.

The goal side of the double-ended encoding (:meth:`.encoding.SlidingEncoder.goal_bound`) adds
up each tile's distance to its goal cell on an empty board (:func:`.rules.apart`).  Tiles in
each other's way cost more: two tiles in their goal row in reversed order need two moves more
than their distances (a *linear conflict*).  A pattern's table (:func:`.pdb.build`, the tiles
of one goal row moving alone, a tile entering any cell no other tile of the pattern holds)
holds the exact moves of those tiles; its *excess* over their distances is what SAT lacks.

The tables add up (one move moves one tile, of one pattern), and each tile's distance is at
most its own share of its pattern's table, so the distances plus each pattern's excess stay
admissible.

Most placements have no excess (the 15-puzzle: 6,000 of 43,680 placements of a goal row's 4
tiles).  A clause per placement would name every tile of the pattern; :func:`excess_clauses`
states each excess on the fewest tiles that force it whatever the others do (two tiles
reversed in their goal row: a clause of two cells, 6 of them per pair of the top row).

Glossary
--------
placement  cells of some of a pattern's tiles, one each, no two alike
excess     the pattern's table less the tiles' distances, at the least over the placements
           of the pattern's other tiles (no two on one cell)
"""
from __future__ import annotations

import itertools

import numpy as np

from . import pdb
from .rules import apart

#: a pattern holds at most this many tiles (a table of ``cells**4`` entries, 65,536 on 4 x 4)
MOST_TILES = 4
#: on larger boards, patterns of at most this many tiles
MOST_ENTRIES = 1 << 18


def excess_clauses(rules, metric: str) -> list[tuple[tuple, list[tuple[tuple, int]]]]:
    """Per pattern (the goal's tiles of one goal row, at most :data:`MOST_TILES` of them, fewer
    on a board where that table would pass :data:`MOST_ENTRIES` entries): ``(kinds,
    [(((kind, anchor), ...), excess), ...])``, each entry a placement of some of the pattern's
    tiles that forces at least ``excess`` moves beyond their distances, none implied by a
    placement of fewer of them.  Empty where the pattern tables do not apply (:func:`.pdb.applies`;
    metrics ``steps`` and ``slides``)."""
    board = pdb.tile_board(rules, metric)
    if board is None:
        return []
    n = len(board.cells)
    most = max(1, min(MOST_TILES, int(np.log(MOST_ENTRIES) / np.log(n))))
    rows: dict[int, list] = {}
    for k, g in sorted(rules.goal, key=lambda kg: (kg[1][1], kg[1][0])):
        rows.setdefault(g[1], []).append((k, g))
    out = []
    for tiles in rows.values():
        for i in range(0, len(tiles), most):
            part = tiles[i:i + most]
            if len(part) < 2:
                continue
            clauses = _pattern(board, part, [rules.kinds[k].axes for k, _ in part], metric)
            if clauses:
                out.append((tuple(k for k, _ in part), clauses))
    return out


def _pattern(board, tiles, axes, metric) -> list[tuple[tuple, int]]:
    """The placements of :func:`excess_clauses` for one pattern of ``tiles`` ``(kind, goal)``."""
    n, k = len(board.cells), len(tiles)
    goals = [board.number[g] for _, g in tiles]
    values = pdb.build(board, goals, axes, metric).astype(np.int64).reshape((n,) * k, order="F")
    far = np.array([[apart(c, g, metric) for c in board.cells] for _, g in tiles])
    excess = values.copy()
    for j in range(k):
        shape = [1] * k
        shape[j] = n
        excess -= far[j].reshape(shape)
    grid = np.indices((n,) * k)
    clash = np.zeros((n,) * k, dtype=bool)
    for a, b in itertools.combinations(range(k), 2):
        clash |= grid[a] == grid[b]
    big = np.iinfo(np.int64).max // 4
    excess[clash | (values == pdb.UNREACHED)] = big     # no placement: forces nothing
    forced = {}                                         # tiles kept -> least excess over the others
    for size in range(1, k + 1):
        for kept in itertools.combinations(range(k), size):
            dropped = tuple(j for j in range(k) if j not in kept)
            forced[kept] = excess.min(axis=dropped) if dropped else excess
    out = []
    for size in range(1, k + 1):
        for kept in itertools.combinations(range(k), size):
            here = forced[kept]
            # the most any fewer of these tiles force, per placement of these
            below = np.zeros(here.shape, dtype=np.int64)
            for sub in itertools.combinations(kept, size - 1):
                if not sub:
                    continue
                spread = forced[sub].reshape([n if j in sub else 1 for j in kept])
                below = np.maximum(below, np.broadcast_to(spread, here.shape))
            for where in zip(*np.nonzero((here > below) & (here > 0) & (here < big))):
                cells = tuple((tiles[j][0], board.cells[c]) for j, c in zip(kept, where))
                out.append((cells, int(here[where])))
    return out
