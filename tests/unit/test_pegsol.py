"""Peg solitaire: the .peg format, the rules, SAT = BFS = an enumerator written here from
scratch (its own jump rules, sharing no code with the package), side conditions, and the
bundled boards."""
from __future__ import annotations

import random
from collections import deque

import pytest

from conftest import INSTANCES
from puzzleplan.families.pegsol.fileformat import parse, write as write_peg
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import IllegalStep, PuzzleError, Status
from puzzleplan.search import astar_search, breadth_first_search
from puzzleplan.validate import check_plan

CROSS = """\
name: Greek cross
board:
  ...
  .o.
...o...
.ooooo.
...o...
  .o.
  ...
goal: one peg at d4
"""


# -- an independent enumerator ------------------------------------------------------------
LINES = {"orthogonal": [(1, 0), (-1, 0), (0, 1), (0, -1)],
         "triangular": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)],
         "diagonal": [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]}


def brute_force(holes, pegs, lines, goal_cells=None, goal_count=1, metric="steps", frozen=(), avoid=None,
                at_least=None, ends=None):
    """Fewest moves to the goal, or None.  ``pegs``: {cell: label}; a move is a jump
    (steps) or a run of jumps from where the last jump landed (moves).  ``at_least``:
    (label, k) -- that peg makes k moves or more; ``ends``: (label, cell)."""
    avoid = avoid or {}
    cap = at_least[1] if at_least else 0

    def done(board, count):
        occupied = {c for c, _ in board}
        if len(occupied) != goal_count or (goal_cells is not None and occupied != set(goal_cells)):
            return False
        if ends and (ends[1], ends[0]) not in board:
            return False
        return count >= cap

    start = (frozenset(pegs.items()), None, 0)
    cost = {start: 0}
    queue = deque([start])
    best = None
    while queue:           # 0-1 breadth-first: continuing a run costs 0 under moves
        state = queue.popleft()
        board, last, count = state
        d = cost[state]
        if best is not None and d >= best:
            continue
        if done(board, count):
            best = d
            continue
        at = dict(board)
        for (x, y), label in at.items():
            if label in frozen:
                continue
            for dx, dy in lines:
                over, to = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                if over not in at or to not in holes or to in at:
                    continue
                if to in avoid.get(label, ()) or to in avoid.get("*", ()):
                    continue
                free = metric == "moves" and last == (x, y)
                nxt = dict(at)
                del nxt[over], nxt[(x, y)]
                nxt[to] = label
                moved = count + (0 if free else 1) if at_least and label == at_least[0] else count
                key = (frozenset(nxt.items()), to, min(moved, cap))
                step = 0 if free else 1
                if d + step < cost.get(key, 1 << 30):
                    cost[key] = d + step
                    (queue.appendleft if step == 0 else queue.append)(key)
    return best


def random_game(rng, holes, occupied, lines):
    """Where random jumps end (each jump removes the peg between)."""
    occupied = set(occupied)
    while True:
        jumps = [((x, y), (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)) for x, y in sorted(occupied)
                 for dx, dy in lines if (x + dx, y + dy) in occupied and (x + 2 * dx, y + 2 * dy) in holes
                 and (x + 2 * dx, y + 2 * dy) not in occupied]
        if not jumps or rng.random() < 0.1:
            return occupied
        a, b, c = rng.choice(jumps)
        occupied -= {a, b}
        occupied.add(c)


def random_board(rng):
    """(text of a .peg file, holes, pegs, lines, goal cells or None)."""
    directions = rng.choice(["orthogonal", "orthogonal", "triangular", "diagonal"])
    w, h = rng.choice([(3, 3), (4, 3), (3, 4), (5, 2), (4, 4)])
    lines = LINES[directions]
    cells = [(x, y) for y in range(h) for x in range(w)]
    holes = set(cells) - set(rng.sample(cells, rng.randint(0, 2)))
    pegs = {c: "o" for c in rng.sample(sorted(holes), len(holes) - rng.randint(1, 3))}
    for letter, c in zip("AB", rng.sample(sorted(pegs), rng.choice([0, 0, 1, 2]))):
        pegs[c] = letter
    rows = ["".join(pegs.get((x, y), "." if (x, y) in holes else "#") for x in range(w)) for y in range(h)]
    if rng.random() < 0.3:
        goal_cells, goal = None, "goal: one peg"
    else:
        goal_cells = random_game(rng, holes, set(pegs), lines) if rng.random() < 0.7 else \
            set(rng.sample(sorted(holes), rng.randint(1, 3)))
        goal = "goal:\n" + "\n".join("".join("o" if (x, y) in goal_cells else "." if (x, y) in holes else "#"
                                             for x in range(w)) for y in range(h))
    text = f"directions: {directions}\nboard:\n" + "\n".join(rows) + "\n\n" + goal + "\n"
    return text, holes, pegs, lines, goal_cells


def boards(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        text, holes, pegs, lines, goal_cells = random_board(rng)
        try:
            parse(text)
        except PuzzleError:         # a goal with more pegs than the board: not a puzzle
            continue
        out.append((text, holes, pegs, lines, goal_cells))
    return out


@pytest.mark.parametrize("metric", ["steps", "moves"])
def test_sat_bfs_and_an_independent_enumerator_agree(write, metric):
    solved = unsolvable = 0
    for i, (text, holes, pegs, lines, goal_cells) in enumerate(boards(40, seed=7)):
        domain = load(write(f"b{i}.peg", text)).rules
        want = brute_force(holes, pegs, lines, goal_cells, len(goal_cells or [1]), metric)
        bfs = breadth_first_search(domain, metric)
        sat = solve(domain, metric)
        assert bfs.length == sat.length == want, text
        if want is None:
            assert bfs.status is Status.UNSOLVABLE and sat.status in (Status.UNSOLVABLE, Status.NO_PLAN_WITHIN)
            unsolvable += 1
        else:
            assert sat.status is Status.OPTIMAL and check_plan(domain, sat.steps, metric)["solved"]
            assert domain.heuristic(domain.initial, metric) <= want      # admissible
            solved += 1
    assert solved >= 10 and unsolvable >= 5


CONSTRAINED = [
    ("A.frozen", dict(frozen={"A"})),
    ("A.avoid=d4", dict(avoid={"A": {(3, 3)}})),
    ("*.avoid=c3", dict(avoid={"*": {(2, 2)}})),
    ("A.moves>=2", dict(at_least=("A", 2))),
    ("A.ends=d4", dict(ends=("A", (3, 3)))),
]


@pytest.mark.parametrize("metric", ["steps", "moves"])
@pytest.mark.parametrize("constraint,meaning", CONSTRAINED, ids=[c for c, _ in CONSTRAINED])
def test_side_conditions_on_a_named_peg(write, constraint, meaning, metric):
    text = CROSS.replace(".ooooo.", ".oAooo.") + f"constraints: {constraint}\n"
    domain = load(write("cross.peg", text)).problem
    holes = {(x, y) for y, row in enumerate(CROSS.splitlines()[2:9]) for x, ch in enumerate(row) if ch in ".o"}
    pegs = {c: "o" for c in [(3, 1), (3, 2), (1, 3), (3, 3), (4, 3), (5, 3), (3, 4), (3, 5)]}
    pegs[(2, 3)] = "A"
    want = brute_force(holes, pegs, LINES["orthogonal"], {(3, 3)}, 1, metric, **meaning)
    bfs = breadth_first_search(domain, metric)
    sat = solve(domain, metric)
    assert bfs.length == sat.length == want
    if want is not None:
        report = check_plan(domain, sat.steps, metric)
        assert report["solved"]
        assert domain.rules.count(sat.steps, metric) == want


def test_a_named_peg_that_must_end_somewhere_must_survive(write):
    jumped = load(write("jumped.peg", "board:\noA.\ngoal: one peg\nconstraints: A.ends=c1\n")).problem
    assert not check_plan(jumped, ["a1-c1"], "steps")["solved"]        # A was jumped: it ends nowhere
    assert solve(jumped).status is Status.UNSOLVABLE
    assert breadth_first_search(jumped).status is Status.UNSOLVABLE
    kept = load(write("kept.peg", "board:\nAo.\ngoal: one peg\nconstraints: A.ends=c1\n")).problem
    assert check_plan(kept, ["a1-c1"], "steps")["solved"] and solve(kept).steps == ["a1-c1"]


# -- the format -----------------------------------------------------------------------------
def test_the_format_round_trips(write):
    for path in sorted((INSTANCES / "pegsol").glob("*.peg")):
        spec = parse(path.read_text())
        assert parse(write_peg(spec)) == spec
    for text, *_ in boards(20, seed=3):
        spec = parse(text)
        assert parse(write_peg(spec)) == spec


def test_blanks_and_hashes_are_the_same_board():
    spaced = parse(CROSS)
    hashed = parse(CROSS.replace("  ...", "##...##"))
    assert spaced.holes == hashed.holes and spaced.pegs == hashed.pegs and spaced.goal == hashed.goal


def test_a_picture_goal_and_named_pegs():
    spec = parse("board:\nAo.\n\ngoal:\n..A\n")
    assert spec.goal.count == 1 and spec.goal.cells == {(2, 0)} and spec.goal.named == (("A", (2, 0)),)
    rules = load_text(spec)
    assert rules.piece_names() == ["A"]
    assert breadth_first_search(rules).steps == solve(rules).steps == ["a1-c1"]


def load_text(spec):
    from puzzleplan.families.pegsol.rules import build
    return build(spec)


BAD = [
    ("goal: one peg\n", "no 'board:' section", None),
    ("board:\n\ngoal: one peg\n", "no picture", 1),
    ("board:\noo.\no*o\ngoal: one peg\n", "unknown character '*'", 3),
    ("board:\noA.\nAo.\ngoal: one peg\n", "peg A appears twice", 3),
    ("board:\n...\ngoal: one peg\n", "no pegs", 2),
    ("board:\noo.\n", "no goal", None),
    ("board:\noo.\ngoal: a peg\n", "is not 'one peg'", 3),
    ("board:\noo.\ngoal: one peg at z9\n", "z9 is not a hole", 3),
    ("board:\noo.\ngoal: one peg at q\n", "not a square", 3),
    ("board:\noo.\ngoal: two pegs at a1\n", "2 pegs on 1 holes", 3),
    ("board:\noo.\ngoal: five pegs\n", "the board has 2", 3),
    ("board:\noo.\n\ngoal:\n.o\n", "must have the board's holes", 5),
    ("board:\noo.\n\ngoal:\n..B\n", "names peg B", 5),
    ("directions: hexagonal\nboard:\noo.\ngoal: one peg\n", "unknown directions", 1),
    ("board:\noo.\ngoal: one peg\nwidth: 3\n", "unknown section 'width'", 4),
    ("board:\noo.\ngoal: one peg\ngoal: one peg\n", "two 'goal:' sections", 3),
    ("board:\nooA\ngoal: one peg\nconstraints: A.avoid=c1\n", "starts on a hole it must avoid", None),
    ("board:\nooA\ngoal: one peg\nconstraints: B.frozen\n", "no peg 'B'", None),
    ("board:\nooo\ngoal: one peg\nconstraints: o.moves>=2\n", "every unnamed peg", None),
    ("board:\nooA\ngoal: one peg\nconstraints: A.avoid=h8\n", "h8 is not a hole", None),
    ("board:\nooA\ngoal: one peg\nconstraints: A.ends=h8\n", "off the board", None),
]


@pytest.mark.parametrize("text,problem,line", BAD, ids=[b[1] for b in BAD])
def test_bad_input_gets_one_clear_line(write, text, problem, line):
    path = write("bad.peg", text)
    with pytest.raises(PuzzleError) as err:
        domain = load(path).problem
        solve(domain)       # constraints naming pegs are checked when the encoding is built
    message = str(err.value)
    assert problem in message and "\n" not in message and message.startswith(path)
    if line is not None:
        assert err.value.line == line


def test_illegal_jumps_are_refused_by_name():
    rules = load_text(parse(CROSS))
    for step, reason in [("c4-c2", "no peg to jump over"), ("a1-a3", "no peg on a1"), ("d2-d3", "not a jump"),
                         ("d2-f2", "not a hole"), ("b4-d4", "occupied"), ("d2", "from-to")]:
        with pytest.raises(IllegalStep, match=reason):
            rules.replay([step])


def test_a_run_of_jumps_by_one_peg_is_one_move():
    rules = load_text(parse("board:\nooo.o.\n\ngoal: one peg\n"))
    assert rules.moves_of(["b1-d1", "d1-f1"], "moves") == [("o", ("b1-d1", "d1-f1"))]
    assert rules.count(["b1-d1", "d1-f1"], "steps") == 2
    assert rules.count(["c1-a1"], "moves") == 1


def test_pddl_refuses_the_moves_metric_and_exports_steps():
    from puzzleplan.pddl.task import build
    rules = load_text(parse(CROSS))
    with pytest.raises(PuzzleError, match="'moves' metric"):
        build(rules, "moves")
    task = build(rules, "steps")
    assert task.goal and any(s.name.startswith("jump") for s in task.schemas)


# -- the bundled boards ------------------------------------------------------------------------
def test_triangle15_by_sat_and_search():
    domain = load(INSTANCES / "pegsol/triangle15.peg").problem
    sat = solve(domain, "steps")
    assert sat.status is Status.OPTIMAL and sat.length == 13
    assert check_plan(domain, sat.steps, "steps")["solved"]
    assert breadth_first_search(domain, "steps").length == 13
    assert breadth_first_search(domain, "moves").length == astar_search(domain, "moves").length == 10


@pytest.mark.slow
def test_triangle15_in_moves_by_sat():
    """About a minute: refuting 9 moves is the hard part (benchmarks/pegsol/pegsol.csv)."""
    domain = load(INSTANCES / "pegsol/triangle15.peg").problem
    sat = solve(domain, "moves")
    assert sat.status is Status.OPTIMAL and sat.length == 10
    assert check_plan(domain, sat.steps, "moves")["solved"]


def test_impossible_boards_are_reported_unsolvable():
    for name in ("french37", "triangle10"):
        domain = load(INSTANCES / f"pegsol/{name}.peg").problem
        result = solve(domain, "steps")
        assert result.status is Status.UNSOLVABLE and result.steps is None
    small = load(INSTANCES / "pegsol/triangle10.peg").problem
    assert breadth_first_search(small, "moves").status is Status.UNSOLVABLE


@pytest.mark.slow
def test_english33_by_sat():
    """Kissat found the 31 jumps in 140 s on a loaded machine; Glucose and CaDiCaL found
    none in 10 minutes (benchmarks/pegsol/runs/, benchmarks/pegsol/pegsol.csv)."""
    domain = load(INSTANCES / "pegsol/english33.peg").problem
    result = solve(domain, "steps", "external:kissat -q", time_limit=1800)
    assert result.status is Status.OPTIMAL and result.length == 31
    assert check_plan(domain, result.steps, "steps")["solved"]


def test_english33_by_astar():
    """Every plan has 31 jumps, so every state has f = 31: A* takes the deeper state among
    equal f, and finds the central game's plan at once (breadth-first among the ties timed
    out at 60 s)."""
    domain = load(INSTANCES / "pegsol/english33.peg").problem
    result = astar_search(domain, "steps", 60)
    assert result.status is Status.OPTIMAL and result.length == 31
    assert check_plan(domain, result.steps, "steps")["solved"]
    assert result.stats["expanded"] < 100_000
