"""Instance series of the knights family (``puzzleplan generate knights``).

- ``wide``: n labelled knights on an empty 8 x 8 board, each to a square two knight moves
  from its start: the optimum stays near 2n while the positions grow as 64^n.
- ``deep``: two labelled knights on an 8 x 8 board, each to a square d knight moves away:
  the optimum grows, the width (64 x 63 positions) does not.
- ``moves``: two knights that swap places on a 5 x 5 board, knight A making exactly m moves
  (a side condition that multiplies a search's states by the counter).
"""
from __future__ import annotations

import random

from ...series import Series

JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def distances(start, w: int, h: int) -> dict:
    """Knight distances from ``start`` on an empty w x h board."""
    dist, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for x, y in frontier:
            for dx, dy in JUMPS:
                sq = (x + dx, y + dy)
                if 0 <= sq[0] < w and 0 <= sq[1] < h and sq not in dist:
                    dist[sq] = dist[(x, y)] + 1
                    nxt.append(sq)
        frontier = nxt
    return dist


def text(w: int, h: int, start: dict, goal: dict, extra: str = "", name: str = "") -> str:
    at = {sq: lb for lb, sq in start.items()}
    rows = ["".join(at.get((x, y), ".") for x in range(w)) for y in reversed(range(h))]
    goal_line = " ".join(f"{lb}@{'abcdefghijklmnopqrstuvwxyz'[sq[0]]}{sq[1] + 1}" for lb, sq in goal.items())
    return (f"name: {name}\n" if name else "") + "board:\n" + "\n".join(rows) + f"\n\ngoal: {goal_line}{extra}\n"


def placed(rng: random.Random, n: int, d: int, w: int = 8, h: int = 8) -> tuple[dict, dict]:
    """n knights on distinct squares, each with a distinct target exactly d moves away."""
    if n > 26 or 2 * n > w * h:
        raise ValueError(f"{n} knights do not fit a {w} x {h} board")
    squares = [(x, y) for x in range(w) for y in range(h)]
    for _ in range(1000):
        starts = rng.sample(squares, n)
        goal = {}
        for i, s in enumerate(starts):
            far = sorted(sq for sq, k in distances(s, w, h).items() if k == d and sq not in goal.values())
            if not far:
                break
            goal[LETTERS[i]] = rng.choice(far)
        else:
            return {LETTERS[i]: s for i, s in enumerate(starts)}, goal
    raise ValueError(f"no placement of {n} knights {d} moves from their targets on {w} x {h}")


def wide(rng: random.Random, n: int) -> dict[str, str]:
    start, goal = placed(rng, n, 2)
    return {".knights": text(8, 8, start, goal, name=f"{n} knights, two moves each")}


def deep(rng: random.Random, d: int) -> dict[str, str]:
    start, goal = placed(rng, 2, d)
    return {".knights": text(8, 8, start, goal, name=f"two knights, {d} moves each")}


def moves(rng: random.Random, m: int) -> dict[str, str]:
    squares = [(x, y) for x in range(5) for y in range(5)]
    a = rng.choice(squares)      # b of a's colour: an even number of moves takes A there
    b = rng.choice([sq for sq in squares if sq != a and (sq[0] + sq[1] - a[0] - a[1]) % 2 == 0])
    return {".knights": text(5, 5, {"A": a, "B": b}, {"A": b, "B": a}, f" A.moves={m}",
                             name=f"two knights swap, A moves exactly {m} times")}


SERIES = {
    "wide": Series("wide", "n knights on 8 x 8, each two moves from its target", "n", tuple(range(1, 9)), wide,
                   limits=(1, len(LETTERS))),
    "deep": Series("deep", "two knights on 8 x 8, each d moves from its target", "d", tuple(range(1, 7)), deep,
                   regime="deep", limits=(0, 6)),     # no two squares of 8 x 8 are more than 6 moves apart
    "moves": Series("moves", "two knights swap on 5 x 5, knight A moving exactly m times", "m",
                    tuple(range(4, 21, 2)), moves, regime="conditions", limits=(0, 999)),
}
