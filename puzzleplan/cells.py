"""Cell names, as users write them: a column letter and a row number (``c3``).

Every family names a cell ``(x, y)`` as ``chr(97 + x)`` followed by ``y + 1``; what y
counts is the family's own convention (rows from the top of the picture for boards
drawn as text, ranks from the bottom for chess squares).
"""
from __future__ import annotations

import re

from .puzzle import PuzzleError, cell_name, column_name  # noqa: F401 (the names live below the cells)

Cell = tuple[int, int]


def parse_cell(text: str) -> Cell:
    """``b1`` -> ``(1, 0)``, ``aa1`` -> ``(26, 0)``.  ASCII only: ``str.isdigit`` would take
    ``²``, which ``int`` refuses; at most 4 letters and 6 digits, so a huge name is an error
    here, not in ``int``."""
    text = text.strip().lower()
    m = re.fullmatch(r"([a-z]{1,4})([0-9]{1,6})", text)
    if not m or int(m.group(2)) < 1:
        raise PuzzleError(f"{text!r} is not a square in algebraic notation (like b1)")
    x = 0
    for ch in m.group(1):
        x = 26 * x + ord(ch) - 96
    return (x - 1, int(m.group(2)) - 1)
