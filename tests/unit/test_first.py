"""First plans: the relaxed ∃-step encoding of sliding blocks (its one-step successors against
a brute force over the fixed order, every linearised plan replayed), the greedy fallback,
windows re-solved, and the deepening's optima unchanged with them."""
import itertools

import pytest

from conftest import INSTANCES
from puzzleplan.encodings.model import BoolModel
from puzzleplan.families.sliding.parallel import ParallelSteps
from puzzleplan.families.sliding.rules import DIRS, SlidingSpec, add, build
from puzzleplan.formats.load import load
from puzzleplan.planner import first, solve
from puzzleplan.planner.backends import make_backend
from puzzleplan.puzzle import Status
from puzzleplan.registry import problem as problem_of
from puzzleplan.validate import check_plan

pytestmark = pytest.mark.smoke

EIGHT = INSTANCES / "sliding/eight_puzzle.slide"
KNIGHTS = INSTANCES / "seeds/knights_seed003.knights"
CARD40 = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"


def tiny(rows, axes=None, goal=None):
    """A board from rows of labels ('.' empty); every piece its own kind unless two share a
    shape and axes; the goal: the first piece one cell to the right."""
    pieces = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                pieces.setdefault(ch, set()).add((x, y))
    pieces = {lb: frozenset(c) for lb, c in sorted(pieces.items())}
    first_label = next(iter(pieces))
    goal = goal or ((first_label, frozenset(add(c, DIRS["R"]) for c in pieces[first_label])),)
    spec = SlidingSpec(len(rows[0]), len(rows), frozenset(), pieces,
                       {lb: (axes or {}).get(lb, "hv") for lb in pieces}, goal)
    return problem_of(build(spec, distinct=list(pieces)))


def one_step_by_encoding(problem):
    """Every state (per kind anchors) one parallel step reaches, by enumerating the models."""
    m = BoolModel()
    enc = ParallelSteps(problem)
    enc.start(m)
    enc.extend(m, 1)
    solver = make_backend("pysat-plain", m, "seqcounter", problem.family)
    rules = problem.rules
    at = {(k, a): enc.at(m, k, a, 1) for k, kind in enumerate(rules.kinds) for a in kind.anchors}
    out = set()
    while solver.solve_budget([], None):
        values = solver.values()
        state = tuple(tuple(sorted(a for (k2, a), v in at.items() if k2 == k and v in values))
                      for k in range(len(rules.kinds)))
        out.add(state)
        # the moves of this model linearised: a legal sequence reaching the same state
        moves = enc.decode(m, values)
        reached = rules.initial
        for move in moves:
            reached = next(s for mv, s in rules.successors(reached, "steps") if mv.data == move.data)
        assert reached == state
        m.add([-v for v in at.values() if v in values])        # block this state
    solver.close()
    return out


def one_step_by_brute_force(problem):
    """Every state that moves in strictly increasing order of the encoding's key, one a piece,
    each legal when its turn comes, reach from the start."""
    rules, enc = problem.rules, ParallelSteps(problem)
    key = {(k, a, d): v for (k, a, d, _, _, _), v in enc.keys.items()}
    out = set()

    def go(state, last, moved):
        out.add(state)
        for move, nxt in rules.successors(state, "steps"):
            k, (a, b) = move.data
            d = next(n for n, v in DIRS.items() if add(a, v) == b)
            if (k, a) not in moved and key[(k, a, d)] > last:
                go(nxt, key[(k, a, d)], moved | {(k, b)})

    go(rules.initial, (-1,), frozenset())
    return out


BOARDS = [
    ["AB.", "CDE", "FG."],                # 2 empty cells, every tile its own kind
    ["A..", "BBC", "D.C"],                # a 1x2 piece and a 2x1 piece
    [".AB", "CDE", "F.G"],
    ["AAB", "..B", "CDE"],
]


@pytest.mark.parametrize("rows", BOARDS, ids=["tiles", "dominoes", "tiles2", "mixed"])
def test_one_parallel_step_reaches_what_the_fixed_order_reaches(rows):
    problem = tiny(rows)
    by_encoding = one_step_by_encoding(problem)
    assert by_encoding == one_step_by_brute_force(problem)
    assert len(by_encoding) > 1 + sum(1 for _ in problem.rules.successors(problem.rules.initial, "steps"))


@pytest.mark.parametrize("path", [EIGHT, CARD40], ids=["eight", "card40"])
def test_a_parallel_plan_is_linearised_and_replayed(path):
    problem = load(path).problem
    steps, length, row = first.parallel_first(problem, "steps", (), None, 0, budget=10**6)
    assert steps is not None and check_plan(problem, steps, "steps")["solved"] and length == len(steps)
    optimum = solve(load(path), "steps", first_plan=False)
    assert length >= optimum.length
    assert row["horizons"][-1][1] == "sat" and row["horizons"][-1][0] <= length


def test_parallel_horizons_find_plans_with_fewer_steps_than_moves():
    """On Rush Hour card 40 (81 moves optimal) a parallel plan needs fewer time steps than moves."""
    problem = load(CARD40).problem
    steps, length, row = first.parallel_first(problem, "steps", (), None, 0, budget=10**6)
    assert row["horizons"][-1][0] < length


def test_the_greedy_fallback_gives_a_replayed_plan():
    problem = load(CARD40).problem
    steps, length, row = first.greedy_first(problem, "steps", ())
    assert check_plan(problem, steps, "steps")["solved"] and row["expanded"] > 0
    assert first.greedy_first(problem, "steps", (), max_states=1)[0] is None


def test_windows_shorten_a_plan_and_every_shorter_plan_replays():
    """Greedy search's plan for Rush Hour card 40 (85 steps, 81 optimal) is shortened by windows."""
    problem = load(CARD40).problem
    optimal = solve(load(CARD40), "steps", first_plan=False)
    steps, length, _ = first.greedy_first(problem, "steps", ())
    offered = []
    windows = first.Windows(problem, "steps", (), None)
    windows.shorten(steps, length, lambda s, n: offered.append((s, n)), 10**6)
    windows.close()
    assert offered, "no window shorter"
    lengths = [n for _, n in offered]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] < length
    for s, n in offered:
        assert check_plan(problem, s, "steps")["solved"] and len(s) == n >= optimal.length


@pytest.mark.parametrize("metric", ["slides", "moves"])
def test_windows_in_every_metric_decode_from_the_window_start(metric):
    """A window starts where the plan stands, not at the puzzle's start: its moves are decoded
    from there (the moves metric joins each move's ends by a path search from that position)."""
    problem = load(EIGHT).problem
    steps, length, _ = first.greedy_first(problem, metric, ())
    detour = steps[:1] + [steps[0][:-1] + {"U": "D", "D": "U", "L": "R", "R": "L"}[steps[0][-1]]] + steps
    offered = []
    windows = first.Windows(problem, metric, (), None)
    windows.shorten(detour, length + 2, lambda s, n: offered.append((s, n)), 10**5)
    windows.close()
    assert offered and offered[-1][1] <= length
    for s, n in offered:
        assert check_plan(problem, s, metric)["length"] == n and check_plan(problem, s, metric)["solved"]


@pytest.mark.parametrize("path", [EIGHT, KNIGHTS, CARD40], ids=["eight", "knights", "card40"])
def test_first_plans_keep_the_optimum(path, monkeypatch):
    """First plans from the first horizon on (FIRST_FROM 0): the optimum is today's, the plans
    found only shrink, and the result says where they came from."""
    from puzzleplan.planner import deepening
    plain = solve(load(path), "steps", first_plan=False)
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    got = solve(load(path), "steps")
    assert got.status is plain.status is Status.OPTIMAL and got.length == plain.length
    assert check_plan(load(path).problem, got.steps, "steps")["solved"]
    assert got.stats["first_plans"]
    found = [row["length"] for row in got.stats.get("improvements", [])]
    assert found == sorted(found, reverse=True) and len(set(found)) == len(found)


def test_without_a_greedy_plan_the_parallel_steps_give_one(monkeypatch):
    from puzzleplan.planner import deepening
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    monkeypatch.setattr(first, "GREEDY_STATES", 1)
    monkeypatch.setattr(first, "PARALLEL_AFTER", 0)
    got = solve(load(EIGHT), "steps")
    ways = [row["way"] for row in got.stats["first_plans"]]
    assert ways[:2] == ["greedy", "parallel"] and got.stats["first_plans"][1]["length"] >= got.length
    assert got.status is Status.OPTIMAL and got.length == solve(load(EIGHT), "steps", first_plan=False).length


def test_no_first_plan_leaves_the_run_as_it_was():
    got = solve(load(KNIGHTS), "steps", first_plan=False)
    assert "first_plans" not in got.stats


def test_parallel_steps_refuse_counts_and_other_metrics():
    from puzzleplan.puzzle import PuzzleError
    with pytest.raises(PuzzleError):
        ParallelSteps(load(EIGHT).problem, "slides")


def test_the_fixed_order_is_a_total_order_on_a_steps_moves():
    enc = ParallelSteps(load(CARD40).problem)
    keys = list(enc.keys.values())
    assert len(set(keys)) == len(keys)
    assert all(a != b for a, b in itertools.combinations(keys, 2))


def test_greedy_search_goes_on_as_the_deepening_spends(monkeypatch):
    """At first GREEDY_FIRST states, later a third of the deepening's conflicts: card 40's greedy
    plan (1,523 states) comes from a later call, and the optimum is the same."""
    monkeypatch.setattr(first, "GREEDY_FIRST", 5)
    got = solve(load(CARD40), "steps")
    greedy = got.stats["first_plans"][0]
    assert greedy["way"] == "greedy" and greedy.get("length") is not None
    assert 5 < greedy["expanded"] <= first.Greedy.allowed(got.stats["conflicts"])
    assert got.status is Status.OPTIMAL and got.length == solve(load(CARD40), "steps", first_plan=False).length


def test_the_parallel_steps_wait_for_the_deepening_to_spend_their_budget(monkeypatch):
    from puzzleplan.planner import deepening
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    monkeypatch.setattr(first, "GREEDY_STATES", 1)
    got = solve(load(EIGHT), "steps")
    ways = [row["way"] for row in got.stats["first_plans"]]
    assert ways[0] == "greedy"
    assert "parallel" not in ways or got.stats["conflicts"] >= first.PARALLEL_BUDGET
    monkeypatch.setattr(first, "PARALLEL_BUDGET", 10 ** 9)        # never spent: never asked
    got = solve(load(EIGHT), "steps")
    assert [row["way"] for row in got.stats["first_plans"]] == ["greedy"]


def test_interchangeable_pieces_never_merge_in_a_parallel_step(tmp_path):
    """A, B and D are one kind (1x1, unnamed): two of them stepping into one anchor in a step
    made one ``at`` true, which the cover counted once -- a piece vanished and the linearised
    plan failed replay."""
    path = tmp_path / "twins.slide"
    path.write_text("board:\nB.D.\n.AE.\nC.EE\n\ngoal:\nE...\nEE..\n....\n\naxes: C=v\n")
    problem = load(path).problem
    steps, length, row = first.parallel_first(problem, "steps", (), None, 2, budget=10**6)
    assert steps is not None and check_plan(problem, steps, "steps")["solved"] and length == len(steps)


def test_a_greedy_plan_before_the_first_horizon_spares_the_enumeration(monkeypatch):
    """A goal reached proves the puzzle solvable, the one thing the enumeration could answer."""
    from puzzleplan.planner import deepening
    said = []
    plain = solve(load(EIGHT), "steps", say=said.append, enumerate_first=True)
    assert any(line.startswith("enumeration") for line in said)
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    said.clear()
    got = solve(load(EIGHT), "steps", say=said.append, enumerate_first=True)
    assert not any(line.startswith("enumeration") for line in said), said
    assert got.stats["first_plans"][0]["way"] == "greedy" and got.stats["first_plans"][0].get("length")
    assert got.status is Status.OPTIMAL and got.length == plain.length


def test_a_model_checker_is_not_sent_to_the_deepening_by_a_greedy_plan(monkeypatch):
    """The greedy plan that spares the enumeration is the deepening's: a model checker answers the
    whole puzzle itself (it was refused with "not one horizon at a time")."""
    from puzzleplan.planner import deepening
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    problem = tiny(["A.", ".."])
    got = solve(problem, "steps", "abc:bmc3", enumerate_first=True)
    assert got.method.startswith("abc") and got.steps is not None and got.length == 1
