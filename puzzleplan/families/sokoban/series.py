"""Instance series of the Sokoban family (``puzzleplan generate sokoban``).

- ``boxes``: k boxes in a closed 8 x 8 room, each one push from its storage cell, the player
  anywhere: the optimum grows slowly with k (a push and a walk per box), the positions as
  the room's cells to the power k.
"""
from __future__ import annotations

import random

from ...puzzle import PuzzleError
from ...series import Series
from .rules import Sokoban, SokobanLevel
from .xsb import write

SIDE = 8
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def boxes(rng: random.Random, k: int) -> dict[str, str]:
    inner = [(x, y) for x in range(1, SIDE + 1) for y in range(1, SIDE + 1)]
    walls = frozenset((x, y) for x in range(SIDE + 2) for y in range(SIDE + 2) if x in (0, SIDE + 1) or y in (0, SIDE + 1))
    if 3 * k + 1 > len(inner):
        raise ValueError(f"{k} boxes do not fit a {SIDE} x {SIDE} room")
    for _ in range(1000):
        used, placed, ok = set(), [], True
        for _ in range(k):
            options = [(c, d) for c in inner for d in DIRS
                       if {c, (c[0] + d[0], c[1] + d[1]), (c[0] - d[0], c[1] - d[1])} <= set(inner) - used]
            if not options:
                ok = False
                break
            c, d = rng.choice(options)
            goal, stand = (c[0] + d[0], c[1] + d[1]), (c[0] - d[0], c[1] - d[1])
            used |= {c, goal, stand}
            placed.append((c, goal))
        if not ok:
            continue
        player = rng.choice(sorted(set(inner) - {c for c, _ in placed}))
        level = SokobanLevel(walls, frozenset(g for _, g in placed), frozenset(c for c, _ in placed), player,
                             f"{k} boxes, each one push from storage")
        try:
            Sokoban(level, margin=1)
        except PuzzleError:
            continue
        return {".xsb": write(level)}
    raise ValueError(f"no room with {k} boxes one push from storage")


SERIES = {
    "boxes": Series("boxes", "k boxes in a closed 8 x 8 room, each one push from storage", "k",
                    tuple(range(1, 11)), boxes, limits=(1, 20)),     # 21 would need the room tiled exactly
}
