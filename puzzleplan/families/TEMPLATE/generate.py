"""Random small lines, for the conformance suite."""
from __future__ import annotations

import random

from .rules import Line, LineSpec


def generate(rng: random.Random, size: str = "small") -> Line:
    """A short line with a few tokens; ``size="huge"``: 10^5 cells (the limits test)."""
    if size == "huge":
        width = 100_000
        start = (("A", 0), ("B", width // 2))
        return Line(LineSpec(width, frozenset(), start, (("A", width - 1), ("B", 1)), "huge"))
    width = rng.randint(3, 6)
    blocked = frozenset(rng.sample(range(width), rng.randint(0, 1)))
    free = [x for x in range(width) if x not in blocked]
    n = rng.randint(1, min(3, len(free) - 1))
    letters = "ABC"[:n]
    start = tuple(zip(letters, sorted(rng.sample(free, n))))
    goal = tuple(zip(letters, rng.sample(free, n)))
    return Line(LineSpec(width, blocked, start, goal, "random"))
