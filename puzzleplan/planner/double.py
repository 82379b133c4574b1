"""The double-ended incremental encoding (Gocht and Balyo, "Accelerating SAT based
planning with incremental SAT solving", ICAPS 2017).

The forward unrolling puts the goal at the last step, so each horizon asks for it
somewhere new, and what the solver learned about the steps before the goal is lost
with the horizon.  Here the goal has a step of its own, :data:`GOAL_STEP`, fixed by
permanent clauses; the plan's steps grow from both ends: a *start side* (steps 0, 1,
..., a, as in the forward unrolling) and a *goal side* (steps GOAL_STEP - b, ...,
GOAL_STEP - 1, GOAL_STEP).  Horizon T = a + b asks, through one assumed literal
``("link", T)``, that the last state of the start side equals the first state of the
goal side.  Going to T + 1 adds one layer to one side (alternately) and a new link;
every clause the solver learned stays valid, the goal side's included.

No-ops come last on the start side and first on the goal side, so they meet at the
link; a no-op at the start side's last step means no move on the goal side (each
plan of at most T moves has one place).  Refuting T refutes every shorter horizon.

Lemmas come from both ends (:mod:`.lemmas`): the start side's units say a fact cannot
hold yet t steps after the start, the goal side's units that from a fact the goal is
more than j steps away.  Both are implied by the rules, the start and the goal alone,
so they are permanent clauses.  So are the encoder's admissible distance bounds
(:meth:`~puzzleplan.encodings.base.Encoder.goal_bound`, e.g. Sokoban's sum of push
distances, the knights' sum of jumps to their targets), stated on each goal-side layer for the
moves left from it, and from the start (:meth:`~puzzleplan.encodings.base.Encoder.start_bound`,
the knights' jumps from where they started) on each start-side layer for the moves made.  The goal side's states are free but for the encoder's
:meth:`~puzzleplan.encodings.base.Encoder.invariant` (piece counts), so its distances
are those of every state the encoding allows: never more than the true ones.

An encoding whose layers are not the standard ones, or whose goal counts moves
(``Encoder.double_ended`` says why), is unrolled forward instead.
"""
from __future__ import annotations

from .lemmas import Allowance, FirstProbe, ReachabilityLemmas

GOAL_STEP = 1 << 24     # the goal's step number; the start side stays far below it


def split(horizon: int) -> tuple[int, int]:
    """Steps on the start side and on the goal side for ``horizon`` steps."""
    return (horizon + 1) // 2, horizon // 2


class DoubleEnded:
    """Grows ``model`` from both ends for ``encoder``; ``prepare(T)`` then ``goal(T)``."""

    def __init__(self, encoder, model, solver, lemmas: bool, budget: int | None = None, bounds: frozenset = frozenset(),
                 goal_lemmas: bool = True, probe: bool = True, say=None):
        self.encoder, self.model = encoder, model
        self.bounds = bounds        # the sides with distance bounds: "goal", "start" (unrolling.sides)
        self.a = self.b = 0
        self.bounded = 0        # goal-side layers with a distance bound
        self.start_bounded = 0  # start-side layers with one
        encoder.start(model)
        encoder.state_vars(model, GOAL_STEP)
        encoder.invariant(model, GOAL_STEP)
        model.add([encoder.state_goal(model, GOAL_STEP)])
        self.forward = self.backward = None
        self.allowance = Allowance(solver, say) if lemmas else None
        self.probe = FirstProbe(solver, budget, self.allowance) if lemmas and probe else None
        if lemmas:
            self.forward = ReachabilityLemmas(encoder, model, solver, budget, grow=self.grow_start,
                                              allowance=self.allowance)
            if goal_lemmas:
                self.backward = ReachabilityLemmas(encoder, model, solver, budget, grow=self.grow_goal,
                                                   step_of=lambda j: GOAL_STEP - j, fixed_start=False,
                                                   allowance=self.allowance, side="goal-side")

    def grow_start(self, a: int) -> None:
        m, enc = self.model, self.encoder
        while self.a < a:
            t = self.a
            enc.state_vars(m, t + 1)
            if "start" in self.bounds and enc.start_bound(m, t + 1, t + 1):
                self.start_bounded += 1
            act = enc.step(m, t)
            if t > 0:       # no-ops last
                m.implies(act, [m.var(("act", t - 1))])
            self.a += 1

    def grow_goal(self, b: int) -> None:
        m, enc = self.model, self.encoder
        while self.b < b:
            t = GOAL_STEP - self.b - 1
            enc.state_vars(m, t)
            enc.invariant(m, t)
            if "goal" in self.bounds and enc.goal_bound(m, t, self.b + 1):
                self.bounded += 1
            act = enc.step(m, t)
            if self.b > 0:  # no-ops first: a move further from the goal means moves nearer to it
                m.implies(act, [m.var(("act", t + 1))])
            self.b += 1

    def prepare(self, horizon: int) -> bool:
        """Both sides built (and saturated with lemmas) for ``horizon``; False if the
        time limit passed first."""
        a, b = split(horizon)
        if self.allowance is not None:
            self.allowance.begin(horizon)
        if self.probe is not None and self.probe.pending():
            self.grow_start(a)
            self.grow_goal(b)
            found = self.probe.ask(self.goal(horizon))
            if found is None:
                return False
            if found:
                return True         # a plan at the lower bound: no lemmas needed
        for lemmas, grow, n in ((self.forward, self.grow_start, a), (self.backward, self.grow_goal, b)):
            if lemmas is None:
                grow(n)
            elif not lemmas.saturate(n):
                return False
        return True

    def escalate(self, horizon: int) -> None:
        self.encoder.escalate(self.model, horizon)

    def goal(self, horizon: int) -> int:
        """The literal that, assumed, links the two sides into ``horizon`` steps."""
        m, enc = self.model, self.encoder
        key = ("link", horizon)
        if m.has(key):
            return m.var(key)
        link = m.var(key)
        a, b = split(horizon)
        here, there = enc.facts(m, a), enc.facts(m, GOAL_STEP - b)
        for name, lit in here.items():
            m.add([-link, -lit, there[name]])
            m.add([-link, lit, -there[name]])
        if a > 0 and b > 0:
            m.add([-link, m.var(("act", a - 1)), -m.var(("act", GOAL_STEP - 1))])
        return link

    def units(self) -> dict:
        """The lemma units so far, for the per-horizon row."""
        out = {}
        if self.forward is not None:
            out["lemmas"] = self.forward.units
        if self.backward is not None:
            out["goal_lemmas"] = self.backward.units
        if self.bounded or self.start_bounded:
            out["bounds"] = self.bounded + self.start_bounded
        return out

    def figures(self) -> dict:
        out = {"unrolling": "double-ended", "goal_bounds": self.bounded, **self.encoder.figures(),
               **({"start_bounds": self.start_bounded} if self.start_bounded else {}),
               **(self.probe.figures() if self.probe is not None else {}),
               **(self.allowance.figures() if self.allowance is not None else {})}
        for side, lemmas in (("", self.forward), ("goal_", self.backward)):
            if lemmas is not None:
                out.update({f"{side}{k}": v for k, v in lemmas.figures().items()})
        return out
