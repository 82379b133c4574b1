"""A replayed plan as a scene: the still parts of the board and one frame per step or move.

Representation
--------------
cell      ``(x, y)`` in drawing coordinates: column from the left, row from the top,
          0-based, inside a ``width`` x ``height`` grid (a board may be shifted so the
          grid starts at 0, ``origin``, or drawn upside down, ``style["flip"]``)
position  the canonical, JSON-ready picture of one state in the domain's own
          coordinates (the rules' ``position`` of a replay entry), in one of the shapes
          the painters draw (``style["pieces"]``):
            blocks     ``{label: [[x, y], ...]}`` (cells sorted)
            warehouse  ``{"player": [x, y], "boxes": [[x, y], ...]}``
            tokens     ``{"b1": "B", ...}`` (cell name -> token letter)
style     how the family wants its board drawn (:data:`STYLE` lists the choices)
frame     the position after ``step`` unit steps, with the move that led there and
          the per-piece move counters of the side conditions
move      one unit step, except in the ``slides``/``moves`` metrics of sliding
          blocks, where consecutive steps the metric counts once form one move

The scene is plain data (``to_json``): the GIF writer and the HTML page both draw from it;
neither applies any rule nor knows a family.  Each family's ``scene`` part makes the still
board (:func:`empty` and its own walls, floor, goals, colours, style); :func:`build` adds
the frames.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import asdict, dataclass, field
from typing import Sequence

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


# drawing choices a family makes (``Scene.style``), with their defaults
STYLE = {
    "pieces": "blocks",      # blocks | warehouse | tokens: the shape of a position (see above)
    "board": False,          # fill the whole width x height grid as floor
    "checkered": False,      # floor cells as a chessboard's (a1 dark)
    "coordinates": False,    # file letters and rank numbers around the board
    "flip": False,           # the domain counts rows from the bottom (chess ranks)
    "goals": "outline",      # outline: goal regions outlined in the piece's colour; tiles: marked cells
    "goal_labels": False,    # write the label that must stand on each goal cell
}


def position(base, entry) -> dict:
    """The canonical position of one ``replay.history`` entry (domain coordinates)."""
    return base.position(entry)


def move_ends(base, steps: Sequence[str], metric: str) -> list[int]:
    """Step counts after each move: ``[0, e1, e2, ...]``.  A step that raises the
    metric's count starts a new move; the steps that do not raise it continue the
    current one (a run of one piece, a slide).  A family may keep one frame per step
    (:meth:`~puzzleplan.contract.Rules.frame_per_step`: Sokoban's walks between pushes)."""
    if base.frame_per_step(metric) or not steps:
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
    family: str                 # the family's name
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
    exit: str | None = None     # the side the target piece leaves by (drawn as a bar: Rush Hour)
    solved: bool = False        # the plan reaches the goal, side conditions included
    style: dict = field(default_factory=lambda: dict(STYLE))

    @property
    def moves(self) -> list[str]:
        return [f.move for f in self.frames[1:]]

    def to_json(self) -> dict:
        return asdict(self)

    def grid(self, cell) -> tuple[int, int]:
        """Domain cell -> drawing cell."""
        if self.style.get("flip"):
            return cell[0], self.height - 1 - cell[1]
        return cell[0] - self.origin[0], cell[1] - self.origin[1]


def counted_pieces(problem) -> list:
    """The side conditions (text) and the pieces whose moves they count."""
    conds = list(problem.counts) + [c for alt in problem.rules.goal_alternatives() for c in alt]
    pieces = list(dict.fromkeys(p for c in conds for p in c.pieces))
    return [str(c) for c in dict.fromkeys(conds)], pieces


def counters(rules, steps, metric, replay, i: int, pieces) -> dict:
    if not pieces:
        return {}
    per = moves_per_piece(rules, steps[:i], metric)
    return {p: per.get(p, 0) for p in pieces}


def build(problem, steps: Sequence[str], metric: str, title: str = "") -> Scene:
    """The scene of ``steps`` on ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    instance or a bare rules object), drawn by its family's ``scene`` part.
    Raises IllegalStep (a PuzzleError) if the plan does not replay."""
    from .. import registry
    problem = registry.problem(problem)
    rules = problem.rules
    steps = list(steps)
    replay = rules.replay(steps)
    conditions, pieces = counted_pieces(problem)
    ends = move_ends(rules, steps, metric)
    frames = []
    for j, end in enumerate(ends):
        start = ends[j - 1] if j else end
        frames.append(Frame(end, rules.count(steps[:end], metric), " ".join(steps[start:end]),
                            position(rules, replay.history[end]), counters(rules, steps, metric, replay, end, pieces)))
    scene = problem.family.part("scene")(rules, replay, title)
    scene.family, scene.metric, scene.conditions, scene.frames = problem.name, metric, conditions, frames
    scene.solved = check_plan(problem, steps, metric)["solved"]
    return scene


def empty(rules, title: str, width: int, height: int, origin=(0, 0), **style) -> Scene:
    """A scene with nothing on its board yet, drawn in ``style`` (see :data:`STYLE`)."""
    unknown = set(style) - set(STYLE)
    if unknown:
        raise ValueError(f"unknown drawing style {sorted(unknown)}; known: {sorted(STYLE)}")
    return Scene("", "", title, width, height, origin, [], [], [], {}, [], [], style={**STYLE, **style})
