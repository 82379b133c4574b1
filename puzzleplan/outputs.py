"""Files the commands write: checked before any work is done, never replaced without ``--force``.

A run that solves for minutes and then cannot write its proof loses the result; so every
output path is checked first (:func:`check_new`), and written so that a file that appeared
meanwhile is still kept (:func:`put`).  The rules, for every output:

- never through a symbolic link (one that points nowhere counts as an existing file; with
  ``--force`` a link is refused, not followed): writing through it would create or change a
  file somewhere the user did not name;
- at most one new folder, inside one that exists (a slip in a path creates nothing); an
  output folder that is a link is refused like a file that is one;
- never appended to a file this tool did not write (:func:`appendable`).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from .puzzle import PuzzleError


NO_FORCE = {"--proof": "the proof", "--plan-out": "the plan"}     # outputs that are never overwritten


def check_new(path, force: bool = False, flag: str = "") -> Path:
    """Refuse ``path`` as an output unless it can be written as a new file (or, with
    ``force``, replaced): an existing file or link, a folder, a missing or read-only folder."""
    p = Path(path)
    name = f"{flag} {p}" if flag else str(p)
    if p.is_dir():
        raise PuzzleError(f"{name} is a folder; give a file name")
    if p.is_symlink() and not p.exists():
        raise PuzzleError(f"{name} is a symbolic link to a missing file; give a new file name")
    if p.is_symlink():
        raise PuzzleError(f"{name} is a symbolic link; give the file itself or a new file name")
    if os.path.lexists(p) and not force:
        raise PuzzleError(f"{name} exists; use --force to overwrite it" if flag not in NO_FORCE
                          else f"{name} exists; give a new file for {NO_FORCE[flag]}")
    folder = p.parent
    if not folder.is_dir():
        raise PuzzleError(f"cannot write {name}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise PuzzleError(f"cannot write {name}: permission denied")
    return p


def check_folder(folder, names: Iterable[str], force: bool = False, flag: str = "") -> Path:
    """A folder for files named ``names``: its parent must exist (a slip in a path does not
    create folders anywhere) and none of the files may exist unless ``force``."""
    d = Path(folder)
    label = f"{flag} {d}" if flag else str(d)
    if d.is_symlink():      # one to a folder is written through; one to nowhere would be made a folder
        raise PuzzleError(f"{label} is a symbolic link{'' if d.exists() else ' to a missing folder'}; "
                          "give the folder itself or a new folder name")
    if d.exists() and not d.is_dir():
        raise PuzzleError(f"{label} is a file, not a folder")
    if not d.exists() and not d.parent.is_dir():
        raise PuzzleError(f"cannot make {label}: no folder {d.parent}")
    if not force:
        there = [n for n in names if os.path.lexists(d / n)]
        if there:
            raise PuzzleError(f"{label} already holds {', '.join(there)}; use --force to overwrite")
    return d


def _open(path, flags: int, binary: bool):
    """``os.open`` never following a link (O_NOFOLLOW), as a file object."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | flags, 0o666)
    return os.fdopen(fd, ("ab" if flags & os.O_APPEND else "wb") if binary else
                     ("a" if flags & os.O_APPEND else "w"), **({} if binary else {"newline": ""}))


def put(path, data: str | bytes, force: bool = False) -> None:
    """Write ``data``; without ``force`` a file (or link) that appeared meanwhile is kept; a
    link is never written through."""
    try:
        with _open(path, os.O_TRUNC if force else os.O_EXCL, isinstance(data, bytes)) as f:
            f.write(data)
    except FileExistsError:
        raise PuzzleError(f"{path} exists; use --force to overwrite it") from None
    except OSError as err:
        if os.path.islink(path):
            raise PuzzleError(f"{path} is a symbolic link; give the file itself or a new file name") from None
        raise PuzzleError(f"cannot write {path}: {err.strerror}") from None


def appendable(path, ours, what: str) -> Path:
    """A file to append to: a new one, or one this tool wrote (``ours(path)`` says so); never a
    link.  PuzzleError otherwise, before anything is written."""
    p = Path(path)
    if p.is_symlink():
        raise PuzzleError(f"{p} is a symbolic link; give the file itself or a new file name")
    if p.exists() and (not p.is_file() or not ours(p)):
        raise PuzzleError(f"{p} exists and is not {what}; give a new file (nothing was appended to it)")
    return p


def append_to(path):
    """A text file opened for appending (made if new), never through a link."""
    try:
        return _open(path, os.O_APPEND, False)
    except OSError as err:
        raise PuzzleError(f"cannot write {path}: {err.strerror}") from None
