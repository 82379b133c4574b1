"""The plain-text sliding-block format (``.slide``).

::

    ; comment
    name: Klotski
    board:
    aAAb
    aAAb
    cBBd
    cefd
    g..h
    goal:
    ....
    ....
    ....
    .AA.
    .AA.
    axes: A=hv B=h

``board``: one character per cell; ``.`` empty, ``#`` wall, any other letter or
digit is a piece (all cells bearing it; they must be 4-connected).  ``goal``: a
picture of the same size; a letter says that a piece of that letter's kind must
cover exactly those cells (``.`` and ``#`` mean "anything").  A full target picture
(15-puzzle style) names every piece.  ``axes`` (optional): ``h`` or ``v`` restricts
a piece to one axis; the default is ``hv``.  Pieces of equal shape and axes are
interchangeable unless the goal names them.
"""
from __future__ import annotations

from .rules import Cell, SlidingSpec
from ...contract import Parsed
from ...puzzle import PuzzleError
from ...formats.common import sections

PIECE_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def picture(rows: list[tuple[int, str]], what: str, width: int | None = None) -> dict[str, set[Cell]]:
    """Cells of each character in a picture block; walls under ``'#'``."""
    if not rows:
        raise PuzzleError(f"the {what} picture is empty")
    width = width or len(rows[0][1])
    cells: dict[str, set[Cell]] = {}
    for y, (no, row) in enumerate(rows):
        if len(row) != width:
            raise PuzzleError(f"{what} row has {len(row)} cells, expected {width}", line=no)
        for x, ch in enumerate(row):
            if ch == ".":
                continue
            if ch != "#" and ch not in PIECE_CHARS:
                raise PuzzleError(f"unknown character {ch!r} in the {what}", line=no)
            cells.setdefault(ch, set()).add((x, y))
    return cells


def connected(cells: set[Cell]) -> bool:
    todo, seen = [next(iter(cells))], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo += [n for n in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)) if n in cells]
    return seen == cells


def spec_from_pictures(name, board_rows, goal_rows, axes_text="", axes_line=None, exit_side=None) -> SlidingSpec:
    cells = picture(board_rows, "board")
    width, height = len(board_rows[0][1]), len(board_rows)
    walls = frozenset(cells.pop("#", set()))
    if not cells:
        raise PuzzleError("the board has no pieces", line=board_rows[0][0])
    for label, cs in cells.items():
        if not connected(cs):
            line = board_rows[min(y for _, y in cs)][0]
            raise PuzzleError(f"piece {label!r} is not connected", line=line)
    pieces = {label: frozenset(cs) for label, cs in sorted(cells.items(), key=lambda kv: min((y, x) for x, y in kv[1]))}
    axes = {label: "hv" for label in pieces}
    for item in axes_text.split():
        label, sep, ax = item.partition("=")
        if not sep or ax not in ("h", "v", "hv"):
            raise PuzzleError(f"axes entry {item!r} must look like A=h, A=v or A=hv", line=axes_line)
        if label not in pieces:
            raise PuzzleError(f"axes entry names unknown piece {label!r}", line=axes_line)
        axes[label] = ax
    goal = []
    if goal_rows is not None:
        if len(goal_rows) != height:
            raise PuzzleError(f"goal has {len(goal_rows)} rows, the board {height}", line=goal_rows[0][0])
        for label, cs in picture(goal_rows, "goal", width).items():
            if label == "#":
                continue
            if label not in pieces:
                raise PuzzleError(f"goal names piece {label!r}, which is not on the board", line=goal_rows[0][0])
            goal.append((label, frozenset(cs)))
    if not goal:
        raise PuzzleError("no goal: add a 'goal:' picture naming at least one piece")
    return SlidingSpec(width, height, walls, pieces, axes, tuple(goal), name, exit_side)


def parse(text: str) -> SlidingSpec:
    found = {key: (value, rows) for key, value, rows in sections(text, once=("name", "board", "goal", "axes"))}
    for key in found:
        if key not in ("name", "board", "goal", "axes"):
            raise PuzzleError(f"unknown section {key!r} (known: name, board, goal, axes)")
    if "board" not in found:
        raise PuzzleError("no 'board:' section")
    axes_text = found.get("axes", ("", []))[0]
    axes_line = next((no for no, line in enumerate(text.splitlines(), 1) if line.lower().startswith("axes")), None)
    goal = found["goal"][1] if "goal" in found else None
    if goal is not None and not goal:
        raise PuzzleError("the 'goal:' section has no picture")
    return spec_from_pictures(found.get("name", ("", []))[0], found["board"][1], goal, axes_text, axes_line)


def write(spec: SlidingSpec) -> str:
    lines = [f"name: {spec.name}"] if spec.name else []
    lines += ["board:", *spec.rows(), "", "goal:"]
    grid = [["." for _ in range(spec.width)] for _ in range(spec.height)]
    for label, cells in spec.goal:
        for x, y in cells:
            grid[y][x] = label
    lines += ["".join(r) for r in grid]
    restricted = [f"{lb}={ax}" for lb, ax in spec.axes.items() if ax != "hv"]
    if restricted:
        lines += ["", "axes: " + " ".join(restricted)]
    return "\n".join(lines) + "\n"


def read(text: str, level: int | None = None) -> Parsed:
    return Parsed(parse(text))
