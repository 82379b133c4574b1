"""How a Sokoban level is drawn: the part of the grid the plan uses, walls, the floor the
player can reach, goal tiles, boxes (green when stored) and the player."""
from __future__ import annotations

from ...animate.scene import Scene, empty


def board(base, replay, title: str) -> Scene:
    level = base.level
    seen = set(level.walls) | set(level.goals)
    for player, boxes in replay.history:
        seen |= {player} | set(boxes)
    x0, y0 = min(x for x, _ in seen), min(y for _, y in seen)
    x1, y1 = max(x for x, _ in seen), max(y for _, y in seen)
    scene = empty(base, title or level.title, x1 - x0 + 1, y1 - y0 + 1, (x0, y0), pieces="warehouse", goals="tiles")
    inside = lambda c: x0 <= c[0] <= x1 and y0 <= c[1] <= y1   # noqa: E731
    scene.walls = sorted(list(scene.grid(c)) for c in level.walls)
    scene.floor = sorted(list(scene.grid(c)) for c in base.floor if inside(c))
    scene.goals = [{"label": "", "cells": sorted(list(scene.grid(c)) for c in level.goals)}]
    scene.colours = {"box": "#c8842c", "stored": "#3b8f3b", "player": "#3a6fd8"}
    return scene
