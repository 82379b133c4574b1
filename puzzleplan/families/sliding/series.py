"""Instance series of the sliding family (``puzzleplan generate sliding``).

- ``crowd``: n distinct 1 x 1 pieces on a 6 x 6 board, pieces A, B and C each to a cell three
  steps from where it starts (the others anywhere): the optimum stays near 9 while the
  positions grow with n, and so does the crowd in the way.
- ``each``: 17 distinct 1 x 1 pieces on a 5 x 5 board, A to end where it starts, and k other
  pieces to move at least once each (``constraints:`` lines): each condition doubles a
  search's states (a counter per piece), a SAT encoding gains one clause.
- ``busy``: the crowd of 15 pieces on 6 x 6 (A, B, C three steps each) and k others that
  must each move at least once: the optimum grows with k (about 9 + k), and so do a
  search's states (a counter per piece) while its bound, the larger of the distances and
  the moves owed, counts only one of the two.
- ``dense``: the same with 27 pieces (nine empty cells): the pieces in the way make the
  plans longer than the distances say, where search's bound is weak and a search's states
  gain a counter per owed piece.  No method proves its first point within minutes (SAT and
  LM-cut each ran out of 240 s on k=0): a series of the regime nobody wins yet.
- ``together``: n distinct 1 x 1 pieces on a 6 x 6 board, each to a cell three steps from
  where it starts, counted in ``makespan`` (time steps in which pieces move at once): the
  optimum stays near 3-5 while a time step's choices grow as 2^n (every set of the pieces
  free to move), where a SAT encoding's variables grow as n.
- ``fifteen``: the 15-puzzle, the blank walked d random steps from the goal (never straight
  back): the optimum grows with d, the board stays 4 x 4 (walks of 40 to 80 steps gave optima
  of 24 to 50: benchmarks/pdb).
"""
from __future__ import annotations

import random

from ...series import Series

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def text(w: int, h: int, pieces: dict, goal: dict, name: str, constraints: list[str] = ()) -> str:
    board = [["." for _ in range(w)] for _ in range(h)]
    for lb, (x, y) in pieces.items():
        board[y][x] = lb
    target = [["." for _ in range(w)] for _ in range(h)]
    for lb, (x, y) in goal.items():
        target[y][x] = lb
    lines = [f"name: {name}", "board:", *map("".join, board), "", "goal:", *map("".join, target)]
    if constraints:
        lines += ["", "constraints: " + " ".join(constraints)]
    return "\n".join(lines) + "\n"


def crowded(rng: random.Random, n: int, w: int = 6, h: int = 6) -> tuple[dict, dict]:
    """n distinct pieces on w x h, and a goal for A, B and C each three steps from its start."""
    cells = [(x, y) for x in range(w) for y in range(h)]
    at = dict(zip(LABELS, rng.sample(cells, n)))
    goal = {}
    for lb in "ABC":
        x0, y0 = at[lb]
        far = [c for c in cells if abs(c[0] - x0) + abs(c[1] - y0) == 3 and c not in goal.values()]
        goal[lb] = rng.choice(far)
    return at, goal


def crowd(rng: random.Random, n: int) -> dict[str, str]:
    w = h = 6
    if not 3 <= n < w * h:
        raise ValueError(f"give from 3 to {w * h - 1} pieces on {w} x {h}")
    at, goal = crowded(rng, n, w, h)
    return {".slide": text(w, h, at, goal, f"{n} pieces, A B C three steps each")}


def busy(rng: random.Random, k: int, n: int = 15) -> dict[str, str]:
    w = h = 6
    if not 0 <= k <= n - 3:
        raise ValueError(f"give from 0 to {n - 3} pieces")
    at, goal = crowded(rng, n, w, h)
    movers = rng.sample(LABELS[3:n], k)
    return {".slide": text(w, h, at, goal, f"{n} pieces, A B C three steps each, {k} others must move",
                           [f"{lb}.moves>=1" for lb in sorted(movers)])}


def dense(rng: random.Random, k: int) -> dict[str, str]:
    return busy(rng, k, 27)


def each(rng: random.Random, k: int) -> dict[str, str]:
    w = h = 5
    n = 17
    if not 0 <= k < n:
        raise ValueError(f"give from 0 to {n - 1} pieces")
    cells = [(x, y) for x in range(w) for y in range(h)]
    at = dict(zip(LABELS, rng.sample(cells, n)))
    movers = rng.sample(LABELS[1:n], k)
    return {".slide": text(w, h, at, {"A": at["A"]}, f"{k} pieces must move, A ends where it starts",
                           [f"{lb}.moves>=1" for lb in sorted(movers)])}


def together(rng: random.Random, n: int, w: int = 6, h: int = 6) -> dict[str, str]:
    """n distinct pieces on w x h, each to its own cell three steps from where it starts."""
    if not 1 <= n <= 20:
        raise ValueError("give from 1 to 20 pieces")
    cells = [(x, y) for x in range(w) for y in range(h)]
    while True:
        at = dict(zip(LABELS, rng.sample(cells, n)))
        goal: dict = {}
        for lb, (x0, y0) in at.items():
            far = [c for c in cells if abs(c[0] - x0) + abs(c[1] - y0) == 3 and c not in goal.values()]
            if not far:
                break
            goal[lb] = rng.choice(far)
        if len(goal) == n:
            return {".slide": text(w, h, at, goal, f"{n} pieces, each three steps from its goal, in makespan")}


def fifteen(rng: random.Random, walk: int, w: int = 4, h: int = 4) -> dict[str, str]:
    """The w x h tile puzzle ``walk`` random blank steps from its goal (no step undoes the last)."""
    if not 0 <= walk <= 999:
        raise ValueError("give a walk of 0 to 999 steps")
    goal = {LABELS[i]: (i % w, i // w) for i in range(w * h - 1)}
    at = dict(goal)
    where = {c: lb for lb, c in at.items()}
    blank, back = (w - 1, h - 1), None
    for _ in range(walk):
        options = [(blank[0] + dx, blank[1] + dy) for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0))]
        options = [c for c in options if 0 <= c[0] < w and 0 <= c[1] < h and c != back]
        cell = rng.choice(options)
        lb = where.pop(cell)
        at[lb], where[blank] = blank, lb
        back, blank = blank, cell
    return {".slide": text(w, h, at, goal, f"the 15-puzzle, {walk} random blank steps from the goal")}


SERIES = {
    "crowd": Series("crowd", "n pieces on 6 x 6, A B C three steps each", "n", tuple(range(3, 34, 3)), crowd,
                    limits=(3, 35)),
    "each": Series("each", "17 pieces on 5 x 5, k of them must move at least once", "k", tuple(range(0, 11)), each,
                   regime="conditions", limits=(0, 16)),
    "dense": Series("dense", "27 pieces on 6 x 6, A B C three steps each, k others must move at least once", "k",
                    tuple(range(0, 9)), dense, regime="conditions", reference=None, limits=(0, 24)),
    "busy": Series("busy", "15 pieces on 6 x 6, A B C three steps each, k others must move at least once", "k",
                   tuple(range(0, 13)), busy, regime="conditions", limits=(0, 12)),
    "together": Series("together", "n pieces on 6 x 6, each three steps from its goal, in makespan", "n",
                       tuple(range(1, 13)), together, limits=(1, 20), metric="makespan"),
    "fifteen": Series("fifteen", "the 15-puzzle, the blank walked d random steps from the goal", "d",
                      (10, 15) + tuple(range(20, 101, 10)), fifteen, regime="deep", limits=(0, 999)),
}
