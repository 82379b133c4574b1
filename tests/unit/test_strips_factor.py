"""Actions that are a product (a move times its counter's step), said by two literals a step
(:mod:`puzzleplan.strips.analyses.factor`): each factored action is exactly its group's
conditions and its transition's; SAT with them finds the optimum search finds, on PDDL
exports with move counts of every family (and with side conditions of their own on top);
an exported formula's answer decodes to the plan; the figures say what was factored."""
from __future__ import annotations

import random

import pytest

from conftest import INSTANCES, read_back
from puzzleplan import registry
from puzzleplan.registry import problem as problem_of
from puzzleplan.encodings import encoder_for
from puzzleplan.encodings.lower import Answer
from puzzleplan.export import build, decode_answer
from puzzleplan.families.knights.generate import knights
from puzzleplan.strips.analyses.factor import factor
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import MoveCount, PuzzleError, Status
from puzzleplan.search import astar_search, breadth_first_search
from puzzleplan.validate import check_plan

EXPORTS = [f for f in registry.all_families() if f.pddl and f.name != "strips"]


def counted_export(family, rng, tmp_path_factory):
    """A generated instance of ``family`` with a move count on one of its pieces, as PDDL read
    back, with the count and the native counted domain (None when the export refuses it)."""
    rules = family.part("generate")(rng)
    if not rules.piece_names():
        return None
    piece = rng.choice(rules.piece_names())
    count = MoveCount(piece, rng.choice(["<=", ">=", "=="]), rng.randint(1, 4))
    try:
        native = problem_of(rules, [count])
        metric = rules.metrics[0]
        read = read_back(native, metric, tmp_path_factory.mktemp("factor"))
    except PuzzleError:
        return None
    return read, native, metric


def test_each_factored_action_is_its_group_and_its_transition(tmp_path):
    """On the knights seed's export (two counted knights): every jump is factored, and each
    action's preconditions and effects are exactly its group's plus its transition's."""
    rules = read_back(load(INSTANCES / "seeds/knights_seed003.knights").rules, "steps", tmp_path / "knights")
    fac = factor(rules.ops, rules.mover)
    assert fac is not None and len(fac.of_op) == 2720 and len(fac.var) == 272 and len(fac.parts) == 20
    assert len(set(fac.op_of.values())) == len(fac.op_of) == len(fac.of_op)
    for o, (g, s) in fac.of_op.items():
        op, (c, x, y) = rules.ops[o], fac.parts[s]
        assert fac.var[g] == c and fac.op_of[(g, s)] == o and s in fac.takes[g] and g in fac.groups_of[s]
        assert set(op.pre) == set(fac.pre[g]) | {(c, x)}
        assert set(op.eff) - {(c, y)} == set(fac.eff[g]) and dict(op.eff).get(c, x) == y
        assert (rules.mover[o], op.cost) == (fac.mover[g], fac.cost[g])
    # not a product: nothing factored
    card = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    plain = read_back(card, "steps", tmp_path / "card")
    assert factor(plain.ops, plain.mover) is None


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat-de", "pysat-plain", "cpsat"])
@pytest.mark.parametrize("family", EXPORTS, ids=[f.name for f in EXPORTS])
def test_sat_with_factored_counters_finds_the_optimum_of_search(family, backend, tmp_path_factory, monkeypatch):
    """Move counts exported as counters (every counted move grounded once per counter value):
    SAT under cost with the counters factored = A* on the same PDDL = BFS on the native counted
    puzzle, the plan replayed; and the same with the lever off.  The generated tasks are small:
    a counter is factored here whenever it saves a literal (the planner waits for a quarter)."""
    from puzzleplan.strips.analyses import factor as factor_module
    monkeypatch.setattr(factor_module, "MIN_SAVED", 0.0)
    rng = random.Random(f"factor-{family.name}")
    compared = factored = 0
    for _ in range(40):
        got = counted_export(family, rng, tmp_path_factory)
        if got is None:
            continue
        read, native, metric = got
        ref = astar_search(read, "cost", time_limit=10)
        if ref.status not in (Status.OPTIMAL, Status.UNSOLVABLE) or (ref.length or 0) > 12:
            continue
        truth = breadth_first_search(native, metric, time_limit=20)
        assert (truth.status, truth.length) == (ref.status, ref.length), (family.name, native.counts)
        for levers in (read.levers, read.levers - {"factor"}):
            read.levers = frozenset(levers)
            sat = solve(read, "cost", backend, max_horizon=14)
            if ref.status is Status.UNSOLVABLE:
                assert sat.status is not Status.OPTIMAL
                continue
            assert (sat.status, sat.length) == (Status.OPTIMAL, ref.length), (family.name, native.counts, levers)
            assert check_plan(read, sat.steps, "cost")["solved"]
            factored += "factor" in levers and sat.stats.get("factored_actions", 0) > 0
        read.levers = read.levers | {"factor"}
        compared += 1
        if compared == 4:
            break
    assert compared >= 2 and factored >= 1


@pytest.mark.heavy
def test_side_conditions_on_a_factored_task_keep_their_optimum(monkeypatch, tmp_path):
    """A counted knights export with a side condition of its own on top (a move count of a
    knight's jumps): SAT with the counters factored = A*."""
    from puzzleplan.strips.analyses import factor as factor_module
    monkeypatch.setattr(factor_module, "MIN_SAVED", 0.0)
    rng = random.Random("factor-side")
    checked = 0
    for i in range(30):
        native = problem_of(knights(rng, 3, 4, counted=True))     # a goal with a move count: a counter
        try:
            read = read_back(native, "steps", tmp_path / str(i))
        except PuzzleError:
            continue
        jumps = [s for s in read.schemas if s.startswith("jump")]
        if not jumps:
            continue
        schema = rng.choice(jumps)
        counts = [MoveCount(schema, rng.choice(["<=", ">=", "=="]), rng.randint(0, 3))]
        ref = astar_search(problem_of(read, counts), "cost", time_limit=10)
        if ref.status is not Status.OPTIMAL or ref.length > 10:
            continue
        sat = solve(read, "cost", "pysat-de", max_horizon=12, counts=counts)
        assert (sat.status, sat.length) == (Status.OPTIMAL, ref.length), counts
        assert sat.stats["factored_actions"] > 0
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


@pytest.mark.heavy
def test_an_exported_formula_with_factored_actions_decodes_to_its_plan(tmp_path):
    """The knights seed's export at its optimum (13) as one formula: a model found outside the
    planner decodes, the factored literals read back to actions, to a plan of cost 13; 12 is
    unsatisfiable."""
    from pysat.solvers import Solver
    rules = read_back(load(INSTANCES / "seeds/knights_seed003.knights").rules, "steps", tmp_path)
    assert encoder_for(rules, "cost").figures()["factored_actions"] == 2720
    for horizon, sat in ((13, True), (12, False)):
        f = build(rules, "cost", horizon)
        with Solver(name="cadical153", bootstrap_with=f.clauses) as s:
            assert s.solve() is sat
            if sat:
                steps = decode_answer(f, Answer("sat", {v for v in s.get_model() if v > 0}))
    assert check_plan(rules, steps, "cost")["length"] == 13


@pytest.mark.heavy
def test_a_bound_on_moves_that_binds_is_kept_by_the_factored_counter(monkeypatch, tmp_path_factory):
    """Generated knights whose first knight may jump at most k times where the puzzle alone needs
    more of its jumps: the plan found by SAT on the export (counter factored) is the longer one
    BFS finds on the native counted puzzle (a counter that could stand still would let SAT
    keep the shorter plan, and its replay fail), with the mutexes and without."""
    from puzzleplan.strips.analyses import factor as factor_module
    monkeypatch.setattr(factor_module, "MIN_SAVED", 0.0)
    rng = random.Random("factor-binds")
    binding = 0
    for _ in range(200):
        rules = knights(rng, 3, 4)
        free = breadth_first_search(rules, "steps", time_limit=10)
        if free.status is not Status.OPTIMAL or not 3 <= free.length <= 8:
            continue
        piece = rules.piece_names()[0]
        native = problem_of(rules, [MoveCount(piece, "<=", 1)])
        truth = breadth_first_search(native, "steps", time_limit=20)
        if truth.status is not Status.OPTIMAL or truth.length == free.length or truth.length > 12:
            continue
        read = read_back(native, "steps", tmp_path_factory.mktemp("binds"))
        # the h^2 mutexes tie a small counter to where its knight can stand: without them the
        # counter's own clauses must keep it right
        for levers in (read.levers, read.levers - {"mutex"}):
            read.levers = frozenset(levers)
            sat = solve(read, "cost", "pysat-de", max_horizon=14)
            assert (sat.status, sat.length) == (Status.OPTIMAL, truth.length), levers
            assert sat.stats["factored_actions"] > 0
        binding += 1
        if binding == 3:
            break
    assert binding >= 2
