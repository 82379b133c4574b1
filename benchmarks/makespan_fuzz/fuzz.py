"""Fuzz the sliding makespan metric: random boards (walls, 1x1 / 1x2 / 1x3 / L / 2x2 pieces,
interchangeable unnamed pieces, h/v axes, Rush Hour cards, avoided cells, end cells) solved by
BFS, A*, pysat, pysat-de and cpsat, each compared with an oracle written here from the
definition alone (no puzzleplan code), and every plan replayed, validated and counted.

    .venv/bin/python benchmarks/makespan_fuzz/fuzz.py N SEED [cpsat-every]
"""
from __future__ import annotations

import itertools
import random
import sys
import tempfile
from pathlib import Path

VEC = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
AXES = {"hv": "UDLR", "h": "LR", "v": "UD"}
SHAPES = {"1": [(0, 0)], "2h": [(0, 0), (1, 0)], "2v": [(0, 0), (0, 1)], "3h": [(0, 0), (1, 0), (2, 0)],
          "3v": [(0, 0), (0, 1), (0, 2)], "L": [(0, 0), (0, 1), (1, 1)], "O": [(0, 0), (1, 0), (0, 1), (1, 1)]}


# -- the oracle: the definition, nothing else ---------------------------------------------
class Board:
    def __init__(self, w, h, walls, pieces, axes, goals, avoid, ends):
        self.w, self.h, self.walls = w, h, frozenset(walls)
        self.pieces = {lb: frozenset(c) for lb, c in pieces.items()}
        self.axes, self.goals = axes, [(lb, frozenset(c)) for lb, c in goals]
        self.avoid = {lb: frozenset(c) for lb, c in avoid.items()}
        self.ends = {lb: frozenset(c) for lb, c in ends.items()}

    def may_cover(self, label, cells):
        banned = self.avoid.get(label, frozenset()) | self.avoid.get("*", frozenset())
        return all(0 <= x < self.w and 0 <= y < self.h and (x, y) not in self.walls and (x, y) not in banned
                   for x, y in cells)

    def shifted(self, label, cells, d):
        if d not in AXES[self.axes[label]]:
            return None
        dx, dy = VEC[d]
        moved = frozenset((x + dx, y + dy) for x, y in cells)
        return moved if self.may_cover(label, moved) else None

    def solved(self, place):
        return all(place[lb] == cells for lb, cells in self.goals) and \
            all(place[lb] <= cells for lb, cells in self.ends.items())

    def time_step(self, place, moving):
        """The placement after the pieces of ``moving`` (label -> direction) move at once, or
        None: each enters only cells no piece covered before, no cell entered by two."""
        covered = set().union(*place.values())
        new, entered = dict(place), set()
        for label, d in moving.items():
            moved = self.shifted(label, place[label], d)
            if moved is None:
                return None
            fresh = moved - place[label]
            if fresh & covered or fresh & entered:
                return None
            entered |= fresh
            new[label] = moved
        return new

    def next_places(self, place):
        labels = sorted(place)
        options = []
        for lb in labels:
            opts = [None]
            covered = set().union(*place.values())
            for d in AXES[self.axes[lb]]:
                moved = self.shifted(lb, place[lb], d)
                if moved is not None and not (moved - place[lb]) & covered:
                    opts.append(d)
            options.append(opts)
        for choice in itertools.product(*options):
            moving = {lb: d for lb, d in zip(labels, choice) if d is not None}
            if moving:
                new = self.time_step(place, moving)
                if new is not None:
                    yield new

    def optimum(self, cap=10**6):
        """Fewest time steps to the goal by breadth-first search over labelled placements
        (None: none; "big": too many states)."""
        key = lambda p: tuple(sorted(p.items()))
        level, seen = [dict(self.pieces)], {key(self.pieces)}
        for n in range(10**4):
            if any(self.solved(p) for p in level):
                return n
            nxt = []
            for p in level:
                for q in self.next_places(p):
                    k = key(q)
                    if k not in seen:
                        seen.add(k)
                        nxt.append(q)
            if not nxt:
                return None
            if len(seen) > cap:
                return "big"
            level = nxt

    def plan_makespan(self, steps):
        """The fewest time steps these unit steps can be cut into (any cut), or None if they
        are illegal or miss the goal."""
        places = [dict(self.pieces)]
        for s in steps:
            label, d = s[:-1], s[-1:]
            if label not in places[-1] or d not in VEC:
                return None
            cur = places[-1]
            moved = self.shifted(label, cur[label], d)
            others = set().union(*(c for lb, c in cur.items() if lb != label))
            if moved is None or moved & others:
                return None
            places.append({**cur, label: moved})
        if not self.solved(places[-1]):
            return None
        best = [0] + [None] * len(steps)
        for i in range(1, len(steps) + 1):
            for j in range(i):
                labels = [s[:-1] for s in steps[j:i]]
                if best[j] is None or len(set(labels)) < len(labels):
                    continue
                if self.time_step(places[j], {s[:-1]: s[-1] for s in steps[j:i]}) is not None:
                    best[i] = best[j] + 1 if best[i] is None else min(best[i], best[j] + 1)
        return best[-1]


# -- random boards --------------------------------------------------------------------------
def name(c):
    return "abcdefghij"[c[0]] + str(c[1] + 1)


def random_slide(rng):
    while True:
        w, h = rng.choice([(3, 3), (3, 4), (4, 3), (4, 4), (5, 3), (3, 5), (4, 5)])
        cells = [(x, y) for y in range(h) for x in range(w)]
        walls = set(rng.sample(cells, rng.choice([0, 0, 1, 2])))
        free = [c for c in cells if c not in walls]
        pieces, axes = {}, {}
        n = rng.randint(2, 5)
        twin = rng.random() < 0.5           # unnamed pieces of one shape: interchangeable
        for i, label in enumerate("ABCDE"[:n]):
            if twin and i >= n - 2 and i > 0:
                shape, ax = "1", "hv"
            else:
                shape = rng.choice(["1", "1", "2h", "2v", "3h", "3v", "L", "O"])
                ax = rng.choice(["hv", "hv", "h", "v"])
            spots = [(x, y) for x, y in free if all((x + dx, y + dy) in free for dx, dy in SHAPES[shape])]
            if not spots:
                break
            x, y = rng.choice(spots)
            pieces[label] = frozenset((x + dx, y + dy) for dx, dy in SHAPES[shape])
            axes[label] = ax
            free = [c for c in free if c not in pieces[label]]
        if len(pieces) < 2 or not free:
            continue
        goals, taken = [], set()
        named = rng.sample(sorted(pieces), rng.randint(1, min(2, len(pieces))))
        if twin:        # keep the last two (1x1, hv) unnamed
            named = [lb for lb in named if lb not in sorted(pieces)[-2:]] or [sorted(pieces)[0]]
        for label in named:
            x0, y0 = min(x for x, _ in pieces[label]), min(y for _, y in pieces[label])
            shape = [(x - x0, y - y0) for x, y in pieces[label]]
            spots = [(x, y) for x, y in cells if all((x + dx, y + dy) in cells and (x + dx, y + dy) not in walls
                                                      and (x + dx, y + dy) not in taken for dx, dy in shape)
                     and (axes[label] != "h" or y == y0) and (axes[label] != "v" or x == x0)]
            if spots:
                gx, gy = rng.choice(spots)
                goals.append((label, frozenset((gx + dx, gy + dy) for dx, dy in shape)))
                taken |= goals[-1][1]
        if not goals or all(pieces[lb] == cs for lb, cs in goals):
            continue
        avoid, ends = {}, {}
        if rng.random() < 0.35:
            who = rng.choice(sorted(pieces) + ["*"]) if not twin else rng.choice(named + ["*"])
            pool = [c for c in free if all(c not in g for _, g in goals)]
            if pool:
                avoid[who] = set(rng.sample(pool, min(len(pool), rng.randint(1, 2))))
        if rng.random() < 0.35:
            who = rng.choice(named)
            if who not in [lb for lb, _ in goals]:
                pass
            others = [lb for lb in sorted(pieces) if lb not in [g for g, _ in goals]]
            if others and not twin:
                who = rng.choice(others)
                ends[who] = set(rng.sample(cells, rng.randint(len(pieces[who]), len(pieces[who]) + 4)))
        return Board(w, h, walls, pieces, axes, goals, avoid, ends)


def slide_text(b: Board) -> str:
    def picture(placement):
        return ["".join(next((lb for lb, cs in placement.items() if (x, y) in cs), "#" if (x, y) in b.walls else ".")
                        for x in range(b.w)) for y in range(b.h)]
    lines = ["board:", *picture(b.pieces), "", "goal:", *picture(dict(b.goals)), ""]
    lines.append("axes: " + " ".join(f"{lb}={ax}" for lb, ax in b.axes.items()))
    items = [f"{lb}.avoid=" + ",".join(name(c) for c in sorted(cs)) for lb, cs in b.avoid.items()]
    items += [f"{lb}.ends=" + ",".join(name(c) for c in sorted(cs)) for lb, cs in b.ends.items()]
    if items:
        lines.append("constraints: " + " ".join(items))
    return "\n".join(lines) + "\n"


def random_rush(rng):
    """A 6x6 Rush Hour card with 2-6 cars and walls now and then."""
    while True:
        occ, pieces, axes = set(), {}, {}
        ax0 = rng.randint(0, 3)
        pieces["A"] = frozenset({(ax0, 2), (ax0 + 1, 2)})
        axes["A"] = "h"
        occ |= pieces["A"]
        for label in "BCDEF"[:rng.randint(1, 5)]:
            for _ in range(30):
                n, hor = rng.choice([2, 2, 3]), rng.random() < 0.5
                x, y = rng.randint(0, 5), rng.randint(0, 5)
                cs = frozenset((x + i, y) if hor else (x, y + i) for i in range(n))
                if all(0 <= cx < 6 and 0 <= cy < 6 for cx, cy in cs) and not cs & occ \
                        and not (hor and y == 2):
                    pieces[label], axes[label] = cs, "h" if hor else "v"
                    occ |= cs
                    break
        walls = set()
        if rng.random() < 0.3:
            walls = set(rng.sample([(x, y) for x in range(6) for y in range(6) if (x, y) not in occ and y != 2], 1))
        if max(x for x, _ in pieces["A"]) == 5:
            continue
        goal = ("A", frozenset({(4, 2), (5, 2)}))
        return Board(6, 6, walls, pieces, axes, [goal], {}, {})


def rh_text(b: Board) -> str:
    return "".join(next((lb for lb, cs in b.pieces.items() if (x, y) in cs), "x" if (x, y) in b.walls else "o")
                   for y in range(6) for x in range(6)) + "\n"


# -- the run --------------------------------------------------------------------------------
def check(b: Board, path: Path, backends, report) -> str:
    from puzzleplan.formats.load import load
    from puzzleplan.planner import solve
    from puzzleplan.puzzle import Contradiction, PuzzleError, Status
    from puzzleplan.search import astar_search, breadth_first_search
    from puzzleplan.validate import check_plan

    best = b.optimum()
    if best == "big":
        return "big"
    try:
        problem = load(path).problem
    except Contradiction:
        report(f"contradiction on a board the oracle solves in {best}", path) if best is not None else None
        return "contradiction"
    except PuzzleError as err:
        report(f"load error {err}", path)
        return "error"
    runs = [("bfs", lambda: breadth_first_search(problem, "makespan")),
            ("astar", lambda: astar_search(problem, "makespan"))]
    runs += [(be, lambda be=be: solve(problem, "makespan", be, max_horizon=best if best is not None else 6))
             for be in backends]
    for who, run in runs:
        try:
            got = run()
        except Exception as err:        # an illegal plan reported, or worse: the run's own error
            report(f"{who}: {type(err).__name__}: {err}", path)
            continue
        if best is None:
            ok = got.status in ((Status.UNSOLVABLE,) if who in ("bfs", "astar")
                                else (Status.NO_PLAN_WITHIN, Status.UNSOLVABLE))
            if not ok:
                report(f"{who}: {got.status} {got.length} where the oracle finds no plan", path)
            continue
        if got.status is not Status.OPTIMAL or got.length != best:
            report(f"{who}: {got.status} {got.length} where the oracle says {best}", path)
            continue
        steps = list(got.steps)
        if b.plan_makespan(steps) != best:
            report(f"{who}: plan {steps} has makespan {b.plan_makespan(steps)} by the oracle, not {best}", path)
        if problem.rules.count(steps, "makespan") != best:
            report(f"{who}: rules.count {problem.rules.count(steps, 'makespan')} != {best}", path)
        if not problem.rules.replay(steps).solved:
            report(f"{who}: replay does not solve", path)
        v = check_plan(problem, steps, "makespan")
        if not v["solved"] or v["length"] != best:
            report(f"{who}: validate says {v}", path)
    return str(best)


def main(n: int, seed: int, cpsat_every: int = 3) -> None:
    import resource
    rng = random.Random(seed)
    tally, bad = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            rush = i % 4 == 3
            b = random_rush(rng) if rush else random_slide(rng)
            path = Path(tmp) / (f"b{i}.rh" if rush else f"b{i}.slide")
            path.write_text(rh_text(b) if rush else slide_text(b))
            backends = ["pysat", "pysat-de"] + (["cpsat"] if i % cpsat_every == 0 else [])

            def report(what, path):
                bad.append((what, path.read_text()))
                print("MISMATCH", i, what, "\n" + path.read_text(), flush=True)
            out = check(b, path, backends, report)
            key = ("rh " if rush else "slide ") + ("none" if out == "None" else out if not out.isdigit()
                                                   else "0" if out == "0" else "1-2" if int(out) <= 2 else "3+")
            tally[key] = tally.get(key, 0) + 1
            if (i + 1) % 100 == 0:
                cpu = resource.getrusage(resource.RUSAGE_SELF)
                print(f"after {i + 1}: mismatches {len(bad)}; CPU {cpu.ru_utime + cpu.ru_stime:.1f} s", flush=True)
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    print(f"instances {n} seed {seed}: {sorted(tally.items())}; mismatches {len(bad)}; "
          f"CPU {cpu.ru_utime + cpu.ru_stime:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), *(int(a) for a in sys.argv[3:]))
