"""How the deepening loop lays an encoding out in time: one small interface, two unrollings.

An unrolling grows a model for an encoder and answers, per horizon T:

``prepare(T)``  build (and saturate with lemmas) what horizon T needs; False if the time
                limit passed first
``goal(T)``     the literal that, assumed, asks for a plan of at most T moves
``units()``     the lemma figures so far, for the per-horizon line
``figures()``   the whole run's figures, for the result's stats
``escalate(T)`` the run has proved hard before horizon T: the encoder may add what costs
                more to find (:meth:`~puzzleplan.encodings.base.Encoder.escalate`)

:class:`Forward` puts the goal at the last step (:mod:`.lemmas` from the start);
:class:`~.double.DoubleEnded` gives the goal a step of its own and grows both ends
(lemmas from both).  :func:`unrolling_for` picks one for a backend.
"""
from __future__ import annotations

from typing import Protocol

from .double import DoubleEnded
from .lemmas import Allowance, FirstProbe, ReachabilityLemmas


class Unrolling(Protocol):
    def prepare(self, horizon: int) -> bool: ...
    def goal(self, horizon: int) -> int: ...
    def units(self) -> dict: ...
    def figures(self) -> dict: ...
    def escalate(self, horizon: int) -> None: ...


class Forward:
    """Steps 0..T with the goal at T, one layer of clauses added per horizon; reachability
    lemmas from the start when ``lemmas``."""

    def __init__(self, encoder, model, solver, lemmas: bool, budget: int | None = None, note: str | None = None,
                 probe: bool = True, say=None):
        self.encoder, self.model, self.note = encoder, model, note
        encoder.start(model)
        self.allowance = Allowance(solver, say) if lemmas else None
        self.lemmas = ReachabilityLemmas(encoder, model, solver, budget, allowance=self.allowance) if lemmas else None
        self.probe = FirstProbe(solver, budget, self.allowance) if lemmas and probe else None

    def prepare(self, horizon: int) -> bool:
        if self.allowance is not None:
            self.allowance.begin(horizon)
        if self.probe is not None and self.probe.pending():
            self.encoder.extend(self.model, horizon)
            found = self.probe.ask(self.goal(horizon))
            if found is None:
                return False
            if found:
                return True         # a plan at the lower bound: no lemmas needed
        layers = self.encoder.laid_out(horizon)
        if self.lemmas is not None and not self.lemmas.saturate(layers):
            return False        # each layer is saturated before the goal is asked there
        self.encoder.extend(self.model, layers)
        return True

    def goal(self, horizon: int) -> int:
        return self.encoder.goal(self.model, horizon)

    def units(self) -> dict:
        return {"lemmas": self.lemmas.units} if self.lemmas is not None else {}

    def escalate(self, horizon: int) -> None:
        self.encoder.escalate(self.model, horizon)

    def figures(self) -> dict:
        out = {**self.encoder.figures(), **(self.lemmas.figures() if self.lemmas is not None else {}),
               **(self.probe.figures() if self.probe is not None else {}),
               **(self.allowance.figures() if self.allowance is not None else {})}
        if self.encoder.move_counts.cards:
            out["owed_cards"] = self.encoder.move_counts.cards
        return {**out, "unrolling": self.note} if self.note else out


def sides(encoder, bounds: bool | None) -> frozenset:
    """The sides whose distance bounds are stated: both (True), none (False), or the encoder's
    own choice (None)."""
    if bounds is None:
        return frozenset(encoder.bounds_by_default)
    return frozenset({"goal", "start"}) if bounds else frozenset()


def unrolling_for(encoder, model, solver, options, say) -> Unrolling:
    """Double-ended when the backend can and the encoding allows it (else forward, and the
    figures say why), forward otherwise; lemmas when the backend asks for them."""
    own = options.method_options        # the backend's own (pysat_backend.LemmaOptions...)
    budget, probe, bounds = own.get("lemma_budget"), own.get("first_probe", True), own.get("bounds")
    lemmas = "lemmas" in solver.capabilities
    why = encoder.double_ended() if "double-ended" in solver.capabilities else None
    if "double-ended" in solver.capabilities and why is None:
        return DoubleEnded(encoder, model, solver, lemmas, budget, bounds=sides(encoder, bounds),
                           goal_lemmas=own.get("goal_lemmas", True), probe=probe, say=say)
    if bounds:
        say("no distance bounds: only the double-ended unrolling (pysat-de) states them")
    if why is not None:
        say(f"unrolled forward: the double-ended encoding does not apply here ({why})")
        return Forward(encoder, model, solver, lemmas, budget, f"forward (not double-ended: {why})",
                       probe=probe, say=say)
    return Forward(encoder, model, solver, lemmas, budget, probe=probe, say=say)
