"""OR-Tools CP-SAT backend.  CP-SAT has no incremental mode: the model is built
anew for each horizon (:func:`puzzleplan.encodings.lower.to_cpsat`, which keeps
the time limit while it builds), the goal is a constraint, cardinalities are
native.

``cpsat`` (``minimise=True``): the loop doubles the horizon; within a horizon
the number of moves is minimised (no-ops come last, so a plan of L <= H moves
fits horizon H and the minimum is the optimum); on a time limit with a plan in
hand, CP-SAT's proven objective bound is returned as a lower bound.  An encoding
whose moves weigh more than 1 (PDDL action costs) lists cost units per step
(``BoolModel.cost_units``), and their number is minimised instead.
``cpsat-horizons``: a satisfiability question per horizon, like SAT.

CP-SAT's own Ctrl-C handling is switched off; the solve runs in a worker
thread, and Ctrl-C in the main thread stops the search (``stop_search``).
"""
from __future__ import annotations

import math

from ... import limits
from ...encodings.lower import to_cpsat
from ...plugins import Package
from ...puzzle import PuzzleError
from ...puzzle import Verdict
from .base import Answer, Backend, DeferredSigint, run_stoppable


class CpsatBackend(Backend):
    """One CP-SAT solve per horizon; ``option``: the number of workers (default 1)."""

    minimise = False
    requires = (Package("ortools", "ortools", "pip install ortools", "OR-Tools"),)

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        if option and not (option.isascii() and option.isdigit() and int(option) >= 1):
            raise PuzzleError(f"{name}:{option}: give a number of workers, e.g. {name}:2")

    def __init__(self, name: str, option: str, model, card_encoding: str = "seqcounter", seed: int = 0):
        limits.library("ortools.sat.python.cp_model")     # fail early: missing, or a memout as it loads
        self.check_option(name, option)
        workers = int(option or 1)
        self.model, self.workers, self.seed = model, workers, seed
        self.capabilities = frozenset({"minimise"} if self.minimise else ())
        self.method = name if workers == 1 else f"{name}:{workers}"
        self.last: dict = {}
        self.solution: set[int] = set()

    def solve(self, goal: int, horizon: int | None = None, minimise: bool = False) -> Answer:
        with DeferredSigint() as sigint:       # OR-Tools aborts on an exception raised inside its calls
            return self._solve(goal, horizon, minimise, sigint)

    def objective(self, horizon: int) -> list[int]:
        """The cost units of every step made (the model's ``cost_units``: under actions of cost
        0 a horizon's steps outnumber it, :mod:`puzzleplan.strips.analyses.free`), or the
        moves of the first ``horizon`` steps (``("act", t)``)."""
        m = self.model
        units = [lit for t in sorted(m.cost_units) for lit in m.cost_units[t]]
        return units or [m.var(("act", t)) for t in range(horizon) if m.has(("act", t))]

    def _solve(self, goal, horizon, minimise, sigint) -> Answer:
        from ortools.sat.python import cp_model
        cp, xs = to_cpsat(self.model, [goal])
        if minimise:
            cp.minimize(sum(xs[v] for v in self.objective(horizon)))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        solver.parameters.random_seed = self.seed
        solver.parameters.catch_sigint_signal = False
        left = limits.left()
        if left is not None:
            if left <= 0:       # the horizon's row still says what was built
                self.last = {"vars": self.model.top, "clauses": len(self.model.items), "conflicts": 0}
                return Answer(Verdict.UNKNOWN)
            solver.parameters.max_time_in_seconds = max(left, 0.01)
        if sigint.hit:
            raise KeyboardInterrupt
        status = run_stoppable(lambda: solver.solve(cp), solver.stop_search)
        self.last = {"vars": self.model.top, "clauses": len(self.model.items), "conflicts": solver.num_conflicts}
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            self.solution = {i for i in range(1, len(xs)) if solver.boolean_value(xs[i])}
            if not minimise:
                return Answer(Verdict.SAT)
            bound = math.ceil(solver.best_objective_bound - 1e-6)
            proof = f"CP-SAT minimum over horizon {horizon}" if status == cp_model.OPTIMAL else None
            return Answer(Verdict.SAT, bound=bound, proof=proof)
        if status == cp_model.INFEASIBLE:
            return Answer(Verdict.UNSAT)
        return Answer(Verdict.UNKNOWN)

    def values(self) -> set[int]:
        return self.solution

    def figures(self) -> dict:
        return dict(self.last)

    def close(self) -> None:
        pass


class Minimising(CpsatBackend):
    """``cpsat``: the fewest moves within each (doubling) horizon."""

    minimise = True


class PerHorizon(CpsatBackend):
    """``cpsat-horizons``: a satisfiability question per horizon, like SAT."""
