"""Scenes as pictures with Pillow: one RGB image per frame, written as GIF (Pillow) or
MP4 (the ffmpeg binary shipped in the ``imageio-ffmpeg`` wheel).

Pillow's ImageDraw is used rather than matplotlib because it draws a frame in about a
millisecond: a 116-step Klotski GIF takes well under a second (benchmarks/animation/animation.py).
"""
from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from ..cells import column_name, parse_cell
from ..puzzle import PuzzleError
from .scene import Scene

CELL = 44          # pixels per cell
PAD = 3            # gap between a piece and its cell's edge
MARGIN = 18        # around the board (room for coordinates and the exit mark)
LINE = 16          # caption line height
MIN_WIDTH = 240    # so the caption fits on small boards
INK, FLOOR, WALL, BLANK = "#222222", "#f4f1ea", "#4a4a4a", "#ffffff"
LIGHT, DARK = "#f0d9b5", "#b58863"         # chess squares
GOAL_FILL, GOAL_EDGE = "#f6e7a1", "#c9a227"


@lru_cache(maxsize=None)
def font(size: int):
    return ImageFont.load_default(size)


def text_ink(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


class Painter:
    """Draws the frames of one scene at a fixed size."""

    def __init__(self, scene: Scene, cell: int = CELL):
        self.scene, self.cell = scene, cell
        self.board_w, self.board_h = scene.width * cell, scene.height * cell
        self.lines = 2 + bool(scene.conditions)
        self.size = (max(MIN_WIDTH, self.board_w + 2 * MARGIN), self.board_h + 2 * MARGIN + self.lines * LINE + 6)
        self.left = (self.size[0] - self.board_w) // 2
        self.still = self._still()

    def box(self, cell, inset: int = 0) -> tuple[int, int, int, int]:
        x, y = cell
        c = self.cell
        return (self.left + x * c + inset, MARGIN + y * c + inset,
                self.left + (x + 1) * c - inset - 1, MARGIN + (y + 1) * c - inset - 1)

    # -- what never changes: board, walls, goals --------------------------------------------
    def _still(self) -> Image.Image:
        s = self.scene
        im = Image.new("RGB", self.size, BLANK)
        d = ImageDraw.Draw(im)
        if s.style["board"]:
            d.rectangle((self.left, MARGIN, self.left + self.board_w - 1, MARGIN + self.board_h - 1), fill=FLOOR)
        for x, y in s.floor:
            shade = FLOOR
            if s.style["checkered"]:      # a1 (file 0, rank 0) is a dark square
                rank = s.height - 1 - y
                shade = DARK if (x + rank) % 2 == 0 else LIGHT
            d.rectangle(self.box((x, y)), fill=shade)
        for cell in s.walls:
            d.rectangle(self.box(cell), fill=WALL)
        if s.style["goals"] == "tiles":
            for goal in s.goals:
                self._goal(d, goal)
        if s.style["coordinates"]:
            self._coordinates(d)
        if s.exit:
            self._exit(d)
        return im

    def _goal(self, d, goal) -> None:
        s = self.scene
        if s.style["goals"] == "tiles":
            for cell in goal["cells"]:
                d.rectangle(self.box(cell, 8), fill=GOAL_FILL, outline=GOAL_EDGE, width=2)
            return
        ink = s.colours.get(goal["label"], INK)
        cells = {tuple(c) for c in goal["cells"]}
        for x, y in cells:       # the outline of the region: edges with no goal cell beyond
            x0, y0, x1, y1 = self.box((x, y))
            x1, y1 = x1 + 1, y1 + 1
            for (dx, dy), edge in {(0, -1): (x0, y0, x1, y0), (0, 1): (x0, y1, x1, y1),
                                   (-1, 0): (x0, y0, x0, y1), (1, 0): (x1, y0, x1, y1)}.items():
                if (x + dx, y + dy) not in cells:
                    d.line(edge, fill=ink, width=3)
            if s.style["goal_labels"]:
                d.text((x0 + 4, y0 + 2), goal["label"], fill=ink, font=font(11))

    def _coordinates(self, d) -> None:
        s, f = self.scene, font(11)
        for x in range(s.width):
            cx = self.left + x * self.cell + self.cell // 2
            d.text((cx, MARGIN + self.board_h + 2), column_name(x), fill=INK, font=f, anchor="mt")
        for y in range(s.height):
            cy = MARGIN + y * self.cell + self.cell // 2
            d.text((self.left - 4, cy), str(s.height - y), fill=INK, font=f, anchor="rm")

    def _exit(self, d) -> None:
        """A red bar outside the board where the target piece leaves (Rush Hour)."""
        s = self.scene
        cells = [tuple(c) for g in s.goals for c in g["cells"]]
        if not cells:
            return
        ys = [self.box(c)[1::2] for c in cells]
        xs = [self.box(c)[0::2] for c in cells]
        top, bottom = min(a for a, _ in ys), max(b for _, b in ys)
        left, right = min(a for a, _ in xs), max(b for _, b in xs)
        if s.exit == "right":
            d.rectangle((self.left + self.board_w + 2, top, self.left + self.board_w + 7, bottom), fill=s.colours.get("A", INK))
        elif s.exit == "left":
            d.rectangle((self.left - 8, top, self.left - 3, bottom), fill=INK)
        elif s.exit in ("top", "up"):
            d.rectangle((left, MARGIN - 8, right, MARGIN - 3), fill=INK)
        elif s.exit in ("bottom", "down"):
            d.rectangle((left, MARGIN + self.board_h + 2, right, MARGIN + self.board_h + 7), fill=INK)

    # -- one frame ----------------------------------------------------------------------------
    def frame(self, i: int) -> Image.Image:
        s = self.scene
        im = self.still.copy()
        d = ImageDraw.Draw(im)
        PIECES[s.style["pieces"]](self, d, s.frames[i].position)
        if s.style["goals"] == "outline":      # outlines on top, so that a piece on its goal shows it
            for goal in s.goals:
                self._goal(d, goal)
        self._caption(d, i)
        return im

    def _piece(self, d, label: str, cells) -> None:
        ink = self.scene.colours[label]
        cells = {tuple(self.scene.grid(c)) for c in cells}
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        if len(cells) == (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1):     # a rectangle: one shape
            x0, y0, _, _ = self.box((min(xs), min(ys)), PAD)
            _, _, x1, y1 = self.box((max(xs), max(ys)), PAD)
            d.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=ink, outline=INK, width=1)
        else:     # a polyomino: its cells, joined where they touch
            for x, y in cells:
                d.rectangle(self.box((x, y), PAD), fill=ink)
                for dx, dy in ((1, 0), (0, 1)):
                    if (x + dx, y + dy) in cells:
                        a, b = self.box((x, y), PAD), self.box((x + dx, y + dy), PAD)
                        d.rectangle((a[0], a[1], b[2], b[3]), fill=ink)
        cx, cy = (min(xs) + max(xs) + 1) / 2, (min(ys) + max(ys) + 1) / 2      # in cells
        if (int(cx), int(cy)) not in cells:     # the middle of an L is not the piece: use a cell of its own
            x, y = min(cells)
            cx, cy = x + 0.5, y + 0.5
        cx, cy = self.left + cx * self.cell, MARGIN + cy * self.cell
        d.text((cx, cy), label, fill=text_ink(ink), font=font(16), anchor="mm")

    def _blocks(self, d, pos) -> None:
        for label, cells in pos.items():
            self._piece(d, label, cells)

    def _warehouse(self, d, pos) -> None:
        s = self.scene
        goals = {tuple(c) for g in s.goals for c in g["cells"]}
        for box in pos["boxes"]:
            cell = s.grid(box)
            ink = s.colours["stored" if cell in goals else "box"]
            d.rounded_rectangle(self.box(cell, 4), radius=5, fill=ink, outline=INK, width=1)
        d.ellipse(self.box(s.grid(pos["player"]), 9), fill=s.colours["player"], outline=INK, width=1)

    def _tokens(self, d, pos) -> None:
        s = self.scene
        for name, letter in pos.items():
            cell = s.grid(parse_cell(name))
            ink = s.colours[letter]
            d.ellipse(self.box(cell, 6), fill=ink, outline=INK, width=2)
            x0, y0, x1, y1 = self.box(cell)
            d.text(((x0 + x1) / 2, (y0 + y1) / 2), letter, fill=text_ink(ink), font=font(16), anchor="mm")

    def _caption(self, d, i: int) -> None:
        s = self.scene
        frame = s.frames[i]
        total_moves, total_steps = len(s.frames) - 1, s.frames[-1].step
        top = MARGIN + self.board_h + (16 if s.style["coordinates"] else 6)
        unit = "move" if total_moves != total_steps else "step"
        head = f"{unit} {i}/{total_moves}" if i else f"start: {s.frames[-1].count} {s.metric}"
        if unit == "move" and i:
            head += f"  (steps {s.frames[i - 1].step + 1}-{frame.step})" if frame.step - s.frames[i - 1].step > 1 \
                else f"  (step {frame.step})"
        if s.frames[-1].count != total_moves:       # pushes: walks between them are frames too
            head += f"  ({frame.count}/{s.frames[-1].count} {s.metric})"
        if i == total_moves and s.solved:
            head += "  solved"
        lines = [head, "move: " + _short(frame.move, 34) if i else (s.title or "")]
        if s.conditions:
            lines.append("moves: " + " ".join(f"{p}={n}" for p, n in frame.counters.items())
                         + "  (" + ", ".join(s.conditions) + ")")
        for k, text in enumerate(lines):
            d.text((8, top + k * LINE), text, fill=INK, font=font(13))


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


PIECES = {"blocks": Painter._blocks, "warehouse": Painter._warehouse, "tokens": Painter._tokens}


def images(scene: Scene, cell: int = CELL) -> list[Image.Image]:
    painter = Painter(scene, cell)
    return [painter.frame(i) for i in range(len(scene.frames))]


def shared_palette(scene: Scene, frames: list[Image.Image]) -> Image.Image:
    """One palette for every frame, from the first and last frames and a swatch of every
    colour the scene uses (a box may be stored in no frame of the two)."""
    w, h = frames[0].size
    colours = [BLANK, INK, FLOOR, WALL, LIGHT, DARK, GOAL_FILL, GOAL_EDGE, "#ffffff", *scene.colours.values()]
    ref = Image.new("RGB", (2 * w, h + 8), BLANK)
    ref.paste(frames[0], (0, 0))
    ref.paste(frames[-1], (w, 0))
    d = ImageDraw.Draw(ref)
    for k, c in enumerate(colours):
        d.rectangle((8 * k, h, 8 * k + 7, h + 7), fill=c)
    return ref.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def gif_bytes(scene: Scene, ms: int = 250, hold: int = 1500, cell: int = CELL) -> bytes:
    """The animated GIF: ``ms`` per frame, the first and last held for ``hold`` ms, looping."""
    frames = images(scene, cell)
    durations = [ms] * len(frames)
    durations[0] = durations[-1] = hold
    out = io.BytesIO()
    palette = shared_palette(scene, frames)
    frames = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, optimize=False, disposal=1)
    return out.getvalue()


def write_mp4(scene: Scene, path: str, fps: float = 4.0, cell: int = CELL) -> None:
    """An H.264 MP4 through the ffmpeg binary inside the imageio-ffmpeg wheel."""
    try:
        import imageio_ffmpeg
    except ImportError:
        raise PuzzleError("MP4 needs the imageio-ffmpeg package (it ships its own ffmpeg): "
                          "pip install 'puzzleplan[video]', or write --gif or --html instead") from None
    frames = images(scene, cell)
    w, h = frames[0].size
    w2, h2 = -(-w // 16) * 16, -(-h // 16) * 16      # whole macroblocks
    hold = max(1, round(fps * 1.5))
    writer = imageio_ffmpeg.write_frames(path, (w2, h2), fps=fps, macro_block_size=1,
                                         output_params=["-movflags", "+faststart"])
    writer.send(None)
    for i, im in enumerate(frames):
        canvas = Image.new("RGB", (w2, h2), BLANK)
        canvas.paste(im, (0, 0))
        data = canvas.tobytes()
        for _ in range(hold if i in (0, len(frames) - 1) else 1):
            writer.send(data)
    writer.close()
