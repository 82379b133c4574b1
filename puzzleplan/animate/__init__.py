"""Animations of replayed plans: GIF and MP4 (:mod:`.raster`), a self-contained HTML
player (:mod:`.page`), both drawn from one :class:`~.scene.Scene`.

``write(problem, steps, metric, path)`` replays the plan by the problem's rules (an illegal
step raises :class:`~puzzleplan.puzzle.IllegalStep`), and writes the file whose kind its
suffix names; an existing file is never replaced unless ``force``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Sequence

from ..puzzle import PuzzleError
from .scene import Scene, build, canonical, move_ends, position

KINDS = {".gif": "gif", ".html": "html", ".htm": "html", ".mp4": "mp4"}

__all__ = ["KINDS", "Scene", "build", "canonical", "check_target", "check_targets", "gif", "move_ends", "position", "write"]


def check_target(path, force: bool = False) -> Path:
    """Refuse an output path before any work is done: an existing file (without
    ``force``), a missing or unwritable folder, a directory."""
    from ..outputs import check_new
    return check_new(path, force)


def check_targets(targets: dict, force: bool = False) -> None:
    """``{kind: path}`` given on the command line: every path writable, MP4 possible."""
    for kind, path in targets.items():
        check_target(path, force)
        if kind == "mp4":
            try:
                import imageio_ffmpeg  # noqa: F401
            except ImportError:
                raise PuzzleError("MP4 needs the imageio-ffmpeg package (it ships its own ffmpeg): "
                                  "pip install 'puzzleplan[video]', or write --gif or --html instead") from None


def _put(path: Path, data: bytes, force: bool) -> None:
    """Write ``data`` to ``path``; without ``force`` a file that appeared meanwhile is kept."""
    try:
        with open(path, "wb" if force else "xb") as f:
            f.write(data)
    except FileExistsError:
        raise PuzzleError(f"{path} exists; use --force to overwrite it") from None
    except OSError as err:
        raise PuzzleError(f"cannot write {path}: {err.strerror}") from None


def render(scene: Scene, kind: str, path: Path, force: bool) -> None:
    if kind == "gif":
        from .raster import gif_bytes
        _put(path, gif_bytes(scene), force)
    elif kind == "html":
        from .page import html
        _put(path, html(scene).encode(), force)
    else:
        from .raster import write_mp4
        # ffmpeg writes the file itself: into a temporary file first, so that a failure
        # leaves nothing behind and an existing file is replaced only with --force
        fd, tmp = tempfile.mkstemp(suffix=".mp4", dir=path.parent)
        os.close(fd)
        try:
            write_mp4(scene, tmp)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)     # mkstemp made it private
            if not force and path.exists():
                raise PuzzleError(f"{path} exists; use --force to overwrite it")
            os.replace(tmp, path)
        except OSError as err:
            raise PuzzleError(f"cannot write {path}: {err}") from None
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)


def kind_of(path, kind: str | None = None) -> str:
    if kind:
        return kind
    suffix = Path(path).suffix.lower()
    if suffix not in KINDS:
        raise PuzzleError(f"{path}: unknown animation type; use .gif, .html or .mp4")
    return KINDS[suffix]


def gif(problem, steps: Sequence[str], metric: str, title: str = "") -> bytes:
    """The animated GIF of a replayed plan, as bytes (for a notebook: ``IPython.display.Image``)."""
    from .raster import gif_bytes
    return gif_bytes(build(problem, steps, metric, title))


def write(problem, steps: Sequence[str], metric: str, path, kind: str | None = None,
          force: bool = False, title: str = "") -> Scene:
    """Replay ``steps`` and write their animation to ``path``; returns the scene drawn."""
    kind = kind_of(path, kind)
    target = check_target(path, force)
    scene = build(problem, steps, metric, title)
    render(scene, kind, target, force)
    return scene
