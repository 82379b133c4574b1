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
import re
from importlib.resources import files

from .scene import Scene


def script_data(text: str) -> str:
    """JSON text safe inside a ``<script>`` element (and the same value once parsed)."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def html(scene: Scene) -> str:
    template = files(__package__).joinpath("player.html").read_text(encoding="utf-8")
    # no "<", ">" or "&" inside the script element, whatever a title holds: "</script" would end
    # it and "<!--<script" would swallow the rest of the page (the script-data escaped states);
    # JSON's \u escapes read back as the same characters
    data = script_data(json.dumps(scene.to_json(), separators=(",", ":")))
    title = _html.escape(scene.title or "puzzleplan")
    # one pass: a title that reads "__SCENE__" is not replaced in its turn
    return re.sub("__TITLE__|__SCENE__", lambda m: title if m.group() == "__TITLE__" else data, template)
