"""python-sat backend: one incremental solver per run; goals come as assumptions.

Cardinality constraints are lowered by :mod:`puzzleplan.encodings.lower` into
the model's own variable numbering (one pool).

Stopping.  python-sat's own Ctrl-C handling is off: it ``longjmp``s out of the
solver's C++ code (:mod:`puzzleplan.encodings.pysat_sigint`).  Solvers that
python-sat can interrupt (Glucose, MiniSat, Maple...) solve in the main thread
while a watchdog thread calls ``interrupt()`` on Ctrl-C or at the deadline
(:class:`.base.Watchdog`).  CaDiCaL cannot be interrupted: it solves in slices
of conflicts sized to take about a fifth of a second each; the clock, a
conflict budget and Ctrl-C take effect between slices.  Kissat and CryptoMiniSat in
python-sat do not support assumptions nor clauses added after a solve and are
refused.
"""
from __future__ import annotations

import time

from ... import limits
from ...encodings.lower import check_card_encoding, clauses_of
from ...puzzle import PuzzleError
from .base import Answer, Backend, watchdog

DEFAULT_SOLVER = "glucose42"    # measured fastest with reachability lemmas (README)
NOT_INCREMENTAL = ("kissat404", "cryptosat")
INTERRUPTIBLE = ("glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "minisat22", "minisatgh",
                 "maplechrono", "maplecm", "maplesat", "mergesat3", "minicard")


def solver_names() -> list[str]:
    from pysat.solvers import SolverNames
    return sorted({n for key, names in vars(SolverNames).items() if not key.startswith("_") for n in names})


def canonical(name: str) -> str | None:
    from pysat.solvers import SolverNames
    return next((key for key, names in vars(SolverNames).items() if not key.startswith("_") and name in names), None)


class Slicing:
    """The conflicts per slice, adapted so that a slice takes about 0.2 s."""

    def __init__(self, size: int = 2000):
        self.size = size

    def adapt(self, spent: float) -> None:
        if spent < 0.1:
            self.size = min(self.size * 2, 1_000_000)
        elif spent > 0.4:
            self.size = max(self.size // 2, 100)


def sliced(solver, assumptions=(), conflicts: int | None = None, slicing: Slicing | None = None,
           stopped=limits.expired) -> bool | None:
    """``solver.solve_limited`` in slices of conflicts: True, False, or None (``stopped()``
    -- by default the time limit -- or ``conflicts`` conflicts in all).  A Ctrl-C is raised
    as KeyboardInterrupt when the running slice returns."""
    from ...encodings.pysat_sigint import disable
    disable()
    slicing = slicing or Slicing()
    assumptions = list(assumptions)
    used = 0
    while not stopped() and (conflicts is None or used < conflicts):
        size = slicing.size if conflicts is None else min(slicing.size, conflicts - used)
        solver.conf_budget(size)
        t0 = time.monotonic()
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        used += size
        slicing.adapt(time.monotonic() - t0)
    return None


class PysatBackend(Backend):
    def __init__(self, model, name: str | None = None, card_encoding: str = "seqcounter", lemmas: bool = False,
                 double_ended: bool = False):
        from pysat.solvers import Solver

        from ...encodings.pysat_sigint import disable
        disable()
        name = name or DEFAULT_SOLVER
        key = canonical(name)
        if key is None:
            raise PuzzleError(f"unknown python-sat solver {name!r}; known: " + ", ".join(solver_names()))
        if key in NOT_INCREMENTAL:
            raise PuzzleError(f"{name} in python-sat is not incremental with assumptions here; "
                              "use it through export instead")
        self.model, self.solver_name, self.card_encoding = model, key, check_card_encoding(card_encoding)
        self.interruptible = key in INTERRUPTIBLE
        self.capabilities = frozenset({"lemmas"} if lemmas else ()) | frozenset({"double-ended"} if double_ended else ())
        family = "pysat-de" if double_ended else "pysat" if lemmas else "pysat-plain"
        self.method = f"{family}:{name}"
        self.solver = Solver(name=key)
        self.synced = 0
        self.clauses = 0
        self.last_conflicts = 0
        self.slicing = Slicing()

    def sync(self) -> None:
        end = len(self.model.items)
        for clause in clauses_of(self.model, self.synced, self.card_encoding):
            self.solver.add_clause(clause)
            self.clauses += 1
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
                return self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            self.solver.clear_interrupt()

    def values(self) -> set[int]:
        return {v for v in self.solver.get_model() if v > 0}

    def figures(self) -> dict:
        stats = self.solver.accum_stats() or {}
        conflicts = stats.get("conflicts", 0)
        delta, self.last_conflicts = conflicts - self.last_conflicts, conflicts
        return {"vars": self.model.top, "clauses": self.clauses, "conflicts": delta}

    def close(self) -> None:
        self.solver.delete()
