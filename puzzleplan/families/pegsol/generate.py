"""Random small peg-solitaire boards, for cross-checking SAT against search (the
conformance suite calls :func:`generate`).  Never invalid: it retries until the rules
accept the instance.  The goal is usually where a random game ends (so most instances
are solvable), sometimes "one peg" (which may be impossible)."""
from __future__ import annotations

import random

from ...puzzle import PuzzleError
from .rules import Goal, PegSolitaire, PegSpec, UNNAMED


def pegsol(rng: random.Random, w: int = 4, h: int = 3, empty: int = 2, directions: str = "orthogonal",
           named: int = 0, avoid: bool = False) -> PegSolitaire:
    """A w x h board with up to two cells without a hole, ``empty`` empty holes, pegs in
    the others (``named`` of them lettered A, B...), and the goal a random game's end;
    ``avoid``: one hole that every peg must avoid."""
    while True:
        cells = [(x, y) for y in range(h) for x in range(w)]
        holes = sorted(set(cells) - set(rng.sample(cells, rng.randint(0, 2))), key=lambda c: (c[1], c[0]))
        pegs = len(holes) - empty
        start = rng.sample(holes, pegs)
        letters = ["ABCDEFGH"[i] if i < named else UNNAMED for i in range(pegs)]
        placed = dict(zip(start, letters))
        banned = {}
        if avoid and empty >= 2:        # with one empty hole avoided no peg could ever jump
            banned = {"*": {rng.choice([c for c in holes if c not in placed])}}
        spec = PegSpec(w, h, tuple(holes), tuple(sorted(placed.items(), key=lambda kv: (kv[0][1], kv[0][0]))),
                       Goal(1), directions, "random")
        try:
            rules = PegSolitaire(spec, banned)
        except PuzzleError:
            continue
        end = _random_game(rng, rules)
        if end is None:
            continue
        left = {c: lb for c, lb in rules.replay(end).history[-1].items()}
        if len(left) == 1 and rng.random() < 0.5:
            goal = Goal(1)
        elif rng.random() < 0.2:
            goal = Goal(1)                  # perhaps impossible
        else:
            goal = Goal(len(left), frozenset(left), tuple((lb, c) for c, lb in left.items() if lb != UNNAMED
                                                          and rng.random() < 0.5))
        try:
            return PegSolitaire(PegSpec(w, h, spec.holes, spec.pegs, goal, directions, "random"), banned)
        except PuzzleError:
            continue


def _random_game(rng: random.Random, rules: PegSolitaire) -> list[str] | None:
    """Jumps at random until none is left or a coin says stop (None: no first jump)."""
    state, moves = rules.initial, []
    while True:
        options = list(rules.successors(state, "steps"))
        if not options or (moves and rng.random() < 0.1):
            break
        move, state = rng.choice(options)
        moves.append(move)
    return rules.render_steps(moves) if moves else None


def huge(rng: random.Random, side: int = 300) -> PegSolitaire:
    """A side x side board full of pegs but one hole, to leave one peg: for the limits
    conformance test (its lower bound's regions grow with the holes)."""
    holes = tuple((x, y) for y in range(side) for x in range(side))
    empty = (rng.randrange(side), rng.randrange(side))
    spec = PegSpec(side, side, holes, tuple((c, UNNAMED) for c in holes if c != empty), Goal(1), "orthogonal", "huge")
    return PegSolitaire(spec)


def generate(rng: random.Random, size: str = "small") -> PegSolitaire:
    """A small board, mostly orthogonal, now and then triangular or with diagonals, a named
    peg or an avoided hole (``size="huge"``: :func:`huge`)."""
    if size == "huge":
        return huge(rng)
    directions = rng.choice(["orthogonal", "orthogonal", "triangular", "diagonal"])
    w, h = rng.choice([(3, 3), (4, 3), (3, 4), (5, 2)])
    return pegsol(rng, w, h, empty=rng.randint(1, 3), directions=directions,
                  named=rng.choice([0, 0, 1, 2]), avoid=rng.random() < 0.15)
