"""How a knights board is drawn: a chessboard (ranks from the bottom, coordinates around
it), the squares off the board as walls, knights as lettered discs, every goal
alternative's squares outlined with the letter that must stand there."""
from __future__ import annotations

from ...animate.scene import Scene, colour, empty


def board(base, replay, title: str) -> Scene:
    spec = base.spec
    scene = empty(base, title or spec.name, spec.width, spec.height, pieces="tokens", checkered=True,
                  coordinates=True, flip=True, goal_labels=True)
    scene.floor = sorted(list(scene.grid(sq)) for sq in spec.squares)
    scene.walls = sorted(list(scene.grid((x, y))) for x in range(spec.width) for y in range(spec.height)
                         if (x, y) not in spec.squares)
    scene.colours = {k: colour(k) for k in base.kinds}
    scene.goals = [{"label": lb, "cells": [list(scene.grid(sq))]}
                   for alt in spec.goals for lb, sq in alt.placements]
    return scene
