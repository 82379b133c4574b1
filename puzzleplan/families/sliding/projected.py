"""Pattern tables with the blank projected out (Korf & Felner's additive tables), for boards
of 1 x 1 tiles with one empty cell.

A table's value for its tiles' cells is the fewest moves *of its own tiles* that bring them
home, the least over where the blank may be: a 0-1 breadth-first search over (the pattern's
cells, the blank's cell) where the blank entering a pattern tile's cell moves that tile
(cost 1) and entering any other cell costs nothing; then the least over the blank's cells.
A move moves one tile, counted by one pattern only, so the tables of a partition add up, and
each is at most the true count of its tiles' moves from the real blank: admissible.  They need
not be consistent (the least over the blank may lie in a part of the board the tiles wall
off); A* reopens states and IDA* needs admissibility only.

Sizes.  The search runs in a workspace of ``n**(k+1)`` bytes (``n`` cells, ``k`` tiles, the
blank); the table kept is indexed by the rank of the tiles' cells as a partial permutation,
``n!/(n-k)!`` bytes: a 6-tile table of the 15-puzzle holds 5,765,760 entries, its workspace
268 MB while it is made.  In memory a table is spread to ``n**k`` entries (16.8 MB for six
tiles of the 15-puzzle) so that a move changes its index by one product (the incremental
search of :mod:`.tiles`).

Partition (:func:`sizes_for`): patterns as large as the workspace allows
(:data:`WORKSPACE`: a build of a second or two), at most half the tiles each: the 15-puzzle
4-4-4-3, the 8-puzzle 4-4; larger ones on request (``sizes``, up to :data:`LARGEST`): the
15-puzzle's 5-5-5 takes about half a CPU minute to make, its 6-6-3 about 5 CPU minutes and
1 GB, once, then the cache.
The goal cells are cut in bands two columns wide, the last row apart (the 15-puzzle: two
blocks of 3 x 2 and the bottom row).  The second set is the same tables read on the board
reflected about its main diagonal (:func:`reflection`), where the board, its goal and its
tiles' axes are symmetric so: no table more to make.
"""
from __future__ import annotations

from math import perm

import numpy as np

UNREACHED = 255
WORKSPACE = 1 << 20         # bytes of the 0-1 search's distance array (n**(k+1)) for the default partition:
                            # a second or two to make (the 15-puzzle 4-4-4-3): a first use may run under a
                            # time limit, which would stop a longer build every time (nothing cached)
LARGEST = 1 << 28           # asked for by sizes (the 15-puzzle 6-6-3: 5 CPU min, 1 GB while made)
CHUNK = 1 << 20             # states expanded at once


def sizes_for(tiles: int, n: int, workspace: int = WORKSPACE) -> tuple[int, ...]:
    """Patterns as large as ``workspace`` allows and at most half the tiles, the rest last."""
    most = 1
    while most < -(-tiles // 2) and n ** (most + 2) <= workspace:
        most += 1
    out, left = [], tiles
    while left:
        out.append(min(most, left))
        left -= out[-1]
    return tuple(out)


def order_key(goal: tuple[int, int], height: int) -> tuple:
    """Goal cells in bands two columns wide, top to bottom, the last row apart."""
    x, y = goal
    return (y == height - 1, x // 2, y, x)


def _expand(states: np.ndarray, nb: np.ndarray, weights: np.ndarray, n: int, k: int,
            allowed: np.ndarray | None) -> np.ndarray:
    """The successors of ``states`` (indexes): blank moves onto free cells (``allowed`` None) or
    pattern-tile moves into the blank (``allowed[j, d]``: tile j may move against d)."""
    out = []
    for lo in range(0, states.size, CHUNK):
        idx = states[lo:lo + CHUNK].astype(np.int64)
        digits = (idx[:, None] // weights[None, :]) % n
        blank = digits[:, k]
        for d in range(nb.shape[1]):
            cell = nb[blank, d]
            hit = digits[:, :k] == cell[:, None]
            if allowed is None:
                ok = (cell >= 0) & ~hit.any(axis=1)
                out.append(idx[ok] + (cell[ok] - blank[ok]) * weights[k])
            else:
                j = hit.argmax(axis=1)
                ok = (cell >= 0) & hit.any(axis=1) & allowed[j, d]
                moved = (cell - blank) * weights[k] + (blank - cell) * weights[j]
                out.append(idx[ok] + moved[ok])
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def _fresh(found: np.ndarray, dist: np.ndarray, level: int) -> np.ndarray:
    found = np.unique(found)
    found = found[dist[found] == UNREACHED]
    dist[found] = level
    return found.astype(np.uint32 if dist.size <= 1 << 32 else np.int64)


def build(nb: np.ndarray, goals: list[int], allowed: np.ndarray) -> np.ndarray:
    """The table of the tiles whose goal cells are ``goals``, indexed by :func:`rank_all`'s rank.
    ``nb[c, d]``: the cell next to c in direction d (-1: none); ``allowed[j, d]``: tile j may
    move against direction d (into a blank lying that way)."""
    n, k = nb.shape[0], len(goals)
    weights = n ** np.arange(k + 1, dtype=np.int64)
    dist = np.full(n ** (k + 1), UNREACHED, dtype=np.uint8)
    base = int(np.dot(goals, weights[:k]))
    frontier = _fresh(np.array([base + b * weights[k] for b in range(n) if b not in goals], dtype=np.int64), dist, 0)
    level = 0
    while frontier.size:
        layer, new = [frontier], frontier
        while new.size:         # every state the blank reaches for nothing joins this level
            new = _fresh(_expand(new, nb, weights, n, k, None), dist, level)
            layer.append(new)
        level += 1
        if level >= UNREACHED:
            break
        frontier = _fresh(np.concatenate([_expand(part, nb, weights, n, k, allowed) for part in layer]), dist, level)
        del layer
    least = dist.reshape(n, n ** k).min(axis=0)     # the blank is the last digit: least over it
    del dist
    return compact(least, n, k)


def rank_factors(n: int, k: int) -> list[int]:
    return [perm(n - 1 - j, k - 1 - j) for j in range(k)]


def _digits_ranks(n: int, k: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """For the dense indexes lo..hi-1 (``sum(cell_j * n**j)``): which are partial permutations
    (no two tiles on one cell), and their ranks."""
    idx = np.arange(lo, hi, dtype=np.int64)
    digits = (idx[:, None] // (n ** np.arange(k, dtype=np.int64))[None, :]) % n
    valid = np.ones(idx.size, dtype=bool)
    rank = np.zeros(idx.size, dtype=np.int64)
    for j, f in enumerate(rank_factors(n, k)):
        smaller = np.zeros(idx.size, dtype=np.int64)
        for i in range(j):
            valid &= digits[:, i] != digits[:, j]
            smaller += digits[:, i] < digits[:, j]
        rank += (digits[:, j] - smaller) * f
    return valid, rank


def compact(dense: np.ndarray, n: int, k: int) -> np.ndarray:
    """``n**k`` values to ``n!/(n-k)!``, by rank."""
    out = np.full(perm(n, k), UNREACHED, dtype=np.uint8)
    for lo in range(0, dense.size, CHUNK * 4):
        hi = min(dense.size, lo + CHUNK * 4)
        valid, rank = _digits_ranks(n, k, lo, hi)
        out[rank[valid]] = dense[lo:hi][valid]
    return out


def spread(ranked: np.ndarray, n: int, k: int) -> np.ndarray:
    """The inverse of :func:`compact`: ``n**k`` values (UNREACHED where two tiles share a cell)."""
    out = np.full(n ** k, UNREACHED, dtype=np.uint8)
    for lo in range(0, out.size, CHUNK * 4):
        hi = min(out.size, lo + CHUNK * 4)
        valid, rank = _digits_ranks(n, k, lo, hi)
        out[lo:hi][valid] = ranked[rank[valid]]
    return out


def rank(cells, n: int) -> int:
    """One partial permutation's rank (the order :func:`compact` keeps)."""
    r, seen = 0, 0
    for c, f in zip(cells, rank_factors(n, len(cells))):
        r += (c - (seen & ((1 << c) - 1)).bit_count()) * f
        seen |= 1 << c
    return r


def reflection(cells: tuple, goal: dict, axes: dict, blank_goal) -> tuple[list[int], dict] | None:
    """The board reflected about its main diagonal: (cell number -> its mirror's number, kind ->
    the kind whose goal is its goal's mirror), or None where the board, the goal or an axis is
    not symmetric so."""
    number = {c: i for i, c in enumerate(cells)}
    if any((y, x) not in number for x, y in cells) or blank_goal[0] != blank_goal[1]:
        return None
    if any(a != "hv" for a in axes.values()):
        return None
    at = {g: k for k, g in goal.items()}
    if any((g[1], g[0]) not in at for g in goal.values()):
        return None
    return [number[(y, x)] for x, y in cells], {k: at[(g[1], g[0])] for k, g in goal.items()}
