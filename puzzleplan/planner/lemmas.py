"""Reachability lemmas: the steps at which a state fact cannot hold yet.

A *fact* is one state variable named without its time (a piece kind on an
anchor, an empty cell, a box or the player on a cell, a knight on a square);
each encoder lists them with ``facts(model, t)``.  As the planner adds layer t,
it *saturates* it before any goal is asked there: with one selector literal it
asks the solver whether some fact not yet seen can hold at step t.  A model
marks every fact of its whole trajectory as seen (seen at step s, it can be
kept to any later step by no-ops), and the question is asked again about the
rest; once the answer is no, every fact still unseen gets the unit clause
"not at step t".

Sound: no goal is assumed, so each unit is implied by the rules and the start
alone, and holds for every horizon.  Why it pays: a fact unseen at step t was
unseen at every earlier step, so the units for it are already there at steps
0..t-1; the solver gets, at every step, the earliest time of each fact -- what
it would otherwise rediscover at each step of each horizon.  On Rush Hour card
40 (81 steps) the goal question becomes a unit propagation, and the whole run
is 5x faster (docs/results/measured.md).

The price: a fact refuted just before it first becomes reachable can cost as
much as a horizon.  Each question gets a conflict budget; when the question
about all unseen facts runs out, they are asked one by one, and a fact that
runs out alone is dropped: never asked again, no more units for it.  The
budget (5,000 conflicts) was measured on ThinkFun cards 34-40, Pennant, Ma's
puzzle and Klotski (docs/results/planners.md).

The first horizon (the admissible lower bound) is asked once before its layers are
saturated, within the same budget (:class:`FirstProbe`): where the bound is the optimum, as
on wide boards with short plans, the saturation is all cost (each of its questions finds a
trajectory to a fact not yet seen; 294 of them, 15 s, on a 5 x 5 board of 17 pieces whose
optimum is its bound of 10, then solved in 1,859 conflicts; benchmarks/probe_owed).  Otherwise the probe's learnt
clauses stay and the layers are saturated as before.

The same saturation runs back from the goal on the goal side of the double-ended
encoding (:mod:`.double`): there layer j holds the states j steps before the goal,
and a unit says that from the fact the goal cannot be reached within j steps
(``layers`` gives the layer's steps; ``fixed_start=False``: layer 0, the goal
states, is asked about as every other layer).

The saturation is the engine of the long runs (on Klotski and Ma's puzzle nearly every
conflict of the run is a lemma question's, and the goal questions become unit propagation),
but before a horizon is asked its layers can cost more than the horizon would: on a 15-puzzle
position the 24 layers of its first horizon took minutes of questions, each finding one more
trajectory.  So the questions made while one horizon is prepared share an :class:`Allowance` of
conflicts -- :data:`FLOOR` for the first horizon, then :data:`GROWTH` times the whole work of
the horizon before (its questions and its goal) -- and when it is spent, the horizon is asked
with the layers saturated so far; the saturation goes on where it stopped when the next horizon
is prepared.  Conflicts, not seconds: the same run, the same lemmas and the same answer on an
idle and on a busy machine.
"""
from __future__ import annotations

import enum
from typing import Callable, Hashable

from .. import limits

BUDGET = 5000       # conflicts per question
FLOOR = 20_000      # conflicts the questions may take before the first horizon is asked
GROWTH = 4          # ... and before each later one: this many times the previous horizon's work


class Stop(enum.Enum):
    """Why a question was not answered: the run's time limit, or the horizon's allowance."""
    TIME = "time"
    PAUSED = "paused"


class Allowance:
    """The conflicts the lemma questions (and the first probe) may take while one horizon is
    prepared (see the module doc); ``say`` is told, once, the first time it runs out."""

    def __init__(self, solver, say: Callable[[str], None] | None = None, floor: int | None = None,
                 growth: int | None = None):
        self.solver, self.say = solver, say or (lambda text: None)
        self.floor = FLOOR if floor is None else floor
        self.growth = GROWTH if growth is None else growth
        self.mark: int | None = None        # the solver's conflicts when this horizon's preparation began
        self.limit = self.floor
        self.horizon: int | None = None
        self.paused = 0         # horizons asked before their layers were all saturated
        self.paused_at: int | None = None   # the last of them (both sides may run out in one)

    def begin(self, horizon: int) -> None:
        """Horizon ``horizon`` is being prepared: its allowance is set from the work since the
        previous one began (that horizon's questions and its goal)."""
        total = self.solver.conflicts()
        self.limit = self.floor if self.mark is None else max(self.floor, self.growth * (total - self.mark))
        self.mark, self.horizon = total, horizon

    def left(self) -> int:
        return self.limit - (self.solver.conflicts() - (self.mark or 0))

    def ran_out(self, side: str, layer: int) -> None:
        if self.paused_at == self.horizon:
            return
        if not self.paused:
            self.say(f"lemmas: horizon {self.horizon} is asked before {side} layer {layer} is saturated "
                     f"(its questions' allowance, {self.limit:,} conflicts, is spent); the saturation goes on "
                     "as the next horizons are prepared")
        self.paused += 1
        self.paused_at = self.horizon

    def figures(self) -> dict:
        return {"lemma_paused": self.paused} if self.paused else {}


class ReachabilityLemmas:
    """Saturates layers of ``model`` through ``solver`` (a :class:`PysatBackend`)."""

    def __init__(self, encoder, model, solver, budget: int | None = None, grow=None, step_of=None,
                 fixed_start: bool = True, allowance: Allowance | None = None, side: str = "start-side"):
        self.encoder, self.model, self.solver = encoder, model, solver
        self.allowance, self.side = allowance, side
        # grow(i): make layer i exist; step_of(i): the model's step number of layer i
        self.grow = grow or (lambda i: encoder.extend(model, i))
        self.step_of = step_of or (lambda i: i)
        self.fixed_start = fixed_start
        self.budget = BUDGET if budget is None else budget
        self.seen: set[Hashable] = set()
        self.dropped: set[Hashable] = set()
        self.refuted: dict[Hashable, int] = {}     # fact -> the last step it was shown false at
        self.units = self.calls = 0
        self.done = -1          # the last layer saturated
        self.layers: list[dict] = []     # step -> facts(model, step), made once

    def figures(self) -> dict:
        return {"lemma_units": self.units, "lemma_calls": self.calls, "lemma_dropped": len(self.dropped)}

    def saturate(self, t: int) -> bool:
        """Add the units of layer ``t`` (layers before it first), extending the
        encoding to each layer as it goes.  False if the deadline passed before
        the layer was done."""
        while self.done < t:
            self.grow(self.done + 1)
            outcome = self._layer(self.done + 1)
            if outcome is Stop.TIME:
                return False
            if outcome is Stop.PAUSED:     # the allowance is spent: the rest of the layers, unsaturated
                self.allowance.ran_out(self.side, self.done + 1)
                for i in range(self.done + 2, t + 1):
                    self.grow(i)
                return True
            self.done += 1
        return True

    def _facts(self, t: int) -> dict:
        while len(self.layers) <= t:
            self.layers.append(self.encoder.facts(self.model, self.step_of(len(self.layers))))
        return self.layers[t]

    def _ask(self, lits: list[int]) -> bool | None | Stop:
        """One budgeted question: True, False, None (its budget spent), Stop.TIME or Stop.PAUSED
        (the horizon's allowance spent)."""
        if limits.expired():
            return Stop.TIME
        budget = self.budget
        if self.allowance is not None:
            left = self.allowance.left()
            if left <= 0:
                return Stop.PAUSED
            budget = min(budget, left)
        self.calls += 1
        answer = self.solver.solve_budget(lits, budget)
        if answer is None and limits.expired():
            return Stop.TIME
        return Stop.PAUSED if answer is None and budget < self.budget else answer

    def _layer(self, t: int) -> bool | Stop:
        """Saturate layer ``t``: True, or a :class:`Stop` (see :meth:`_ask`)."""
        m = self.model
        if t == 0 and self.fixed_start:        # the start's facts are seen: any model shows them
            if self.solver.solve_budget([], self.budget):
                self._seen_in_model(0)
            return True
        facts = self._facts(t)
        unseen = [name for name in facts if name not in self.seen and name not in self.dropped]
        while unseen:
            selector = m.fresh("lemma")
            m.add([-selector, *(facts[name] for name in unseen)])
            answer = self._ask([selector])
            m.add([-selector])
            if isinstance(answer, Stop):
                return answer
            if answer is None:
                return self._one_by_one(t, facts, unseen)
            if answer is False:
                self._units(facts, unseen, t)
                return True
            self._seen_in_model(t)
            unseen = [name for name in unseen if name not in self.seen]
        return True

    def _one_by_one(self, t, facts, unseen) -> bool:
        for name in unseen:
            if name in self.seen:
                continue
            answer = self._ask([facts[name]])
            if isinstance(answer, Stop):
                return answer
            if answer is None:
                self.dropped.add(name)
            elif answer is False:
                self._units(facts, [name], t)
            else:
                self._seen_in_model(t)
        return True

    def _units(self, facts, names, t) -> None:
        for name in names:
            self.model.add([-facts[name]])
            self.refuted[name] = t
        self.units += len(names)

    def _seen_in_model(self, t: int) -> None:
        values = self.solver.values()
        for s in range(t + 1):
            for name, lit in self._facts(s).items():
                if name not in self.seen and lit in values:
                    self.seen.add(name)


class FirstProbe:
    """Asks the first horizon's goal once, within the lemmas' budget, before its layers are
    saturated (see the module doc)."""

    def __init__(self, solver, budget: int | None = None, allowance: Allowance | None = None):
        self.solver, self.allowance = solver, allowance
        self.budget = BUDGET if budget is None else budget
        self.answer: str | None = None      # None: not asked yet; then "sat", "unsat" or "budget"

    def pending(self) -> bool:
        return self.answer is None

    def ask(self, goal: int) -> bool | None:
        """True: a plan exists (skip the saturation); False: refuted or undecided (saturate);
        None: the time limit passed."""
        if limits.expired():
            return None
        budget = self.budget if self.allowance is None else max(0, min(self.budget, self.allowance.left()))
        answer = self.solver.solve_budget([goal], budget)
        if answer is None and limits.expired():
            return None
        self.answer = {True: "sat", False: "unsat", None: "budget"}[answer]
        return answer is True

    def figures(self) -> dict:
        return {"first_probe": self.answer} if self.answer is not None else {}
