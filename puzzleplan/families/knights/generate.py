"""Random small instances of the knights family, for cross-checking SAT against search
(the conformance suite calls :func:`generate`).  Never invalid: it retries until the
rules accept the instance."""
from __future__ import annotations

import random

from ...puzzle import MoveCount, PuzzleError
from .rules import Alternative, Knights, KnightsSpec

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


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


def huge(rng: random.Random, side: int = 300) -> Knights:
    """Two knights on a full side x side board, to swap: for the limits conformance test."""
    a, b = rng.sample([(x, y) for x in range(side) for y in range(0, side, 7)], 2)
    spec = KnightsSpec(side, side, frozenset((x, y) for x in range(side) for y in range(side)),
                       (("A", a), ("B", b)), (Alternative((("A", b), ("B", a))),), "huge")
    return Knights(spec)


def generate(rng: random.Random, size: str = "small") -> Knights:
    """A few knights on a small board with holes, sometimes with counted goal alternatives
    (``size="huge"``: :func:`huge`)."""
    if size == "huge":
        return huge(rng)
    n = rng.choice([2, 4])
    return knights(rng, 3, 4, n=n, holes=2, counted=n == 2 and rng.random() < 0.3)   # counts name knight A
