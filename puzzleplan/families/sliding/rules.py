"""Sliding blocks: Klotski, Rush Hour, Pennant, Ma's puzzle, the 15-puzzle...

Representation
--------------
cell     ``(x, y)``: column from the left, row from the top, 0-based
piece    a label (one character) and the set of cells it covers
kind     pieces that are interchangeable: same shape, same axes, and not named
         by the goal or a side constraint.  Kinds are numbered 0..K-1.
anchor   the top-left corner of a piece's bounding box; a piece's cells are its
         kind's ``shape`` (offsets) shifted by the anchor
state    ``tuple`` over kinds of the sorted tuple of that kind's anchors -- so
         identical pieces never multiply the state space
move     one piece goes from one anchor to another; ``Move.data`` is
         ``(kind, path)`` with ``path`` the anchors after each unit step
steps    ``"<label><U|D|L|R>"``, one cell each

Metrics: ``steps`` (one piece, one cell), ``slides`` (one piece, any distance in one
straight line), ``moves`` (one piece to anywhere it can reach alone, turns allowed),
``makespan`` (time steps: pieces that do not interfere each move one cell at once,
:mod:`.makespan`).

What one move is -- defined here once (:meth:`SlidingPuzzle.moves_of`) and used by
search (through :meth:`~SlidingPuzzle.successors` and
:meth:`~SlidingPuzzle.continuation`), by the SAT decoders, by replay and by every
count of moves:

- ``steps``: every unit step is a move.
- ``slides``: a maximal run of unit steps of one piece in one direction is one
  move.  ``AR AL`` is two slides; ``AR AR`` is one.
- ``moves``: a maximal run of unit steps of one piece is one move, *unless it
  ends where it began*: such a run changes nothing and is no move at all; once
  it is dropped, the runs on either side of it, if they are of one piece, are
  one run (``AR BL BR AR`` is one move of A; ``AR AL`` is no move).  So a plan's
  moves are the runs left when null runs are cancelled, innermost first.
- In every metric, a piece moving again right after its own move makes a new
  move only if the metric says so: search and SAT never split one move of the
  metric in two (a continuation is not a move of its own), and never make a
  null move.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ...limits import checkpoint
from ...cells import cell_name
from ...puzzle import Contradiction, IllegalStep, Move, PuzzleError
from ...contract import Rules, SideConditions

Cell = tuple[int, int]
DIRS: dict[str, Cell] = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
AXIS_DIRS = {"hv": "UDLR", "h": "LR", "v": "UD"}
METRICS = ("steps", "slides", "moves", "makespan")


def add(a: Cell, b: Cell) -> Cell:
    return (a[0] + b[0], a[1] + b[1])


def apart(a: Cell, b: Cell, metric: str) -> int:
    """Fewest moves of ``metric`` that take a piece's anchor from ``a`` to ``b`` on an empty
    board: admissible in every state (the heuristic, the encoder's distance bounds)."""
    if metric in ("steps", "makespan"):     # a time step moves a piece one cell at most
        return abs(a[0] - b[0]) + abs(a[1] - b[1])
    if metric == "slides":
        return (a[0] != b[0]) + (a[1] != b[1])
    return int(a != b)


def normalise(cells) -> tuple[Cell, tuple[Cell, ...]]:
    """Split a set of cells into (anchor, sorted offsets from the anchor)."""
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return (x0, y0), tuple(sorted((x - x0, y - y0) for x, y in cells))


@dataclass(frozen=True)
class SlidingSpec:
    """A sliding-block puzzle as written in a file (labels kept)."""

    width: int
    height: int
    walls: frozenset[Cell]
    pieces: dict[str, frozenset[Cell]]          # label -> cells, in reading order
    axes: dict[str, str]                        # label -> "hv" | "h" | "v"
    goal: tuple[tuple[str, frozenset[Cell]], ...]   # a piece of label's kind covers cells
    name: str = ""
    exit_side: str | None = None                # drawing only (Rush Hour exit)

    def rows(self, placement: dict[str, frozenset[Cell]] | None = None) -> list[str]:
        placement = self.pieces if placement is None else placement
        grid = [["." for _ in range(self.width)] for _ in range(self.height)]
        for x, y in self.walls:
            grid[y][x] = "#"
        for label, cells in placement.items():
            for x, y in cells:
                grid[y][x] = label
        return ["".join(r) for r in grid]


@dataclass
class Kind:
    shape: tuple[Cell, ...]
    axes: str
    labels: list[str]
    anchors: list[Cell] = field(default_factory=list)   # every legal anchor
    # anchor -> its cells, made on first use (search asks for them millions of times)
    _cells: dict = field(default_factory=dict, repr=False, compare=False)

    def cells(self, anchor: Cell) -> tuple[Cell, ...]:
        got = self._cells.get(anchor)
        if got is None:
            got = self._cells[anchor] = tuple(add(anchor, o) for o in self.shape)
        return got


class SlidingPuzzle(SideConditions, Rules):
    """The rules of one sliding-block instance over unlabelled kinds."""

    metrics = METRICS
    #: False: the heuristic is the per-mover bounds alone, no pattern databases (to measure
    #: what the tables add)
    patterns = True

    def __init__(self, spec: SlidingSpec, distinct: Sequence[str] = (), avoid: dict | None = None):
        """``avoid``: label (or ``"*"``: every piece) -> cells that piece may never cover."""
        self.spec = spec
        self.avoid = {lb: frozenset(cells) for lb, cells in (avoid or {}).items()}
        for lb, cells in self.avoid.items():
            for x, y in sorted(c for c in cells if not self.on_board(c)):
                raise PuzzleError(f"{lb}.avoid: cell {cell_name((x, y))} is off the "
                                  f"{spec.width}x{spec.height} board")
        named = {label for label, _ in spec.goal} | set(distinct) | (set(self.avoid) - {"*"})
        for label in named:
            if label not in spec.pieces:
                raise PuzzleError(f"unknown piece {label!r}")
        self.kinds: list[Kind] = []
        self.kind_of: dict[str, int] = {}
        keys: dict[tuple, int] = {}
        start: list[list[Cell]] = []
        for label, cells in spec.pieces.items():
            anchor, shape = normalise(cells)
            key = (shape, spec.axes[label]) + ((label,) if label in named else ())
            if key not in keys:
                keys[key] = len(self.kinds)
                self.kinds.append(Kind(shape, spec.axes[label], []))
                start.append([])
            k = keys[key]
            self.kinds[k].labels.append(label)
            self.kind_of[label] = k
            start[k].append(anchor)
        fits = []       # per kind, where it fits on the board, avoided cells or not
        for k, kind in enumerate(self.kinds):
            kind.anchors = self._legal_anchors(kind, start[k])
            fits.append(frozenset(kind.anchors))
            banned = self.avoid.get("*", frozenset()) | self.avoid.get(kind.labels[0], frozenset())
            if banned:
                if any(set(kind.cells(a)) & banned for a in start[k]):
                    raise Contradiction(f"piece {kind.labels[0]!r} starts on a cell it must avoid")
                kind.anchors = [a for a in kind.anchors if not set(kind.cells(a)) & banned]
        self.anchor_set = [frozenset(k.anchors) for k in self.kinds]
        self.initial = tuple(tuple(sorted(a)) for a in start)
        self.goal: list[tuple[int, Cell]] = []
        for label, cells in spec.goal:
            anchor, shape = normalise(cells)
            k = self.kind_of[label]
            if shape != self.kinds[k].shape:
                raise PuzzleError(f"goal for piece {label!r} does not have its shape")
            if anchor not in fits[k]:
                raise PuzzleError(f"goal for piece {label!r} is out of its reach")
            if anchor not in self.anchor_set[k]:     # a condition against the goal: no plan, not bad input
                raise Contradiction(f"the goal puts piece {label!r} on a cell it must avoid")
            self.goal.append((k, anchor))

    # -- geometry -------------------------------------------------------------
    def on_board(self, cell: Cell) -> bool:
        """Within the picture's rectangle (a wall cell is on the board)."""
        return 0 <= cell[0] < self.spec.width and 0 <= cell[1] < self.spec.height

    def inside(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.spec.width and 0 <= y < self.spec.height and cell not in self.spec.walls

    def _legal_anchors(self, kind: Kind, starts: list[Cell]) -> list[Cell]:
        w, h = self.spec.width, self.spec.height
        out = []
        for y in range(h):
            for x in range(w):
                checkpoint()    # the time limit holds while a huge board is set up
                if kind.axes == "h" and y not in {s[1] for s in starts}:
                    continue
                if kind.axes == "v" and x not in {s[0] for s in starts}:
                    continue
                if all(self.inside(c) for c in kind.cells((x, y))):
                    out.append((x, y))
        return out

    def occupied(self, state) -> dict[Cell, int]:
        occ = {}
        for k, anchors in enumerate(state):
            for a in anchors:
                for c in self.kinds[k].cells(a):
                    occ[c] = k
        return occ

    def neighbours(self, k: int, a: Cell, occ: dict[Cell, int], own: set[Cell]) -> Iterator[tuple[str, Cell]]:
        for d, b, cells, _ in self._steps(k, a):
            if all(c not in occ or c in own for c in cells):
                yield d, b

    def _steps(self, k: int, a: Cell) -> list[tuple[str, Cell, tuple[Cell, ...], tuple[Cell, ...]]]:
        """The legal anchors one step from ``a``: (direction, anchor, its cells, those of its
        cells that ``a``'s do not cover), made once."""
        table = self.__dict__.setdefault("_step_table", {})
        got = table.get((k, a))
        if got is None:
            kind = self.kinds[k]
            here = set(kind.cells(a))
            got = table[(k, a)] = [(d, b, kind.cells(b), tuple(c for c in kind.cells(b) if c not in here))
                                   for d in AXIS_DIRS[kind.axes] for b in [add(a, DIRS[d])] if b in self.anchor_set[k]]
        return got

    # -- Domain protocol ---------------------------------------------------------
    def is_goal(self, state) -> bool:
        return all(a in state[k] for k, a in self.goal)

    def successors(self, state, metric: str = "steps") -> Iterator[tuple[Move, tuple]]:
        if metric == "makespan":
            from .makespan import joint_successors
            yield from joint_successors(self, state)
            return
        occ = self.occupied(state)
        for k, anchors in enumerate(state):
            for i, a in enumerate(anchors):
                own = set(self.kinds[k].cells(a)) if metric != "steps" else None
                for path in self._piece_moves(k, a, occ, own, metric):
                    b = path[-1]
                    new = tuple(sorted(anchors[:i] + (b,) + anchors[i + 1:]))
                    yield Move(k, (k, (a,) + path), len(path)), state[:k] + (new,) + state[k + 1:]

    def _piece_moves(self, k, a, occ, own, metric) -> Iterator[tuple[Cell, ...]]:
        if metric == "steps":       # one step: the cells it enters must be free
            for _, b, _, entering in self._steps(k, a):
                if all(c not in occ for c in entering):
                    yield (b,)
        elif metric == "slides":
            kind, legal = self.kinds[k], self.anchor_set[k]
            for d in AXIS_DIRS[kind.axes]:
                path, cur = [], a
                while True:
                    checkpoint(1 + len(path) // 16)     # a slide across a huge board: the limit holds inside it
                    cur = add(cur, DIRS[d])
                    if cur not in legal or any(c in occ and c not in own for c in kind.cells(cur)):
                        break
                    path.append(cur)
                    yield tuple(path)
        else:  # moves: breadth-first over the piece's own anchors, others fixed
            parent = {a: None}
            queue = deque([a])
            while queue:
                cur = queue.popleft()
                for _, b in self.neighbours(k, cur, occ, own):
                    if b not in parent:
                        parent[b] = cur
                        queue.append(b)
                        path = [b]
                        while parent[path[-1]] != a:
                            path.append(parent[path[-1]])
                        yield tuple(reversed(path))

    def walk_metric(self, metric: str) -> str:
        """``steps`` for ``makespan`` (a time step's moves are unit steps taken together)."""
        return "steps" if metric == "makespan" else metric

    def counts_refused(self, metric: str) -> str | None:
        if metric == "makespan":
            return ("the makespan metric counts time steps, not a piece's moves: move counts and "
                    "frozen pieces take --metric steps, slides or moves")
        return None

    def state_bound(self) -> int:
        """The ways to place each kind's pieces on its legal anchors, multiplied over the kinds
        (overlaps not subtracted)."""
        from math import comb, prod
        return prod(comb(len(kind.anchors), len(self.initial[k])) for k, kind in enumerate(self.kinds))

    def continuation(self, move: Move, metric: str):
        """``(start, end)`` keys: a move whose start equals the previous move's end
        continues it, and the metric counts both as one (None: ``steps``)."""
        k, path = move.data
        if metric == "moves":
            return (k, path[0]), (k, path[-1])
        if metric == "slides":
            d = (path[1][0] - path[0][0], path[1][1] - path[0][1])
            return (k, path[0], d), (k, path[-1], d)
        return None

    def continues_across_movers(self, metric: str) -> bool:
        """Under ``moves`` every piece's last move is remembered: a piece's null pair of moves
        would otherwise join a counted piece's runs; under ``slides`` another piece's
        continuation changes no count."""
        return metric == "moves"

    def heuristic(self, state, metric: str = "steps") -> int:
        """The per-mover bounds' sum, or the additive pattern databases' where every piece is one
        cell (:mod:`.pdb`), whichever is larger."""
        if metric == "makespan":
            from .makespan import bound as time_bound
            return time_bound(self, state)
        bound = sum(self.mover_bounds(state, metric, 0).values())
        tables = self.pattern_tables(metric)
        deeper = tables.value(state) if tables is not None else None
        return bound if deeper is None else max(bound, deeper)

    def pattern_tables(self, metric: str, sizes: tuple[int, ...] | None = None, form: str | None = None):
        """The additive pattern databases of this board in ``metric`` (made on first use, then
        kept), or None where none apply; ``form``: :func:`.pdb.tables_for`'s.  The attributes
        ``pattern_form`` and ``pattern_sizes`` set the defaults (a bench's 6-6-3)."""
        from .pdb import tables_for
        if not self.patterns:
            return None
        made = self.__dict__.setdefault("_pattern_tables", {})
        form = form or self.__dict__.get("pattern_form")
        sizes = sizes or self.__dict__.get("pattern_sizes")
        if (metric, sizes, form) not in made:
            made[(metric, sizes, form)] = tables_for(self, metric, sizes, form)
        return made[(metric, sizes, form)]

    def use_patterns(self, sizes: tuple[int, ...], metric: str) -> None:
        """``--patterns``: the tables parted into patterns of ``sizes`` tiles (6-6-3 on the
        15-puzzle), made on first use or read from the disk cache."""
        from .pdb import sizes_refused
        why = sizes_refused(self, metric, tuple(sizes))
        if why:
            raise PuzzleError(f"--patterns {'-'.join(map(str, sizes))}: {why}")
        self.pattern_sizes = tuple(sizes)

    def tile_search(self, metric: str):
        """IDA* in place with an incremental bound where every piece is a tile and one cell is
        empty (:mod:`.tiles`), else None."""
        from .tiles import tile_search
        return tile_search(self, metric)

    def mover_bounds(self, state, metric: str, i: int) -> dict:
        """The heuristic's terms per kind (a mover): a goal cell's nearest piece of the kind, and
        the pieces in the way of a goal piece bound to one line (:meth:`blockers`; a goal
        piece that blocks another counts the larger of its two bounds)."""
        out: dict = {}
        for k, g in self.goal:
            out[k] = out.get(k, 0) + min(apart(a, g, metric) for a in state[k])
        extra: dict = {}
        for (k, _), n in self.blockers(state, metric).items():
            extra[k] = extra.get(k, 0) + n
        for k, n in extra.items():
            out[k] = max(out[k], n) if k in out else n
        return out

    def blockers(self, state, metric: str) -> dict:
        """``(kind, anchor) -> moves`` for each piece that covers a cell a goal piece must cross:
        a piece bound to one line (Rush Hour's red car) passes every anchor between where it is
        and its goal, so each piece on those cells must leave each of them at least once: at
        least the fewest moves to an anchor of its own that does not cover the cell (on an
        empty board), the most over the cells.  Different pieces' moves are different moves,
        so they add up."""
        need: dict = {}
        for k, g in self.goal:
            if self.kinds[k].axes == "hv" or len(state[k]) != 1 or state[k][0] == g:
                continue
            swept = self._swept(k, state[k][0], g)
            for k2, anchors in enumerate(state):
                for a2 in anchors:
                    if k2 == k:
                        continue
                    hit = [c for c in self.kinds[k2].cells(a2) if c in swept]
                    if hit:
                        n = max(self._vacate(k2, a2, c, metric) for c in hit)
                        need[(k2, a2)] = max(need.get((k2, a2), 0), n)
        return need

    def _swept(self, k: int, a: Cell, g: Cell) -> frozenset:
        """The cells a piece of kind ``k`` bound to one line covers on its way from ``a`` to ``g``
        that it does not cover at ``a`` (made once)."""
        table = self.__dict__.setdefault("_swept_table", {})
        got = table.get((k, a, g))
        if got is None:
            kind = self.kinds[k]
            dx, dy = (g[0] > a[0]) - (g[0] < a[0]), (g[1] > a[1]) - (g[1] < a[1])
            cells, cur = set(), a
            while cur != g:
                cur = (cur[0] + dx, cur[1] + dy)
                cells |= set(kind.cells(cur))
            got = table[(k, a, g)] = frozenset(cells - set(kind.cells(a)))
        return got

    def _vacate(self, k: int, a: Cell, c: Cell, metric: str) -> int:
        """The fewest moves that take a piece of kind ``k`` from ``a`` to an anchor not covering
        ``c``, on an empty board (1 if it has none: then no plan exists at all)."""
        table = self.__dict__.setdefault("_vacate_table", {})
        got = table.get((k, a, c, metric))
        if got is None:
            kind = self.kinds[k]
            got = min((apart(a, b, metric) for b in kind.anchors if c not in kind.cells(b)), default=1)
            table[(k, a, c, metric)] = got = max(got, 1)
        return got

    def render_steps(self, moves: Sequence[Move], start: dict | None = None) -> list[str]:
        """Unit steps ``label + direction`` of ``moves`` made from ``start`` (a replay entry:
        label -> cells; default the start of the puzzle)."""
        from .makespan import unit_moves
        where = {label: normalise(cells)[0] for label, cells in (start or self.spec.pieces).items()}
        out = []
        for move in unit_moves(moves):
            k, path = move.data
            label = next(lb for lb in self.kinds[k].labels if where[lb] == path[0])
            for a, b in zip(path, path[1:]):
                d = next(n for n, v in DIRS.items() if add(a, v) == b)
                out.append(label + d)
            where[label] = path[-1]
        return out

    def replay(self, steps: Sequence[str]) -> "SlidingReplay":
        """Apply unit steps by the rules, labels kept; raise IllegalStep on a bad one."""
        place = dict(self.spec.pieces)
        history = [dict(place)]
        for i, step in enumerate(steps, 1):
            label, d = step[:-1], step[-1:]
            if label not in place:
                raise IllegalStep(i, step, f"no piece {label!r}")
            if d not in DIRS:
                raise IllegalStep(i, step, f"direction must be U, D, L or R, not {d!r}")
            if d not in AXIS_DIRS[self.spec.axes[label]]:
                raise IllegalStep(i, step, f"piece {label} moves only along axis {self.spec.axes[label]}")
            moved = frozenset(add(c, DIRS[d]) for c in place[label])
            banned = moved & (self.avoid.get(label, frozenset()) | self.avoid.get("*", frozenset()))
            if banned:
                raise IllegalStep(i, step, f"piece {label} may not enter {sorted(banned)[0]}")
            others = set().union(*(v for lb, v in place.items() if lb != label))
            for c in moved:
                x, y = c
                if not (0 <= x < self.spec.width and 0 <= y < self.spec.height):
                    raise IllegalStep(i, step, f"piece {label} would leave the board")
                if c in self.spec.walls:
                    raise IllegalStep(i, step, f"piece {label} would enter a wall at {c}")
                if c in others:
                    raise IllegalStep(i, step, f"piece {label} is blocked at {c}")
            place[label] = moved
            history.append(dict(place))
        return SlidingReplay(self, history)

    def moves_of(self, steps: Sequence[str], metric: str) -> list[tuple[str, tuple[str, ...]]]:
        """The plan's moves in ``metric`` (see the module doc): ``(label, unit steps)``
        each.  The steps are read as written; legality is :meth:`replay`'s job."""
        if metric == "steps":
            return [(s[:-1], (s,)) for s in steps]
        if metric == "makespan":
            from .makespan import time_steps
            return time_steps(self.spec.pieces, steps)
        if metric == "slides":
            out: list[tuple[str, tuple[str, ...]]] = []
            for s in steps:
                if out and out[-1][0] == s[:-1] and out[-1][1][-1] == s:
                    out[-1] = (out[-1][0], out[-1][1] + (s,))
                else:
                    out.append((s[:-1], (s,)))
            return out
        stack: list[list] = []      # [label, steps, dx, dy]; below the top, never null
        for s in steps:
            label, (dx, dy) = s[:-1], DIRS.get(s[-1:], (0, 0))
            if stack and stack[-1][0] != label and stack[-1][2:] == [0, 0]:
                stack.pop()         # a null run is no move; its neighbours may now join
            if stack and stack[-1][0] == label:
                stack[-1][1].append(s)
                stack[-1][2] += dx
                stack[-1][3] += dy
            else:
                stack.append([label, [s], dx, dy])
        if stack and stack[-1][2:] == [0, 0]:
            stack.pop()
        return [(label, tuple(run)) for label, run, _, _ in stack]

    def board(self) -> list[str]:
        return self.spec.rows()

    def drawn(self, rows: list[str]) -> list[str]:
        """A Rush Hour card with its exit marked: ``>`` beside the row the red car leaves by."""
        if self.spec.exit_side != "right":
            return rows
        (_, cells), = self.spec.goal[:1]
        row = next(iter(cells))[1]
        return [r + (">" if y == row else "") for y, r in enumerate(rows)]

    def piece_names(self) -> list[str]:
        return list(self.spec.pieces)

    def mover_of(self, label: str) -> int:
        """The kind of a piece named by a constraint (it has a kind of its own)."""
        if label not in self.kind_of:
            raise PuzzleError(f"no piece {label!r}; pieces are " + " ".join(self.spec.pieces))
        k = self.kind_of[label]
        if len(self.kinds[k].labels) != 1:
            raise PuzzleError(f"piece {label!r} is interchangeable with others; name it in the constraints")
        return k

    def end_places(self, label: str, cells) -> tuple[int, frozenset]:
        """For ``label.ends=cells``: its kind and the anchors that keep it within ``cells``."""
        k = self.mover_of(label)
        ok = frozenset(a for a in self.kinds[k].anchors if set(self.kinds[k].cells(a)) <= set(cells))
        if not ok:
            raise Contradiction(f"piece {label!r} cannot end within the cells given")
        return k, ok

    def place_of(self, state, k: int):
        return state[k][0]

    def piece_cells(self, entry, piece: str) -> frozenset:
        return frozenset(entry[piece])

    def position(self, entry) -> dict:
        return {label: sorted([x, y] for x, y in cells) for label, cells in entry.items()}


@dataclass
class SlidingReplay:
    puzzle: SlidingPuzzle
    history: list[dict[str, frozenset[Cell]]]

    @property
    def solved(self) -> bool:
        final = self.history[-1]
        spec = self.puzzle.spec
        for label, cells in spec.goal:
            kind = self.puzzle.kind_of[label]
            if not any(final[lb] == cells for lb in self.puzzle.kinds[kind].labels):
                return False
        return True

    def frames(self) -> list[list[str]]:
        return [self.puzzle.spec.rows(p) for p in self.history]


def build(spec: SlidingSpec, *, distinct: Sequence[str] = (), avoid: dict | None = None,
          margin: int = 2) -> SlidingPuzzle:
    """The rules of a parsed puzzle; the pieces in ``distinct`` keep their own kind."""
    return SlidingPuzzle(spec, distinct, avoid)
