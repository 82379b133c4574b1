"""Actions of cost 0 under SAT (:mod:`puzzleplan.strips.analyses.free`), checked by enumeration:

- the layers a horizon gets hold a shortest plan of every optimal cost (generated tasks, some of
  whose actions cost 0: finishing actions counted once, walks in blocks);
- SAT (both backends) = the enumerated optimum on those tasks, and its plans never pass a
  state twice;
- a Sokoban room under pushes: the state along any walk is a function of the player's cell (no
  reachable state starts a walk through more states than the bound says), and SAT = search;
- every family's exports with actions of cost 0 (finishing actions, walks): SAT = uniform-cost
  search.
"""
from __future__ import annotations

import heapq
import random
from dataclasses import replace

import pytest

from puzzleplan.strips.encoding.cost import CostEncoder
from puzzleplan.strips.analyses.free import FreeActions, free_actions
from puzzleplan.families.strips.generate import generate
from puzzleplan.families.strips.rules import StripsTask
from puzzleplan.planner import solve
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.registry import problem as problem_of
from puzzleplan.search import astar_search
from puzzleplan.validate import check_plan
from conftest import INSTANCES
from test_strips_levers import export_text, reachable


def with_free_actions(seed: int) -> StripsTask:
    """A generated task whose actions cost 0 (about a third), 1 or 2."""
    rng = random.Random(f"free-{seed}")
    task = generate(rng).task
    ops = tuple(replace(op, cost=rng.choice((0, 0, 1, 1, 2))) for op in task.operators)
    return StripsTask(replace(task, operators=ops, costs=True))


def cheapest_then_shortest(rules):
    """(cost, length) of a cheapest plan with the fewest actions among the cheapest, or None."""
    best = {rules.initial: (0, 0)}
    heap, tie = [(0, 0, 0, rules.initial)], 1
    while heap:
        c, n, _, s = heapq.heappop(heap)
        if (c, n) > best[s]:
            continue
        if rules.is_goal(s):
            return c, n
        for move, nxt in rules.successors(s, "cost"):
            got = (c + rules.move_cost(move, "cost"), n + 1)
            if got < best.get(nxt, (float("inf"), 0)):
                best[nxt] = got
                heapq.heappush(heap, (*got, tie, nxt))
                tie += 1
    return None


def bound_of(rules):
    ops = rules.known_ops()
    return free_actions(rules.task.values, ops, [op.cost for op in rules.ops], [op.name for op in rules.ops],
                        rules.mutexes())


def test_the_layers_hold_a_shortest_plan_of_the_optimal_cost():
    kinds = {"total": 0, "per_run": 0, "refused": 0}
    for seed in range(300):
        rules = with_free_actions(seed)
        free = bound_of(rules)
        if isinstance(free, str):
            kinds["refused"] += 1
            continue
        if free.total or free.per_run:
            kinds["total" if free.total else "per_run"] += 1
        best = cheapest_then_shortest(rules)
        if best is not None:
            cost, length = best
            assert length <= free.layers(cost), (seed, best, free)
    assert kinds["total"] >= 5 and kinds["per_run"] >= 20, kinds


@pytest.mark.heavy
@pytest.mark.parametrize("backend", ["pysat-de", "cpsat"])
def test_sat_under_cost_equals_the_enumerated_optimum_with_free_actions(backend):
    compared = refused = 0
    for seed in range(120):
        rules = with_free_actions(seed)
        best = cheapest_then_shortest(rules)
        if best is None or best[0] > 8:
            continue
        try:
            got = solve(rules, "cost", backend, max_horizon=10)
        except PuzzleError as err:
            assert "back and forth" in err.problem and isinstance(bound_of(rules), str)
            refused += 1
            continue
        assert got.status is Status.OPTIMAL and got.length == best[0], (seed, got, best)
        assert check_plan(rules, got.steps, "cost")["length"] == best[0]
        states = [rules.initial]
        for step in got.steps:
            states.append(rules.apply(states[-1], rules.op_of(step, states[-1])))
        assert len(set(states)) == len(states), (seed, got.steps)
        compared += 1
    assert compared >= 40 and refused >= 1, (compared, refused)


def pushes_room():
    return export_text("room.xsb", "#######\n#  .  #\n# $@$ #\n#  .  #\n#######\n", "pushes")


def test_a_sokoban_walk_passes_no_more_states_than_the_player_has_cells():
    rules = pushes_room()
    free = bound_of(rules)
    assert isinstance(free, FreeActions) and free.total == 0
    cells = free.per_run + 1
    assert cells <= 15          # the room's floor, not the product of its cells' values
    for s in reachable(rules):
        walk, todo = {s}, [s]
        while todo:
            for move, nxt in rules.successors(todo.pop(), "cost"):
                if rules.move_cost(move, "cost") == 0 and nxt not in walk:
                    walk.add(nxt)
                    todo.append(nxt)
        assert len(walk) <= cells


@pytest.mark.parametrize("walk, backend", [("one transition", "pysat-de"), ("one transition", "cpsat"),
                                           ("a layer per action", "pysat-de")])
@pytest.mark.heavy
def test_sat_proves_sokoban_rooms_pushes_through_their_pddl(walk, backend):
    """Generated rooms, the one above and Microban 1 (its pushes need walks around the boxes: a
    walk that ignored what a step needs, a clear cell, went through them), exported under pushes:
    SAT on the PDDL = A* on it = the native optimum, with the walks in one transition (the
    default) or a layer per action (the lever off); every plan replays and passes no state twice."""
    from puzzleplan import registry
    from puzzleplan.strips.encoding.levers import DEFAULT_LEVERS
    from puzzleplan.pddl import export
    import tempfile
    from puzzleplan.formats.load import load
    levers = frozenset(DEFAULT_LEVERS) - ({"walk"} if walk != "one transition" else set())

    def as_pddl(native):
        _, _, problem = export(native, "pushes", tempfile.mkdtemp(prefix="free-") + "/task")
        return load(problem).rules
    rooms = [pushes_room(), as_pddl(load(INSTANCES / "sokoban/Microban.txt", 1).rules)]
    generated = 0
    generate_room = registry.get("sokoban").part("generate")
    for seed in range(40):
        native = generate_room(random.Random(f"free-room-{seed}"))
        if generated < 5 and astar_search(native, "pushes").status is Status.OPTIMAL:
            rooms.append(as_pddl(native))
            generated += 1
    compared = 0
    for rules in rooms:
        rules.levers = levers
        best = astar_search(rules, "cost")
        if best.status is not Status.OPTIMAL or best.length > 8:
            continue
        assert CostEncoder(problem_of(rules), "cost").closure is not None or walk != "one transition"
        got = solve(rules, "cost", backend, max_horizon=12)
        assert got.status is Status.OPTIMAL and got.length == best.length, (got, best)
        assert check_plan(rules, got.steps, "cost")["length"] == best.length
        states = [rules.initial]
        for step in got.steps:
            states.append(rules.apply(states[-1], rules.op_of(step, states[-1])))
        assert len(set(states)) == len(states)
        compared += 1
    assert compared >= 5


def test_a_walk_too_long_for_a_layer_per_action_is_refused_without_the_walk_transition(monkeypatch):
    """A walk laid out a layer per action (here with the lever off) past MAX_RUN actions: one
    clear refusal; in one transition the same walk is taken."""
    from puzzleplan.strips.encoding import cost as encoding
    from puzzleplan.strips.encoding.levers import DEFAULT_LEVERS
    rules = pushes_room()
    monkeypatch.setattr(encoding, "MAX_RUN", 3)
    assert CostEncoder(problem_of(rules), "cost").closure is not None
    rules.levers = frozenset(DEFAULT_LEVERS) - {"walk"}
    with pytest.raises(PuzzleError, match="laid out a layer each .*--levers -walk"):
        CostEncoder(problem_of(rules), "cost")


@pytest.mark.heavy
def test_sat_under_cost_equals_uniform_cost_search_on_exports_with_free_actions():
    """Every family's generated instances (move counts included) whose PDDL export has actions of
    cost 0 (finishing actions, walks): SAT under cost = uniform-cost search on the same task."""
    from puzzleplan import registry
    from puzzleplan.formats.load import load
    from puzzleplan.pddl import export
    from puzzleplan.search import breadth_first_search
    import tempfile
    compared = set()
    for family in ("knights", "pegsol", "sokoban"):
        generate_one = registry.get(family).part("generate")
        found = 0
        for seed in range(60):
            native = generate_one(random.Random(f"fin-{family}-{seed}"))
            native = problem_of(native)
            try:
                metric = "pushes" if family == "sokoban" else native.rules.metrics[0]      # pushes: walks cost 0
                _, _, problem = export(native, metric, tempfile.mkdtemp(prefix="free-") + "/task")
            except PuzzleError:
                continue
            rules = load(problem).rules
            if not any(op.cost < 1 for op in rules.ops):
                continue
            best = breadth_first_search(rules, "cost", 30)
            if best.status is not Status.OPTIMAL or best.length > 10:
                continue
            got = solve(rules, "cost", "pysat-de", max_horizon=14)
            assert got.status is Status.OPTIMAL and got.length == best.length, (family, seed, got, best)
            assert check_plan(rules, got.steps, "cost")["length"] == best.length
            compared.add(family)
            found += 1
            if found == 2:
                break
    assert compared == {"knights", "pegsol", "sokoban"}, compared


DOORS = """(define (domain doors)
  (:requirements :strips :action-costs)
  (:predicates (at ?c) (link ?a ?b) (open ?a ?b))
  (:functions (total-cost) - number)
  (:action walk :parameters (?a ?b)
   :precondition (and (at ?a) (link ?a ?b) (open ?a ?b))
   :effect (and (at ?b) (not (at ?a))))
  (:action unlock :parameters (?a ?b)
   :precondition (and (at ?a) (link ?a ?b))
   :effect (and (open ?a ?b) (increase (total-cost) 1))))
"""


def doors_task(cells, links, opened, start, goal):
    import tempfile
    from pathlib import Path
    from puzzleplan.formats.load import load
    where = Path(tempfile.mkdtemp(prefix="doors-"))
    (where / "domain.pddl").write_text(DOORS)
    (where / "problem.pddl").write_text(
        f"(define (problem p) (:domain doors) (:objects {' '.join(cells)})\n (:init (at {start}) "
        + " ".join(f"(link {a} {b})" for a, b in links) + " "
        + " ".join(f"(open {a} {b})" for a, b in opened)
        + f" (= (total-cost) 0))\n (:goal (at {goal})) (:metric minimize (total-cost)))\n")
    return load(where / "problem.pddl").rules


@pytest.mark.parametrize("backend", ["pysat-de", "cpsat"])
def test_walks_into_one_place_under_different_preconditions(backend):
    """Walks whose steps into one cell need different things (the door from each neighbour
    open), so that a walk's round keeps a literal per source's preconditions: on random 3x3
    grids with some doors open, and on a corridor that starts in a dead end whose one door in
    is closed (staying there needs no door: a round that asked for it lost the start), SAT
    under cost (walks in one transition) = uniform-cost search, and every plan replays."""
    cells = [f"c{r}{c}" for r in range(3) for c in range(3)]
    links = [(f"c{r}{c}", f"c{r + dr}{c + dc}") for r in range(3) for c in range(3)
             for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)) if 0 <= r + dr < 3 and 0 <= c + dc < 3]
    tasks = []
    for seed in range(8):
        rng = random.Random(f"doors-{seed}")
        tasks.append((cells, links, [link for link in links if rng.random() < 0.4], *rng.sample(cells, 2)))
    corridor = ["c0", "c1", "c2", "c3"]
    tasks.append((corridor, [(a, b) for i in range(3) for a, b in ((corridor[i], corridor[i + 1]),
                                                                   (corridor[i + 1], corridor[i]))],
                  [("c1", "c2"), ("c2", "c3")], "c0", "c3"))
    compared = 0
    for task in tasks:
        rules = doors_task(*task)
        assert CostEncoder(problem_of(rules), "cost").closure is not None
        best = cheapest_then_shortest(rules)
        got = solve(rules, "cost", backend, max_horizon=12)
        assert got.status is Status.OPTIMAL and got.length == best[0], (task, got, best)
        assert check_plan(rules, got.steps, "cost")["length"] == best[0]
        compared += best[0] > 0
    assert compared >= 6
