"""The knights format (``.knights``): a board picture and goals in algebraic notation.

::

    ; Guarini's problem
    name: Guarini
    board:
    W.W
    ...
    B.B
    target:
    B.B
    ...
    W.W

``board``: ranks from the top (the last row is rank 1), files from ``a``; ``.`` an
allowed empty square, ``#`` no square, a letter a knight (same letter =
interchangeable knights).  The goal is either a ``target:`` picture (every knight
in place) or one or more ``goal:`` lines, each an alternative::

    goal: B@d8 G@g1 B.moves=8
    goal: B@g1 G@d8 G.moves=8

``X@sq`` puts a knight X on ``sq``; ``X.moves=8`` (also ``>=``, ``<=``) asks how
many moves knight X made.
"""
from __future__ import annotations

from .rules import Alternative, KnightsSpec, square
from ...contract import Parsed
from ...puzzle import MoveCount, PuzzleError
from ...formats.common import sections


def _picture(rows, what):
    width = len(rows[0][1])
    squares, knights = set(), []
    for r, (no, row) in enumerate(rows):
        if len(row) != width:
            raise PuzzleError(f"{what} row has {len(row)} squares, expected {width}", line=no)
        y = len(rows) - 1 - r
        for x, ch in enumerate(row):
            if ch == "#":
                continue
            if ch != "." and not (ch.isascii() and ch.isalpha()):
                raise PuzzleError(f"unknown character {ch!r} in the {what}", line=no)
            squares.add((x, y))
            if ch != ".":
                knights.append((ch, (x, y)))
    return width, len(rows), squares, knights


def parse(text: str) -> KnightsSpec:
    found = sections(text, once=("name", "board", "labelled"))
    names = [k for k, _, _ in found]
    for key in names:
        if key not in ("name", "board", "target", "goal", "labelled"):
            raise PuzzleError(f"unknown section {key!r} (known: name, board, target, goal, labelled)")
    if "board" not in names:
        raise PuzzleError("no 'board:' section")
    board = next(rows for k, _, rows in found if k == "board")
    if not board:
        raise PuzzleError("the 'board:' section has no picture")
    width, height, squares, knights = _picture(board, "board")
    if not knights:
        raise PuzzleError("the board has no knights", line=board[0][0])
    goals = []
    for key, value, rows in found:
        if key == "target":
            if not rows:
                raise PuzzleError("the 'target:' section has no picture")
            w, h, sq2, placed = _picture(rows, "target")
            if (w, h, sq2) != (width, height, squares):
                raise PuzzleError("the target picture must have the board's squares", line=rows[0][0])
            if sorted(lb for lb, _ in placed) != sorted(lb for lb, _ in knights):
                raise PuzzleError("the target picture must place every knight of the board, no more "
                                  "(for a partial goal use 'goal:' lines)", line=rows[0][0])
            goals.append(Alternative(tuple(placed)))
        elif key == "goal":
            goals.append(_goal_line(value, text, {lb for lb, _ in knights}))
    if not goals:
        raise PuzzleError("no goal: add a 'target:' picture or 'goal:' lines")
    title = next((v for k, v, _ in found if k == "name"), "")
    return KnightsSpec(width, height, frozenset(squares), tuple(knights), tuple(goals), title)


def _goal_line(value: str, text: str, letters: set[str]) -> Alternative:
    """One ``goal:`` line; ``letters`` are the board's knights, which it may name."""
    line = next((no for no, ln in enumerate(text.splitlines(), 1)
                 if ln.lower().startswith("goal") and value in ln), None)
    placements, counts = [], []
    try:
        for item in value.split():
            if "@" in item:
                letter, _, sq = item.partition("@")
                if len(letter) != 1 or not (letter.isascii() and letter.isalpha()):
                    raise PuzzleError(f"{item!r}: a knight is one letter")
                if letter not in letters:
                    raise PuzzleError(f"goal names knight {letter!r}, which is not on the board")
                placements.append((letter, square(sq)))
            else:
                counts.append(MoveCount.parse(item))
                for piece in counts[-1].pieces:
                    if piece not in letters:
                        raise PuzzleError(f"goal counts moves of {piece!r}, which is not on the board")
    except PuzzleError as err:
        raise PuzzleError(err.problem, line=line) from None
    if not placements and not counts:
        raise PuzzleError("an empty goal line", line=line)
    return Alternative(tuple(placements), tuple(counts))


def write(spec: KnightsSpec) -> str:
    from .rules import name as sqname
    lines = ([f"name: {spec.name}"] if spec.name else []) + ["board:", *spec.rows(), ""]
    for alt in spec.goals:
        lines.append("goal: " + " ".join([f"{lb}@{sqname(sq)}" for lb, sq in alt.placements]
                                         + [str(c) for c in alt.counts]))
    return "\n".join(lines) + "\n"


def read(text: str, level: int | None = None) -> Parsed:
    return Parsed(parse(text))
