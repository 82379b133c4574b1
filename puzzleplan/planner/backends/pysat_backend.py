"""python-sat backend: one incremental solver per run; goals come as assumptions.

Cardinality constraints are lowered by :mod:`puzzleplan.encodings.lower` into
the model's own variable numbering (one pool).

Stopping.  python-sat's own Ctrl-C handling is off: it ``longjmp``s out of the
solver's C++ code (:mod:`puzzleplan.encodings.pysat_sigint`).  Solvers that
python-sat can interrupt (Glucose, MiniSat, Maple...) solve in the main thread
while a watchdog thread calls ``interrupt()`` on Ctrl-C or at the deadline
(:class:`.base.Watchdog`).  CaDiCaL cannot be interrupted: it solves in slices
of conflicts sized to take about a fifth of a second each; the clock, a
conflict budget and Ctrl-C take effect between slices.

Solvers.  A solver is accepted only if it serves an incremental run here: it is asked,
on two clauses, what a run asks (:func:`.pysat_solvers.refusal`); python-sat's kissat (no
assumptions), lingeling (no budgeted solve) and cryptominisat without its package are
refused with that reason, and ``puzzleplan solvers`` lists the rest.
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import limits
from ...encodings.lower import check_card_encoding, clauses_of
from ...plugins import Package
from ...puzzle import PuzzleError
from .base import Answer, Backend, watchdog
from .pysat_solvers import DEFAULT_SOLVER, INTERRUPTIBLE, Slicing, _kinds, canonical, check_solver, counted, sliced


class PysatBackend(Backend):
    """One python-sat solver; the subclasses are the registry's rows."""

    lemmas = double_ended = False
    requires = (Package("pysat", "python-sat", "pip install python-sat"),)

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        solvers = option.split("+") if option else []
        for solver in solvers:
            check_solver(f"{name}:{option}", solver)
        if len(solvers) > 2 or (len(solvers) == 2 and canonical(solvers[0]) == canonical(solvers[1])):
            raise PuzzleError(f"a race needs two different solvers, e.g. {name}:glucose42+cadical195")

    @classmethod
    def default_option(cls, family) -> str | None:
        return family.default_solver if family is not None else None

    @classmethod
    def make(cls, name: str, option: str, model, card_encoding: str = "seqcounter") -> Backend:
        """One solver, or two joined by ``+``: a race (:mod:`.race`)."""
        cls.check_option(name, option)
        if "+" in option:
            from .race import RaceBackend
            return RaceBackend(model, option.split("+"), card_encoding, lemmas=cls.lemmas,
                               double_ended=cls.double_ended, family=name)
        return cls(name, option, model, card_encoding)

    def __init__(self, name: str, option: str, model, card_encoding: str = "seqcounter"):
        from pysat.solvers import Solver

        from ...encodings.pysat_sigint import disable
        disable()
        option = option or DEFAULT_SOLVER
        key = check_solver(f"{name}:{option}", option)
        self.model, self.solver_name, self.card_encoding = model, key, check_card_encoding(card_encoding)
        self.interruptible = key in INTERRUPTIBLE
        self.capabilities = (frozenset({"lemmas"} if self.lemmas else ())
                             | frozenset({"double-ended"} if self.double_ended else ()))
        self.method = f"{name}:{option}"
        self.solver = Solver(name=_kinds()[key][0])
        self.synced = 0
        self.clauses = 0
        self.last_conflicts = 0
        self.slicing = Slicing()

    def sync(self) -> None:
        end = len(self.model.items)
        add = self.solver.solver.add_clause     # the solver's own, past python-sat's dispatch
        added = 0
        for clause in clauses_of(self.model, self.synced, self.card_encoding, copy=False):
            add(clause)
            added += 1
        self.clauses += added
        self.synced = end

    def solve(self, goal: int, horizon: int | None = None, minimise: bool = False) -> Answer:
        return Answer.of(self.solve_assuming([goal]))

    def solve_assuming(self, assumptions) -> bool | None:
        """True (SAT), False (UNSAT under the assumptions), None (time limit)."""
        return self.solve_budget(assumptions, None)

    def solve_budget(self, assumptions, conflicts: int | None) -> bool | None:
        """True, False, or None when ``conflicts`` conflicts (None: no budget) or
        the time limit did not settle it."""
        self.sync()
        left = limits.left()
        if left is not None and left <= 0:
            return None
        if self.interruptible:
            return self._interruptible(assumptions, conflicts)
        return sliced(self.solver, assumptions, conflicts, self.slicing)

    def _interruptible(self, assumptions, conflicts: int | None) -> bool | None:
        self.solver.conf_budget(-1 if conflicts is None else conflicts)
        try:
            with watchdog().guard(self.solver.interrupt):
                limits.raise_if_interrupted()       # a Ctrl-C Python dropped: the solver would not see it
                answer = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            self.solver.clear_interrupt()
        # one dropped while the call was being made: the watchdog stopped the solver, and its
        # None is neither a spent budget nor the time limit
        limits.raise_if_interrupted()
        return answer

    def values(self) -> set[int]:
        return {v for v in self.solver.get_model() if v > 0}

    def conflicts(self) -> int:
        return counted(self.solver, "conflicts")

    def figures(self) -> dict:
        stats = self.solver.accum_stats() or {}
        conflicts = stats.get("conflicts", 0)
        delta, self.last_conflicts = conflicts - self.last_conflicts, conflicts
        return {"vars": self.model.top, "clauses": self.clauses, "conflicts": delta}

    def close(self) -> None:
        self.solver.delete()


@dataclass(frozen=True)
class LemmaOptions:
    """The own options of a backend that adds reachability lemmas (``pysat``, ``pysat-de``),
    given to :func:`puzzleplan.planner.solve` by name (``solve(..., lemma_budget=1000)``).

    lemma_budget  conflicts per reachability-lemma question (None: :data:`..lemmas.BUDGET`)
    first_probe   the first horizon asked once, within the lemma budget, before its layers
                  are saturated (:class:`..lemmas.FirstProbe`)
    """

    lemma_budget: int | None = None
    first_probe: bool = True


@dataclass(frozen=True)
class DoubleEndedOptions(LemmaOptions):
    """``pysat-de``'s own options: those of :class:`LemmaOptions` and

    goal_lemmas   lemmas from the goal side too (False: from the start only)
    bounds        the encoder's admissible distance bounds on both sides (True), none (False),
                  or the sides the family turns on (None, ``Encoder.bounds_by_default``: both
                  for knights, the goal side for sliding blocks, none for Sokoban, where on the
                  30 IPC-mapped Microban levels they did not pay, docs/results/planners.md;
                  ``benchmarks/bounds``)
    """

    goal_lemmas: bool = True
    bounds: bool | None = None


class Forward(PysatBackend):
    """``pysat``: unrolled forward, reachability lemmas from the start."""

    lemmas = True
    own_options = LemmaOptions


class Plain(PysatBackend):
    """``pysat-plain``: unrolled forward, no lemmas."""


class DoubleEnded(PysatBackend):
    """``pysat-de``: the double-ended encoding, lemmas from both ends (:mod:`..double`)."""

    lemmas = double_ended = True
    own_options = DoubleEndedOptions
