"""Random small instances of the Sokoban family, for cross-checking SAT against search
(the conformance suite calls :func:`generate`).  Never invalid: it retries until the
rules accept the instance."""
from __future__ import annotations

import random

from ...puzzle import PuzzleError
from .rules import Sokoban, SokobanLevel


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


def huge(rng: random.Random, side: int = 300) -> Sokoban:
    """An open side x side floor with three boxes away from its edges: for the limits
    conformance test."""
    picks = rng.sample([(x, y) for x in range(2, side - 2, 3) for y in range(2, side - 2, 3)], 7)
    level = SokobanLevel(frozenset({(0, 0), (side - 1, side - 1)}), frozenset(picks[3:6]), frozenset(picks[:3]),
                         picks[6], "huge")
    return Sokoban(level, margin=1)


def generate(rng: random.Random, size: str = "small") -> Sokoban:
    """A small room, closed by walls or open, with one or two boxes (``size="huge"``: :func:`huge`)."""
    if size == "huge":
        return huge(rng)
    return sokoban(rng, 4, 3, boxes=rng.choice([1, 2]), closed=rng.random() < 0.7)
