"""How a line is drawn: one row of cells, blocked cells as walls, tokens as lettered discs
(the ``tokens`` style: positions ``{cell name: letter}``), each goal cell outlined with
the letter that must end there."""
from __future__ import annotations

from puzzleplan.animate.scene import Scene, colour, empty


def board(base, replay, title: str) -> Scene:
    spec = base.spec
    scene = empty(base, title or spec.name, spec.width, 1, pieces="tokens", goal_labels=True)
    scene.floor = [[x, 0] for x in range(spec.width) if x not in spec.blocked]
    scene.walls = [[x, 0] for x in sorted(spec.blocked)]
    scene.colours = {t: colour(t) for t in base.tokens}
    scene.goals = [{"label": t, "cells": [[x, 0]]} for t, x in spec.goal]
    return scene
