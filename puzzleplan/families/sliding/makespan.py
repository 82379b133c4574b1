"""Makespan: pieces that move at the same time.

One move of the ``makespan`` metric is a *time step*: any set of pieces each make one unit step
(one cell) at once, provided they do not interfere -- each enters only cells that were empty
before the time step, no two enter the same cell, and a piece moves at most once in it.  A
piece may not follow another into the cell it leaves in the same time step (that would depend
on who goes first).  Such a set can be carried out one unit step after another in any order,
every order ending in the same position, so a plan is written as unit steps like any other
(the steps of one time step next to each other) and replayed by the same rules.

Its length is counted from the steps alone (:func:`time_steps`): consecutive steps are one
time step while they keep to the conditions above, measured from the position where the time
step began; the next step that does not starts a new one.  Cutting a sequence into as few
such runs as possible is what that greedy cut does (a part of a run that keeps to the
conditions keeps to them too), so a plan is never counted longer than its best reading.

Search on this metric moves every subset of the pieces that can move together
(:func:`joint_successors`: up to 2^n - 1 successors with n pieces free to move), where the
SAT encoding (:class:`.parallel.SimultaneousSteps`) has the same variables as for ``steps``.
"""
from __future__ import annotations

from typing import Iterator, Sequence

from ...limits import checkpoint
from ...puzzle import Move

DIRS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
# the tag of a joint move's data: ``("together", ((kind, (from, to)), ...))``
TOGETHER = "together"


def joint_successors(rules, state) -> Iterator[tuple[Move, tuple]]:
    """Every (joint move, next state) from ``state``: each non-empty set of unit steps of
    different pieces entering cells empty in ``state``, no cell entered twice."""
    occ = rules.occupied(state)
    free = []       # (kind, index, anchor, [(to, cells entered)]) for each piece that can move
    for k, anchors in enumerate(state):
        for i, a in enumerate(anchors):
            options = [(b, entering) for _, b, _, entering in rules._steps(k, a)
                       if all(c not in occ for c in entering)]
            if options:
                free.append((k, i, a, options))

    def chosen(j: int, taken: frozenset, picked: tuple) -> Iterator[tuple]:
        if j == len(free):
            if picked:
                yield picked
            return
        yield from chosen(j + 1, taken, picked)
        k, i, a, options = free[j]
        for b, entering in options:
            if taken.isdisjoint(entering):
                checkpoint()
                yield from chosen(j + 1, taken | frozenset(entering), picked + ((k, i, a, b),))

    for picked in chosen(0, frozenset(), ()):
        new = [list(anchors) for anchors in state]
        for k, i, _, b in picked:
            new[k][i] = b
        parts = tuple((k, (a, b)) for k, _, a, b in picked)
        yield (Move(tuple(k for k, _ in parts), (TOGETHER, parts), len(parts)),
               tuple(tuple(sorted(anchors)) for anchors in new))


def unit_moves(moves: Sequence[Move]) -> Iterator[Move]:
    """``moves`` with each joint move given as its unit steps (the rules render those)."""
    for move in moves:
        if move.data[0] == TOGETHER:
            for k, path in move.data[1]:
                yield Move(k, (k, path), 1)
        else:
            yield move


def time_steps(pieces: dict, steps: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The plan's time steps (see the module doc): ``("A+B", steps)`` each, from the position
    ``pieces`` (label -> cells).  Read as written: a step the rules refuse is the replay's to
    report; here it starts a time step of its own."""
    place = {label: frozenset(cells) for label, cells in pieces.items()}
    out: list[tuple[list, list]] = []
    before: set = set()      # the cells covered when the current time step began
    for s in steps:
        label, v = s[:-1], DIRS.get(s[-1:])
        if label not in place or v is None:
            out.append(([label], [s]))
            before = set()
            continue
        moved = frozenset((x + v[0], y + v[1]) for x, y in place[label])
        entered = moved - place[label]
        if not out or label in out[-1][0] or entered & before:
            before = set().union(*place.values())
            out.append(([], []))
        out[-1][0].append(label)
        out[-1][1].append(s)
        place[label] = moved
    return [("+".join(labels), tuple(group)) for labels, group in out]


def bound(rules, state) -> int:
    """An admissible bound in time steps: a piece moves at most one cell a time step, so the
    farthest goal's nearest piece, and the piece that must step out of a goal piece's line
    farthest (:meth:`~.rules.SlidingPuzzle.blockers`), each need that many."""
    far = [min(abs(a[0] - g[0]) + abs(a[1] - g[1]) for a in state[k]) for k, g in rules.goal]
    far += list(rules.blockers(state, "steps").values())
    return max(far, default=0)
