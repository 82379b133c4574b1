"""First plans of PDDL tasks by parallel steps (:mod:`puzzleplan.strips.encoding.exists`, the relaxed
∃-step semantics): one parallel step reaches exactly the states that the fixed order's rule
reaches by brute force, every decoded plan replays, a parallel horizon is satisfiable at the
breadth-first optimum (and below it in a Sokoban room, where the player walks), and the
strips family's first plans use it when greedy search gives none."""
from __future__ import annotations

import random

import pytest

from puzzleplan.encodings.model import BoolModel
from puzzleplan.families.strips.generate import generate
from puzzleplan.families.strips.rules import StripsTask
from puzzleplan.planner import first, solve
from puzzleplan.planner.backends import make_backend
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.registry import problem as problem_of
from puzzleplan.search import breadth_first_search
from puzzleplan.strips.encoding.exists import ExistsSteps, fixed_order
from puzzleplan.validate import check_plan
from test_strips_levers import sokoban_export

pytestmark = pytest.mark.smoke

SEEDS = range(40)


def generated(seed):
    return generate(random.Random(f"exists-{seed}"))


def true(lit, values) -> bool:
    """Whether ``lit`` holds in a model (``values``: its true variables)."""
    return lit in values if lit > 0 else -lit not in values


def state_at(enc, m, values, t):
    return tuple(next(x for x, lit in enumerate(row) if true(lit, values)) for row in enc.lits(m, t))


def one_step_by_encoding(problem):
    """Every state one parallel step reaches (the models enumerated); each model's actions,
    decoded in the fixed order, replay from the start to that state."""
    rules = problem.rules
    m, enc = BoolModel(), ExistsSteps(problem)
    enc.start(m)
    enc.extend(m, 1)
    solver = make_backend("pysat-plain", m, "seqcounter", problem.family)
    out = set()
    while solver.solve_budget([], None):
        values = solver.values()
        state = state_at(enc, m, values, 1)
        replay = rules.replay(rules.render_steps(enc.decode(m, values)))
        assert tuple(replay.history[-1]) == state
        out.add(state)
        m.add([-lit for row in enc.lits(m, 1) for lit in row if true(lit, values)])     # block it
        assert len(out) < 5000
    solver.close()
    return out


def one_step_by_brute_force(problem):
    """Every state reached from the start by actions in increasing order, each with every
    precondition holding at the start or set by an action taken before it, and none of them
    breakable by an action taken before it (which must leave them holding at its turn)."""
    rules, enc = problem.rules, ExistsSteps(problem)
    ops, start = rules.ops, tuple(rules.initial)
    setters = {f: set(o) for f, o in enc.setters.items()}
    breakers = {f: set(o) for f, o in enc.breakers.items()}
    out = set()

    def go(state, taken, last):
        out.add(state)
        assert len(out) < 5000
        for r in range(last + 1, len(enc.order)):
            o = enc.order[r]
            op = ops[o]
            if any(start[v] != x and not setters.get((v, x), set()) & taken for v, x in op.pre):
                continue
            if any(breakers.get(f, set()) & taken for f in op.pre):
                continue
            assert all(state[v] == x for v, x in op.pre)        # the module doc's claim
            nxt = list(state)
            for v, x in op.eff:
                nxt[v] = x
            if any(nxt[v] == x for v, x in rules.avoided):
                continue
            go(tuple(nxt), taken | {o}, r)

    go(start, frozenset(), -1)
    return out


def small_problems():
    out = [(f"gen{seed}", problem_of(generated(seed))) for seed in SEEDS]
    return [(name, p) for name, p in out if len(p.rules.ops) <= 40]


@pytest.mark.parametrize("name,problem", small_problems()[:25], ids=lambda x: x if isinstance(x, str) else "")
def test_one_parallel_step_reaches_what_the_fixed_order_reaches(name, problem):
    assert one_step_by_encoding(problem) == one_step_by_brute_force(problem)


def test_with_a_fact_to_avoid_one_parallel_step_never_passes_through_it():
    """Facts to avoid, each set by some action: the states one parallel step reaches are those of
    sequences that never hold one, also between two actions of the step."""
    from test_strips_levers import a_fact_to_avoid
    compared = 0
    for seed in SEEDS:
        rules = generated(seed)
        try:
            fact = a_fact_to_avoid(rules, seed)
            rules = StripsTask(rules.task, avoid={"*": [rules.fact(*fact)]})
        except (IndexError, PuzzleError):
            continue
        if not any(f in rules.avoided for op in rules.ops for f in op.eff):
            continue
        problem = problem_of(rules)
        assert one_step_by_encoding(problem) == one_step_by_brute_force(problem)
        compared += 1
    assert compared >= 10
    # the player may not stand in a corner: one step walking through it (c-2-3, c-1-3, c-1-2)
    # would pass through a state holding it
    room = sokoban_export()
    rules = StripsTask(room.task, avoid={"*": ["player(c-1-3)"]})
    problem = problem_of(rules)
    assert one_step_by_encoding(problem) == one_step_by_brute_force(problem)
    assert one_step_by_brute_force(problem) < one_step_by_brute_force(problem_of(room))


def test_one_parallel_step_in_a_sokoban_room():
    problem = problem_of(sokoban_export())
    reached = one_step_by_encoding(problem)
    assert reached == one_step_by_brute_force(problem)
    assert len(reached) > 1 + len(list(problem.rules.successors(problem.rules.initial)))   # walks in one step


def parallel_plan(problem, horizon):
    """The decoded plan at parallel horizon ``horizon`` (replayed), or None if it is unsatisfiable."""
    m, enc = BoolModel(), ExistsSteps(problem)
    enc.start(m)
    enc.extend(m, horizon)
    solver = make_backend("pysat-plain", m, "seqcounter", problem.family)
    try:
        if not solver.solve_budget([enc.goal(m, horizon)], None):
            return None
        steps = problem.rules.render_steps(enc.decode(m, solver.values()))
        assert check_plan(problem, steps, "steps")["solved"]
        return steps
    finally:
        solver.close()


def test_a_parallel_horizon_is_satisfiable_at_the_optimum_and_its_plans_replay():
    compared = 0
    for name, problem in small_problems() + [("sokoban", problem_of(sokoban_export()))]:
        bfs = breadth_first_search(problem.rules, "steps", 30)
        if bfs.status is not Status.OPTIMAL:
            continue
        plan = parallel_plan(problem, bfs.length)
        assert plan is not None, name
        assert len(plan) >= bfs.length
        compared += 1
    assert compared >= 10


def test_the_parallel_horizons_below_the_least_satisfiable_are_refuted():
    """On the Sokoban room: the least satisfiable parallel horizon is below the optimum (the
    player walks several cells a step), and a plan found there replays."""
    problem = problem_of(sokoban_export())
    optimum = breadth_first_search(problem.rules, "steps", 30).length
    least = next(h for h in range(1, optimum + 1) if parallel_plan(problem, h) is not None)
    assert least < optimum
    assert parallel_plan(problem, least - 1) is None


def test_the_fixed_order_puts_an_action_before_those_that_break_it_across_components():
    """An action that may break a precondition of one later in the order is in one strongly
    connected component of the "breaks" graph with it (the later one breaks back, through others)."""
    enc = ExistsSteps(problem_of(sokoban_export()))
    ops = enc.rules.ops
    assert sorted(enc.order) == list(range(len(ops)))
    breaks = {a: {b for b, op in enumerate(ops) for f in op.pre if a in enc.breakers.get(f, ()) and b != a}
              for a in range(len(ops))}

    def reaches(a, b):
        seen, todo = {a}, [a]
        while todo:
            for n in breaks[todo.pop()]:
                if n == b:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False

    pairs = [(a, b) for a in range(len(ops)) for b in breaks[a] if enc.rank[a] < enc.rank[b]]
    assert all(reaches(b, a) for a, b in pairs)
    assert sorted(fixed_order(ops, enc.leaving)) == list(range(len(ops)))


def test_the_strips_family_has_parallel_first_plans():
    problem = problem_of(sokoban_export())
    steps, length, row = first.parallel_first(problem, "steps", (), None, 1, 100_000)
    assert steps is not None and check_plan(problem, steps, "steps")["solved"]
    assert row["way"] == "parallel" and row["length"] == length
    assert len([h for h, answer in row["horizons"] if answer == "sat"]) == 1


def test_the_parallel_steps_of_a_pddl_task_spend_the_encoders_own_budget(monkeypatch):
    problem = problem_of(sokoban_export())
    monkeypatch.setattr(ExistsSteps, "first_budget", 0)
    assert first.parallel_first(problem, "steps", (), None, 1)[2]["horizons"] == []
    monkeypatch.setattr(ExistsSteps, "first_budget", 10**6)
    steps, length, row = first.parallel_first(problem, "steps", (), None, 1)
    assert steps is not None and row["horizons"][-1][1] == "sat"


def test_without_a_greedy_plan_a_pddl_task_gets_one_from_the_parallel_steps(monkeypatch):
    from puzzleplan.planner import deepening
    monkeypatch.setattr(deepening, "FIRST_FROM", 0)
    monkeypatch.setattr(first, "GREEDY_STATES", 1)
    monkeypatch.setattr(first, "PARALLEL_AFTER", 0)
    rules = sokoban_export()
    got = solve(rules, "steps")
    ways = [row["way"] for row in got.stats["first_plans"]]
    assert ways[:2] == ["greedy", "parallel"] and got.stats["first_plans"][1].get("length") is not None
    assert got.status is Status.OPTIMAL and got.length == solve(sokoban_export(), "steps", first_plan=False).length


def test_under_cost_the_parallel_steps_give_plans_measured_in_cost():
    found = 0
    for seed in SEEDS:
        problem = problem_of(generated(seed))
        if "cost" not in problem.rules.metrics or not problem.rules.task.costs:
            continue
        steps, length, row = first.parallel_first(problem, "cost", (), None, 1, 10_000)
        if steps is None:
            continue
        report = check_plan(problem, steps, "cost")
        assert report["solved"] and report["length"] == length
        found += 1
    assert found >= 5


def test_a_task_whose_goal_is_out_of_reach_stops_after_the_horizons_allowed():
    """Generated task 20 has no plan, and every parallel horizon is refuted without a conflict:
    the horizons asked stop at ``first.PARALLEL_HORIZONS``."""
    problem = problem_of(generated(20))
    assert breadth_first_search(problem.rules, "steps", 40).status is Status.UNSOLVABLE
    steps, _, row = first.parallel_first(problem, "steps", (), None, 1)
    assert steps is None and len(row["horizons"]) == first.PARALLEL_HORIZONS
    assert all(answer == "unsat" for _, answer in row["horizons"])
