"""How a sliding-block board is drawn: walls, the goal outlined in the target piece's red,
pieces as blocks, the exit bar of a Rush Hour card."""
from __future__ import annotations

from ...animate.scene import TARGET, Scene, colour, empty


def board(base, replay, title: str) -> Scene:
    spec = base.spec
    scene = empty(base, title or spec.name, spec.width, spec.height, pieces="blocks", board=True)
    scene.walls = sorted([x, y] for x, y in spec.walls)
    targets = {label for label, _ in spec.goal}
    scene.colours = {lb: TARGET if lb in targets else colour(lb) for lb in spec.pieces}
    scene.goals = [{"label": lb, "cells": sorted([x, y] for x, y in cells)} for lb, cells in spec.goal]
    scene.exit = spec.exit_side
    return scene
