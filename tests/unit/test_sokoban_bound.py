"""The Sokoban start bound under ``moves`` (the player's walk between the boxes,
:meth:`Sokoban.walk_bound`): never more than the fewest moves to the goal, checked on every
reachable state of small generated rooms (walls inside, open rooms, cells the player must
avoid), and more than the pushes alone on many of them."""
import random

import pytest

from puzzleplan.families.sokoban.generate import sokoban
from puzzleplan.families.sokoban.rules import Sokoban, SokobanLevel
from puzzleplan.kit.test_conformance import exact_distances
from puzzleplan.search import astar_search, breadth_first_search


def rooms(seed: int, n: int):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        room = sokoban(rng, w=rng.randint(3, 6), h=rng.randint(3, 5), boxes=rng.randint(1, 3),
                       closed=rng.random() < 0.7)
        if rng.random() < 0.3:          # a few cells the player must not enter
            free = sorted(room.floor - room.level.boxes - {room.level.player})
            banned = rng.sample(free, min(2, len(free)))
            try:
                room = Sokoban(room.level, margin=1, avoid={"player": banned})
            except Exception:
                continue
        out.append(room)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_walk_bound_never_exceeds_the_moves_left(seed):
    checked = binding = 0
    for room in rooms(seed, 25):
        dist = exact_distances(room, "moves", cap=30_000)
        if dist is None:
            continue
        for state, d in dist.items():
            walk = room.walk_bound(state)
            assert walk <= d, (room.level, state, walk, d)
            pushes = sum(room.distance.get(b, 10 ** 6) for b in state[1])
            checked += 1
            binding += walk > pushes
    assert checked > 1000 and binding > checked // 10, (checked, binding)


def test_the_start_bound_is_the_walk_when_it_is_more_and_only_at_the_start():
    # two boxes one push each from their storage cells, far apart, the player far from both
    level = SokobanLevel(walls=frozenset({(x, y) for x in range(11) for y in (0, 4)} | {(0, 1), (0, 2), (0, 3), (10, 1), (10, 2), (10, 3)}),
                         goals=frozenset({(3, 2), (8, 2)}), boxes=frozenset({(2, 2), (7, 2)}), player=(9, 1))
    room = Sokoban(level)
    assert room.heuristic(room.initial, "pushes") == 2
    h = room.heuristic(room.initial, "moves")
    assert h == room.walk_bound(room.initial) > 2
    bfs = breadth_first_search(room, "moves")
    assert h <= bfs.length
    other = next(s for _, s in room.successors(room.initial, "moves"))
    assert room.heuristic(other, "moves") == 2          # elsewhere the pushes alone (consistent)
    assert astar_search(room, "moves").length == bfs.length
