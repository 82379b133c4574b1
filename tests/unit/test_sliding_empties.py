"""Boards with one or two empty cells: the sliding encoding states their number at every
step (``empty_cells``).  Every reachable state keeps it, so SAT's optimum is BFS's, in every
metric, on random scrambles of tight boards; a board with more empty cells goes without."""
import random

import pytest

import puzzleplan as pp
from puzzleplan.search import breadth_first_search

BOARDS = {
    # 8-puzzle, one empty cell
    "tiles": (["abc", "def", "gh."], ["abc", "def", "gh."]),
    # a 2 x 1 piece among 1 x 1 pieces, two empty cells
    "tall": (["Abc", "Ade", "fg.", "hi."], ["...", "...", ".A.", ".A."]),
    # four empty cells: not counted
    "roomy": (["AAb", "c..", "d..", "..e"], ["...", "...", ".AA", "..."]),
}


def scramble(rows, rng, moves):
    """``rows`` after ``moves`` random one-cell steps of its pieces (so it stays solvable)."""
    grid = [list(r) for r in rows]
    h, w = len(grid), len(grid[0])
    for _ in range(moves):
        empties = [(x, y) for y in range(h) for x in range(w) if grid[y][x] == "."]
        x, y = rng.choice(empties)
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        nx, ny = x + dx, y + dy
        if 0 <= nx < w and 0 <= ny < h and grid[ny][nx].islower():      # 1 x 1 pieces only
            grid[y][x], grid[ny][nx] = grid[ny][nx], "."
    return ["".join(r) for r in grid]


@pytest.mark.parametrize("metric", ["steps", "slides", "moves"])
def test_sat_equals_bfs_on_tight_boards(write, metric):
    rng = random.Random(f"empties-{metric}")
    checked = 0
    for i in range(6):
        for name, (rows, goal) in BOARDS.items():
            start = scramble(rows, rng, 12)
            text = "board:\n" + "\n".join(start) + "\n\ngoal:\n" + "\n".join(goal) + "\n"
            domain = pp.load(write(f"{name}{i}.slide", text)).problem
            want = breadth_first_search(domain, metric)
            got = pp.solve(domain, metric, time_limit=60)
            assert got.status.value == "optimal" and got.length == want.length, (name, i, start, got.status, got.length, want.length)
            counted = got.stats.get("empty_cells")
            assert counted == (None if name == "roomy" else 1 if name == "tiles" else 2), (name, counted)
            checked += 1
    assert checked == 18
