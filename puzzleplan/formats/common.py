"""Helpers shared by the readers: reading files, sections, error positions."""
from __future__ import annotations

import codecs
import gzip
import itertools
import os
import re
import stat
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..puzzle import PuzzleError

MiB = 1 << 20
MAX_BYTES = 64 * MiB    # a puzzle or a plan (the largest bundled collection is 32 KB)
MAX_ANSWER_BYTES = 1024 * MiB   # a solver's model or DRAT proof of an exported formula


def read_text(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The text of ``path`` (``.gz``: decompressed), at most ``limit`` bytes of it: a bigger
    file, a compressed bomb, ``/dev/zero`` or ``/dev/urandom`` is refused with one line, read
    no further than the limit."""
    data = read_bytes(path, limit)
    try:
        text = data.decode("utf-8-sig")        # a byte-order mark (some editors write one) is not text
    except UnicodeDecodeError:
        raise PuzzleError("cannot read: UnicodeDecodeError", str(path)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")     # universal newlines, as open() reads text


def read_bytes(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path`` (``.gz``: decompressed), refused beyond ``limit`` (see :func:`read_text`)."""
    path = Path(path)
    with opened(path, PuzzleError, "a puzzle file") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise PuzzleError(f"larger than {limit // MiB} MiB{' once decompressed' if path.suffix == '.gz' else ''}: "
                          "too big to be read", str(path))
    return data


@contextmanager
def opened(path: Path, error: type[PuzzleError], what: str) -> Iterator:
    """``path`` open for reading bytes (``.gz``: decompressed); a device, a missing file, a
    folder or a read that fails (a broken ``.gz``) is ``error`` in one line, also while the
    block reads."""
    try:
        if stat.S_ISCHR(os.stat(path).st_mode) or stat.S_ISBLK(os.stat(path).st_mode):
            raise error("is a device, not a file", str(path))
        with (gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")) as fh:
            yield fh
    except FileNotFoundError:
        raise error("no such file", str(path)) from None
    except IsADirectoryError:
        raise error(f"is a directory, not {what}", str(path)) from None
    except (OSError, EOFError, zlib.error) as err:   # EOFError, zlib.error: a broken .gz
        raise error(f"cannot read: {err.__class__.__name__}", str(path)) from None


class Unreadable(PuzzleError):
    """A file that cannot be read as text at all (missing, a device, too big, binary data), as
    against text that says the wrong thing."""


def read_lines(path: str | Path, limit: int = MAX_BYTES, longest: int = 1 << 16) -> Iterator[str]:
    """The lines of ``path`` (``.gz``: decompressed), without their line ends, read one at a
    time for a file taken in as it is read (a witness of millions of lines): Unreadable, where
    the reading stands, beyond ``limit`` bytes, at a line longer than ``longest`` characters
    or holding a NUL byte (binary data, a file of zeros, is no text), at a device; the time
    limit is checked at every line."""
    from ..limits import checkpoint
    path = Path(path)
    with opened(path, Unreadable, "a file") as fh:
        total = 0
        for no in itertools.count(1):
            checkpoint()
            raw = fh.readline(longest + 3)        # the line, its end and one more: too long
            if not raw:
                return
            total += len(raw)
            if total > limit:
                raise Unreadable(f"larger than {size(limit)}{' once decompressed' if path.suffix == '.gz' else ''}: "
                                 "too big to be read", str(path))
            if b"\0" in raw:
                raise Unreadable("holds a NUL byte: binary data, not text", str(path), no)
            line = raw.rstrip(b"\r\n")
            if len(line) > longest:
                raise Unreadable(f"a line longer than {longest:,} characters: not the text expected", str(path), no)
            try:
                yield (line.removeprefix(codecs.BOM_UTF8) if no == 1 else line).decode("utf-8")
            except UnicodeDecodeError:
                raise Unreadable("cannot read: UnicodeDecodeError", str(path), no) from None


def size(limit: int) -> str:
    return f"{limit // MiB} MiB" if limit >= MiB else f"{limit:,} bytes"


def number(text: str, digits: int = 9) -> int | None:
    """``text`` as a count if it is one: ASCII digits only (``str.isdigit`` also takes
    ``²``, which ``int`` refuses) and at most ``digits`` of them; else ``None``."""
    return int(text) if re.fullmatch(rf"[0-9]{{1,{digits}}}", text) else None


def sections(text: str, comment: str = ";", once: tuple[str, ...] = ()) -> list[tuple[str, str, list[tuple[int, str]]]]:
    """Split ``key: value`` headers; a key with an empty value starts a picture block.

    Returns ``(key, value, [(line_no, row), ...])`` in order.  Comment lines start
    with ``comment``; blank lines end a picture block.  A key in ``once`` that comes
    again is an error naming both lines (a second ``goal:`` must not silently replace
    the first).
    """
    out: list[tuple[str, str, list[tuple[int, str]]]] = []
    first: dict[str, int] = {}
    block = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if line.lstrip().startswith(comment):
            continue
        if not line.strip():
            block = None
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if sep and key and key.replace("_", "").isalpha():
            if key.lower() in once and key.lower() in first:
                raise PuzzleError(f"a second '{key.lower()}:' section (the first is at line {first[key.lower()]}); "
                                  "a file holds one", line=no)
            first.setdefault(key.lower(), no)
            out.append((key.lower(), value.strip(), []))
            block = None if value.strip() else out[-1][2]
            continue
        if block is None:
            raise PuzzleError(f"unexpected line {line.strip()!r} (expected 'key: value' or a picture after 'key:')", line=no)
        block.append((no, line))
    return out


def pick_level(entries: list, level: int | None, what: str = "file"):
    """Entry number ``level`` (1-based, default 1) of a collection's entries."""
    index = 1 if level is None else level
    if not 1 <= index <= len(entries):
        raise PuzzleError(f"unknown level number {index}: the {what} has {len(entries)}")
    return index, entries[index - 1]
