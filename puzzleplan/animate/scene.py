"""A replayed plan as a scene: the still parts of the board and one frame per step or move.

Representation
--------------
cell      ``(x, y)`` in drawing coordinates: column from the left, row from the top,
          0-based, inside a ``width`` x ``height`` grid (Sokoban levels are shifted so
          the grid starts at 0; knights' ranks are turned upside down)
position  the canonical, JSON-ready picture of one state in the domain's own
          coordinates, built from the replay's ``history``:
            sliding  ``{label: [[x, y], ...]}`` (cells sorted)
            sokoban  ``{"player": [x, y], "boxes": [[x, y], ...]}``
            knights  ``{"b1": "B", ...}`` (square name -> knight letter)
frame     the position after ``step`` unit steps, with the move that led there and
          the per-piece move counters of the side conditions
move      one unit step, except in the ``slides``/``moves`` metrics of sliding
          blocks, where consecutive steps the metric counts once form one move

The scene is plain data (``to_json``): the GIF writer and the HTML page both draw from it;
neither applies any rule.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import asdict, dataclass, field
from typing import Sequence

from ..constraints import alternatives
from ..domains.knights import name as square_name
from ..validate import check_plan, moves_per_piece

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f",
           "#ff9da7", "#86bcb6", "#a0cbe8", "#ffbe7d", "#8cd17d", "#d4a6c8", "#bab0ac", "#79706e",
           "#d37295", "#b6992d", "#499894"]
TARGET = "#d62728"          # the piece the goal names: red, as on a Rush Hour card


def colour(label: str) -> str:
    return PALETTE[zlib.crc32(label.encode()) % len(PALETTE)]


def canonical(position: dict) -> str:
    """The one text of a position the tests compare (sorted keys, no spaces)."""
    return json.dumps(position, sort_keys=True, separators=(",", ":"))


def position(base, entry) -> dict:
    """The canonical position of one ``replay.history`` entry (domain coordinates)."""
    if base.name == "sliding":
        return {label: sorted([x, y] for x, y in cells) for label, cells in entry.items()}
    if base.name == "sokoban":
        player, boxes = entry
        return {"player": list(player), "boxes": sorted([x, y] for x, y in boxes)}
    return {square_name(sq): letter for sq, letter in entry.items()}


def move_ends(base, steps: Sequence[str], metric: str) -> list[int]:
    """Step counts after each move: ``[0, e1, e2, ...]``.  A step that raises the
    metric's count starts a new move; the steps that do not raise it continue the
    current one (a run of one piece, a slide).  ``pushes`` keeps one frame per
    step: the walks between pushes are worth seeing."""
    if metric == "pushes" or not steps:
        return list(range(len(steps) + 1))
    ends, prev = [0], 0
    for i in range(1, len(steps) + 1):
        now = base.count(steps[:i], metric)
        if now > prev and i > 1:
            ends.append(i - 1)
        prev = now
    ends.append(len(steps))
    return ends


@dataclass
class Frame:
    step: int                   # unit steps done
    count: int                  # the metric's count so far (pushes may lag behind the frames)
    move: str                   # the steps of the move that led here ("" at the start)
    position: dict
    counters: dict = field(default_factory=dict)


@dataclass
class Scene:
    domain: str
    metric: str
    title: str
    width: int
    height: int
    origin: tuple[int, int]     # domain cell drawn at grid (0, 0) (Sokoban only)
    walls: list                 # grid cells
    floor: list                 # grid cells drawn as floor (Sokoban's reachable floor, knights' squares)
    goals: list                 # [{"label": str, "cells": grid cells}]
    colours: dict
    conditions: list[str]
    frames: list[Frame]
    exit: str | None = None     # Rush Hour: the side the red car leaves by
    solved: bool = False        # the plan reaches the goal, side conditions included

    @property
    def moves(self) -> list[str]:
        return [f.move for f in self.frames[1:]]

    def to_json(self) -> dict:
        return asdict(self)

    def grid(self, cell) -> tuple[int, int]:
        """Domain cell -> drawing cell."""
        if self.domain == "knights":
            return cell[0], self.height - 1 - cell[1]
        return cell[0] - self.origin[0], cell[1] - self.origin[1]


def counted_pieces(domain) -> list:
    """The side conditions (text) and the pieces whose moves they count."""
    base = getattr(domain, "base", domain)
    conds = list(getattr(domain, "extra", ())) + [c for alt in alternatives(base) for c in alt]
    pieces = list(dict.fromkeys(p for c in conds for p in c.pieces))
    return [str(c) for c in dict.fromkeys(conds)], pieces


def counters(base, steps, metric, replay, i: int, pieces) -> dict:
    if not pieces:
        return {}
    if base.name == "knights":
        per = replay.moved[i]
    else:
        per = moves_per_piece(base, steps[:i], metric)
    return {p: per.get(p, 0) for p in pieces}


def build(domain, steps: Sequence[str], metric: str, title: str = "") -> Scene:
    """The scene of ``steps`` on ``domain`` (a domain or a :class:`Counted` wrapper).
    Raises IllegalStep (a PuzzleError) if the plan does not replay."""
    base = getattr(domain, "base", domain)
    steps = list(steps)
    replay = base.replay(steps)
    conditions, pieces = counted_pieces(domain)
    ends = move_ends(base, steps, metric)
    frames = []
    for j, end in enumerate(ends):
        start = ends[j - 1] if j else end
        frames.append(Frame(end, base.count(steps[:end], metric), " ".join(steps[start:end]), position(base, replay.history[end]),
                            counters(base, steps, metric, replay, end, pieces)))
    scene = BOARDS[base.name](base, replay, title)
    scene.metric, scene.conditions, scene.frames = metric, conditions, frames
    scene.solved = check_plan(domain, steps, metric)["solved"]
    return scene


def _empty(domain, title, width, height, origin=(0, 0)) -> Scene:
    return Scene(domain, "", title, width, height, origin, [], [], [], {}, [], [])


def sliding_board(base, replay, title) -> Scene:
    spec = base.spec
    scene = _empty("sliding", title or spec.name, spec.width, spec.height)
    scene.walls = sorted([x, y] for x, y in spec.walls)
    targets = {label for label, _ in spec.goal}
    scene.colours = {lb: TARGET if lb in targets else colour(lb) for lb in spec.pieces}
    scene.goals = [{"label": lb, "cells": sorted([x, y] for x, y in cells)} for lb, cells in spec.goal]
    scene.exit = spec.exit_side
    return scene


def sokoban_board(base, replay, title) -> Scene:
    level = base.level
    seen = set(level.walls) | set(level.goals)
    for player, boxes in replay.history:
        seen |= {player} | set(boxes)
    x0, y0 = min(x for x, _ in seen), min(y for _, y in seen)
    x1, y1 = max(x for x, _ in seen), max(y for _, y in seen)
    scene = _empty("sokoban", title or level.title, x1 - x0 + 1, y1 - y0 + 1, (x0, y0))
    inside = lambda c: x0 <= c[0] <= x1 and y0 <= c[1] <= y1   # noqa: E731
    scene.walls = sorted(list(scene.grid(c)) for c in level.walls)
    scene.floor = sorted(list(scene.grid(c)) for c in base.floor if inside(c))
    scene.goals = [{"label": "", "cells": sorted(list(scene.grid(c)) for c in level.goals)}]
    scene.colours = {"box": "#c8842c", "stored": "#3b8f3b", "player": "#3a6fd8"}
    return scene


def knights_board(base, replay, title) -> Scene:
    spec = base.spec
    scene = _empty("knights", title or spec.name, spec.width, spec.height)
    scene.floor = sorted(list(scene.grid(sq)) for sq in spec.squares)
    scene.walls = sorted(list(scene.grid((x, y))) for x in range(spec.width) for y in range(spec.height)
                         if (x, y) not in spec.squares)
    scene.colours = {k: colour(k) for k in base.kinds}
    # every goal alternative's squares, outlined with the letter that must stand there
    scene.goals = [{"label": lb, "cells": [list(scene.grid(sq))]}
                   for alt in spec.goals for lb, sq in alt.placements]
    return scene


BOARDS = {"sliding": sliding_board, "sokoban": sokoban_board, "knights": knights_board}
