"""Random small instances of the sliding-block family, for cross-checking SAT against search
(the conformance suite calls :func:`generate`).  Never invalid: it retries until the
rules accept the instance."""
from __future__ import annotations

import random

from ...puzzle import PuzzleError
from .rules import SlidingPuzzle, SlidingSpec, normalise

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


def huge(rng: random.Random, side: int = 300) -> SlidingPuzzle:
    """A side x side board with a domino per letter, each on a row of its own, and a few walls:
    for the limits conformance test (setting it up must keep to a time limit)."""
    rows = rng.sample(range(0, side, 2), len(LABELS))
    placed = {lb: frozenset({(x, y), (x + 1, y)}) for lb, y in zip(LABELS, rows) for x in [rng.randrange(side - 1)]}
    taken = set().union(*placed.values())
    walls = frozenset(c for c in ((rng.randrange(side), rng.randrange(side)) for _ in range(side)) if c not in taken)
    gx, gy = rng.randrange(side - 1), rng.choice([y for y in range(1, side, 2)])
    goal = (("A", frozenset({(gx, gy), (gx + 1, gy)}) - walls),)
    spec = SlidingSpec(side, side, walls - goal[0][1], placed, {lb: "hv" for lb in placed},
                       (("A", frozenset({(gx, gy), (gx + 1, gy)})),), "huge")
    return SlidingPuzzle(spec)


def generate(rng: random.Random, size: str = "small") -> SlidingPuzzle:
    """A small board: mixed polyominoes and walls, or straight cars on their axes
    (``size="huge"``: :func:`huge`)."""
    if size == "huge":
        return huge(rng)
    return sliding(rng, rush=rng.random() < 0.3) if rng.random() < 0.8 else sliding(rng, 4, 4, 3, 1)
