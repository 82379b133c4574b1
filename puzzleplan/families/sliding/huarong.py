"""Huarong Dao boards: 20 characters, row-major, 4 wide and 5 high.

``A`` the 2x2 block, ``B``-``G`` horizontal 2x1, ``H``-``M`` vertical 1x2, ``N``...
1x1, ``@`` empty (``.`` is accepted too).  The goal: ``A`` at the bottom centre.  A
file holds one board a line, or the project's TSV with a ``board_4x5_rowmajor``
column.  Each letter is a piece; pieces of equal shape are interchangeable.
"""
from __future__ import annotations

from .rules import SlidingSpec
from ...contract import Parsed
from ...puzzle import PuzzleError
from ...formats.common import number, pick_level
from .slide import spec_from_pictures

GOAL = ["....", "....", "....", ".AA.", ".AA."]


def parse_board(board: str, name: str = "", line: int | None = None) -> SlidingSpec:
    if len(board) != 20:
        raise PuzzleError(f"a Huarong Dao board has 20 characters, this one {len(board)}", line=line)
    if board.count("A") != 4:
        raise PuzzleError("the board needs the 2x2 block 'A' (4 cells)", line=line)
    if sum(ch in "@." for ch in board) != 2:
        raise PuzzleError("a Huarong Dao board has exactly 2 empty cells", line=line)
    text = board.replace("@", ".")
    rows = [(line or 0, text[r * 4:(r + 1) * 4]) for r in range(5)]
    try:
        return spec_from_pictures(name, rows, [(line or 0, g) for g in GOAL])
    except PuzzleError as err:
        raise PuzzleError(err.problem, line=line) from None


def parse(text: str, level: int | None = None) -> tuple[SlidingSpec, int | None]:
    index, (no, board, optimum) = pick_level(split_entries(text), level)
    return parse_board(board, f"level {index}", line=no), optimum


def split_entries(text: str) -> list[tuple[int, str, int | None]]:
    """``(line number, board, stated optimum)`` for each layout of the file."""
    entries = []
    lines = text.splitlines()
    header = lines[0].split("\t") if lines and "\t" in lines[0] else None
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line[0] in ";#" or (header and no == 1):
            continue
        if header:
            row = dict(zip(header, raw.split("\t")))
            opt = row.get("min_piece_moves", "")
            entries.append((no, row.get("board_4x5_rowmajor", ""), number(opt)))
        else:
            entries.append((no, line, None))
    if not entries:
        raise PuzzleError("no Huarong Dao board in the file")
    return entries


def read(text: str, level: int | None = None) -> Parsed:
    spec, optimum = parse(text, level)
    return Parsed(spec, optimum)


def levels(text: str) -> int:
    return len(split_entries(text))
