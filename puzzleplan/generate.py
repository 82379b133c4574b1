"""Random small instances of every domain, for cross-checking SAT against search.

Each generator takes a ``random.Random`` and returns a domain (never invalid:
it retries until the rules accept the instance).
"""
from __future__ import annotations

import random

from .domains.knights import Alternative, Knights, KnightsSpec
from .domains.sliding import SlidingPuzzle, SlidingSpec, normalise
from .domains.sokoban import Sokoban, SokobanLevel
from .puzzle import MoveCount, PuzzleError

SHAPES = [((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 0), (1, 0), (0, 1)),
          ((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 0), (0, 1), (1, 1))]
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def sliding(rng: random.Random, w: int = 4, h: int = 3, pieces: int = 4, walls: int = 1,
            rush: bool = False) -> SlidingPuzzle:
    """Mixed polyominoes and walls; ``rush``: straight cars restricted to their axis."""
    while True:
        cells = {(x, y) for x in range(w) for y in range(h)}
        wall = set(rng.sample(sorted(cells), walls))
        free = cells - wall
        placed, axes = {}, {}
        for label in LABELS[:pieces]:
            shape = rng.choice(SHAPES[1:3] if rush else SHAPES[:5] if w * h < 16 else SHAPES)
            spots = [(x, y) for x, y in free if all((x + dx, y + dy) in free for dx, dy in shape)]
            if not spots:
                break
            x, y = rng.choice(spots)
            placed[label] = frozenset((x + dx, y + dy) for dx, dy in shape)
            free -= placed[label]
            axes[label] = ("h" if shape == SHAPES[1] else "v") if rush else rng.choice(["hv", "hv", "h", "v"])
        if len(placed) < 2 or not free:
            continue
        target = rng.choice(sorted(placed))
        _, shape = normalise(placed[target])
        x0, y0 = normalise(placed[target])[0]
        options = [(x, y) for x in range(w) for y in range(h)
                   if all((x + dx, y + dy) in cells - wall for dx, dy in shape)
                   and (axes[target] != "h" or y == y0) and (axes[target] != "v" or x == x0)]
        gx, gy = rng.choice(options)
        goal = ((target, frozenset((gx + dx, gy + dy) for dx, dy in shape)),)
        spec = SlidingSpec(w, h, frozenset(wall), placed, axes, goal, "random")
        try:
            return SlidingPuzzle(spec)
        except PuzzleError:
            continue


def sokoban(rng: random.Random, w: int = 5, h: int = 4, boxes: int = 2, closed: bool = True) -> Sokoban:
    """A room of w x h cells with a few inner walls; ``closed=False`` leaves it open."""
    while True:
        inner = [(x, y) for x in range(1, w + 1) for y in range(1, h + 1)]
        walls = set(rng.sample(inner, rng.randint(0, 2)))
        if closed:
            walls |= {(x, y) for x in range(w + 2) for y in range(h + 2) if x in (0, w + 1) or y in (0, h + 1)}
        free = [c for c in inner if c not in walls]
        picks = rng.sample(free, 2 * boxes + 1)
        level = SokobanLevel(frozenset(walls), frozenset(picks[boxes:2 * boxes]), frozenset(picks[:boxes]),
                             picks[-1], "random")
        try:
            return Sokoban(level, margin=1)
        except PuzzleError:
            continue


def knights(rng: random.Random, w: int = 3, h: int = 3, n: int = 2, holes: int = 1,
            counted: bool = False) -> Knights:
    """Knights on a w x h board with holes; labelled (distinct letters) unless n > 2
    pairs them by colour.  ``counted``: the first knight must make an exact number
    of moves, or one of two goal alternatives must hold."""
    while True:
        squares = {(x, y) for x in range(w) for y in range(h)}
        squares -= set(rng.sample(sorted(squares), holes))
        start = rng.sample(sorted(squares), n)
        end = rng.sample(sorted(squares), n)
        letters = [LABELS[i] if n <= 2 else "WB"[i % 2] for i in range(n)]
        knights_ = tuple(zip(letters, start))
        alts = [Alternative(tuple(zip(letters, end)))]
        if counted:
            alts[0] = Alternative(alts[0].placements, (MoveCount("A", rng.choice(["==", ">=", "<="]), rng.randint(1, 5)),))
            if rng.random() < 0.5:
                other = rng.sample(sorted(squares), n)
                alts.append(Alternative(tuple(zip(letters, other)), (MoveCount("B", "==", rng.randint(0, 4)),)))
        spec = KnightsSpec(w, h, frozenset(squares), knights_, tuple(alts), "random")
        try:
            return Knights(spec)
        except PuzzleError:
            continue
