"""Rush Hour boards: 36 characters, row-major, 6x6 (the format of Fogleman's database).

``o`` or ``.`` empty, ``x`` wall, ``A`` the red car (horizontal, on the third row,
leaving through the right edge), ``B``... the other cars; each car is a straight
line of 2 or 3 cells and moves only along its length.  A file holds one puzzle a
line, either the bare board or a database row ``moves board cluster``; ``;`` or
``#`` start comments.  The goal is the red car at the right edge of its row.
"""
from __future__ import annotations

from .rules import SlidingSpec
from ...contract import Parsed
from ...puzzle import PuzzleError
from ...formats.common import number, pick_level

SIZE = 6


def parse_board(board: str, name: str = "", line: int | None = None) -> SlidingSpec:
    if len(board) != SIZE * SIZE:
        raise PuzzleError(f"a Rush Hour board has 36 characters, this one {len(board)}", line=line)
    pieces: dict[str, set] = {}
    walls = set()
    for i, ch in enumerate(board):
        cell = (i % SIZE, i // SIZE)
        if ch in "o.":
            continue
        if ch == "x":
            walls.add(cell)
        elif "A" <= ch <= "Z":       # ASCII capitals only
            pieces.setdefault(ch, set()).add(cell)
        else:
            raise PuzzleError(f"unknown character {ch!r} at position {i + 1}", line=line)
    if "A" not in pieces:
        raise PuzzleError("no red car 'A'", line=line)
    axes = {}
    for label, cells in pieces.items():
        xs, ys = {x for x, _ in cells}, {y for _, y in cells}
        if len(cells) < 2 or len(cells) > 3:
            raise PuzzleError(f"car {label} has {len(cells)} cells; cars are 2 or 3 long", line=line)
        if len(ys) == 1 and max(xs) - min(xs) == len(cells) - 1:
            axes[label] = "h"
        elif len(xs) == 1 and max(ys) - min(ys) == len(cells) - 1:
            axes[label] = "v"
        else:
            raise PuzzleError(f"car {label} is off its axis: its cells are not one straight line", line=line)
    red = pieces["A"]
    if axes["A"] != "h" or {y for _, y in red} != {2}:
        raise PuzzleError("the red car A must be horizontal on the third row", line=line)
    goal_cells = frozenset((SIZE - len(red) + k, 2) for k in range(len(red)))
    order = sorted(pieces, key=lambda lb: (lb != "A", lb))
    return SlidingSpec(SIZE, SIZE, frozenset(walls), {lb: frozenset(pieces[lb]) for lb in order},
                       axes, (("A", goal_cells),), name, exit_side="right")


def parse(text: str, level: int | None = None) -> tuple[SlidingSpec, int | None]:
    """Return the chosen puzzle (1-based ``level``, default 1) and its stated optimum."""
    index, (no, board, optimum) = pick_level(split_entries(text), level)
    return parse_board(board, f"level {index}", line=no), optimum


def split_entries(text: str) -> list[tuple[int, str, int | None]]:
    """``(line number, board, stated optimum)`` for each puzzle of the file."""
    entries = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in ";#":
            continue
        fields = line.split()
        if len(fields) == 1:
            entries.append((no, fields[0], None))
        elif len(fields) == 3 and number(fields[0]) is not None:
            entries.append((no, fields[1], number(fields[0])))
        else:
            raise PuzzleError("expected a 36-character board or a row 'moves board cluster'", line=no)
    if not entries:
        raise PuzzleError("no Rush Hour board in the file")
    return entries


def write_board(spec: SlidingSpec, placement=None) -> str:
    return "".join(spec.rows(placement)).replace(".", "o").replace("#", "x")


def read(text: str, level: int | None = None) -> Parsed:
    spec, optimum = parse(text, level)
    return Parsed(spec, optimum)


def levels(text: str) -> int:
    return len(split_entries(text))
