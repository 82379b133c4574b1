"""The peg-solitaire format (``.peg``): a board picture and a goal.

::

    ; the English board, central game
    name: English 33
    board:
      ooo
      ooo
    ooooooo
    ooo.ooo
    ooooooo
      ooo
      ooo
    goal: one peg at d4

``board``: one character per cell: ``o`` a peg, ``.`` an empty hole, ``#`` or a blank
no hole (a row with no hole at all must be written with ``#``: a blank line ends the
picture); a capital letter ``A``-``Z`` is a *named* peg, one of its own, that side
conditions can name (``A.frozen``, ``A.moves>=2``, ``A.avoid=c3,d4``, ``A.ends=d4``).
Cells are named by column letter and row number, rows counted from the top of the
picture (``d4`` is the centre of the board above).

``goal``: ``one peg`` (anywhere), ``one peg at d4``, ``N pegs``, or a picture of the
board's holes: ``o`` a peg of any kind, a letter that named peg, ``.`` an empty hole.

``directions`` (optional): the lines pegs jump along: ``orthogonal`` (the default),
``diagonal`` (also both diagonals) or ``triangular`` (a triangular board drawn
left-aligned, row n holding n holes: its third line is the diagonal down-right).

``constraints:`` lines (any number) add side conditions, as in the other formats.
"""
from __future__ import annotations

import re

from .rules import DIRECTIONS, UNNAMED, Goal, PegSpec, name
from ...contract import Parsed
from ...cells import parse_cell
from ...formats.common import sections
from ...puzzle import PuzzleError

KNOWN = ("name", "board", "goal", "directions")
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _line_of(text: str, key: str) -> int | None:
    """The line of the first ``key:`` header."""
    return next((no for no, line in enumerate(text.splitlines(), 1)
                 if line.partition(":")[0].strip().lower() == key and ":" in line), None)


def _picture(rows: list[tuple[int, str]], what: str) -> tuple[int, int, dict]:
    """(width, height, {cell: character}) of the holes of a picture."""
    width = max(len(row) for _, row in rows)
    holes: dict = {}
    for y, (no, row) in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in " #":
                continue
            if ch != "." and ch != UNNAMED and not ("A" <= ch <= "Z"):
                raise PuzzleError(f"unknown character {ch!r} in the {what} (o peg, . empty hole, "
                                  "# or blank no hole, A-Z a named peg)", line=no)
            if ch not in ".o" and ch in holes.values():
                raise PuzzleError(f"peg {ch} appears twice in the {what}: a named peg is one peg", line=no)
            holes[(x, y)] = ch
    return width, len(rows), holes


def _goal_line(value: str, holes, line: int | None) -> Goal:
    words = value.lower().split()
    count = NUMBERS.get(words[0]) if words else None
    if count is None and words and re.fullmatch(r"[0-9]{1,4}", words[0]):
        count = int(words[0])
    if count is None or len(words) < 2 or words[1] not in ("peg", "pegs") or len(words) not in (2, 4) \
            or (len(words) == 4 and words[2] != "at"):
        raise PuzzleError(f"goal {value!r} is not 'one peg', 'one peg at d4', 'N pegs' or a picture", line=line)
    if len(words) == 2:
        return Goal(count)
    cells = set()
    for item in words[3].split(","):
        try:
            cell = parse_cell(item)
        except PuzzleError as err:
            raise PuzzleError(err.problem, line=line) from None
        if cell not in holes:
            raise PuzzleError(f"goal hole {name(cell)} is not a hole of the board", line=line)
        cells.add(cell)
    if len(cells) != count:
        raise PuzzleError(f"the goal puts {count} pegs on {len(cells)} holes", line=line)
    return Goal(count, frozenset(cells))


def _goal_picture(rows, holes) -> Goal:
    _, _, target = _picture(rows, "goal")
    if set(target) != set(holes):
        diff = sorted(set(target) ^ set(holes), key=lambda c: (c[1], c[0]))[0]
        raise PuzzleError(f"the goal picture must have the board's holes ({name(diff)} differs)",
                          line=rows[min(diff[1], len(rows) - 1)][0])
    named = tuple((ch, c) for c, ch in target.items() if ch not in ".o")
    for ch, _ in named:
        if ch not in holes.values():
            raise PuzzleError(f"the goal names peg {ch}, which is not on the board", line=rows[0][0])
    pegs = frozenset(c for c, ch in target.items() if ch != ".")
    return Goal(len(pegs), pegs, named)


def parse(text: str) -> PegSpec:
    found = sections(text)
    for key, _, _ in found:
        if key not in KNOWN:
            raise PuzzleError(f"unknown section {key!r} (known: {', '.join(KNOWN)}, constraints)",
                              line=_line_of(text, key))
    keys = [k for k, _, _ in found]
    for key in set(keys):
        if keys.count(key) > 1:
            raise PuzzleError(f"two '{key}:' sections", line=_line_of(text, key))
    given = {k: (v, rows) for k, v, rows in found}
    if "board" not in given:
        raise PuzzleError("no 'board:' section")
    board = given["board"][1]
    if not board:
        raise PuzzleError("the 'board:' section has no picture (draw it on the lines below 'board:')",
                          line=_line_of(text, "board"))
    width, height, holes = _picture(board, "board")
    pegs = tuple((c, ch) for c, ch in sorted(holes.items(), key=lambda kv: (kv[0][1], kv[0][0])) if ch != ".")
    if not pegs:
        raise PuzzleError("the board has no pegs", line=board[0][0])
    directions = given.get("directions", ("orthogonal", []))[0].lower()
    if directions not in DIRECTIONS:
        raise PuzzleError(f"unknown directions {directions!r}; choose from {', '.join(DIRECTIONS)}",
                          line=_line_of(text, "directions"))
    if "goal" not in given:
        raise PuzzleError("no goal: add 'goal: one peg', 'goal: one peg at d4' or a 'goal:' picture")
    value, rows = given["goal"]
    goal = _goal_picture(rows, holes) if rows else _goal_line(value, holes, _line_of(text, "goal"))
    if goal.count > len(pegs):
        raise PuzzleError(f"the goal asks for {goal.count} pegs; the board has {len(pegs)}",
                          line=_line_of(text, "goal"))
    order = tuple(sorted(holes, key=lambda c: (c[1], c[0])))
    return PegSpec(width, height, order, pegs, goal, directions, given.get("name", ("", []))[0])


def write(spec: PegSpec) -> str:
    """The text of a spec (``#`` for cells without a hole); ``parse(write(s)) == s``."""
    lines = [f"name: {spec.name}"] if spec.name else []
    if spec.directions != "orthogonal":
        lines.append(f"directions: {spec.directions}")
    lines += ["board:", *spec.rows(), ""]
    goal = spec.goal
    if goal.named or (goal.cells is not None and len(goal.cells) > 4):
        placed = {c: "o" for c in goal.cells or ()}
        placed.update({c: lb for lb, c in goal.named})
        lines += ["goal:", *spec.rows(placed)]
    else:
        words = {1: "one peg"}.get(goal.count, f"{goal.count} pegs")
        at = "" if goal.cells is None else " at " + ",".join(name(c) for c in sorted(goal.cells))
        lines.append(f"goal: {words}{at}")
    return "\n".join(lines) + "\n"


def read(text: str, level: int | None = None) -> Parsed:
    return Parsed(parse(text))
