"""Additive pattern databases for boards of 1 x 1 tiles (the 8- and 15-puzzle, any board of
single-cell pieces with one or more blanks and walls).

Representation
--------------
cell      a square of the board that is not a wall, numbered 0..n-1 in reading order
tile      a piece the goal names: its goal cell and its axes
pattern   a few tiles; the patterns part the goal's tiles
abstract  the cells of a pattern's tiles, in the pattern's order, as one index
state     ``sum(cell_j * n**j)``: the other pieces and the blanks are not told apart
table     per abstract state, the fewest moves of the pattern's own tiles that bring them to
          their goal cells when a tile may enter any cell no other tile of its pattern holds
          (``uint8``; 255: never)

Why the tables add up: a move moves one piece, so it is a move of at most one pattern, and
its trace in that pattern's abstraction is an abstract move (the abstraction only drops
conditions: the other pieces, the avoided cells).  A plan's moves are at least the sum over
the patterns of their tiles' moves, each at least its table's value.  One move changes one
pattern's value by at most one, so the sum is consistent too.

Per metric (the rules' module doc says what a move is):

- ``steps``: an abstract move is one tile one cell along its axes;
- ``slides``: one tile any distance in one straight line along its axes, over cells no tile
  of its pattern holds (a real slide crosses only empty cells);
- ``moves``: no table (a move goes anywhere a piece can reach alone; the tables above
  would count one move several times): :func:`tables_for` answers None and the rules keep
  their bound (the tiles off their goal cell).

With one empty cell (the 8- and 15-puzzle) the tables are :mod:`.projected`'s by default:
the blank projected out, 4-4-4-3 on the 15-puzzle (5-5-5 or 6-6-3 on request: ``sizes``),
kept by rank,
read on the reflected board too; ``form="held"`` asks for the tables that hold the blank
(4-4-4-3, rows and columns), which are consistent where the projected ones are only admissible.

Tables are made once per board shape and pattern (a breadth-first search from the goal over
the abstract states, in numpy) and kept on disk in the cache folder (:func:`cache_dir`):
written to a temporary file and renamed, checked when read back (its key, its size, zero at
the goal), and made again when the file is not what it should be.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass, field, replace
from math import perm
from pathlib import Path

import numpy as np

from . import projected

VERSION = 1
MAX_CELLS = 64              # boards of tiles larger than 8 x 8 get no tables: a table's build (a slide's every
                            # cell, for each abstract state) outgrows the memory long before it pays
MAX_ENTRIES = 1 << 20       # one table's entries (uint8): 1 MiB; the 15-puzzle: four tiles and the blank, 4-4-4-3
CACHE_FROM = 1 << 14        # smaller tables are made in hundredths of a second: not written to disk (the
                            # 15-puzzle's 4-tile tables with the blank projected out, 43,680 entries, 0.4 s each, are)
UNREACHED = 255
STEPS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
AXIS_DIRS = {"hv": "UDLR", "h": "LR", "v": "UD"}
METRICS = ("steps", "slides")
_MADE: dict[str, "Table"] = {}      # this process's tables, by key


def cache_dir() -> Path:
    """``$PUZZLEPLAN_CACHE``, else ``$XDG_CACHE_HOME/puzzleplan``, else ``~/.cache/puzzleplan``."""
    if os.environ.get("PUZZLEPLAN_CACHE"):
        return Path(os.environ["PUZZLEPLAN_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "puzzleplan"


@dataclass
class Board:
    """The cells of a board (reading order) and, per cell and direction, the next cell or -1."""

    cells: tuple[tuple[int, int], ...]
    number: dict = field(init=False)
    nb: np.ndarray = field(init=False)

    def __post_init__(self):
        self.number = {c: i for i, c in enumerate(self.cells)}
        self.nb = np.array([[self.number.get((x + dx, y + dy), -1) for dx, dy in STEPS.values()]
                            for x, y in self.cells], dtype=np.int64).reshape(len(self.cells), len(STEPS))


@dataclass
class Table:
    """One pattern's table: ``kinds`` (the rules' kinds of its tiles, in order) and the values."""

    kinds: tuple[int, ...]
    values: bytes
    weights: tuple[int, ...]        # n**j per tile
    entries: int
    seconds: float                  # CPU seconds to make it (0: read from the cache)
    cached: str                     # "made", "read" or "made, not written"
    stored: int = 0                 # bytes on disk (a ranked table: fewer than its values in memory)
    cellmap: tuple | None = None    # cell -> the cell it is read at (the reflected set), None: itself


def key_of(board: Board, goals: list[int], axes: list[str], metric: str, blank: bool | str) -> str:
    """What a table depends on, as text: the board's cells, the tiles' goal cells and axes, the
    metric, whether the blank is held (``"projected"``: :mod:`.projected`'s ranked table)."""
    return json.dumps({"version": VERSION, "cells": board.cells, "goals": goals, "axes": axes,
                       "metric": metric, "blank": blank}, separators=(",", ":"))


def build(board: Board, goals: list[int], axes: list[str], metric: str, blank: bool = False) -> np.ndarray:
    """Breadth-first from the goal over the abstract states (moves are reversible): the table.
    ``blank``: the board has one empty cell and the abstract state holds it too (its last
    digit); the blank crosses cells of pieces outside the pattern for nothing."""
    if blank:
        return _build_blank(board, goals, axes)
    n, k = len(board.cells), len(goals)
    weights = n ** np.arange(k, dtype=np.int64)
    dist = np.full(n ** k, UNREACHED, dtype=np.uint8)
    start = int(np.dot(goals, weights))
    dist[start] = 0
    frontier = np.array([start], dtype=np.int64)
    dirs = [[list(STEPS).index(d) for d in AXIS_DIRS[a]] for a in axes]
    level = 0
    while frontier.size:
        level += 1
        digits = (frontier[:, None] // weights[None, :]) % n
        found = []
        for j in range(k):
            for d in dirs[j]:
                cur = digits[:, j]
                alive = np.ones(frontier.size, dtype=bool)
                while True:
                    cur = board.nb[cur, d]
                    alive &= cur >= 0
                    alive &= ~(digits == cur[:, None]).any(axis=1)
                    if not alive.any():
                        break
                    found.append((frontier + (cur - digits[:, j]) * weights[j])[alive])
                    if metric == "steps":
                        break
                    cur = np.where(alive, cur, 0)
        if not found:
            break
        nxt = np.unique(np.concatenate(found))
        nxt = nxt[dist[nxt] == UNREACHED]
        if level >= UNREACHED:          # farther than a byte counts: stop at the largest value
            break
        dist[nxt] = level
        frontier = nxt
    return dist


def _build_blank(board: Board, goals: list[int], axes: list[str]) -> np.ndarray:
    """0-1 breadth-first search over (the pattern's cells, the blank): the blank entering a cell
    of the pattern moves that tile (cost 1, along the tile's axes), any other cell costs 0."""
    n, k = len(board.cells), len(goals)
    weights = n ** np.arange(k + 1, dtype=np.int64)
    dist = np.full(n ** (k + 1), UNREACHED, dtype=np.uint8)
    base = int(np.dot(goals, weights[:k]))
    frontier = np.array([base + b * weights[k] for b in range(n) if b not in goals], dtype=np.int64)
    dist[frontier] = 0
    names = list(STEPS)
    opposite = {"U": "D", "D": "U", "L": "R", "R": "L"}
    # may tile j move against the blank's direction d (the tile enters the blank's cell)?
    allowed = np.array([[opposite[d] in AXIS_DIRS[a] for d in names] for a in axes] + [[False] * len(names)])
    level = 0
    while frontier.size:
        layer, new = [frontier], frontier
        while new.size:     # every state the blank reaches for nothing joins this level
            digits = (new[:, None] // weights[None, :]) % n
            blank_at = digits[:, k]
            found = []
            for d in range(len(names)):
                cell = board.nb[blank_at, d]
                ok = cell >= 0
                ok &= ~(digits[:, :k] == cell[:, None]).any(axis=1)
                found.append((new + (cell - blank_at) * weights[k])[ok])
            new = np.unique(np.concatenate(found))
            new = new[dist[new] == UNREACHED]
            dist[new] = level
            layer.append(new)
        level += 1
        if level >= UNREACHED:
            break
        whole = np.concatenate(layer)
        digits = (whole[:, None] // weights[None, :]) % n
        blank_at = digits[:, k]
        found = []
        for d in range(len(names)):
            cell = board.nb[blank_at, d]
            hit = digits[:, :k] == cell[:, None]
            j = np.where(hit.any(axis=1), hit.argmax(axis=1), k)
            ok = (cell >= 0) & allowed[j, d]
            moved = whole + (cell - blank_at) * weights[k] + (blank_at - cell) * weights[np.minimum(j, k - 1)]
            found.append(moved[ok])
        nxt = np.unique(np.concatenate(found))
        frontier = nxt[dist[nxt] == UNREACHED]
        dist[frontier] = level
    return dist


def _read(path: Path, key: str, size: int) -> np.ndarray | None:
    """The table in ``path`` if it is the one asked for, else None (missing, corrupt, another key)."""
    try:
        with np.load(path, allow_pickle=False) as f:
            if str(f["key"]) != key:
                return None
            values = f["values"]
    except Exception:       # a truncated or foreign file of any kind: made again, not trusted
        return None
    if values.dtype != np.uint8 or values.shape != (size,) or values.min() != 0:
        return None
    return values


def _write(path: Path, key: str, values: np.ndarray) -> bool:
    """Write atomically (a temporary file in the same folder, renamed); False if it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, key=np.array(key), values=values)
            os.chmod(tmp, 0o644)        # a cache others on the machine may read
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:         # a read-only or full disk: the table is kept in memory only
        return False
    return True


def _cached(key: str, size: int, make) -> tuple[np.ndarray, float, str]:
    """The values under ``key`` from the disk cache, or ``make()`` (then written): (values,
    CPU seconds to make them, how they came)."""
    path = cache_dir() / f"pdb-{hashlib.sha256(key.encode()).hexdigest()[:32]}.npz"
    values = _read(path, key, size) if size >= CACHE_FROM else None
    if values is not None:
        return values, 0.0, "read"
    t0 = time.process_time()
    values = make()
    cpu = time.process_time() - t0
    return values, cpu, "made" if size >= CACHE_FROM and _write(path, key, values) else "made, not written"


def table(board: Board, kinds: tuple[int, ...], goals: list[int], axes: list[str], metric: str,
          blank: bool = False) -> Table:
    """One pattern's table, from this process, the disk cache, or made (and then cached)."""
    key = key_of(board, goals, axes, metric, blank)
    n, k = len(board.cells), len(goals)
    weights = tuple(n ** j for j in range(k + blank))
    if key in _MADE:
        got = _MADE[key]
        return Table(kinds, got.values, weights, got.entries, got.seconds, got.cached, got.stored)
    values, cpu, how = _cached(key, n ** len(weights), lambda: build(board, goals, axes, metric, blank))
    made = Table(kinds, values.tobytes(), weights, int((values != UNREACHED).sum()), round(cpu, 3), how, values.size)
    _MADE[key] = made
    return made


def projected_table(board: Board, kinds: tuple[int, ...], goals: list[int], axes: list[str]) -> Table:
    """One pattern's table with the blank projected out (:mod:`.projected`): kept by rank on
    disk, spread to ``n**k`` entries in memory."""
    key = key_of(board, goals, axes, "steps", "projected")
    n, k = len(board.cells), len(goals)
    weights = tuple(n ** j for j in range(k))
    if key in _MADE:
        got = _MADE[key]
        return Table(kinds, got.values, weights, got.entries, got.seconds, got.cached, got.stored)
    opposite = {"U": "D", "D": "U", "L": "R", "R": "L"}
    allowed = np.array([[opposite[d] in AXIS_DIRS[a] for d in STEPS] for a in axes])
    ranked, cpu, how = _cached(key, perm(n, k), lambda: projected.build(board.nb, goals, allowed))
    made = Table(kinds, projected.spread(ranked, n, k).tobytes(), weights, int((ranked != UNREACHED).sum()),
                 round(cpu, 3), how, ranked.size)
    _MADE[key] = made
    return made


def partition(tiles: list[tuple[int, tuple]], extra: int, n: int,
              sizes: tuple[int, ...] | None = None) -> list[list[int]]:
    """The goal's tiles (``(kind, goal cell)``) in reading order of their goal cells, cut into
    patterns (:func:`tables_for` parts them twice: by rows, then by columns), ``sizes`` if
    given, else as even as the largest table allows (a table holds
    ``extra * n**size`` entries; 15 tiles and the blank on 16 cells: 4-4-4-3, a row each; 8 on 9: 4-4)."""
    order = [kind for kind, _ in sorted(tiles, key=lambda t: t[1])]
    if sizes is None:
        most = 1
        while most < len(order) and extra * n ** (most + 1) <= MAX_ENTRIES:
            most += 1
        parts = -(-len(order) // most)
        sizes = tuple(len(order) // parts + (i < len(order) % parts) for i in range(parts))
    if sum(sizes) != len(order) or min(sizes) < 1 or max(extra * n ** s for s in sizes) > MAX_ENTRIES:
        raise ValueError(f"pattern sizes {sizes} do not part {len(order)} tiles within {MAX_ENTRIES:,} entries")
    out, i = [], 0
    for s in sizes:
        out.append(order[i:i + s])
        i += s
    return out


class Patterns:
    """Additive sets of tables over one puzzle's goal tiles: :meth:`value` of a rules' state is
    the largest of the sets' sums (each set parts the tiles one way; the largest of admissible
    and consistent bounds is both).  ``blank``: the tables hold the one empty cell (their last
    weight)."""

    def __init__(self, sets: list[list[Table]], anchor: dict, blank: bool):
        self.sets = sets
        self.anchor = anchor        # anchor (x, y) -> cell number
        self.blank = blank
        self.total = sum(range(len(anchor)))

    def value(self, state) -> int | None:
        """The largest sum, or None if a pattern can never reach its goal cells."""
        cell = self.anchor
        extra = 0
        if self.blank:      # the cell no piece holds: every cell's number less the held ones'
            empty = self.total - sum(cell[a] for anchors in state for a in anchors)
        best = 0
        for tables in self.sets:
            total = 0
            for t in tables:
                if self.blank:
                    extra = empty * t.weights[-1]
                if t.cellmap is None:
                    i = sum(cell[state[k][0]] * w for k, w in zip(t.kinds, t.weights))
                else:
                    i = sum(t.cellmap[cell[state[k][0]]] * w for k, w in zip(t.kinds, t.weights))
                v = t.values[i + extra]
                if v == UNREACHED:
                    return None
                total += v
            best = max(best, total)
        return best

    def figures(self) -> dict:
        tables = [t for ts in self.sets for t in ts]
        own = list({id(t.values): t for t in tables}.values())     # a reflected set reads the same tables
        return {"patterns": " and ".join("-".join(str(len(t.kinds)) for t in ts)
                                         + (" reflected" if ts[0].cellmap is not None else "") for ts in self.sets),
                "blank": self.blank, "entries": sum(t.stored for t in own),
                "reachable": sum(t.entries for t in own), "bytes": sum(t.stored for t in own),
                "memory_bytes": sum(len(t.values) for t in own),
                "build_cpu_s": round(sum(t.seconds for t in own), 3),
                "cache": ", ".join(sorted({t.cached for t in own}))}


def applies(rules) -> bool:
    """Every piece is one cell and every goal names a piece of its own kind."""
    if any(kind.shape != ((0, 0),) for kind in rules.kinds):
        return False
    kinds = [k for k, _ in rules.goal]
    return len(kinds) == len(set(kinds)) and all(len(rules.kinds[k].labels) == 1 for k in kinds)


def board_of(rules) -> Board:
    """The board's cells (walls left out), in reading order."""
    spec = rules.spec
    return Board(tuple((x, y) for y in range(spec.height) for x in range(spec.width) if rules.inside((x, y))))


def tile_board(rules, metric: str) -> Board | None:
    """The board of a puzzle whose goal tiles tables can cover in ``metric`` (:func:`applies`,
    a metric of :data:`METRICS`, at most :data:`MAX_CELLS` cells), else None."""
    if metric not in METRICS or not rules.goal or not applies(rules):
        return None
    board = board_of(rules)
    return board if len(board.cells) <= MAX_CELLS else None


def sizes_refused(rules, metric: str, sizes: tuple[int, ...]) -> str | None:
    """Why ``sizes`` cannot part this puzzle's tables in ``metric`` (one line), or None: they can
    (checked without making a table)."""
    board = tile_board(rules, metric) if rules.patterns else None
    if board is None:
        return "no pattern databases here: they need 1 x 1 tiles with goal cells, in steps or slides"
    n, tiles = len(board.cells), len(rules.goal)
    if sum(sizes) != tiles or min(sizes) < 1:
        return f"the sizes add up to {sum(sizes)}; the goal places {tiles} tiles"
    blank = n - sum(len(a) for a in rules.initial) == 1
    if blank and n ** (max(sizes) + 1) > projected.LARGEST:
        return f"a pattern of {max(sizes)} tiles does not fit within {projected.LARGEST:,} bytes"
    try:
        if not blank:
            partition(list(rules.goal), 1, n, sizes)
    except ValueError as err:
        return str(err)
    return None


def tables_for(rules, metric: str, sizes: tuple[int, ...] | None = None, form: str | None = None) -> Patterns | None:
    """The additive tables of a sliding-block puzzle's goal tiles in ``metric``, or None where
    none apply (a piece larger than one cell, the ``moves`` metric, no goal, more than
    :data:`MAX_CELLS` cells).  With one empty cell a slide is one step (two cells in a line are
    never empty) and the tables project the blank out (:mod:`.projected`; ``form="held"``:
    tables that hold it, parted by rows and by columns); with more, the tables hold the tiles
    alone."""
    board = tile_board(rules, metric)
    if board is None:
        return None
    n = len(board.cells)
    blank = n - sum(len(a) for a in rules.initial) == 1
    if blank:
        metric = "steps"
        if form != "held":
            return _projected_sets(rules, board, sizes)
    where = {k: board.number[g] for k, g in rules.goal}
    sets = []
    for order in ((1, 0), (0, 1)):      # the goal cells in reading order, then column by column
        tables = []
        for kinds in partition([(k, (g[order[0]], g[order[1]])) for k, g in rules.goal], n ** blank, n, sizes):
            goals = [where[k] for k in kinds]
            axes = [rules.kinds[k].axes for k in kinds]
            tables.append(table(board, tuple(kinds), goals, axes, metric, blank))
        if all(t.kinds != u.kinds for ts in sets for t, u in zip(ts, tables)):
            sets.append(tables)
    return Patterns(sets, board.number, blank)


def _projected_sets(rules, board: Board, sizes: tuple[int, ...] | None) -> Patterns:
    """One blank: tables with the blank projected out, parted by :func:`.projected.sizes_for`
    (or ``sizes``), and the same tables read on the board reflected about its diagonal."""
    n, goal = len(board.cells), dict(rules.goal)
    order = [k for k, g in sorted(rules.goal, key=lambda kg: projected.order_key(kg[1], rules.spec.height))]
    sizes = sizes or projected.sizes_for(len(order), n)
    if sum(sizes) != len(order) or min(sizes) < 1 or n ** (max(sizes) + 1) > projected.LARGEST:
        raise ValueError(f"pattern sizes {sizes} do not part {len(order)} tiles within {projected.LARGEST:,} bytes")
    tables, i = [], 0
    for s in sizes:
        kinds = tuple(order[i:i + s])
        i += s
        tables.append(projected_table(board, kinds, [board.number[goal[k]] for k in kinds],
                                      [rules.kinds[k].axes for k in kinds]))
    sets = [tables]
    empty = [c for c in board.cells if c not in set(goal.values())]
    mirror = None
    if len(goal) == n - 1 and len(empty) == 1:
        mirror = projected.reflection(board.cells, goal, {k: rules.kinds[k].axes for k in goal}, empty[0])
    if mirror is not None:
        cells, kind = mirror
        sets.append([replace(t, kinds=tuple(kind[k] for k in t.kinds), cellmap=tuple(cells)) for t in tables])
    return Patterns(sets, board.number, False)
