"""The double-ended encoding (``pysat-de``): its goal-side lemmas are exactly the distances
to the goal that search finds backwards over every state the encoding allows, each unit
holds under a tiny budget, and plans are optimal as BFS says (the conformance suite runs
it on every family; here limits and the forward fallback)."""
import itertools
import random

import pytest

import families_gen as generate
from puzzleplan.registry import problem as problem_of
from puzzleplan.encodings import encoder_for
from puzzleplan.encodings.model import BoolModel
from puzzleplan.kit import goal_distances
from puzzleplan.planner import solve
from puzzleplan.planner.backends import make_backend
from puzzleplan.families.sliding.rules import apart
from puzzleplan.planner.double import GOAL_STEP, DoubleEnded, split
from puzzleplan.puzzle import MoveCount, Status
from puzzleplan.search import breadth_first_search

LAYERS = 8


# -- every state the encoding allows, written here per family from its rules' state ----------
def line(domain, k, a):
    """Where a piece of kind k at anchor a keeps to: its row, its column, or anywhere (-1)."""
    axes = domain.kinds[k].axes
    return a[1] if axes == "h" else a[0] if axes == "v" else -1


def sliding_states(domain):
    """Every placement with each kind's pieces per row (column) as at the start."""
    kinds = domain.kinds
    per_line = [sorted(line(domain, k, a) for a in domain.initial[k]) for k in range(len(kinds))]

    def place(k, left, taken, start):
        if left == 0:
            yield ()
            return
        anchors = sorted(kinds[k].anchors)
        for i in range(start, len(anchors)):
            cells = set(kinds[k].cells(anchors[i]))
            if not cells & taken:
                for rest in place(k, left - 1, taken | cells, i + 1):
                    yield (anchors[i],) + rest

    def kinds_from(k, taken):
        if k == len(kinds):
            yield ()
            return
        for anchors in place(k, len(domain.initial[k]), taken, 0):
            if sorted(line(domain, k, a) for a in anchors) != per_line[k]:
                continue
            cells = {c for a in anchors for c in kinds[k].cells(a)}
            for rest in kinds_from(k + 1, taken | cells):
                yield (anchors,) + rest

    yield from kinds_from(0, set())


def sliding_facts(domain, state):
    covered = {c for k, anchors in enumerate(state) for a in anchors for c in domain.kinds[k].cells(a)}
    cells = [(x, y) for y in range(domain.spec.height) for x in range(domain.spec.width) if domain.inside((x, y))]
    return {("at", k, a) for k, anchors in enumerate(state) for a in anchors} | \
        {("empty", c) for c in cells if c not in covered}


def knights_states(domain):
    squares = sorted(domain.spec.squares)

    def kinds_from(k, taken):
        if k == len(domain.kinds):
            yield ()
            return
        for squares_k in itertools.combinations([s for s in squares if s not in taken], len(domain.initial[k])):
            for rest in kinds_from(k + 1, taken | set(squares_k)):
                yield (tuple(squares_k),) + rest

    yield from kinds_from(0, set())


def knights_facts(domain, state):
    return {("at", k, s) for k, squares in enumerate(state) for s in squares}


def sokoban_states(domain):
    floor = sorted(domain.floor)
    n = len(domain.level.boxes)
    for player in floor:
        if player in domain.no_player:
            continue
        for boxes in itertools.combinations([c for c in floor if c != player and c not in domain.no_box], n):
            yield (player, boxes)


def sokoban_facts(domain, state):
    return {("player", state[0])} | {("box", c) for c in state[1]}


def state_distances(domain, metric, states):
    """Each state's fewest moves to a goal (backward BFS by the rules), or absent."""
    states = list(states)
    back = {}
    for s in states:
        for _, nxt in domain.successors(s, metric):
            back.setdefault(nxt, []).append(s)
    return goal_distances(domain, back, states)


def distances_to_goal(domain, metric, states, facts_of):
    """Each fact's fewest steps to a goal, over ``states`` (backward BFS by the rules)."""
    best = {}
    for s, d in state_distances(domain, metric, states).items():
        for name in facts_of(domain, s):
            best[name] = min(best.get(name, d), d)
    return best


CASES = [("steps", lambda rng: generate.sliding(rng), sliding_states, sliding_facts),
         ("slides", lambda rng: generate.sliding(rng), sliding_states, sliding_facts),
         ("steps", lambda rng: generate.sliding(rng, 5, 4, pieces=4, walls=0, rush=True), sliding_states, sliding_facts),
         ("moves", lambda rng: generate.sliding(rng, 4, 3, 3, 1), sliding_states, sliding_facts),
         ("steps", lambda rng: generate.knights(rng, 3, 4, n=rng.choice([2, 4]), holes=2), knights_states, knights_facts),
         ("moves", lambda rng: generate.sokoban(rng, 4, 3, boxes=2), sokoban_states, sokoban_facts),
         ("pushes", lambda rng: generate.sokoban(rng, 4, 3, boxes=2), sokoban_states, sokoban_facts)]
IDS = ["sliding-steps", "sliding-slides", "rush", "sliding-moves", "knights", "sokoban-moves", "sokoban-pushes"]


def goal_side(domain, metric, budget, backend="pysat"):
    enc = encoder_for(domain, metric)
    assert enc.double_ended() is None
    m = BoolModel()
    solver = make_backend(backend, m)
    de = DoubleEnded(enc, m, solver, lemmas=True, budget=budget)
    assert de.backward.saturate(LAYERS)
    solver.close()
    return enc, m, de.backward


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_goal_side_units_are_exactly_the_distances_search_finds_backwards(case):
    metric, make, states, facts_of = CASES[case]
    rng = random.Random(70 + case)
    checked = 0
    for _ in range(4):
        domain = make(rng)
        dist = distances_to_goal(domain, metric, states(domain), facts_of)
        enc, m, lemmas = goal_side(domain, metric, budget=10 ** 9)
        assert not lemmas.dropped
        for name in enc.facts(m, GOAL_STEP):
            # refuted through the layer before its distance (or through every layer)
            want = min(dist.get(name, LAYERS + 1), LAYERS + 1) - 1
            assert lemmas.refuted.get(name, -1) == want, (name, dist.get(name))
            checked += want >= 0
    assert checked > 0


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_a_tiny_budget_drops_goal_side_facts_but_every_unit_still_holds(case):
    metric, make, states, facts_of = CASES[case]
    rng = random.Random(90 + case)
    for _ in range(3):
        domain = make(rng)
        dist = distances_to_goal(domain, metric, states(domain), facts_of)
        _, _, lemmas = goal_side(domain, metric, budget=1, backend="pysat:cadical195")
        for name, j in lemmas.refuted.items():
            assert j < dist.get(name, LAYERS + 1), name


def test_the_sides_split_every_horizon_and_grow_one_layer_at_a_time():
    assert [split(t) for t in range(5)] == [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]
    for t in range(1, 50):
        a, b = split(t)
        a0, b0 = split(t - 1)
        assert a + b == t and (a - a0) + (b - b0) == 1


@pytest.mark.parametrize("backend", ["pysat-de", "pysat-de:cadical195"])
def test_double_ended_equals_bfs_from_a_start_horizon_above_the_optimum(backend):
    """Plans shorter than the horizon put their no-ops where the two sides meet."""
    rng = random.Random(5)
    checked = 0
    while checked < 5:
        domain = generate.sliding(rng, 4, 3, 3, 1)
        ref = breadth_first_search(domain, "steps")
        if ref.status is not Status.OPTIMAL or ref.length < 2:
            continue
        got = solve(domain, "steps", backend, start_horizon=ref.length + 3, optimal=False)
        assert got.status in (Status.FEASIBLE, Status.OPTIMAL) and got.steps
        assert ref.length <= got.length <= ref.length + 3
        exact = solve(domain, "steps", backend)
        assert exact.status is Status.OPTIMAL and exact.length == ref.length
        assert exact.stats["unrolling"] == "double-ended"
        checked += 1


def test_move_counts_are_solved_forward_and_say_so():
    rng = random.Random(3)
    checked = 0
    while checked < 4:
        domain = generate.sliding(rng, 4, 3, 3, 1)
        piece = domain.piece_names()[0]
        wrapped = problem_of(domain, [MoveCount(piece, ">=", 2)])
        ref = breadth_first_search(wrapped, "steps")
        if ref.status is not Status.OPTIMAL:
            continue
        said = []
        got = solve(wrapped, "steps", "pysat-de", say=said.append)
        assert got.status is Status.OPTIMAL and got.length == ref.length
        assert got.stats["unrolling"].startswith("forward (not double-ended: move counts")
        assert any("unrolled forward" in line for line in said)
        checked += 1


def test_time_limit_inside_goal_side_saturation_reports_a_timeout_with_its_bound():
    from conftest import INSTANCES
    from puzzleplan.formats.load import load
    d = load(INSTANCES / "seeds/klotski_seed000.slide").problem
    r = solve(d, "steps", "pysat-de", time_limit=1.0, first_plan=False)
    assert r.status is Status.TIMEOUT and r.steps is None and r.bound is not None and r.bound < 116
    assert r.stats["goal_lemma_units"] > 0 and r.stats["unrolling"] == "double-ended"


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_sokobans_push_distance_bound_admits_every_state_at_its_distance_and_binds(metric):
    """The bound, as clauses: a state d moves from a goal satisfies it with d moves left; a
    state whose push distances add up to h fails it with h - 1 left (so it can cut)."""
    from pysat.solvers import Solver
    from puzzleplan.encodings.lower import clauses_of
    rng = random.Random(metric)
    binding = 0
    for _ in range(4):
        domain = generate.sokoban(rng, 4, 3, boxes=2)
        enc = encoder_for(domain, metric)
        for state, d in sorted(state_distances(domain, metric, sokoban_states(domain)).items())[:60]:
            h = domain.heuristic(state, metric)
            assert h <= d
            for left, want in ((d, True), (h - 1, False)):
                if left < 0:
                    continue
                m = BoolModel()
                enc.state_vars(m, 1)
                enc.goal_bound(m, 1, left)
                fixed = [enc.box(m, c, 1) if c in state[1] else -enc.box(m, c, 1) for c in enc.floor]
                with Solver(name="glucose42", bootstrap_with=list(clauses_of(m))) as s:
                    assert s.solve(assumptions=fixed) is want, (state, d, h, left)
                binding += not want
    assert binding > 10


def start_distances(domain, metric):
    """Each reachable state's fewest moves from the start (BFS by the rules)."""
    dist, frontier = {domain.initial: 0}, [domain.initial]
    while frontier:
        nxt = []
        for s in frontier:
            for _, n in domain.successors(s, metric):
                if n not in dist:
                    dist[n] = dist[s] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def satisfies(enc, state, side, t, moves) -> bool:
    """Whether the bound on ``side`` (goal_bound or start_bound) at step ``t`` with ``moves``
    left (made) admits ``state`` (knights or sliding pieces), fixed placement by placement."""
    from pysat.solvers import Solver
    from puzzleplan.encodings.lower import clauses_of
    m = BoolModel()
    enc.state_vars(m, t)
    getattr(enc, side)(m, t, moves)
    if hasattr(enc, "squares"):
        fixed = [enc.at(m, k, sq, t) if sq in state[k] else -enc.at(m, k, sq, t)
                 for k in range(enc.nk) for sq in enc.squares]
    else:
        fixed = [enc.at(m, k, a, t) if a in state[k] else -enc.at(m, k, a, t)
                 for k, kind in enumerate(enc.rules.kinds) for a in kind.anchors]
    with Solver(name="glucose42", bootstrap_with=list(clauses_of(m))) as s:
        return s.solve(assumptions=fixed)


@pytest.fixture(params=["direct", "chain"])
def unary(request, monkeypatch):
    """A unary distance written directly (small boards) or as a chain (huge ones)."""
    from puzzleplan.encodings import distances
    if request.param == "chain":
        monkeypatch.setattr(distances, "DIRECT_LITS", 0)
    return request.param


@pytest.mark.heavy
def test_the_knights_bounds_admit_every_state_at_its_distance_and_bind(unary):
    """Goal side: a state d jumps from the goal satisfies the bound with d moves left, and
    one whose targets' distances add up to h (the rules' heuristic) fails it with h - 1 left.  Start side: a
    reachable state d jumps from the start satisfies it with d made, and fails it with one
    fewer than its knights' distances from their start squares.  Lone knights and kinds of
    two, boards with holes."""
    rng = random.Random("knights-bounds")
    binding = {"goal_bound": 0, "start_bound": 0}
    for i in range(8):
        domain = generate.knights(rng, 3 + i % 2, 4, n=[2, 3, 4][i % 3], holes=1 + i % 2)
        enc = encoder_for(domain, "steps")
        to_goal = state_distances(domain, "steps", knights_states(domain))
        from_start = start_distances(domain, "steps")
        starts = enc._from_start()
        for side, dist in (("goal_bound", to_goal), ("start_bound", from_start)):
            for state, d in sorted(dist.items())[:50]:
                assert satisfies(enc, state, side, 1, d), (side, state, d)
                if side == "goal_bound":
                    h = domain.heuristic(state, "steps")
                else:
                    h = sum(starts[k][sq] for k in range(enc.nk) for sq in state[k])
                assert h <= d
                if h >= 1:
                    assert not satisfies(enc, state, side, 1, h - 1), (side, state, h)
                    binding[side] += 1
    assert min(binding.values()) > 100, binding


@pytest.mark.parametrize("metric", ["steps", "slides", "moves"])
def test_the_sliding_bounds_admit_every_state_at_its_distance_and_bind(metric, unary):
    """As for the knights: the goal side's sum is the rules' heuristic, the start side's each
    unit's pieces' moves from their start anchors (a lone piece's own); both admit every state
    at its distance and fail one move under their sum.  Boards with walls, kinds of several
    pieces, Rush Hour's cars on their lines."""
    rng = random.Random(f"sliding-bounds-{metric}")
    binding = {"goal_bound": 0, "start_bound": 0}
    makers = [lambda: generate.sliding(rng), lambda: generate.sliding(rng, 4, 3, 3, 1),
              lambda: generate.sliding(rng, 5, 4, pieces=4, walls=0, rush=True),
              lambda: generate.sliding(rng, 3, 3, pieces=5, walls=0)]     # kinds of several pieces
    several = 0
    for i in range(8):
        domain = makers[i % 4]()
        several += any(len(placed) > 1 for placed in domain.initial)
        enc = encoder_for(domain, metric)
        to_goal = state_distances(domain, metric, sliding_states(domain))
        from_start = start_distances(domain, metric)
        for side, dist in (("goal_bound", to_goal), ("start_bound", from_start)):
            for state, d in sorted(dist.items())[:40]:
                assert satisfies(enc, state, side, 1, d), (side, state, d)
                if side == "goal_bound":        # the pieces' distances (the rules' heuristic may add more)
                    h = sum(min(apart(a, g, metric) for a in state[k]) for k, g in domain.goal)
                else:
                    h = 0
                    for u, anchors in enc.unit_anchors.items():
                        starts = [a for a in domain.initial[u[0]] if enc.unit(u[0], a) == u]
                        here = [a for a in state[u[0]] if enc.unit(u[0], a) == u]
                        h += sum(min(abs(a[0] - b[0]) + abs(a[1] - b[1]) if metric == "steps" else
                                    (a[0] != b[0]) + (a[1] != b[1]) if metric == "slides" else int(a != b)
                                    for b in starts) for a in here)
                assert h <= d
                if h >= 1:
                    assert not satisfies(enc, state, side, 1, h - 1), (side, state, h)
                    binding[side] += 1
    assert min(binding.values()) > 20 and several, (binding, several)


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat-de", "pysat-de:glucose42+cadical195"])
def test_certify_proves_from_the_bare_encoding_whatever_the_levers(backend, tmp_path):
    from conftest import INSTANCES
    from puzzleplan.formats.load import load
    domain = load(INSTANCES / "knights/guarini.knights").problem
    got = solve(domain, "steps", backend, certify=True, proof_file=str(tmp_path / "g.drat"))
    assert got.status is Status.OPTIMAL and got.stats["certified"] is True and got.stats["unrolling"] == "double-ended"
    assert "certified: DRAT proof that horizon" in got.proof


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_the_bounds_never_change_an_optimum(metric):
    rng = random.Random(f"bounds-{metric}")
    bounded = checked = 0
    while checked < 6:
        domain = generate.sokoban(rng, 5, 4, boxes=2)
        ref = breadth_first_search(domain, metric)
        if ref.status is not Status.OPTIMAL:
            continue
        got = solve(domain, metric, "pysat-de", bounds=True)
        assert got.status is Status.OPTIMAL and got.length == ref.length
        bounded += got.stats["goal_bounds"]
        checked += 1
    assert bounded > 0
