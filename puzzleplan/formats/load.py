"""Open any supported puzzle file and build its rules.

The file type (its extension; a trailing ``.gz`` is allowed) names the family and the
format (:func:`puzzleplan.registry.for_path`); ``puzzleplan families`` lists them.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from .. import limits, registry
from ..contract import Conditions, Instance, Problem, check_side_conditions
from ..constraints import Counters
from ..puzzle import Avoid, Contradiction, EndsOn, MoveCount, PuzzleError
from ..cells import cell_name, parse_cell
from .common import read_text


def level_count(path: str | Path) -> int:
    """How many puzzles the file holds (1 for single-puzzle formats)."""
    family, fmt = registry.for_path(path)
    if not fmt.collection:
        return 1
    text = read_text(path)
    try:
        return family.ref(fmt.levels)(text)
    except PuzzleError as err:
        raise PuzzleError(err.problem, err.path or str(path), err.line) from None


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


def parse_cells(item: str, text: str, places=None) -> set:
    """The cells (or, for a family that reads its own places, those) of ``text``."""
    if places is not None:
        return set(places(text))
    cells = {parse_cell(c) for c in text.split(",") if c}
    if not cells:
        raise PuzzleError(f"{item!r}: name the cells, like A.avoid=c3,d4")
    return cells


ITEM = re.compile(r"[^\s.,=]+\.(frozen$|moves|avoid=|ends=)")     # how a constraint starts


def _top_level_commas(text: str) -> list[str]:
    """``text`` parted at its commas outside parentheses (a PDDL pattern's ``step(c3, ?)`` is one part)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def parse_constraint(item, counts: list, avoid: dict, ends: list | None = None, places=None) -> None:
    """A constraint object (:class:`MoveCount`, :class:`Avoid`, :class:`EndsOn`) or a text:
    ``A.moves>=3``, ``A+B.moves<=5`` (a group's total), ``A.frozen``,
    ``A.avoid=c3,d4`` (``*`` = every piece), ``A.ends=c3,d4`` (A finishes with
    every cell it covers among these).

    Cells: ``c3`` is column c and row 3 counted from the top of the picture
    (sliding, Sokoban), or the square c3 (knights, ranks from the bottom); a family
    that names places its own way reads them with ``places(text)`` (its format's ``places``).
    """
    if isinstance(item, MoveCount):
        return counts.append(item)
    if isinstance(item, Avoid):
        return avoid.setdefault(item.piece, set()).update(item.cells)
    if isinstance(item, EndsOn) and ends is not None:
        return ends.append(item)
    if not isinstance(item, str):
        raise PuzzleError(f"not a constraint: {item!r}")
    if item.endswith(",") or any(ITEM.match(part.strip()) for part in _top_level_commas(item)[1:]):
        # 'A.moves>=1, B.frozen': a comma cannot part items (it parts the cells of one)
        raise PuzzleError(f"{item!r}: a comma parts the cells of a constraint (A.avoid=c3,d4), not constraints: "
                          "part them by spaces in a file, one -c each on the command line")
    piece, _, rest = item.partition(".")
    if rest == "frozen":
        counts.append(MoveCount(piece, "<=", 0))
    elif rest.startswith("avoid="):
        avoid.setdefault(piece, set()).update(parse_cells(item, rest[len("avoid="):], places))
    elif rest.startswith("ends=") and ends is not None:
        ends.append(EndsOn(piece, frozenset(parse_cells(item, rest[len("ends="):], places))))
    else:
        counts.append(MoveCount.parse(item))


def every_piece(rules, counts: Sequence[MoveCount]) -> list[MoveCount]:
    """``*.moves>=1`` -> ``A.moves>=1``, ``B.moves>=1``, ...: a count on ``*`` holds for every piece
    whose moves the rules count, one by one (a group's total is written ``A+B``; ``*`` stands alone).
    ``rules`` are built with every piece named, so that each has a kind of its own."""
    movers = []
    for piece in rules.piece_names():
        try:
            rules.mover_of(piece)
        except PuzzleError:         # a name the rules list but count no moves of (Sokoban's boxes)
            continue
        movers.append(piece)
    out = []
    for c in counts:
        if "*" not in c.pieces:
            out.append(c)
        elif c.piece != "*":
            raise PuzzleError(f"{c}: '*' stands alone (every piece, one by one), not in a group")
        elif not movers:
            raise PuzzleError(f"{c}: this puzzle names no piece whose moves can be counted")
        else:
            out += [MoveCount(p, c.op, c.k) for p in movers]
    return out


def check_ends(rules, ends: Sequence[EndsOn]) -> None:
    """An end cell off the board is a slip, not a cell to ignore."""
    for e in ends:
        off = sorted((c for c in e.cells if not rules.on_board(c)), key=str)
        if off and not isinstance(off[0], tuple):   # places a family names its own way: it says
            rules.end_places(e.piece, e.cells)      # what it makes of them
        for x, y in off:
            raise PuzzleError(f"{e.piece}.ends: cell {cell_name((x, y))} is off the board")


def reader_options(fmt, path, options: dict | None) -> dict:
    """The keyword options of ``fmt``'s reader: ``path`` and those of ``options`` it takes;
    an option given for a format that does not take it is a mistake, said so."""
    given = {k: v for k, v in (options or {}).items() if v is not None}
    for key in given:
        if key not in fmt.options:
            raise PuzzleError(f"--{key} does not apply to {fmt.name} files", str(path))
    return {"path": str(path), **given} if fmt.options else {}


def load(path: str | Path, level: int | None = None, counts: Sequence[MoveCount] = (),
         margin: int = 2, avoid: dict | None = None, constraints: Sequence[str] = (),
         options: dict | None = None, stated: bool = True) -> Instance:
    """Read ``path`` (level ``level`` of a collection) and build its rules.

    ``counts``, ``avoid`` (piece -> cells) and ``constraints`` (texts such as
    ``A.frozen`` or objects such as ``EndsOn("A", {(4, 2)})``) add side
    conditions to those the file states.  ``options``: what the format's reader
    takes besides the text (a PDDL problem's ``domain`` file).  ``stated=False`` leaves out the
    conditions the file states itself (its ``constraints:`` lines): the puzzle alone.
    Raises :class:`PuzzleError` naming the file and line on any bad input.
    """
    family, fmt = registry.for_path(path)
    extra = reader_options(fmt, path, options)
    places = family.ref(fmt.places) if fmt.places else None
    text = read_text(path)
    counts, avoid, ends = list(counts), {k: set(v) for k, v in (avoid or {}).items()}, []
    try:
        own = []
        if fmt.inline_constraints:
            text, own = split_constraints(text)
        for item in (own if stated else []) + list(constraints):
            parse_constraint(item, counts, avoid, ends, places)
    except PuzzleError as err:
        raise PuzzleError(err.problem, err.path or str(path), err.line) from None
    named = [p for c in counts for p in c.pieces] + [e.piece for e in ends]
    try:
        if not fmt.collection and level not in (None, 1):
            raise PuzzleError(f"unknown level number {level}: a {fmt.name} file holds one puzzle")
        cls = registry.rules_class(family)
        if counts or avoid or ends:
            check_side_conditions(cls, family.name)
        if ends and cls.ends_refusal:
            raise PuzzleError(cls.ends_refusal)
        with limits.preemptive():       # the family's reader and rules stop at the deadline
            parsed = family.ref(fmt.read)(text, level, **extra)
            if any("*" in c.pieces for c in counts) and not getattr(cls, "matches_patterns", False):
                build = family.part("build")
                names = build(parsed.spec, avoid=avoid, margin=margin).piece_names()
                counts = every_piece(build(parsed.spec, distinct=names, avoid=avoid, margin=margin), counts)
                named = [p for c in counts for p in c.pieces] + [e.piece for e in ends]
            rules = family.part("build")(parsed.spec, distinct=named, avoid=avoid, margin=margin)
            check_ends(rules, ends)
            problem = Problem(rules, family, Conditions(tuple(counts), tuple(ends)))
            Counters(problem)       # conditions no plan can meet: a Contradiction now
    except PuzzleError as err:      # a Contradiction stays one: its answer is "unsolvable"
        raise (Contradiction if isinstance(err, Contradiction) else PuzzleError)(err.problem, err.path or str(path), err.line) from None
    return Instance(str(path), fmt.name, problem, parsed.spec, level, parsed.stated_optimum)
