"""The conformance suite: every registered puzzle family, as a test parameter, must keep the
contract (:mod:`puzzleplan.contract`).  A new family inherits every test here; one installed
from a package of your own runs it with no source checkout::

    python -m pytest --pyargs puzzleplan.kit.test_conformance -k mypuzzle

- the record is complete, every declared part imports, the rules class defines every
  required method (and a class that lacks one is refused, naming it);
- its generator makes instances;
- SAT = BFS on them, for every metric the family encodes (the plan replayed);
- the heuristic (with the move counters of side conditions) never exceeds a state's true
  distance to the goal, on every state of small instances;
- the encoding's successors of the initial state equal the rules' (models enumerated);
- scene and PDDL export, where the family has them, agree with the replay and the optimum;
- side conditions: a family that takes them (:class:`~puzzleplan.contract.SideConditions`) keeps a
  move count and a frozen piece (SAT = BFS, the plan counted again by replay); one that does not
  refuses them in one line, and the test says so as a skip.
"""
from __future__ import annotations

import pytest

from puzzleplan import methods, registry
from puzzleplan.encodings import encoder_for
from puzzleplan.encodings.base import Encoder
from puzzleplan.contract import Conditions, Problem, Rules, SideConditions, check_side_conditions, missing_methods
from puzzleplan.planner import solve
from puzzleplan.puzzle import Contradiction, MoveCount, PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan
from puzzleplan.constraints import state_space
from puzzleplan.kit import freeze, goal_distances, instances, need, successors_by_sat

FAMILIES = registry.all_families()
IDS = [f.name for f in FAMILIES]
ENCODED = [(f, m) for f in FAMILIES for m in f.encoders]
ENCODED_IDS = [f"{f.name}-{m}" for f, m in ENCODED]
REQUIRED = sorted(Rules.__abstractmethods__)
# the registry's per-horizon backends that add lemmas (forward, double-ended): the unrollings
LEMMAS = [m for m in methods.backends() if getattr(methods.code(m)[2], "lemmas", False)]


def test_there_are_families():
    assert FAMILIES, "no puzzle family is registered"


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_the_record_is_complete_and_every_part_imports(family):
    assert registry.problems(family) == []
    cls = registry.rules_class(family)
    assert missing_methods(cls) == []
    assert callable(family.part("build")) and callable(family.part("generate"))
    for fmt in family.formats:
        assert callable(family.ref(fmt.read))
        assert fmt.levels is None or callable(family.ref(fmt.levels))
        for ext in fmt.extensions:
            assert ext.startswith(".") and registry.for_path(f"x{ext}") == (family, fmt)
    for metric in family.encoders:
        assert issubclass(family.part(f"encoders.{metric}"), Encoder)
    if family.pddl:
        from puzzleplan.pddl.task import FamilyPDDL
        assert issubclass(family.part("pddl"), FamilyPDDL)
    if family.scene:
        assert callable(family.part("scene"))
    assert set(family.features()) == {"sat", "search", "pddl", "animation"}


def test_every_extension_belongs_to_one_family():
    seen = [ext.lower() for f in FAMILIES for ext in f.extensions()]
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("method", REQUIRED)
@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_a_rules_class_without_a_required_method_is_refused_by_name(family, method):
    cls = registry.rules_class(family)
    body = {k: v for klass in reversed(cls.__mro__[:-1]) if klass is not Rules and issubclass(klass, Rules)
            for k, v in vars(klass).items() if k != method}
    stripped = type(f"Stripped{cls.__name__}", (Rules,), body)
    assert missing_methods(stripped) == [method]
    broken = registry.Family(**{**family.__dict__, "package": __name__, "rules": ":Stripped"})
    globals()["Stripped"] = stripped
    try:
        with pytest.raises(PuzzleError, match=rf"rules lack: {method}"):
            registry.rules_class(broken)
    finally:
        del globals()["Stripped"]


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_generated_instances_are_rules_of_the_family(family):
    cls = registry.rules_class(family)
    for rules in instances(family, 8, wrapped=False):
        assert isinstance(rules, cls)
        assert rules.metrics == family.metrics
        assert rules.board() and all(isinstance(row, str) for row in rules.board())
        hash(rules.initial)
        assert rules.replay([]).history and rules.count([], rules.metrics[0]) == 0


@pytest.mark.parametrize("backend", LEMMAS)
@pytest.mark.parametrize("family,metric", ENCODED, ids=ENCODED_IDS)
def test_sat_equals_bfs_on_generated_instances(family, metric, backend):
    """Every unrolling with lemmas: forward and double-ended (the latter where the encoding allows it)."""
    solved = 0
    for problem in instances(family, 6, seed=1):
        bfs = breadth_first_search(problem, metric)
        sat = solve(problem, metric, backend, max_horizon=40)
        if getattr(methods.code(backend)[2], "double_ended", False) and sat.horizons:   # (none when the bound answers alone)
            why = encoder_for(problem, metric).double_ended()
            assert sat.stats.get("unrolling") == ("double-ended" if why is None else f"forward (not double-ended: {why})")
        if bfs.status is Status.UNSOLVABLE:
            assert sat.status in (Status.NO_PLAN_WITHIN, Status.UNSOLVABLE) and sat.steps is None
            continue
        assert bfs.status is Status.OPTIMAL and sat.status is Status.OPTIMAL, (bfs, sat)
        assert sat.length == bfs.length
        assert check_plan(problem, sat.steps, metric)["solved"]
        solved += 1
    assert solved >= 2       # most instances have a plan (unsolvable ones on both sides test little)


@pytest.mark.parametrize("family,metric", ENCODED, ids=ENCODED_IDS)
def test_the_encoding_has_exactly_the_rules_successors(family, metric):
    moving = 0
    for rules in instances(family, 10, seed=2, wrapped=False):
        expected = set()
        for move, _ in rules.successors(rules.initial, metric):
            expected.add(freeze(rules.replay(rules.render_steps([move])).history[-1]))
        states, positions = successors_by_sat(rules, metric)
        assert positions == expected
        assert len(states) == len({nxt for _, nxt in rules.successors(rules.initial, metric)})
        moving += bool(expected)
    assert moving >= 3


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.scene], ids=[f.name for f in FAMILIES if f.scene])
def test_the_scene_follows_the_replay(family):
    from puzzleplan.animate import build, canonical, gif
    drawn = 0
    for problem in instances(family, 6, seed=3):
        rules = problem.rules
        metric = rules.metrics[0]
        plan = breadth_first_search(problem, metric)
        if plan.steps is None:
            continue
        scene = build(problem, plan.steps, metric)
        history = rules.replay(plan.steps).history
        assert scene.solved and len(scene.frames) == plan.length + 1
        for frame in scene.frames:
            assert canonical(frame.position) == canonical(rules.position(history[frame.step]))
        assert scene.family == family.name
        assert gif(problem, plan.steps, metric)[:6] == b"GIF89a"
        drawn += 1
    assert drawn >= 2


PDDL = [f for f in FAMILIES if f.pddl]


@pytest.mark.parametrize("family", PDDL, ids=[f.name for f in PDDL])
def test_a_planner_on_the_pddl_export_finds_the_bfs_optimum(family):
    from puzzleplan.pddl import plan
    need("fd-blind")
    checked = 0
    for problem in instances(family, 4, seed=4):
        metric = problem.rules.metrics[0]
        try:
            problem.family.part("pddl")().check(problem.rules, metric)
        except PuzzleError:
            continue
        bfs = breadth_first_search(problem, metric)
        got = plan(problem, metric, "fd-blind", 60)
        assert got.status is bfs.status, (got, bfs)
        if got.steps is not None:
            assert got.length == bfs.length and check_plan(problem, got.steps, metric)["solved"]
            checked += 1
    assert checked >= 1


def exact_distances(space, metric: str, cap: int = 20_000) -> dict | None:
    """Every reachable state's number of moves to the goal (None: more than ``cap`` states)."""
    from collections import deque
    seen, parents, queue = {space.initial}, {}, deque([space.initial])
    while queue:
        state = queue.popleft()
        for _, nxt in space.successors(state, metric):
            parents.setdefault(nxt, []).append(state)
            if nxt not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(nxt)
                queue.append(nxt)
    return goal_distances(space, parents, seen)


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_the_heuristic_never_exceeds_the_distance_to_the_goal(family):
    """Admissible on every state of small generated instances (side conditions' counters
    included), for every metric whose moves all cost 1: A* and the SAT deepening's start
    rely on it."""
    checked = 0
    for problem in instances(family, 12, seed=5):
        space = state_space(problem)
        for metric in family.metrics:
            if not problem.rules.unit_costs(metric):
                continue
            dist = exact_distances(space, metric)
            if dist is None:
                continue
            for state, d in dist.items():
                h = space.heuristic(state, metric)
                assert h <= d, (family.name, metric, state, h, d)
            checked += 1
    assert checked, f"no generated {family.name} instance was small enough to check"


def counted_pieces(rules) -> list[str]:
    """The pieces whose moves side conditions can count (a piece interchangeable with others
    cannot be named on its own)."""
    out = []
    for piece in rules.piece_names():
        try:
            rules.mover_of(piece)
        except PuzzleError:
            continue
        out.append(piece)
    return out


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_side_conditions_hold_or_are_refused_in_one_line(family):
    """With a piece that must move at least once, and with it frozen: SAT = BFS, and the plan
    moves the piece as asked when the replay counts again.  A family without side conditions
    refuses them in one line; the skip says so (a family that stops deriving from
    ``SideConditions`` shows here)."""
    cls = registry.rules_class(family)
    if not issubclass(cls, SideConditions):
        with pytest.raises(PuzzleError, match="takes no side conditions"):
            check_side_conditions(cls, family.name)
        pytest.skip(f"the {family.name} family takes no side conditions: it refuses them in one line")
    checked = 0
    for rules in instances(family, 12, seed=6, wrapped=False):
        pieces = counted_pieces(rules)
        if not pieces:
            continue
        for metric in family.encoders:
            for count in (MoveCount(pieces[0], ">=", 1), MoveCount(pieces[0], "<=", 0)):
                problem = Problem(rules, family, Conditions((count,)))
                try:
                    state_space(problem)
                except Contradiction:       # the rules' own bound says no plan can: nothing to compare
                    continue
                refused = rules.counts_refused(metric)
                if refused:                 # a metric that counts no piece's moves: both refuse, in one line
                    for run in (lambda: breadth_first_search(problem, metric),
                                lambda: solve(problem, metric, "pysat", max_horizon=40)):
                        with pytest.raises(PuzzleError) as refusal:
                            run()
                        assert str(refusal.value) == refused and "\n" not in refused
                    continue
                bfs = breadth_first_search(problem, metric)
                sat = solve(problem, metric, "pysat", max_horizon=40)
                if bfs.status is Status.UNSOLVABLE:
                    assert sat.status in (Status.NO_PLAN_WITHIN, Status.UNSOLVABLE) and sat.steps is None
                    continue
                assert bfs.status is Status.OPTIMAL and sat.status is Status.OPTIMAL, (count, bfs, sat)
                assert sat.length == bfs.length, (count, metric)
                assert check_plan(Problem(rules, family), sat.steps, metric, [count])["solved"], (count, sat.steps)
                checked += 1
    assert checked >= 2, f"no generated {family.name} instance had a piece a side condition can name"
