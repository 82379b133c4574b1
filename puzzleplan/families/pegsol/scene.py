"""How a peg-solitaire board is drawn: the holes as floor (no walls: cells without a hole
are left blank), pegs as discs (unnamed ones lettered ``o``, named ones with their
letter), the goal's holes outlined (with the letter of a named peg that must stand
there)."""
from __future__ import annotations

from ...animate.scene import Scene, colour, empty
from .rules import UNNAMED


def board(base, replay, title: str) -> Scene:
    spec = base.spec
    scene = empty(base, title or spec.name, spec.width, spec.height, pieces="tokens", goal_labels=True)
    scene.floor = sorted(list(scene.grid(c)) for c in spec.holes)
    scene.colours = {lb: "#b5651d" if lb == UNNAMED else colour(lb) for lb in base.kinds}
    named = dict((c, lb) for lb, c in spec.goal.named)
    scene.goals = [{"label": named.get(c, ""), "cells": [list(scene.grid(c))]}
                   for c in sorted(spec.goal.cells or (), key=lambda c: (c[1], c[0]))]
    return scene
