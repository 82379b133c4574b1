"""The ``.line`` format::

    name: swap
    board: A.B#.
    goal:  ..B#A       (optional letters only where a token must end)

``.`` an empty cell, ``#`` a blocked cell, a letter a token.  Lines starting with ``;``
are comments; ``constraints:`` lines (``A.frozen``, ``B.moves<=3``) are read by the loader.
"""
from __future__ import annotations

from puzzleplan.puzzle import PuzzleError
from puzzleplan.contract import Parsed
from .rules import LineSpec


def read(text: str, level: int | None = None) -> Parsed:
    found: dict[str, tuple[int, str]] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in ("name", "board", "goal"):
            raise PuzzleError(f"expected 'name:', 'board:' or 'goal:', not {line[:40]!r}", line=no)
        if key in found:
            raise PuzzleError(f"a second '{key}:' line", line=no)
        found[key] = (no, value.strip())
    if "board" not in found or "goal" not in found:
        raise PuzzleError("a line file needs a 'board:' and a 'goal:' line")
    (bline, board), (gline, goal) = found["board"], found["goal"]
    if len(goal) != len(board):
        raise PuzzleError(f"the goal has {len(goal)} cells, the board {len(board)}", line=gline)
    for no, row in ((bline, board), (gline, goal)):
        bad = [c for c in row if not (c in ".#" or c.isascii() and c.isalpha())]
        if bad:
            raise PuzzleError(f"unknown character {bad[0]!r} (use . # or a letter)", line=no)
    start = tuple((c, x) for x, c in enumerate(board) if c.isalpha())
    letters = [c for c, _ in start]
    if len(set(letters)) != len(letters):
        raise PuzzleError("a token letter stands twice on the board", line=bline)
    want = tuple((c, x) for x, c in enumerate(goal) if c.isalpha())
    for c, x in want:
        if c not in letters:
            raise PuzzleError(f"the goal names token {c!r}, which is not on the board", line=gline)
        if board[x] == "#" or goal.count(c) > 1:
            raise PuzzleError(f"the goal puts token {c!r} on a blocked cell or twice", line=gline)
    blocked = frozenset(x for x, c in enumerate(board) if c == "#")
    if {x for x, c in enumerate(goal) if c == "#"} != blocked:
        raise PuzzleError("the goal's blocked cells differ from the board's", line=gline)
    return Parsed(LineSpec(len(board), blocked, start, want, found.get("name", (0, ""))[1]))


def write(spec: LineSpec) -> str:
    goal = spec.row(dict(spec.goal))
    return f"name: {spec.name}\nboard: {spec.row(dict(spec.start))}\ngoal: {goal}\n"
