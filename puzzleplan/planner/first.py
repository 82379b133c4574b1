"""A first plan for the anytime run, and shorter ones by re-solving windows of it.

The deepening (:mod:`.deepening`) proves the lower bound horizon after horizon; on a puzzle
too hard to prove it has nothing to show until the end.  This module gives it an upper bound
early, by three ways, each on a budget that counts work, never time:

greedy     (search, not SAT) greedy best-first search on the rules' admissible bound, within
           :data:`GREEDY_FIRST` states expanded, then going on between horizons while it has
           expanded fewer states than a third of the deepening's conflicts, up to
           :data:`GREEDY_STATES` in all (:class:`Greedy`): tried first, because on every puzzle measured
           it gave a shorter plan sooner than the parallel steps, and on Klotski the only one
           (benchmarks/anytime/README.md)
parallel   (SAT) when greedy search gave no plan, once the deepening has spent as many
           conflicts as the parallel steps' budget (:func:`parallel_due`): the family's parallel-step encoding
           (``Family.parallel``; sliding blocks: :mod:`puzzleplan.families.sliding.parallel`,
           PDDL tasks: :mod:`puzzleplan.strips.encoding.exists`, both relaxed ∃-steps), horizons
           growing by half, on a plain solver of its own, within :data:`PARALLEL_BUDGET`
           conflicts in all (or the encoder's own ``first_budget``) and
           :data:`PARALLEL_HORIZONS` horizons; the model's moves in the
           encoding's order are a sequential plan, replayed
windows    (SAT) the plan in hand cut into windows: from the position after step ``i`` to the
           one after step ``j``, the family's sequential encoding is asked for at most
           ``j - i - 1`` moves (both positions fixed by assumptions, so one solver serves every
           window); a shorter stretch is spliced in and the whole plan replayed; windows grow
           from :data:`WINDOW_FIRST` moves, once the deepening has spent
           ``deepening.WINDOWS_AFTER`` conflicts (at once, within :data:`WINDOW_BUDGET`, when
           the first plan came before the first horizon), then between horizons within half
           as many as the deepening spent since (a third of the work at most), until a pass of
           the widest windows shortens nothing

Every plan is offered to the run's incumbent (:class:`.anytime.Incumbent`), which keeps it
only if it is shorter, and the result says which way found the plan (``plan_found_by``).
"""
from __future__ import annotations

import heapq
import math

from .. import limits
from ..constraints import state_space
from .anytime import replayed_length

# conflicts for the parallel horizons in all (measured: Rush Hour card 40 (steps) has a 132-step plan at
# parallel horizon 40 after 6,126 conflicts from horizon 2; the 15-puzzle position of 32 steps
# a 34-step plan at 11 after 17,546, 3.9 CPU s, where greedy search has a 50-step plan in
# 0.1 s; Klotski none in 200,000 at horizons 40-80; benchmarks/anytime/README.md)
PARALLEL_BUDGET = 5_000
# the parallel steps wait until the deepening has spent this many times their budget (Sokoban
# rooms the deepening proves in 1.5-2.5 CPU s: asked at once, their 20,000 conflicts cost more
# than the proof)
PARALLEL_AFTER = 1.0
# horizons asked at most (2, 4, 7, ... 363): a task whose goal is out of reach may have every
# horizon refuted by propagation alone, without a conflict (a generated PDDL task did)
PARALLEL_HORIZONS = 12
# the greedy search's states expanded at most in all (Klotski needs 7,655, the 15-puzzle position
# 201, Rush Hour card 40 1,523); at first GREEDY_FIRST, later a third as many in all as the
# deepening has spent conflicts: a state of a grounded PDDL task costs 0.3-0.4 ms, and 50,000 at once made
# Sokoban rooms the deepening proves in 1.5-2.5 CPU s take 16-25 s (benchmarks/anytime/README.md)
GREEDY_STATES = 50_000
GREEDY_FIRST = 2_000
# the windows' first conflicts; later, between horizons, half as many as the deepening spent
# since (a third of the work): on Klotski no window was shorter, and the proof's conflicts are
# what moves its lower bound
WINDOW_BUDGET = 10_000
# conflicts per window at most
WINDOW_EACH = 5_000
# the first windows' moves; each pass that shortens nothing doubles them, up to WINDOW_LAST
WINDOW_FIRST = 8
WINDOW_LAST = 64


def _plain(problem, solver_name):
    from ..encodings.model import BoolModel
    from .backends import make_backend
    model = BoolModel()
    spec = "pysat-plain" + (f":{solver_name}" if solver_name else "")
    return model, make_backend(spec, model, "seqcounter", problem.family)


def _checked(problem, moves, metric, counts):
    """``(steps, length)`` of ``moves`` if the rules' replay solves the puzzle, else None."""
    steps = problem.rules.render_steps(moves)
    length = replayed_length(problem, steps, metric, counts)
    return None if length is None else (steps, length)


def parallel_first(problem, metric, counts, solver_name, lower: int, budget: int | None = None):
    """``(steps, length, row)`` by the family's parallel encoding, or ``(None, None, row)``;
    ``row`` says what was asked (``None`` for a family without one); ``budget``: conflicts
    (default: the encoder's ``first_budget`` if it states one, else :data:`PARALLEL_BUDGET`)."""
    ref = problem.family.parallel.get(metric)
    if ref is None or counts or problem.counts or problem.ends:
        return None, None, None
    encoder = problem.family.ref(ref)(problem, metric)
    if budget is None:
        budget = getattr(encoder, "first_budget", PARALLEL_BUDGET)
    model, solver = _plain(problem, solver_name)
    row = {"way": "parallel", "horizons": [], "conflicts": 0}
    try:
        encoder.start(model)
        horizon = max(2, lower // 4)
        while row["conflicts"] < budget and len(row["horizons"]) < PARALLEL_HORIZONS:
            encoder.extend(model, horizon)
            before = solver.conflicts()
            answer = solver.solve_budget([encoder.goal(model, horizon)], budget - row["conflicts"])
            row["conflicts"] += solver.conflicts() - before
            row["horizons"].append((horizon, {True: "sat", False: "unsat", None: "unknown"}[answer]))
            if answer is None:
                if limits.expired():
                    raise limits.TimeUp()
                break
            if answer:
                got = _checked(problem, encoder.decode(model, solver.values()), metric, counts)
                if got is None:
                    raise AssertionError("the linearised parallel plan fails replay")
                row["length"] = got[1]
                return got[0], got[1], row
            horizon = math.ceil(1.5 * horizon) + 1
    finally:
        solver.close()
    return None, None, row


class Greedy:
    """Greedy best-first search on the rules' admissible bound (states first reached kept, ties
    first in first out) that goes on where it stopped: :meth:`run` expands states until as many
    have been expanded in all as it is told, or a goal is reached."""

    def __init__(self, problem, metric, counts):
        self.problem, self.metric, self.counts = problem, metric, counts
        self.space = state_space(problem)
        self.walk = problem.rules.walk_metric(metric)   # makespan's steps walked one at a time
        start = self.space.initial
        self.parent = {start: None}
        self.heap = [(self.space.heuristic(start, self.walk), 0, start)]
        self.tie = 0
        self.row = {"way": "greedy", "expanded": 0}
        self.found = None           # the plan found: (steps, length)

    def run(self, total: int):
        """``(steps, length)`` of a replayed plan (the one found before, if any), or ``(None,
        None)`` once ``total`` states are expanded in all without reaching a goal."""
        if self.found is not None:
            return self.found
        space, walk, parent, heap = self.space, self.walk, self.parent, self.heap
        while heap and self.row["expanded"] < total:
            limits.checkpoint()
            _, _, state = heapq.heappop(heap)
            if space.is_goal(state):
                moves = []
                while parent[state] is not None:
                    state, move = parent[state]
                    moves.append(move)
                got = _checked(self.problem, moves[::-1], self.metric, self.counts)
                if got is None:
                    raise AssertionError("the greedy plan fails replay")
                self.row["length"] = got[1]
                self.found = got
                return got
            self.row["expanded"] += 1
            for move, nxt in space.successors(state, walk):
                if nxt not in parent:
                    parent[nxt] = (state, move)
                    self.tie += 1
                    heapq.heappush(heap, (space.heuristic(nxt, walk), self.tie, nxt))
        return None, None

    @staticmethod
    def allowed(spent: int) -> int:
        """The states to expand in all once the deepening has spent ``spent`` conflicts:
        :data:`GREEDY_FIRST`, or a third of them if more, never past :data:`GREEDY_STATES`."""
        return min(GREEDY_STATES, max(spent // 3, GREEDY_FIRST))

    def go(self, spent: int):
        """:meth:`run` within :meth:`allowed` states in all."""
        return self.run(self.allowed(spent))

    def due(self, spent: int) -> bool:
        """Whether to go on now: no plan yet, states left, and more allowed than expanded."""
        return self.found is None and bool(self.heap) and self.row["expanded"] < self.allowed(spent)


def parallel_due(problem, metric, counts) -> int | None:
    """The deepening's conflicts from which the parallel steps are asked: their conflict budget
    (the encoder's ``first_budget``, else :data:`PARALLEL_BUDGET`) times :data:`PARALLEL_AFTER`,
    so that they never cost more than the deepening has spent; None where there are none."""
    ref = problem.family.parallel.get(metric)
    if ref is None or counts or problem.counts or problem.ends:
        return None
    return int(PARALLEL_AFTER * getattr(problem.family.ref(ref), "first_budget", PARALLEL_BUDGET))


def greedy_first(problem, metric, counts, max_states: int | None = None):
    """``(steps, length, row)`` by :class:`Greedy` within ``max_states`` states expanded (default
    :data:`GREEDY_STATES`), or ``(None, None, row)``."""
    greedy = Greedy(problem, metric, counts)
    steps, length = greedy.run(GREEDY_STATES if max_states is None else max_states)
    return steps, length, greedy.row


class Windows:
    """Windows of a plan re-solved by the sequential encoding (see the module doc); only for
    an encoder with ``window_state`` and ``window_steps`` and a problem without side
    conditions."""

    def __init__(self, problem, metric, counts, solver_name):
        from ..encodings import encoder_for
        self.problem, self.metric, self.counts = problem, metric, counts
        self.encoder = encoder_for(problem, metric, counts)
        self.model, self.solver = _plain(problem, solver_name)
        self.encoder.state_vars(self.model, 0)
        self.row = {"way": "windows", "asked": 0, "shorter": 0, "conflicts": 0}
        self.steps, self.length, self.history = None, None, None
        self.width, self.i, self.shorter = WINDOW_FIRST, 0, False

    @staticmethod
    def available(problem, metric, counts) -> bool:
        from ..encodings import encoder_class
        if counts or problem.counts or problem.ends or metric not in problem.family.encoders:
            return False
        cls = encoder_class(problem.family, metric)
        return hasattr(cls, "window_state") and hasattr(cls, "window_steps") and getattr(cls, "windows", True)

    def ask(self, steps, history, i, j, budget):
        """A plan with the moves between ``i`` and ``j`` done in fewer, or None."""
        m, enc, T = self.model, self.encoder, j - i - 1
        enc.extend(m, T)
        asked = enc.window_state(m, history[i], 0) + enc.window_state(m, history[j], T, whole=False)
        if m.has(("act", T)):
            asked.append(-m.var(("act", T)))
        before = self.solver.conflicts()
        answer = self.solver.solve_budget(asked, min(WINDOW_EACH, budget))
        self.row["conflicts"] += self.solver.conflicts() - before
        self.row["asked"] += 1
        if not answer:
            if answer is None and limits.expired():
                raise limits.TimeUp()
            return None
        middle = enc.window_steps(m, self.solver.values(), history[i], history[j], steps[j:])
        return None if middle is None else steps[:i] + middle

    def shorten(self, steps: list, length: int, offer, budget: int) -> None:
        """Passes over the plan (``steps``: the incumbent's, perhaps new since the last call),
        windows doubling when a pass shortens nothing, within ``budget`` more conflicts; each
        shorter plan (replayed) goes to ``offer(steps, length)``.  A later call goes on where
        this one stopped."""
        if steps != self.steps:
            self.steps, self.length, self.i, self.shorter = list(steps), length, 0, False
            self.history = self.problem.rules.replay(self.steps).history
        stop = self.row["conflicts"] + budget
        while self.width <= min(WINDOW_LAST, max(len(self.steps), 2)) and self.row["conflicts"] < stop:
            if self.i + 2 > len(self.steps):        # a pass ends
                self.width, self.i = self.width if self.shorter else 2 * self.width, 0
                self.shorter = False
                continue
            j = min(self.i + self.width, len(self.steps))
            trial = self.ask(self.steps, self.history, self.i, j, stop - self.row["conflicts"])
            got = replayed_length(self.problem, trial, self.metric, self.counts) if trial is not None else None
            if got is not None and got < self.length:
                self.steps, self.length, self.shorter = trial, got, True
                self.row["shorter"] += 1
                offer(self.steps, self.length)
                self.history = self.problem.rules.replay(self.steps).history
            self.i += max(1, self.width // 2)

    def close(self):
        self.solver.close()
