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
from ..domains.knights import Knights
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


def load(path: str | Path, level: int | None = None, counts: Sequence[MoveCount] = (),
         margin: int = 2) -> Instance:
    """Read ``path`` (level ``level`` of a collection) and build its rules.

    Raises :class:`PuzzleError` naming the file and line on any bad input.
    """
    fmt = file_format(path)
    text = read_text(path)
    optimum = None
    named = [c.piece for c in counts]
    try:
        if fmt in ("slide", "knights") and level not in (None, 1):
            raise PuzzleError(f"unknown level number {level}: a {fmt} file holds one puzzle")
        if fmt == "slide":
            spec = slide.parse(text)
            domain = SlidingPuzzle(spec, named)
        elif fmt == "rushhour":
            spec, optimum = rushhour.parse(text, level)
            domain = SlidingPuzzle(spec, named)
        elif fmt == "huarong":
            spec, optimum = huarong.parse(text, level)
            domain = SlidingPuzzle(spec, named)
        elif fmt == "knights":
            spec = knights.parse(text)
            domain = Knights(spec)
        else:
            spec, _ = xsb.parse(text, level)
            domain = Sokoban(spec, margin)
        counted = Counted(domain, counts)
    except PuzzleError as err:
        raise PuzzleError(err.problem, str(path), err.line) from None
    return Instance(str(path), fmt, counted if counted.needed else domain, spec, level, optimum)
