"""Sokoban, after seed 001: walls, boxes, storage cells, one player.

Representation
--------------
cell     ``(x, y)``: column from the left, row from the top, 0-based
floor    the cells the player could ever reach with no box in the way (plus the
         boxes' cells), found by flood fill from the player
state    ``(player, boxes)`` with ``boxes`` a sorted tuple of cells
step     one LURD letter: ``u d l r`` a walk, ``U D L R`` a push
metrics  ``moves`` (player steps, the seed's unit) and ``pushes``

Open levels.  The seed's grid is infinite; a level need not be closed by walls.
The level's bounding box is widened by ``margin`` cells of free floor on each
side (default 2) and the grid is cut there.  Every plan found is valid on the
infinite grid; "optimal" is proven for the cut grid (a result says so).  Closed
levels are unaffected by the margin.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterator, Sequence

from ...limits import checkpoint
from ...cells import cell_name
from ...puzzle import Contradiction, IllegalStep, Move, PuzzleError
from ...contract import Rules, SideConditions

Cell = tuple[int, int]
DIRS = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
METRICS = ("moves", "pushes")


def add(a: Cell, d: Cell, k: int = 1) -> Cell:
    return (a[0] + k * d[0], a[1] + k * d[1])


@dataclass(frozen=True)
class SokobanLevel:
    """A level as written: walls, goals, boxes and the player (seed 001's Nivel)."""

    walls: frozenset[Cell]
    goals: frozenset[Cell]
    boxes: frozenset[Cell]
    player: Cell
    title: str = ""

    def validate(self) -> None:
        """The seed's ``nivelVálido?`` (counts, not sets, must be equal)."""
        if self.boxes & self.walls:
            raise PuzzleError(f"a box stands on a wall at {sorted(self.boxes & self.walls)[0]}")
        if self.goals & self.walls:
            raise PuzzleError(f"a storage cell lies on a wall at {sorted(self.goals & self.walls)[0]}")
        if self.player in self.walls or self.player in self.boxes:
            raise PuzzleError("the player stands on a wall or a box")
        if not self.boxes:
            raise PuzzleError("the level has no boxes")
        if len(self.boxes) != len(self.goals):
            raise PuzzleError(f"{len(self.boxes)} boxes but {len(self.goals)} storage cells")

    def rows(self, player: Cell | None = None, boxes=None) -> list[str]:
        player = self.player if player is None else player
        boxes = self.boxes if boxes is None else frozenset(boxes)
        cells = self.walls | self.goals | boxes | {player}
        x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
        x1, y1 = max(x for x, _ in cells), max(y for _, y in cells)
        out = []
        for y in range(y0, y1 + 1):
            row = ""
            for x in range(x0, x1 + 1):
                c = (x, y)
                if c in self.walls:
                    row += "#"
                elif c == player:
                    row += "+" if c in self.goals else "@"
                elif c in boxes:
                    row += "*" if c in self.goals else "$"
                else:
                    row += "." if c in self.goals else " "
            out.append(row.rstrip())
        return out


class Sokoban(SideConditions, Rules):
    metrics = METRICS
    symbols = {"$": ("#c8842c", ""), "*": ("#3b8f3b", ""), ".": ("#f3e6a6", ""),
               "@": ("#3a6fd8", "@"), "+": ("#3a6fd8", "+")}

    def __init__(self, level: SokobanLevel, margin: int = 2, avoid: dict | None = None):
        """``avoid``: ``{"player": cells, "boxes": cells}`` never to be occupied."""
        level.validate()
        self.level, self.margin = level, margin
        avoid = avoid or {}
        self.no_player = frozenset(avoid.get("player", ()))
        self.no_box = frozenset(avoid.get("boxes", ()))
        if level.player in self.no_player or level.boxes & self.no_box:
            raise Contradiction("the player or a box starts on a cell it must avoid")
        if margin < 0:
            raise PuzzleError(f"the margin is {margin}; give 0 or more free cells")
        cells = level.walls | level.goals | level.boxes | {level.player}
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        self.box_x = (min(xs) - margin, max(xs) + margin)
        self.box_y = (min(ys) - margin, max(ys) + margin)
        for who, banned in (("player", self.no_player), ("boxes", self.no_box)):
            for x, y in sorted(c for c in banned if not self.on_board(c)):
                raise PuzzleError(f"{who}.avoid: cell {cell_name((x, y))} is off the board "
                                  f"(the level's grid with its margin of {margin})")
        self.floor = self._flood(level.player, frozenset()) | level.boxes
        self.open = any(self._on_edge(c) for c in self.floor)
        self.goals = level.goals
        self.initial = (level.player, tuple(sorted(level.boxes)))
        self.goal_boxes = tuple(sorted(level.goals))
        self.distance = self._push_distances()
        self.dead = frozenset(c for c in self.floor if c not in self.distance) | self.no_box

    def proof_scope(self) -> str | None:
        """What a proof (optimal, unsolvable, no plan within) covers, when that is
        less than the level: an open level is cut ``margin`` cells around it."""
        if not self.open:
            return None
        return (f"the level is open; the grid was cut {self.margin} cell(s) around it (--margin), and "
                "optimality or unsolvability is proven for that cut grid only (plans are valid on the infinite grid)")

    def on_board(self, c: Cell) -> bool:
        """Within the cut grid: the level's bounding box widened by the margin (walls included)."""
        return self.box_x[0] <= c[0] <= self.box_x[1] and self.box_y[0] <= c[1] <= self.box_y[1]

    def _inside(self, c: Cell) -> bool:
        return (self.box_x[0] <= c[0] <= self.box_x[1] and self.box_y[0] <= c[1] <= self.box_y[1]
                and c not in self.level.walls)

    def _on_edge(self, c: Cell) -> bool:
        return c[0] in self.box_x or c[1] in self.box_y

    def _flood(self, start: Cell, blocked) -> set[Cell]:
        seen, todo = {start}, [start]
        while todo:
            checkpoint()        # one flood may cover a huge room: the time limit holds inside it
            c = todo.pop()
            for d in DIRS.values():
                n = add(c, d)
                if n not in seen and n not in blocked and self._inside(n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def _push_distances(self) -> dict[Cell, int]:
        """Fewest pushes from each cell to the nearest goal, boxes alone (by pulls)."""
        dist = {g: 0 for g in self.level.goals}
        queue = deque(self.level.goals)
        while queue:
            checkpoint()
            c = queue.popleft()
            for d in DIRS.values():
                prev, player = add(c, d, -1), add(c, d, -2)
                if prev in self.floor and player in self.floor and prev not in dist:
                    dist[prev] = dist[c] + 1
                    queue.append(prev)
        return dist

    def walk(self, start: Cell, boxes) -> dict[Cell, tuple[Cell, str] | None]:
        """Player's reachable cells with parent pointers (for walks between pushes)."""
        parent: dict[Cell, tuple[Cell, str] | None] = {start: None}
        queue = deque([start])
        while queue:
            checkpoint()
            c = queue.popleft()
            for letter, d in DIRS.items():
                n = add(c, d)
                if n not in parent and n in self.floor and n not in boxes and n not in self.no_player:
                    parent[n] = (c, letter)
                    queue.append(n)
        return parent

    # -- Domain protocol --------------------------------------------------------
    def is_goal(self, state) -> bool:
        return state[1] == self.goal_boxes

    def successors(self, state, metric: str = "moves") -> Iterator[tuple[Move, tuple]]:
        player, boxes = state
        box_set = set(boxes)
        if metric == "moves":
            for letter, d in DIRS.items():
                n = add(player, d)
                if n not in self.floor or n in self.no_player:
                    continue
                if n in box_set:
                    beyond = add(n, d)
                    if beyond in self.floor and beyond not in box_set and beyond not in self.dead:
                        new = tuple(sorted((box_set - {n}) | {beyond}))
                        yield Move("player", letter.upper()), (n, new)
                else:
                    yield Move("player", letter), (n, boxes)
            return
        parent = self.walk(player, box_set)
        for b in boxes:
            for letter, d in DIRS.items():
                stand, beyond = add(b, d, -1), add(b, d)
                if stand in parent and b not in self.no_player and beyond in self.floor and beyond not in box_set and beyond not in self.dead:
                    path = [letter.upper()]
                    c = stand
                    while parent[c] is not None:
                        c, walked = parent[c]
                        path.append(walked)
                    new = tuple(sorted((box_set - {b}) | {beyond}))
                    yield Move("player", "".join(reversed(path)), len(path)), (b, new)

    def heuristic(self, state, metric: str = "moves") -> int:
        return sum(self.distance.get(b, 10 ** 6) for b in state[1])

    def render_steps(self, moves: Sequence[Move]) -> list[str]:
        return [letter for m in moves for letter in m.data]

    def replay(self, steps: Sequence[str]) -> "SokobanReplay":
        player, boxes = self.level.player, set(self.level.boxes)
        history = [(player, frozenset(boxes))]
        for i, step in enumerate(steps, 1):
            if len(step) != 1 or step.lower() not in DIRS:
                raise IllegalStep(i, step, "a step is one of the letters l, u, r, d (upper case for a push)")
            d = DIRS[step.lower()]
            n = add(player, d)
            if n in self.level.walls:
                raise IllegalStep(i, step, f"the player would walk into a wall at {n}")
            if n in self.no_player:
                raise IllegalStep(i, step, f"the player may not enter {n}")
            if n in boxes:
                beyond = add(n, d)
                if beyond in self.level.walls or beyond in boxes:
                    raise IllegalStep(i, step, f"the box at {n} cannot be pushed: {beyond} is not free")
                if beyond in self.no_box:
                    raise IllegalStep(i, step, f"a box may not enter {beyond}")
                if step.islower():
                    raise IllegalStep(i, step, "this step pushes a box: write it in upper case")
                boxes = (boxes - {n}) | {beyond}
            elif step.isupper():
                raise IllegalStep(i, step, "upper case means a push, but there is no box to push")
            player = n
            history.append((player, frozenset(boxes)))
        return SokobanReplay(self.level, history)

    def moves_of(self, steps: Sequence[str], metric: str) -> list[tuple[str, tuple[str, ...]]]:
        """The plan's moves: every player step (``moves``), or every push with the
        walk before it (``pushes``; a walk after the last push is no move)."""
        if metric == "moves":
            return [("player", (s,)) for s in steps]
        out, walk = [], []
        for s in steps:
            walk.append(s)
            if s.isupper():
                out.append(("player", tuple(walk)))
                walk = []
        return out

    def board(self) -> list[str]:
        return self.level.rows()

    def piece_names(self) -> list[str]:
        return ["player", "boxes"]

    def mover_of(self, piece: str) -> str:
        if piece != "player":
            raise PuzzleError(f"Sokoban counts moves of 'player' only, not {piece!r}")
        return "player"

    def ends_refused(self, metric: str) -> str | None:
        return "an end condition on the player needs the moves metric, not pushes" if metric == "pushes" else None

    def frame_per_step(self, metric: str) -> bool:
        """Under ``pushes`` the walks between pushes are worth seeing: one frame per step."""
        return metric == "pushes"

    def end_places(self, piece: str, cells) -> tuple[str, frozenset]:
        """For ``player.ends=cells``: the floor cells where the player may finish."""
        self.mover_of(piece)
        ok = frozenset(cells) & frozenset(self.floor) - self.no_player
        if not ok:
            raise Contradiction("the player cannot end on the cells given")
        return "player", ok

    def piece_cells(self, entry, piece: str) -> frozenset:
        return frozenset([entry[0]])     # end conditions name the player only

    def position(self, entry) -> dict:
        player, boxes = entry
        return {"player": list(player), "boxes": sorted([x, y] for x, y in boxes)}

    def place_of(self, state, mover: str):
        return state[0]


@dataclass
class SokobanReplay:
    level: SokobanLevel
    history: list[tuple[Cell, frozenset[Cell]]]

    @property
    def solved(self) -> bool:
        return self.history[-1][1] == self.level.goals

    def frames(self) -> list[list[str]]:
        return [self.level.rows(p, b) for p, b in self.history]


def build(level: SokobanLevel, *, distinct: Sequence[str] = (), avoid: dict | None = None,
          margin: int = 2) -> Sokoban:
    """The rules of a parsed level; ``avoid`` may name ``player`` and ``boxes`` only."""
    if set(avoid or {}) - {"player", "boxes"}:
        raise PuzzleError("in Sokoban, only 'player' and 'boxes' can avoid cells")
    return Sokoban(level, margin, avoid)
