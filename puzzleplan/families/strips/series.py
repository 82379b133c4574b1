"""Instance series of the strips family (``puzzleplan generate strips``): PDDL tasks written
with their domain beside them (``NAME-domain.pddl``).

- ``ferry``: the classic ferry domain, n cars spread over four ports, each to another port,
  one ferry that carries one car at a time: the positions grow as 5^n, the optimum about
  3 to 4 actions per car.
- ``gripper``: a robot with two grippers carries n balls from one room to the other: the
  optimum grows with n as the positions do.
"""
from __future__ import annotations

import random

from ...series import Series

FERRY = """(define (domain ferry)
  (:requirements :strips :typing)
  (:types car location)
  (:predicates (at-ferry ?l - location) (at ?c - car ?l - location) (empty-ferry) (on ?c - car))
  (:action sail
    :parameters (?from ?to - location)
    :precondition (and (at-ferry ?from))
    :effect (and (at-ferry ?to) (not (at-ferry ?from))))
  (:action board
    :parameters (?car - car ?loc - location)
    :precondition (and (at ?car ?loc) (at-ferry ?loc) (empty-ferry))
    :effect (and (on ?car) (not (at ?car ?loc)) (not (empty-ferry))))
  (:action debark
    :parameters (?car - car ?loc - location)
    :precondition (and (on ?car) (at-ferry ?loc))
    :effect (and (at ?car ?loc) (empty-ferry) (not (on ?car)))))
"""

GRIPPER = """(define (domain gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper) (carry ?b - ball ?g - gripper))
  (:action move
    :parameters (?from ?to - room)
    :precondition (at-robby ?from)
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
"""

PORTS = 4


def ferry(rng: random.Random, n: int) -> dict[str, str]:
    if not 1 <= n <= 99:
        raise ValueError("give from 1 to 99 cars")
    cars = [f"c{i}" for i in range(n)]
    ports = [f"l{i}" for i in range(PORTS)]
    start = {c: rng.choice(ports) for c in cars}
    goal = {c: rng.choice([p for p in ports if p != start[c]]) for c in cars}
    problem = (f"(define (problem ferry-{n})\n  (:domain ferry)\n"
               f"  (:objects {' '.join(cars)} - car {' '.join(ports)} - location)\n"
               f"  (:init (at-ferry {rng.choice(ports)}) (empty-ferry)\n    "
               + " ".join(f"(at {c} {start[c]})" for c in cars) + ")\n"
               "  (:goal (and " + " ".join(f"(at {c} {goal[c]})" for c in cars) + ")))\n")
    return {".pddl": problem, "-domain.pddl": FERRY}


def gripper(rng: random.Random, n: int) -> dict[str, str]:
    if not 1 <= n <= 99:
        raise ValueError("give from 1 to 99 balls")
    balls = [f"b{i}" for i in range(n)]
    problem = (f"(define (problem gripper-{n})\n  (:domain gripper)\n"
               f"  (:objects rooma roomb - room {' '.join(balls)} - ball left right - gripper)\n"
               "  (:init (at-robby rooma) (free left) (free right)\n    "
               + " ".join(f"(at {b} rooma)" for b in balls) + ")\n"
               "  (:goal (and " + " ".join(f"(at {b} roomb)" for b in balls) + ")))\n")
    return {".pddl": problem, "-domain.pddl": GRIPPER}


SERIES = {
    "ferry": Series("ferry", "n cars over four ports, one ferry", "n", tuple(range(1, 11)), ferry, limits=(1, 99)),
    "gripper": Series("gripper", "n balls from room a to room b, two grippers", "n", tuple(range(1, 11)), gripper,
                      regime="deep", limits=(1, 99)),
}
