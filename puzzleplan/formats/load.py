"""Open any supported puzzle file and build its domain.

Formats by extension: ``.slide`` sliding blocks, ``.rh`` Rush Hour, ``.hrd`` and
Huarong Dao TSV, ``.xsb``/``.sok``/``.txt`` Sokoban collections, ``.knights``.
A trailing ``.gz`` is allowed.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..constraints import Counted
from ..domains.knights import Knights, square
from ..domains.sliding import SlidingPuzzle
from ..domains.sokoban import Sokoban
from ..puzzle import MoveCount, PuzzleError
from . import huarong, knights, rushhour, slide, xsb
from .common import read_text

KINDS = {".slide": "slide", ".rh": "rushhour", ".hrd": "huarong", ".xsb": "sokoban",
         ".sok": "sokoban", ".txt": "sokoban", ".knights": "knights", ".tsv": "huarong"}


@dataclass
class Instance:
    path: str
    format: str
    domain: Any            # the rules, possibly wrapped with move counters
    spec: Any              # what the file said
    level: int | None
    stated_optimum: int | None = None   # an optimum the file itself states (its metric: see format)


def file_format(path: str | Path) -> str:
    p = Path(path)
    suffix = p.suffixes[-2] if p.suffix == ".gz" and len(p.suffixes) > 1 else p.suffix
    if suffix.lower() not in KINDS:
        raise PuzzleError("unknown file type; use .slide, .rh, .hrd, .xsb/.sok/.txt or .knights", str(path))
    return KINDS[suffix.lower()]


def split_constraints(text: str) -> tuple[str, list[str]]:
    """Take ``constraints:`` lines out of a .slide / .knights text."""
    items, kept = [], []
    for line in text.splitlines():
        if line.lower().startswith("constraints:"):
            items += line.partition(":")[2].split()
            kept.append("; " + line)
        else:
            kept.append(line)
    return "\n".join(kept) + "\n", items


def parse_constraint(item: str, counts: list, avoid: dict) -> None:
    """``A.moves>=3``, ``A.frozen``, ``A.avoid=c3,d4`` (``*`` = every piece).

    Cells: ``c3`` is column c and row 3 counted from the top of the picture
    (sliding, Sokoban), or the square c3 (knights, ranks from the bottom).
    """
    piece, _, rest = item.partition(".")
    if rest == "frozen":
        counts.append(MoveCount(piece, "<=", 0))
    elif rest.startswith("avoid="):
        cells = {square(c) for c in rest[len("avoid="):].split(",") if c}
        if not cells:
            raise PuzzleError(f"{item!r}: name the cells to avoid, like A.avoid=c3,d4")
        avoid.setdefault(piece, set()).update(cells)
    else:
        counts.append(MoveCount.parse(item))


def load(path: str | Path, level: int | None = None, counts: Sequence[MoveCount] = (),
         margin: int = 2, avoid: dict | None = None, constraints: Sequence[str] = ()) -> Instance:
    """Read ``path`` (level ``level`` of a collection) and build its rules.

    ``counts``, ``avoid`` (piece -> cells) and ``constraints`` (texts such as
    ``A.frozen``) add side conditions to those the file states.
    Raises :class:`PuzzleError` naming the file and line on any bad input.
    """
    fmt = file_format(path)
    text = read_text(path)
    optimum = None
    counts, avoid = list(counts), {k: set(v) for k, v in (avoid or {}).items()}
    try:
        if fmt in ("slide", "knights"):
            text, stated = split_constraints(text)
        else:
            stated = []
        for item in list(stated) + list(constraints):
            parse_constraint(item, counts, avoid)
    except PuzzleError as err:
        raise PuzzleError(err.problem, str(path), err.line) from None
    named = [c.piece for c in counts]
    try:
        if fmt in ("slide", "knights") and level not in (None, 1):
            raise PuzzleError(f"unknown level number {level}: a {fmt} file holds one puzzle")
        if fmt == "slide":
            spec = slide.parse(text)
            domain = SlidingPuzzle(spec, named, avoid)
        elif fmt == "rushhour":
            spec, optimum = rushhour.parse(text, level)
            domain = SlidingPuzzle(spec, named, avoid)
        elif fmt == "huarong":
            spec, optimum = huarong.parse(text, level)
            domain = SlidingPuzzle(spec, named, avoid)
        elif fmt == "knights":
            spec = knights.parse(text)
            domain = Knights(spec, avoid)
        else:
            spec, _ = xsb.parse(text, level)
            if set(avoid) - {"player", "boxes"}:
                raise PuzzleError("in Sokoban, only 'player' and 'boxes' can avoid cells")
            domain = Sokoban(spec, margin, avoid)
        counted = Counted(domain, counts)
    except PuzzleError as err:
        raise PuzzleError(err.problem, str(path), err.line) from None
    return Instance(str(path), fmt, counted if counted.needed else domain, spec, level, optimum)
