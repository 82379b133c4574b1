"""An oracle that shares no code with puzzleplan: on tiny sliding boards (2x2 to 3x3,
1-3 pieces, random move-count conditions), enumerate every plan of unit steps up to
a small length with rules and move counting written here from the definitions, and
compare with BFS and with SAT (pysat and CP-SAT) in all three sliding metrics.

The definitions, as the sliding domain's docstring states them: ``steps`` every
unit step is a move; ``slides`` a maximal run of one piece's steps in one
direction is one move; ``moves`` a maximal run of one piece's steps is one move,
except that a run ending where it began is no move, and the runs around it then
join.  SAT and search can share a wrong model; this enumerator cannot share it.
"""
import random

import pytest

from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import Contradiction, Status
from puzzleplan.search import breadth_first_search

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

VEC = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
SHAPES = [((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1))]
OPS = {">=": lambda n, k: n >= k, "<=": lambda n, k: n <= k, "=": lambda n, k: n == k}
BOARDS_PER_METRIC = 180
MAX_KEYS = 400_000


# -- the board ----------------------------------------------------------------------
def random_board(rng):
    while True:
        w, h = rng.choice([(2, 2), (2, 3), (3, 2), (3, 3)])
        cells = [(x, y) for y in range(h) for x in range(w)]
        walls = set(rng.sample(cells, rng.choice([0, 0, 1])))
        free = [c for c in cells if c not in walls]
        pieces, axes, free = put_pieces(rng, free, "ABC"[:rng.randint(1, 3)], ["hv", "hv", "h", "v"])
        if not pieces or not free:
            continue
        target = rng.choice(sorted(pieces))
        shape = sorted((x - min(a for a, _ in pieces[target]), y - min(b for _, b in pieces[target]))
                       for x, y in pieces[target])
        x0, y0 = min(x for x, _ in pieces[target]), min(y for _, y in pieces[target])
        spots = [(x, y) for y in range(h) for x in range(w)
                 if all((x + dx, y + dy) in cells and (x + dx, y + dy) not in walls for dx, dy in shape)
                 and (axes[target] != "h" or y == y0) and (axes[target] != "v" or x == x0)]
        gx, gy = rng.choice(spots)
        goal = frozenset((gx + dx, gy + dy) for dx, dy in shape)
        return {"w": w, "h": h, "walls": walls, "pieces": pieces, "axes": axes, "goal": (target, goal)}


def put_pieces(rng, free, labels, axes_pool):
    """``(pieces, axes, cells left free)``: each label a random shape on free cells, until one
    does not fit."""
    pieces, axes = {}, {}
    for label in labels:
        shape = rng.choice(SHAPES)
        spots = [(x, y) for x, y in free if all((x + dx, y + dy) in free for dx, dy in shape)]
        if not spots:
            break
        x, y = rng.choice(spots)
        pieces[label] = frozenset((x + dx, y + dy) for dx, dy in shape)
        free = [c for c in free if c not in pieces[label]]
        axes[label] = rng.choice(axes_pool)
    return pieces, axes, free


def random_counts(rng, board):
    labels = sorted(board["pieces"])
    out = []
    for _ in range(rng.randint(1, 2)):
        group = rng.sample(labels, rng.randint(1, min(2, len(labels))))
        out.append(("+".join(sorted(group)), rng.choice(list(OPS)), rng.randint(0, 3)))
    return out


def slide_text(board, counts) -> str:
    def picture(placement):
        rows = []
        for y in range(board["h"]):
            row = ""
            for x in range(board["w"]):
                label = next((lb for lb, cs in placement.items() if (x, y) in cs), None)
                row += label or ("#" if (x, y) in board["walls"] else ".")
            rows.append(row)
        return rows
    goal_label, goal_cells = board["goal"]
    lines = ["board:", *picture(board["pieces"]), "", "goal:", *picture({goal_label: goal_cells}), ""]
    lines.append("axes: " + " ".join(f"{lb}={ax}" for lb, ax in board["axes"].items()))
    lines.append("constraints: " + " ".join(f"{p}.moves{op}{k}" for p, op, k in counts))
    return "\n".join(lines) + "\n"


# -- the rules and the counting, from the definitions ----------------------------------
def step(board, placement, label, d):
    """The placement after ``label`` moves one cell in ``d``, or None if illegal."""
    if d not in {"hv": "UDLR", "h": "LR", "v": "UD"}[board["axes"][label]]:
        return None
    dx, dy = VEC[d]
    moved = frozenset((x + dx, y + dy) for x, y in placement[label])
    others = set().union(*(cs for lb, cs in placement.items() if lb != label))
    for x, y in moved:
        if not (0 <= x < board["w"] and 0 <= y < board["h"]) or (x, y) in board["walls"] or (x, y) in others:
            return None
    new = dict(placement)
    new[label] = moved
    return new


def extend(metric, runs, label, d):
    """The plan's moves after one more unit step.  ``runs`` is a tuple of
    (label, direction or None, dx, dy): the moves so far."""
    dx, dy = VEC[d]
    if metric == "steps":
        return runs + ((label, None, dx, dy),)
    if metric == "slides":
        if runs and runs[-1][0] == label and runs[-1][1] == d:
            return runs
        return runs + ((label, d, dx, dy),)
    runs = list(runs)
    if runs and runs[-1][0] != label and runs[-1][2:] == (0, 0):
        runs.pop()
    if runs and runs[-1][0] == label:
        lb, _, x, y = runs[-1]
        runs[-1] = (lb, None, x + dx, y + dy)
    else:
        runs.append((label, None, dx, dy))
    return tuple(runs)


def finished(metric, runs):
    if metric == "moves" and runs and runs[-1][2:] == (0, 0):
        return runs[:-1]
    return runs


def conditions_hold(counts, runs) -> bool:
    per = {}
    for lb, *_ in runs:
        per[lb] = per.get(lb, 0) + 1
    return all(OPS[op](sum(per.get(p, 0) for p in group.split("+")), k) for group, op, k in counts)


def oracle(board, counts, metric, depth):
    """Fewest moves over every plan of at most ``depth`` unit steps that reaches the
    goal with the counts holding (None: no such plan), or "too big"."""
    label, goal = board["goal"]
    start = dict(board["pieces"])
    key = lambda pl, runs: (tuple(sorted(pl.items())), runs if metric == "moves" else
                            (runs[-1:] if metric == "slides" else ()) + (len(runs),) +
                            tuple(sum(1 for r in runs if r[0] == lb) for lb in sorted(pl)))
    level = [(start, ())]
    seen = {key(start, ())}
    best = None
    for n in range(depth + 1):
        nxt = []
        for placement, runs in level:
            done = finished(metric, runs)
            if placement[label] == goal and conditions_hold(counts, done):
                best = len(done) if best is None else min(best, len(done))
            if n == depth:
                continue
            for lb in placement:
                for d in VEC:
                    new = step(board, placement, lb, d)
                    if new is None:
                        continue
                    r2 = extend(metric, runs, lb, d)
                    k = key(new, r2)
                    if k not in seen:
                        seen.add(k)
                        nxt.append((new, r2))
        if len(seen) > MAX_KEYS:
            return "too big"
        level = nxt
    return best


def replayed_cost(board, counts, metric, steps):
    """Replay a plan by these rules; its cost, or None if illegal / not solved."""
    placement, runs = dict(board["pieces"]), ()
    for s in steps:
        placement = step(board, placement, s[:-1], s[-1])
        if placement is None:
            return None
        runs = extend(metric, runs, s[:-1], s[-1])
    runs = finished(metric, runs)
    label, goal = board["goal"]
    return len(runs) if placement[label] == goal and conditions_hold(counts, runs) else None


# -- the comparison ---------------------------------------------------------------------
def compare(board, counts, metric, tmp_path, backends):
    path = tmp_path / "b.slide"
    path.write_text(slide_text(board, counts))
    try:
        domain = load(path).problem
    except Contradiction:       # conditions the rules see no plan can meet: the oracle finds none either
        best = oracle(board, counts, metric, 8)
        assert best in (None, "too big"), (slide_text(board, counts), metric, best)
        return None if best == "too big" else Status.UNSOLVABLE
    ref = breadth_first_search(domain, metric)
    depth = 8 if ref.status is not Status.OPTIMAL else min(max(len(ref.steps) + 1, 6), 10)
    best = oracle(board, counts, metric, depth)
    if best == "too big":
        return None
    if ref.status is Status.OPTIMAL:
        assert replayed_cost(board, counts, metric, ref.steps) == ref.length, (slide_text(board, counts), ref.steps)
        if len(ref.steps) <= depth:
            assert best == ref.length, (slide_text(board, counts), metric, best, ref.length, ref.steps)
        else:
            assert best is None or best >= ref.length
    else:
        assert ref.status is Status.UNSOLVABLE
        assert best is None, (slide_text(board, counts), metric, best)
    bound = ref.length if ref.status is Status.OPTIMAL else 12
    for backend in backends:
        got = solve(domain, metric, backend, max_horizon=bound)
        if ref.status is Status.OPTIMAL:
            assert got.status is Status.OPTIMAL and got.length == ref.length, (slide_text(board, counts), backend, got)
            assert replayed_cost(board, counts, metric, got.steps) == got.length
        else:
            assert got.status is Status.NO_PLAN_WITHIN and got.bound == bound, (backend, got)
    return ref.status


@pytest.mark.parametrize("metric", ["steps", "slides", "moves"])
def test_tiny_boards_oracle_search_and_sat_agree(metric, tmp_path):
    rng = random.Random({"steps": 11, "slides": 12, "moves": 13}[metric])
    outcomes = []
    for i in range(BOARDS_PER_METRIC):
        board = random_board(rng)
        counts = random_counts(rng, board)
        backends = (["pysat"] + (["cpsat"] if i % 2 == 0 else []) + (["pysat-plain"] if i % 5 == 0 else [])
                    + (["pysat-de"] if i % 3 == 0 else []))
        outcomes.append(compare(board, counts, metric, tmp_path, backends))
    checked = [o for o in outcomes if o is not None]
    assert len(checked) >= 0.95 * BOARDS_PER_METRIC
    assert sum(o is Status.OPTIMAL for o in checked) >= 40         # both outcomes well represented
    assert sum(o is Status.UNSOLVABLE for o in checked) >= 20


def test_the_null_move_is_no_move(tmp_path):
    """``A.`` with ``A.moves=1`` and the goal where A stands: "AR AL" is no move, so
    no plan exists, by the oracle, by search, by SAT, and by validate."""
    from puzzleplan.validate import check_plan
    board = {"w": 2, "h": 1, "walls": set(), "pieces": {"A": frozenset({(0, 0)})}, "axes": {"A": "hv"},
             "goal": ("A", frozenset({(0, 0)}))}
    counts = [("A", "=", 1)]
    assert oracle(board, counts, "moves", 8) is None
    assert compare(board, counts, "moves", tmp_path, ["pysat", "cpsat"]) is Status.UNSOLVABLE
    path = tmp_path / "b.slide"
    domain = load(path).problem
    assert not check_plan(domain, ["AR", "AL"], "moves")["solved"]
    assert domain.rules.count(["AR", "AL"], "moves") == 0
    assert domain.rules.moves_of(["AR", "BL", "BR", "AR"], "moves") == [("A", ("AR", "AR"))]


# -- makespan: time steps of pieces moving together ---------------------------------------
def together(board, placement, moving):
    """The placement after the pieces of ``moving`` (label -> direction) each move one cell at
    once, or None: by the definition, each enters only cells no piece covers before the time
    step, and no cell is entered twice."""
    covered = set().union(*placement.values())
    new, entered = dict(placement), set()
    for label, d in moving.items():
        one = step(board, {label: placement[label]}, label, d)   # board, walls and axes alone
        if one is None:
            return None
        fresh = one[label] - placement[label]
        if fresh & covered or fresh & entered:
            return None
        entered |= fresh
        new[label] = one[label]
    return new


def joint(board, placement):
    labels = sorted(placement)
    for choice in __import__("itertools").product([None, *VEC], repeat=len(labels)):
        moving = {lb: d for lb, d in zip(labels, choice) if d is not None}
        if moving:
            new = together(board, placement, moving)
            if new is not None:
                yield moving, new


def random_crowd(rng):
    """A board of 3x3 to 4x4 with 2-4 pieces and goals for 1-3 of them (several pieces at work
    make time steps of several moves)."""
    while True:
        w, h = rng.choice([(3, 3), (3, 4), (4, 3), (4, 4)])
        cells = [(x, y) for y in range(h) for x in range(w)]
        pieces, axes, free = put_pieces(rng, cells, "ABCD"[:rng.randint(2, 4)], ["hv", "hv", "hv", "h", "v"])
        goals, taken = [], set()
        for label in rng.sample(sorted(pieces), min(len(pieces), rng.randint(1, 3))):
            x0, y0 = min(x for x, _ in pieces[label]), min(y for _, y in pieces[label])
            shape = [(x - x0, y - y0) for x, y in pieces[label]]
            spots = [(x, y) for x, y in cells if all((x + dx, y + dy) in cells and (x + dx, y + dy) not in taken
                                                      for dx, dy in shape)
                     and (axes[label] != "h" or y == y0) and (axes[label] != "v" or x == x0)]
            if spots:
                gx, gy = rng.choice(spots)
                goals.append((label, frozenset((gx + dx, gy + dy) for dx, dy in shape)))
                taken |= goals[-1][1]
        if goals and free and any(pieces[label] != cells for label, cells in goals):
            return {"w": w, "h": h, "walls": set(), "pieces": pieces, "axes": axes, "goal": goals[0], "goals": goals}


def crowd_text(board) -> str:
    text = slide_text(board, []).replace("constraints: \n", "")
    head, _, tail = text.partition("goal:\n")
    rows = tail.split("\n")[:board["h"]]
    goal = [["." for _ in range(board["w"])] for _ in range(board["h"])]
    for label, cells in board["goals"]:
        for x, y in cells:
            goal[y][x] = label
    return head + "goal:\n" + "\n".join("".join(r) for r in goal) + "\n" + "\n".join(tail.split("\n")[len(rows):])


def reached(board, placement) -> bool:
    return all(placement[label] == cells for label, cells in board.get("goals", [board["goal"]]))


def makespan_oracle(board):
    """The fewest time steps to the goal by breadth-first search over labelled placements
    (None: no plan)."""
    label, goal = board["goal"]
    start = dict(board["pieces"])
    level, seen = [start], {tuple(sorted(start.items()))}
    for n in range(64):
        if any(reached(board, pl) for pl in level):
            return n
        nxt = []
        for placement in level:
            for _, new in joint(board, placement):
                k = tuple(sorted(new.items()))
                if k not in seen:
                    seen.add(k)
                    nxt.append(new)
        if not nxt:
            return None
        level = nxt
    return "too big"


def makespan_of(board, steps):
    """The fewest time steps a plan of unit steps can be cut into (any cut, not only the
    greedy one), or None if the steps are illegal or do not reach the goal."""
    places = [dict(board["pieces"])]
    for s in steps:
        nxt = step(board, places[-1], s[:-1], s[-1])
        if nxt is None:
            return None
        places.append(nxt)
    if not reached(board, places[-1]):
        return None
    best = [0] + [None] * len(steps)
    for i in range(1, len(steps) + 1):
        for j in range(i):
            moving = {}
            for s in steps[j:i]:
                moving.setdefault(s[:-1], []).append(s[-1])
            if best[j] is None or any(len(ds) > 1 for ds in moving.values()):
                continue
            if together(board, places[j], {lb: ds[0] for lb, ds in moving.items()}) is not None:
                best[i] = best[j] + 1 if best[i] is None else min(best[i], best[j] + 1)
    return best[-1]


def test_makespan_oracle_search_and_sat_agree(tmp_path):
    rng = random.Random(14)
    outcomes, several = [], 0
    for i in range(120):
        board = random_board(rng) if i % 3 == 0 else random_crowd(rng)
        path = tmp_path / "b.slide"
        path.write_text(crowd_text(board) if "goals" in board else slide_text(board, []).replace("constraints: \n", ""))
        domain = load(path).problem
        best = makespan_oracle(board)
        ref = breadth_first_search(domain, "makespan")
        if best is None:
            assert ref.status is Status.UNSOLVABLE, slide_text(board, [])
        else:
            assert ref.status is Status.OPTIMAL and ref.length == best, (path.read_text(), ref, best)
            assert makespan_of(board, ref.steps) == best
        backends = ["pysat", "pysat-de"] + (["cpsat"] if i % 3 == 0 else [])
        for backend in backends:
            got = solve(domain, "makespan", backend, max_horizon=best if best is not None else 6)
            if best is None:
                assert got.status in (Status.NO_PLAN_WITHIN, Status.UNSOLVABLE), (backend, got)
            else:
                assert got.status is Status.OPTIMAL and got.length == best, (path.read_text(), backend, got)
                assert makespan_of(board, got.steps) == best
                several += len(got.steps) > got.length
        outcomes.append(best)
    assert sum(o is None for o in outcomes) >= 10
    assert sum(isinstance(o, int) and o >= 3 for o in outcomes) >= 25
    assert several >= 30         # plans whose time steps move two pieces or more
