"""Long Rush Hour positions, as Fogleman's database finds them: the state of a layout's
component farthest from every solved state (steps metric: one cell a move).

A layout (the red car and other cars on the 6x6 board) is explored whole by breadth-first
search over the rules' moves (``SlidingPuzzle.successors``, unlabelled: identical cars are
interchangeable); then a second breadth-first search from every solved state of the component
gives each state its distance to the nearest solved one, the optimum of a puzzle starting
there.  Layouts are searched by a hill climb: start from random layouts (or from the boards of a
file of cards, ``moves board card`` lines), add, remove or move one car at random, keep the
change when the farthest distance does not fall (a mutation may also add a wall, at most two,
as in Fogleman's database).  Every
position kept is written with its optimum in steps; the optimum is exact (the component is
searched whole), and `puzzleplan solve` can confirm it.

Usage: python benchmarks/anytime/hard_rushhour.py SEED TRIES LOW HIGH [CARDS.rh] > positions.rh
(prints ``steps board`` lines, the optimum first, for positions of LOW..HIGH steps)
"""
from __future__ import annotations

import random
import sys
from collections import deque

from puzzleplan.families.sliding.rules import build
from puzzleplan.families.sliding.rushhour import parse_board

LETTERS = "BCDEFGHIJKLMNOPQRSTUVWYZ"


def board_of(cars) -> str:
    """cars: [(label, x, y, axis, length)] -> the 36-character board."""
    cells = ["o"] * 36
    for label, x, y, axis, n in cars:
        if axis == "x":             # a wall
            cells[y * 6 + x] = "x"
            continue
        for i in range(n):
            cx, cy = (x + i, y) if axis == "h" else (x, y + i)
            cells[cy * 6 + cx] = label
    return "".join(cells)


def fits(cars, car) -> bool:
    _, x, y, axis, n = car
    new = {(x + i, y) if axis == "h" else (x, y + i) for i in range(n)}
    if axis == "x" and y == 2:      # a wall on the red car's row
        return False
    if any(not (0 <= cx < 6 and 0 <= cy < 6) for cx, cy in new):
        return False
    if axis == "h" and y == 2:      # a car across the red car's row in front of it never leaves
        return False
    taken = set()
    for _, x2, y2, a2, n2 in cars:
        taken |= {(x2 + i, y2) if a2 == "h" else (x2, y2 + i) for i in range(n2)}
    return not (new & taken)


def cars_of(board: str):
    """The cars of a 36-character board (walls dropped)."""
    cells = {}
    for i, ch in enumerate(board):
        if ch not in "o.x":
            cells.setdefault(ch, []).append((i % 6, i // 6))
    out = []
    for label, cs in sorted(cells.items()):
        x, y = min(cs)
        out.append((label, x, y, "h" if len({cy for _, cy in cs}) == 1 else "v", len(cs)))
    return out


def random_car(rng, label):
    axis, n = rng.choice("hv"), 3 if rng.random() < 0.25 else 2
    return (label, rng.randrange(6), rng.randrange(6), axis, n)


def farthest(board: str, limit: int = 15_000):
    """(distance, board) of the component's state farthest from a solved state; None if the
    component is solved nowhere or larger than ``limit`` states."""
    rules = build(parse_board(board))
    start = rules.initial
    seen, queue = {start}, deque([start])
    edges = {}
    while queue:
        s = queue.popleft()
        nxt = [n for _, n in rules.successors(s, "steps")]
        edges[s] = nxt
        for n in nxt:
            if n not in seen:
                seen.add(n)
                queue.append(n)
                if len(seen) > limit:
                    return None
    goals = [s for s in seen if rules.is_goal(s)]
    if not goals:
        return None
    dist = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:        # moves are reversible: the same edges lead back
        s = queue.popleft()
        for n in edges[s]:
            if n not in dist:
                dist[n] = dist[s] + 1
                queue.append(n)
    far = max(dist, key=dist.get)
    return dist[far], placement_board(rules, far)


def placement_board(rules, state) -> str:
    cells = ["o"] * 36
    for k, anchors in enumerate(state):
        kind = rules.kinds[k]
        for label, a in zip(kind.labels, sorted(anchors)):
            for cx, cy in kind.cells(a):
                cells[cy * 6 + cx] = label
    return "".join(cells)


def mutate(rng, cars):
    cars = list(cars)
    what = rng.random()
    if what < 0.1 and sum(1 for c in cars if c[3] == "x") < 2:       # a wall (at most two)
        wall = ("x", rng.randrange(6), rng.randrange(6), "x", 1)
        return cars + [wall] if fits(cars, wall) else cars
    if what < 0.4 and len(cars) > 2:
        cars.pop(rng.randrange(1, len(cars)))
    else:
        if what < 0.7 and len(cars) > 2:
            cars.pop(rng.randrange(1, len(cars)))
        used = {c[0] for c in cars}
        used.add("x")
        place(rng, cars, next(lb for lb in LETTERS if lb not in used), 50)
    return cars


def place(rng, cars, label, tries) -> None:
    """A random car ``label`` added to ``cars`` where it fits, within ``tries`` draws."""
    for _ in range(tries):
        car = random_car(rng, label)
        if fits(cars, car):
            cars.append(car)
            return


def start_layout(rng, seeds):
    """A random layout, or (``seeds``: boards) one of them."""
    if seeds:
        return cars_of(rng.choice(seeds))
    cars = [("A", rng.randrange(4), 2, "h", 2)]
    for label in LETTERS[:rng.randrange(11, 15)]:
        place(rng, cars, label, 30)
    return cars


def main(seed: int, tries: int, low: int = 90, high: int = 115, seeds=()) -> None:
    rng = random.Random(seed)
    found = set()
    for _ in range(tries):
        cars = start_layout(rng, seeds)
        best = farthest(board_of(cars))
        if best is None:
            continue
        for _ in range(400):
            trial = mutate(rng, cars)
            got = farthest(board_of(trial))
            if got is not None and got[0] >= best[0]:
                cars, best = trial, got
                if low <= best[0] <= high and best[1] not in found:
                    found.add(best[1])
                    print(best[0], best[1], flush=True)
        print(f"# climb ended at {best[0]} steps", file=sys.stderr, flush=True)


if __name__ == "__main__":
    seeds = [] if len(sys.argv) < 6 else [ln.split()[1] for ln in open(sys.argv[5])
                                           if ln.strip() and ln[0] not in ";#"]
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), seeds)
