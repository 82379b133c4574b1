"""Pictures of positions and plans, with matplotlib.

A position is drawn from the rows the rules print (``board()`` or a replay's
``frames()``): ``#`` walls in dark grey, ``.`` and spaces as floor, a letter as
a piece (one colour per letter), except the characters the family draws its own
way (the rules' ``symbols``: Sokoban's ``$ * . @ +`` as boxes, stored boxes, storage
cells and the player).
"""
from __future__ import annotations

import zlib
from typing import Sequence

def colour(label: str):
    import matplotlib
    cmap = matplotlib.colormaps["tab20"]
    return cmap(zlib.crc32(label.encode()) % 20)


def draw_rows(rows: Sequence[str], ax, title: str | None = None, symbols: dict | None = None) -> None:
    """Draw one position on ``ax``; ``symbols``: character -> (colour, text; "" for none)."""
    symbols = symbols or {}
    from matplotlib.patches import Rectangle
    h, w = len(rows), max(len(r) for r in rows)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.ljust(w)):
            face, text = "white", ""
            if ch == "#":
                face = "#444444"
            elif ch in symbols:
                face, text = symbols[ch]
            elif ch not in ". ":
                face, text = colour(ch), ch
            ax.add_patch(Rectangle((x, h - 1 - y), 1, 1, facecolor=face, edgecolor="#bbbbbb", linewidth=0.5))
            if text:
                ax.text(x + 0.5, h - 0.5 - y, text, ha="center", va="center", fontsize=8)
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize=9)


def draw_plan(problem, steps: Sequence[str], frames: int = 8, columns: int = 4, title: str | None = None):
    """A figure of ``frames`` positions along the replayed plan (first and last included) on
    ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded instance or a bare rules
    object)."""
    import matplotlib.pyplot as plt
    from . import registry
    base = registry.problem(problem).rules
    replay = base.replay(steps)
    positions = replay.frames()
    n = min(frames, len(positions))
    picks = sorted({round(i * (len(positions) - 1) / max(1, n - 1)) for i in range(n)})
    rows = (len(picks) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(2.2 * columns, 2.4 * rows), squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for ax, i in zip(axes.flat, picks):
        ax.axis("on")
        label = "start" if i == 0 else f"after step {i}" + (f" ({steps[i - 1]})" if len(steps[i - 1]) < 8 else "")
        draw_rows(positions[i], ax, label, base.symbols)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
