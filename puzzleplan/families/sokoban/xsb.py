"""Sokoban XSB / .sok collections and LURD solutions.

A level is a block of XSB rows: ``#`` wall, ``@`` player, ``+`` player on a
storage cell, ``$`` box, ``*`` box on a storage cell, ``.`` storage cell, space,
``-`` or ``_`` floor.  A collection holds several levels separated by blank or
text lines; the line before a level (``; 12``, ``Title: ...`` or any text) is
its title; lines starting with ``;`` or ``'`` are comments.  A LURD solution is
a string of ``l u r d`` (walk) and ``L U R D`` (push) letters.
"""
from __future__ import annotations

from .rules import SokobanLevel
from ...contract import Parsed
from ...puzzle import PuzzleError

XSB = set("#@+$*. -_")


def is_board_line(line: str) -> bool:
    return bool(line.strip()) and set(line) <= XSB and "#" in line


def split_levels(text: str) -> list[tuple[str, int, list[str]]]:
    """``(title, first line number, rows)`` for each level block."""
    levels, rows, title, start, last_text = [], [], "", 0, ""
    for no, raw in enumerate(text.splitlines() + [""], 1):
        line = raw.rstrip("\n\r")
        if is_board_line(line.rstrip()) or (rows and line.strip() and set(line.rstrip()) <= XSB):
            if not rows:
                start, title = no, last_text
            rows.append(line.rstrip())
            continue
        if rows:
            levels.append((title, start, rows))
            rows = []
        text_line = line.strip().lstrip(";'").strip()
        if text_line:
            last_text = text_line.removeprefix("Title:").strip()
    return levels


def parse_level(rows: list[str], title: str = "", first_line: int = 1) -> SokobanLevel:
    walls, goals, boxes, players = set(), set(), set(), []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            c = (x, y)
            if ch not in XSB:
                raise PuzzleError(f"unknown character {ch!r} in a level", line=first_line + y)
            if ch == "#":
                walls.add(c)
            if ch in "@+":
                players.append((c, first_line + y))
            if ch in "$*":
                boxes.add(c)
            if ch in ".+*":
                goals.add(c)
    if not players:
        raise PuzzleError("the level has no player '@'", line=first_line)
    if len(players) > 1:
        raise PuzzleError(f"two players: a second '@' at row {players[1][0][1] + 1}", line=players[1][1])
    level = SokobanLevel(frozenset(walls), frozenset(goals), frozenset(boxes), players[0][0], title)
    try:
        level.validate()
    except PuzzleError as err:
        raise PuzzleError(err.problem, line=first_line) from None
    return level


def parse(text: str, level: int | None = None) -> tuple[SokobanLevel, int]:
    """Level number ``level`` (1-based, default 1) of a collection."""
    levels = split_levels(text)
    _check_stray_characters(text)
    if not levels:
        raise PuzzleError("no Sokoban level in the file")
    index = 1 if level is None else level
    if not 1 <= index <= len(levels):
        raise PuzzleError(f"unknown level number {index}: the collection has {len(levels)}")
    title, start, rows = levels[index - 1]
    return parse_level(rows, title or f"level {index}", start), len(levels)


def _check_stray_characters(text: str) -> None:
    """A row that looks like a board row but holds an unknown character."""
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if line.startswith((";", "'")) or not line.lstrip().startswith("#") or not line.endswith("#"):
            continue
        bad = [ch for ch in line if ch not in XSB]
        if bad:
            raise PuzzleError(f"unknown character {bad[0]!r} in a level", line=no)


def write(level: SokobanLevel) -> str:
    head = f"; {level.title}\n\n" if level.title else ""
    return head + "\n".join(level.rows()) + "\n"


def parse_lurd(text: str) -> list[str]:
    steps = [ch for ch in text if not ch.isspace()]
    for i, ch in enumerate(steps, 1):
        if ch.lower() not in "lurd":
            raise PuzzleError(f"character {i} of the solution is {ch!r}; LURD uses l u r d L U R D")
    return steps


def read(text: str, level: int | None = None) -> Parsed:
    return Parsed(parse(text, level)[0])


def levels(text: str) -> int:
    return len(split_levels(text))
