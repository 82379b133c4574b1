"""Cell names, as users write them: a column letter and a row number (``c3``).

Every family names a cell ``(x, y)`` as ``chr(97 + x)`` followed by ``y + 1``; what y
counts is the family's own convention (rows from the top of the picture for boards
drawn as text, ranks from the bottom for chess squares).
"""
from __future__ import annotations

import re

from .puzzle import PuzzleError

Cell = tuple[int, int]


def cell_name(c: Cell) -> str:
    """``(1, 0)`` -> ``b1``."""
    return f"{chr(97 + c[0])}{c[1] + 1}"


def parse_cell(text: str) -> Cell:
    """``b1`` -> ``(1, 0)``.  ASCII only: ``str.isdigit`` would take ``²``, which ``int`` refuses;
    at most 6 digits, so a huge rank is an error here, not in ``int``."""
    text = text.strip().lower()
    if not re.fullmatch(r"[a-z][0-9]{1,6}", text) or int(text[1:]) < 1:
        raise PuzzleError(f"{text!r} is not a square in algebraic notation (like b1)")
    return (ord(text[0]) - 97, int(text[1:]) - 1)
