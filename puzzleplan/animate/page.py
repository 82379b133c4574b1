"""A scene as one self-contained HTML page: the scene's JSON, the script and the style
inline (no network), the board drawn in SVG.

The page only draws the positions embedded from the replay.  After each change it reads
its own drawing back into ``data-position`` on the ``#board`` element (the canonical JSON
of :func:`puzzleplan.animate.scene.canonical`), with ``data-step`` the frame shown and
``data-unit-step`` the unit steps done, so that a browser test can compare what is drawn
with the replay.
"""
from __future__ import annotations

import html as _html
import json
from importlib.resources import files

from .scene import Scene


def html(scene: Scene) -> str:
    template = files(__package__).joinpath("player.html").read_text(encoding="utf-8")
    # "</" never appears inside the script element, whatever a title holds
    data = json.dumps(scene.to_json(), separators=(",", ":")).replace("</", "<\\/")
    title = _html.escape(scene.title or "puzzleplan")
    return template.replace("__TITLE__", title).replace("__SCENE__", data)
