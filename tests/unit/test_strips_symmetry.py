"""Interchangeable objects (the strips family's ``symmetry`` lever), checked on random PDDL tasks
with objects that share their start and goal (packages, trucks, balls, grippers):

- every pair found is a symmetry: the swap maps the reachable states onto themselves, each at
  its own distance to the goal (by enumeration, sharing no code with the lever);
- SAT = BFS with the lever on, every unrolling and backend, with the order lever from the first
  horizon too (the rule rests on the same plan as the order's);
- the lever keeps out of side conditions and of index orders the swap does not lower.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import replace
from pathlib import Path

import pytest

from puzzleplan.strips.sas import Grounded
from puzzleplan.families.strips.rules import StripsTask
from puzzleplan.formats.load import load
from puzzleplan.kit import goal_distances
from puzzleplan.planner import solve
from puzzleplan.puzzle import Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

DELIVER = """(define (domain deliver)
  (:requirements :strips :typing)
  (:types truck package place)
  (:predicates (at-t ?t - truck ?p - place) (at-p ?k - package ?p - place) (in ?k - package ?t - truck)
               (road ?a ?b - place))
  (:action drive
    :parameters (?t - truck ?a ?b - place)
    :precondition (and (at-t ?t ?a) (road ?a ?b))
    :effect (and (at-t ?t ?b) (not (at-t ?t ?a))))
  (:action load
    :parameters (?k - package ?t - truck ?p - place)
    :precondition (and (at-p ?k ?p) (at-t ?t ?p))
    :effect (and (in ?k ?t) (not (at-p ?k ?p))))
  (:action unload
    :parameters (?k - package ?t - truck ?p - place)
    :precondition (and (in ?k ?t) (at-t ?t ?p))
    :effect (and (at-p ?k ?p) (not (in ?k ?t)))))
"""

GRIPPER = """(define (domain gripper)
  (:requirements :strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room) (at-robby ?room) (free ?gripper))
    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))
  (:action drop :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper) (at-robby ?room))
    :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))
"""


def deliver(rng: random.Random) -> str:
    """Packages drawn from two or three (start, goal) pairs, so that some share both; trucks on
    a random connected road map, sometimes on one place."""
    places = [f"p{i}" for i in range(rng.randint(3, 4))]
    roads = {(places[i], places[i + 1]) for i in range(len(places) - 1)}
    roads |= {tuple(rng.sample(places, 2)) for _ in range(rng.randint(0, 2))}
    roads |= {(b, a) for a, b in roads}
    trucks = [f"t{i}" for i in range(rng.randint(1, 2))]
    kinds = [tuple(rng.sample(places, 2)) for _ in range(rng.randint(1, 3))]
    packages = {f"k{i}": rng.choice(kinds) for i in range(rng.randint(2, 4))}
    at_t = {t: rng.choice(places[:2]) for t in trucks}
    return ("(define (problem deliver) (:domain deliver)\n"
            f"  (:objects {' '.join(trucks)} - truck {' '.join(packages)} - package {' '.join(places)} - place)\n"
            "  (:init " + " ".join(f"(road {a} {b})" for a, b in sorted(roads))
            + " " + " ".join(f"(at-t {t} {p})" for t, p in at_t.items())
            + " " + " ".join(f"(at-p {k} {s})" for k, (s, _) in packages.items()) + ")\n"
            "  (:goal (and " + " ".join(f"(at-p {k} {g})" for k, (_, g) in packages.items()) + ")))\n")


def gripper(rng: random.Random) -> str:
    """Balls in two rooms, some wanted across; the robot anywhere."""
    balls = [f"ball{i}" for i in range(1, rng.randint(2, 4) + 1)]
    start = {b: rng.choice(["rooma", "roomb"]) for b in balls}
    goal = {b: rng.choice(["rooma", "roomb"]) for b in balls}
    if start == goal:
        goal[balls[0]] = "roomb" if start[balls[0]] == "rooma" else "rooma"
    return ("(define (problem gripper) (:domain gripper)\n"
            f"  (:objects rooma roomb {' '.join(balls)} left right)\n"
            "  (:init (room rooma) (room roomb) (gripper left) (gripper right) (free left) (free right) "
            f"(at-robby {rng.choice(['rooma', 'roomb'])}) "
            + " ".join(f"(ball {b}) (at {b} {start[b]})" for b in balls) + ")\n"
            "  (:goal (and " + " ".join(f"(at {b} {goal[b]})" for b in balls) + ")))\n")


_tasks: dict = {}


def task(kind: str, seed: int, folder: Path) -> StripsTask:
    """A random task of ``kind`` (read once per session: the translator runs for each)."""
    key = (kind, seed)
    if key not in _tasks:
        where = folder / f"{kind}{seed}"
        where.mkdir()
        (where / "domain.pddl").write_text(DELIVER if kind == "deliver" else GRIPPER)
        make = deliver if kind == "deliver" else gripper
        (where / "problem.pddl").write_text(make(random.Random(f"symmetry-{kind}-{seed}")))
        _tasks[key] = load(where / "problem.pddl").rules
    return _tasks[key]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("symmetry")


CASES = [("deliver", s) for s in range(12)] + [("gripper", s) for s in range(6)]


def swap_fact(name: str, a: str, b: str) -> str:
    """``at(ball1, rooma)`` (or ``not at(...)``) with a and b swapped."""
    neg = name.startswith("not ")
    pred, rest = (name[4:] if neg else name).split("(", 1)
    args = [w.strip() for w in rest.rstrip(")").split(",") if w.strip()]
    return ("not " if neg else "") + f"{pred}({', '.join(b if w == a else a if w == b else w for w in args)})"


def distances(rules) -> dict:
    """Every reachable state -> its distance to the nearest goal state (-1: none), by
    enumeration forward and the kit's backward search."""
    seen, todo, back = {rules.initial}, deque([rules.initial]), {}
    while todo:
        s = todo.popleft()
        for _, nxt in rules.successors(s):
            back.setdefault(nxt, set()).add(s)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    dist = goal_distances(rules, back, seen)
    return {s: dist.get(s, -1) for s in seen}


@pytest.mark.parametrize("kind,seed", CASES)
def test_every_pair_found_maps_the_reachable_states_onto_themselves_at_their_distances(kind, seed, folder):
    rules = task(kind, seed, folder)
    found = rules.symmetry()
    assert found is not None
    values = rules.task.values
    where = {name: (v, x) for v, names in enumerate(values) for x, name in enumerate(names)}

    def image(state, a, b):
        out = list(state)
        for v, x in enumerate(state):
            atom = next(n for n in values[v] if not n.startswith("<"))
            w = where[swap_fact(atom, a, b)][0]          # v's image variable
            out[w] = where[swap_fact(values[v][x], a, b)][1] if not values[v][x].startswith("<") else x
        return rules.pack(out)

    dist = distances(rules)
    for a, b in found.pairs:
        for state, d in dist.items():
            other = image(state, a, b)
            assert dist.get(other) == d, (kind, seed, a, b, state)
    if kind == "gripper":
        assert ("left", "right") in found.pairs


def test_the_balls_and_the_grippers_of_gripper_are_interchangeable(folder):
    rules = task("gripper", 0, folder)
    got = rules.symmetry()
    balls = sorted(b for b in {a for c in got.classes for a in c} if b.startswith("ball"))
    assert ["left", "right"] in got.classes and balls
    for c in got.classes:
        assert c == sorted(c)


def test_the_rule_is_stated_in_one_order_whatever_the_string_hashing(folder):
    """The objects' clauses come in name order: the same formula (so the same conflicts) in every
    process, whatever PYTHONHASHSEED makes of a set of names."""
    import ast
    import os
    import subprocess
    import sys
    task("gripper", 0, folder)
    code = ("import sys; from puzzleplan.formats.load import load; "
            "print(list(load(sys.argv[1]).rules.symmetry().touches))")
    orders = set()
    for seed in ("1", "2", "3", "4"):
        proc = subprocess.run([sys.executable, "-c", code, str(folder / "gripper0" / "problem.pddl")],
                              capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed})
        assert proc.returncode == 0, proc.stderr[-500:]
        orders.add(proc.stdout.strip().splitlines()[-1])
    (order,) = orders
    names = ast.literal_eval(order)
    assert names == sorted(names) and len(names) >= 4


@pytest.mark.heavy
@pytest.mark.parametrize("hard", [False, True], ids=["default", "order-from-the-start"])
@pytest.mark.parametrize("backend", ["pysat", "pysat-de", "cpsat"])
def test_sat_equals_bfs_with_interchangeable_objects(backend, hard, folder, monkeypatch):
    from puzzleplan.planner import deepening
    if hard:
        monkeypatch.setattr(deepening, "HARD_RUN", 0)
    ruled = 0
    for kind, seed in CASES:
        rules = task(kind, seed, folder)
        bfs = breadth_first_search(rules, "steps", 40)
        assert bfs.status is Status.OPTIMAL
        sat = solve(rules, "steps", backend, max_horizon=40)
        assert sat.status is Status.OPTIMAL and sat.length == bfs.length, (kind, seed, sat.length, bfs.length)
        assert check_plan(rules, sat.steps, "steps")["solved"]
        ruled += sat.stats.get("symmetry_pairs", 0) > 0
    assert ruled >= len(CASES) // 2


def test_the_rule_cuts_the_search_on_gripper(folder):
    """Four balls across: the same optimum with fewer conflicts, and the stats say what it added."""
    where = folder / "gripper-five-balls"
    where.mkdir()
    (where / "domain.pddl").write_text(GRIPPER)
    balls = [f"ball{i}" for i in range(1, 6)]
    (where / "problem.pddl").write_text(
        "(define (problem g) (:domain gripper) (:objects rooma roomb left right " + " ".join(balls) + ")\n"
        "(:init (room rooma) (room roomb) (gripper left) (gripper right) (free left) (free right) (at-robby rooma) "
        + " ".join(f"(ball {b}) (at {b} rooma)" for b in balls) + ")\n(:goal (and "
        + " ".join(f"(at {b} roomb)" for b in balls) + ")))\n")
    rules = load(where / "problem.pddl").rules
    on = solve(rules, "steps", "pysat-de")
    rules.levers = rules.levers - {"symmetry"}
    off = solve(rules, "steps", "pysat-de")
    assert on.status is off.status is Status.OPTIMAL and on.length == off.length == 15
    assert on.stats["symmetry_pairs"] == 5 and on.stats["symmetry_clauses"] > 0
    assert off.stats["symmetry"] == "off"
    assert on.stats["conflicts"] < off.stats["conflicts"]


def test_side_conditions_switch_the_rule_off(folder):
    rules = task("gripper", 0, folder)
    from puzzleplan.registry import problem as problem_of
    from puzzleplan.puzzle import MoveCount
    counted = problem_of(rules, [MoveCount("pick", "<=", 9)])
    got = solve(counted, "steps", "pysat-de", max_horizon=40)
    assert got.status is Status.OPTIMAL
    assert got.stats["symmetry"].startswith("off (move counts")


def test_an_index_order_the_swap_does_not_lower_takes_no_pair(folder):
    """The operators in reverse order: the swap of two balls raises the index of an operator
    touching the later ball, so no pair is bound (and SAT still equals BFS)."""
    rules = task("gripper", 0, folder)
    t = rules.task
    reverse = StripsTask(replace(t, operators=tuple(reversed(t.operators))))
    assert rules.symmetry().pairs and reverse.symmetry().classes == rules.symmetry().classes
    assert reverse.symmetry().pairs == []
    assert solve(reverse, "steps").length == breadth_first_search(reverse, "steps").length


def test_no_pair_on_a_task_whose_names_are_not_unique():
    from puzzleplan.strips.sas import Operator
    values = (("p(x)", "p(y)"), ("q(x)", "q(y)"))
    task_ = StripsTask(Grounded("d", "p", values, (0, 0), ((0, 1), (1, 1)),
                                (Operator("go x", ((0, 0),), ((0, 1),), 1), Operator("go x", ((1, 0),), ((1, 1),), 1)),
                                (), False))
    assert task_.symmetry() is None
