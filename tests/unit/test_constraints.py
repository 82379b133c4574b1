"""Side constraints: SAT and search agree; plans satisfy them by independent replay."""
import json
import random

import pytest

from conftest import INSTANCES
import families_gen as generate
from puzzleplan.constraints import state_space
from puzzleplan.registry import problem as problem_of
from puzzleplan.families.knights.rules import Knights
from puzzleplan.families.sliding.rules import SlidingPuzzle
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import EndsOn, IllegalStep, MoveCount, PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan


@pytest.mark.parametrize("backend,metric", [("pysat", "steps"), ("cpsat", "steps"), ("pysat", "slides"),
                                            ("pysat", "moves"), ("cpsat", "moves")])
def test_random_sliding_with_counts_and_avoided_cells(backend, metric):
    rng = random.Random(11)
    compared = 0
    for _ in range(25):
        base = generate.sliding(rng)
        label = rng.choice(list(base.spec.pieces))
        free = sorted({(x, y) for x in range(base.spec.width) for y in range(base.spec.height)}
                      - base.spec.walls - set().union(*base.spec.pieces.values()))
        count = MoveCount(label, rng.choice([">=", "<=", "=="]), rng.randint(0, 3))
        try:
            d = problem_of(SlidingPuzzle(base.spec, [label], {label: {rng.choice(free)}}), [count])
            state_space(d)      # conditions no plan can meet: a Contradiction here
        except PuzzleError:     # the avoided cell is part of the goal: rejected, as it should be
            continue
        ref = breadth_first_search(d, metric)
        if ref.status is Status.UNSOLVABLE or ref.length > 12:
            continue
        got = solve(d, metric, backend)
        assert got.status is Status.OPTIMAL and got.length == ref.length
        assert check_plan(d, got.steps, metric)["solved"]
        compared += 1
    assert compared >= 3


@pytest.mark.heavy
def test_rush_hour_card_40_red_car_at_least_3_and_frozen_car():
    path = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"
    assert breadth_first_search(load(path, constraints=["A.moves>=3"]).problem, "slides").length == 51
    frozen = load(path, constraints=["A.moves>=3", "B.frozen"]).problem
    assert breadth_first_search(frozen, "slides").status is Status.UNSOLVABLE
    got = solve(frozen, "slides", max_horizon=12)
    assert got.status is Status.NO_PLAN_WITHIN and got.bound == 12


def test_rush_hour_card_40_with_a_frozen_car_is_unsolvable_by_enumeration():
    """The enumeration before deepening counts states, not seconds: the same answer on a busy machine."""
    frozen = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh", constraints=["A.moves>=3", "B.frozen"]).problem
    assert solve(frozen, "slides", enumerate_first=True).status is Status.UNSOLVABLE


def test_avoid_is_checked_by_replay():
    d = load(INSTANCES / "seeds/klotski_seed000.slide", constraints=["g.avoid=b5"]).rules   # avoided cells: the rules
    with pytest.raises(IllegalStep, match="may not enter"):
        d.replay(["gR"])


def test_knights_avoid_square_agrees():
    d = load(INSTANCES / "knights/guarini.knights", constraints=["*.avoid=b3"]).rules
    assert isinstance(d, Knights)
    ref = breadth_first_search(d)
    got = solve(d, "steps", max_horizon=ref.length if ref.length else 20)
    if ref.status is Status.OPTIMAL:
        assert got.status is Status.OPTIMAL and got.length == ref.length
        assert check_plan(d, got.steps, "steps")["solved"] and not any("b3" in s for s in got.steps)
    else:
        assert ref.status is Status.UNSOLVABLE and got.status is Status.NO_PLAN_WITHIN and got.bound == 20


def test_microban_level_with_a_forbidden_cell():
    d = load(INSTANCES / "sokoban/Microban.txt", 2, constraints=["player.avoid=b5"]).problem
    ref = breadth_first_search(d, "pushes")
    got = solve(d, "pushes")
    assert ref.length == got.length and got.status is Status.OPTIMAL
    assert check_plan(d, got.steps, "pushes")["solved"]


def agree(d, metric, backend, bound=12):
    """SAT and BFS agree on ``d``; a SAT plan satisfies every condition by replay."""
    ref = breadth_first_search(d, metric)
    if ref.status is Status.UNSOLVABLE:
        got = solve(d, metric, backend, max_horizon=6)
        assert got.status is Status.NO_PLAN_WITHIN and got.bound == 6 and got.steps is None
        return False
    if ref.length > bound:
        return False
    got = solve(d, metric, backend)
    assert got.status is Status.OPTIMAL and got.length == ref.length
    assert check_plan(d, got.steps, metric)["solved"]
    assert check_plan(d, ref.steps, metric)["solved"]
    return True


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_random_sliding_group_caps_and_end_cells(backend):
    rng = random.Random(23)
    compared = 0
    for _ in range(40):
        base = generate.sliding(rng, pieces=4)
        labels = rng.sample(sorted(base.spec.pieces), 2)
        group = MoveCount("+".join(labels), rng.choice(["<=", ">=", "=="]), rng.randint(0, 4))
        cells = sorted({(x, y) for x in range(base.spec.width) for y in range(base.spec.height)} - base.spec.walls)
        region = frozenset(rng.sample(cells, rng.randint(3, 8)))
        ends = [EndsOn(labels[0], region)] if rng.random() < 0.7 else []
        try:
            d = problem_of(SlidingPuzzle(base.spec, labels), [group], ends)
            state_space(d)
        except PuzzleError:      # the piece cannot fit in the region: told so, as it should be
            continue
        for metric in ("steps", "slides"):
            compared += agree(d, metric, backend)
    assert compared >= 8


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_random_knights_group_caps_and_end_squares(backend):
    rng = random.Random(5)
    compared = 0
    for _ in range(20):
        base = generate.knights(rng, 3, 4, n=2, holes=1)
        group = MoveCount("A+B", rng.choice(["<=", ">=", "=="]), rng.randint(1, 6))
        region = frozenset(rng.sample(sorted(base.spec.squares), 3))
        try:
            d = problem_of(base, [group], [EndsOn("B", region)] if rng.random() < 0.5 else [])
            state_space(d)      # conditions no plan can meet: a Contradiction here
        except PuzzleError:
            continue
        compared += agree(d, "steps", backend)
    assert compared >= 5


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_random_knights_single_counts_where_distances_and_owed_moves_add_up(backend):
    """Counts on one knight each (the additive bound: a knight's jumps to its target and the
    jumps another still owes), SAT = BFS on generated boards."""
    rng = random.Random(11)
    compared = 0
    for _ in range(24):
        base = generate.knights(rng, 3, 4, n=2, holes=1)
        counts = [MoveCount(lb, rng.choice([">=", "=="]), rng.randint(1, 5)) for lb in rng.sample("AB", rng.randint(1, 2))]
        try:
            d = problem_of(base, counts)
            state_space(d)      # conditions no plan can meet: a Contradiction here
        except PuzzleError:
            continue
        compared += agree(d, "steps", backend)
    assert compared >= 8


@pytest.mark.parametrize("backend", ["pysat", "cpsat"])
def test_random_sokoban_player_end_cells(backend):
    rng = random.Random(8)
    compared = 0
    for _ in range(12):
        base = generate.sokoban(rng, 4, 3, boxes=1)
        region = frozenset(rng.sample(sorted(base.floor), 2))
        try:
            d = problem_of(base, [MoveCount("player", "<=", 12)], [EndsOn("player", region)])
            state_space(d)      # conditions no plan can meet: a Contradiction here
        except PuzzleError:
            continue
        compared += agree(d, "moves", backend, bound=10)
    assert compared >= 3


SMALL = """name: three pieces
board:
.A.
CAB
..B

goal:
...
..C
...
axes: B=h
constraints: A+B.moves<=2
"""


def test_group_cap_and_end_cells_from_a_file_and_the_cli(tmp_path):
    from click.testing import CliRunner
    from puzzleplan.cli import main
    path = tmp_path / "small.slide"
    path.write_text(SMALL)
    d = load(path).problem
    ref = breadth_first_search(d, "steps")
    report = check_plan(d, ref.steps, "steps")
    assert report["solved"] and report["moves_per_piece"].get("A", 0) + report["moves_per_piece"].get("B", 0) <= 2
    (tmp_path / "loose.slide").write_text(SMALL.replace("constraints: A+B.moves<=2", ""))
    loose = breadth_first_search(load(tmp_path / "loose.slide").problem, "steps")
    assert (ref.length, loose.length) == (8, 7)      # the cap costs a move here
    assert not check_plan(d, loose.steps, "steps")["solved"]
    runner = CliRunner()
    out = runner.invoke(main, ["solve", str(path), "--json", "-q"])
    assert out.exit_code == 0 and json.loads(out.output)["length"] == ref.length
    out = runner.invoke(main, ["search", str(path), "--json", "--ends", "A:a1,a2,a3"])
    res = json.loads(out.output)
    assert res["status"] == "optimal" and res["length"] >= ref.length
    assert check_plan(load(path, constraints=["A.ends=a1,a2,a3"]).problem, res["steps"], "steps")["solved"]
    out = runner.invoke(main, ["solve", str(path), "--json", "-q", "--ends", "A:a1,a2,a3"])
    assert json.loads(out.output)["length"] == res["length"]
    # A cannot finish in column b within the cap: search proves it, SAT refutes every horizon tried
    out = runner.invoke(main, ["search", str(path), "--json", "--ends", "A:b2,b3"])
    assert json.loads(out.output)["status"] == "unsolvable"
    out = runner.invoke(main, ["solve", str(path), "--json", "-q", "--ends", "A:b2,b3", "--max-horizon", "12",
                               "--no-enumerate"])
    assert json.loads(out.output)["status"] == "no_plan_within" and json.loads(out.output)["bound"] == 12
    # by default the small state space is enumerated first, and that proves it
    out = runner.invoke(main, ["solve", str(path), "--json", "-q", "--ends", "A:b2,b3", "--max-horizon", "12"])
    assert json.loads(out.output)["status"] == "unsolvable" and json.loads(out.output)["method"] == "enumeration"
    out = runner.invoke(main, ["solve", str(path), "--ends", "A:a1", "--max-horizon", "30"])
    # well formed, and no plan can meet it: the answer is unsolvable, with the reason (not bad input)
    assert out.exit_code == 0 and out.output.startswith("unsolvable") and "cannot end within" in out.output
    out = runner.invoke(main, ["solve", str(path), "--ends", "C"])
    assert out.exit_code == 2 and "write PIECE:CELLS" in out.output


def test_end_condition_rejects_a_plan_that_ends_elsewhere():
    """Seed 003's optimal plan takes G to d8; asking G to end on g1 rejects it."""
    seed = INSTANCES / "seeds/knights_seed003.knights"
    plan = breadth_first_search(load(seed).problem, "steps").steps
    assert check_plan(load(seed, constraints=["G.ends=d8"]).problem, plan, "steps")["solved"]
    report = check_plan(load(seed, constraints=["G.ends=g1"]).problem, plan, "steps")
    assert not report["solved"] and "does not end within" in report["problem"]


def test_sokoban_end_condition_needs_the_moves_metric():
    d = load(INSTANCES / "sokoban/Microban.txt", 1, constraints=["player.ends=c4"]).problem
    with pytest.raises(PuzzleError, match="needs the moves metric"):
        solve(d, "pushes")
    with pytest.raises(PuzzleError, match="needs the moves metric"):
        breadth_first_search(d, "pushes")


def test_constraint_objects_in_the_python_api_mean_what_the_texts_mean():
    import puzzleplan as pp
    path = INSTANCES / "sokoban/Microban.txt"
    by_text = pp.load(path, 2, constraints=["player.avoid=b5", "player.ends=e2"]).problem
    by_object = pp.load(path, 2, constraints=[pp.Avoid("player", frozenset({(1, 4)})),
                                              pp.EndsOn("player", frozenset({(4, 1)}))]).problem
    a, b = pp.breadth_first_search(by_text, "moves"), pp.solve(by_object, "moves")
    assert a.length == b.length and b.status is Status.OPTIMAL
    assert pp.check_plan(by_text, b.steps, "moves")["solved"]
    with pytest.raises(PuzzleError, match="not a constraint"):
        pp.load(path, 2, constraints=[42])


CORRIDOR = """name: corridor
board:
A...
goal:
...A
"""


@pytest.mark.parametrize("metric,count,expected", [("slides", ">=2", 3), ("moves", ">=2", None), ("steps", ">=4", 5)])
def test_a_counted_piece_cannot_split_one_move_in_two(tmp_path, metric, count, expected):
    """Sliding right by 1 then by 2 is one slide: to slide twice, A must turn back, so
    A.slides>=2 costs 3 slides.  Under ``moves`` a lone piece's consecutive moves are
    always one move, so A.moves>=2 cannot be met.  Search, both SAT backends and the
    checker all count so."""
    path = tmp_path / "corridor.slide"
    path.write_text(CORRIDOR)
    d = load(path, constraints=[f"A.moves{count}"]).problem
    ref = breadth_first_search(d, metric)
    for backend in ("pysat", "cpsat"):
        if expected is None:
            assert ref.status is Status.UNSOLVABLE
            r = solve(d, metric, backend, max_horizon=6)
            assert r.status is Status.NO_PLAN_WITHIN and r.bound == 6
            continue
        assert ref.length == expected
        r = solve(d, metric, backend)
        assert r.status is Status.OPTIMAL and r.length == expected
        assert check_plan(d, r.steps, metric)["solved"]


COUNTED_BOARD = """board:
AB.
CD.
...
goal:
A..
...
...
"""


SHORTFALL = {("B.moves>=1", "C.moves>=1", "D.moves>=2"): 4, ("B+C.moves>=3", "D.moves>=1"): 3,
             ("B.moves>=2", "B.moves<=3", "C.moves=1"): 3, ("A.moves>=2",): 2}


@pytest.mark.heavy
@pytest.mark.parametrize("conditions", list(SHORTFALL))
def test_the_counts_shortfall_is_an_admissible_bound_that_binds(write, conditions):
    """Where every move costs 1, the moves the counts still ask for bound the distance: never
    above a state's true distance (every state of a small board), equal to it at the start
    where the rest of the goal already holds."""
    from puzzleplan.kit.test_conformance import exact_distances
    space = state_space(load(write("c.slide", COUNTED_BOARD), constraints=conditions).problem)
    dist = exact_distances(space, "steps", cap=200_000)
    assert dist is not None and space.initial in dist
    for state, d in dist.items():
        assert space.heuristic(state, "steps") <= d, (state, d)
    want = SHORTFALL[conditions]
    assert space.heuristic(space.initial, "steps") == want
    assert dist[space.initial] >= want


FAR_BOARD = """board:
A..
CB.
...
goal:
...
...
..A
"""

# (conditions, the bound at the start: A's four steps and the moves the others still owe, added)
ADDED = {("B.moves>=1",): 5, ("B.moves>=1", "C.moves>=2"): 7, ("A.moves>=6",): 6, ("A.moves>=6", "B.moves>=1"): 7,
         ("B+C.moves>=3",): 4}


@pytest.mark.parametrize("conditions", list(ADDED))
def test_a_pieces_distance_and_the_moves_others_owe_add_up(write, conditions):
    """Each move moves one piece: a piece's distance to its target and the moves another piece
    still owes add up (per piece the larger of its distance and its own shortfall; a group
    count's shortfall alone, its pieces' moves not told apart). Never above a state's true
    distance on every state of a small board; at the start, the sum."""
    from puzzleplan.kit.test_conformance import exact_distances
    space = state_space(load(write("far.slide", FAR_BOARD), constraints=conditions).problem)
    dist = exact_distances(space, "steps", cap=200_000)
    assert dist is not None and space.initial in dist
    for state, d in dist.items():
        assert space.heuristic(state, "steps") <= d, (state, d)
    assert space.heuristic(space.initial, "steps") == ADDED[conditions]
    assert dist[space.initial] >= ADDED[conditions]


KNIGHTS_BOARD = """board:
A...
....
.B..
goal: A@d3 B@a3
"""


@pytest.mark.parametrize("conditions", [("B.moves>=3",), ("B.moves>=4",), ("A.moves>=2", "B.moves>=3")])
def test_knights_distances_and_the_moves_owed_add_up(write, conditions):
    """The knights' bound with counts: per knight the larger of its fewest jumps to its
    target and the jumps its counts still ask for, added over the knights; never above a
    state's true distance (every state of a 4 x 3 board), and above the old bound (the
    larger of the two sums) at the start."""
    from puzzleplan.kit.test_conformance import exact_distances
    domain = load(write("k.knights", KNIGHTS_BOARD), constraints=conditions).problem
    space = state_space(domain)
    dist = exact_distances(space, "steps", cap=200_000)
    assert dist is not None and space.initial in dist
    for state, d in dist.items():
        assert space.heuristic(state, "steps") <= d, (state, d)
    rules = domain.rules
    jumps = rules.mover_bounds(rules.initial, "steps", 0)
    owed = {rules.mover_of(c.pieces[0]): c.k for c in domain.counts if c.op != "<="}
    added = sum(max(jumps.get(k, 0), owed.get(k, 0)) for k in set(jumps) | set(owed))
    assert added > max(sum(jumps.values()), sum(owed.values()))
    assert space.heuristic(space.initial, "steps") == added <= dist[space.initial]


def test_astar_stays_optimal_where_the_knights_bound_is_not_consistent():
    """Three knights of each colour on a 3 x 4 board with holes: one jump can bring the nearest
    knight closer to two targets at once, so the bound drops by 2 on one move (admissible, not
    consistent); A* reopens a state reached more cheaply after its expansion, and agrees with
    BFS (it reported 25 where the optimum is 23 when it did not)."""
    from puzzleplan.families.knights.rules import Alternative, KnightsSpec
    from puzzleplan.search import astar_search
    squares = frozenset({(0, 1), (1, 2), (0, 0), (0, 3), (2, 0), (2, 3), (0, 2), (2, 2), (1, 0), (1, 3)})
    spec = KnightsSpec(width=3, height=4, squares=squares,
                       knights=(("W", (0, 1)), ("B", (1, 2)), ("W", (0, 2)), ("B", (2, 0)), ("W", (2, 3)), ("B", (0, 0))),
                       goals=(Alternative(placements=(("W", (1, 2)), ("B", (0, 0)), ("W", (2, 0)), ("B", (0, 2)),
                                                      ("W", (0, 1)), ("B", (1, 3))), counts=()),), name="inconsistent")
    d = Knights(spec)
    ref = breadth_first_search(d, "steps")
    got = astar_search(d, "steps")
    assert ref.length == 23 and got.status is Status.OPTIMAL and got.length == 23
    assert check_plan(d, got.steps, "steps")["solved"]


@pytest.mark.parametrize("metric", ["steps", "moves"])
def test_a_count_on_every_piece_is_one_count_per_piece(tmp_path, metric):
    """``*.moves>=1`` means what one ``--moves`` per piece means: the same counts, the same optimum
    (search and SAT), on generated boards of tiles."""
    from puzzleplan.families.sliding.series import text
    rng = random.Random(5)
    compared = 0
    for i in range(12):
        w, h = rng.choice([(3, 2), (3, 3), (4, 2)])
        cells = [(x, y) for x in range(w) for y in range(h)]
        pieces = dict(zip("ABCD", rng.sample(cells, rng.randint(2, min(4, w * h - 2)))))
        path = tmp_path / f"b{i}.slide"
        path.write_text(text(w, h, pieces, {"A": rng.choice(cells)}, f"board {i}"))
        every = load(path, constraints=["*.moves>=1"])
        one_by_one = load(path, constraints=[f"{p}.moves>=1" for p in pieces])
        assert set(every.problem.counts) == set(one_by_one.problem.counts) == {MoveCount(p, ">=", 1) for p in pieces}
        by_search = breadth_first_search(every.problem, metric, time_limit=60)
        assert by_search.status is Status.OPTIMAL
        assert by_search.length == breadth_first_search(one_by_one.problem, metric, time_limit=60).length
        assert solve(every, metric, "pysat").length == by_search.length
        compared += 1
    assert compared == 12


def test_every_piece_stands_alone_and_counts_only_what_the_rules_count(tmp_path):
    with pytest.raises(PuzzleError, match="'\\*' stands alone"):
        load(INSTANCES / "sliding/eight_puzzle.slide", constraints=["A+*.moves>=3"])
    soko = load(INSTANCES / "sokoban/Microban.txt", 1, constraints=["*.moves<=40"])
    assert soko.problem.counts == (MoveCount("player", "<=", 40),)      # boxes are pushed, not counted
