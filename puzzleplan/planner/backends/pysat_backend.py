"""python-sat backend: one incremental solver per run; goals come as assumptions.

Cardinality constraints are lowered by :mod:`puzzleplan.encodings.lower` into
the model's own variable numbering (one pool).

Stopping.  Solvers that python-sat can interrupt (Glucose, MiniSat, Maple...)
run in a worker thread under a time limit; the main thread waits, and on the
deadline or on Ctrl-C calls ``interrupt()``.  CaDiCaL cannot be interrupted: it
solves in slices of conflicts sized to take about a fifth of a second each,
checking the clock and Ctrl-C between slices; without a limit it runs in the
main thread, where python-sat turns Ctrl-C into an error that is raised here as
``KeyboardInterrupt``.  Kissat and CryptoMiniSat in python-sat do not support
assumptions nor clauses added after a solve and are refused.
"""
from __future__ import annotations

import time

from ... import limits
from ...encodings.lower import check_card_encoding, clauses_of
from ...puzzle import PuzzleError
from .base import Answer, run_stoppable

DEFAULT_SOLVER = "glucose42"    # measured fastest with reachability lemmas (README)
NOT_INCREMENTAL = ("kissat404", "cryptosat")
INTERRUPTIBLE = ("glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "minisat22", "minisatgh",
                 "maplechrono", "maplecm", "maplesat", "mergesat3", "minicard")
PROOF = ("cadical103", "cadical153", "cadical195", "glucose3", "glucose4", "glucose42", "lingeling",
         "maplechrono", "maplecm", "maplesat")


def solver_names() -> list[str]:
    from pysat.solvers import SolverNames
    return sorted({n for key, names in vars(SolverNames).items() if not key.startswith("_") for n in names})


def canonical(name: str) -> str | None:
    from pysat.solvers import SolverNames
    return next((key for key, names in vars(SolverNames).items() if not key.startswith("_") and name in names), None)


def pysat_call(fn, *args, **kwargs):
    """Call into python-sat; its own Ctrl-C error becomes KeyboardInterrupt."""
    try:
        return fn(*args, **kwargs)
    except KeyboardInterrupt:
        raise
    except Exception as err:       # pysolvers.error('Caught keyboard interrupt')
        if "keyboard interrupt" in str(err).lower():
            raise KeyboardInterrupt from None
        raise


class PysatBackend:
    def __init__(self, model, name: str | None = None, card_encoding: str = "seqcounter", lemmas: bool = False):
        from pysat.solvers import Solver
        name = name or DEFAULT_SOLVER
        key = canonical(name)
        if key is None:
            raise PuzzleError(f"unknown python-sat solver {name!r}; known: " + ", ".join(solver_names()))
        if key in NOT_INCREMENTAL:
            raise PuzzleError(f"{name} in python-sat is not incremental with assumptions here; "
                              "use it through export instead")
        self.model, self.solver_name, self.card_encoding = model, key, check_card_encoding(card_encoding)
        self.interruptible = key in INTERRUPTIBLE
        self.capabilities = frozenset({"incremental", "assumptions"} | ({"lemmas"} if lemmas else set())
                                      | ({"interrupt"} if self.interruptible else set())
                                      | ({"proof"} if key in PROOF else set()))
        self.method = f"{'pysat' if lemmas else 'pysat-plain'}:{name}"
        self.solver = Solver(name=key)
        self.synced = 0
        self.clauses = 0
        self.last_conflicts = 0
        self.slice = 2000

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
        self.sync()
        left = limits.left()
        if left is None:
            return pysat_call(self.solver.solve, assumptions=assumptions)
        if left <= 0:
            return None
        if self.interruptible:
            self.solver.conf_budget(-1)        # no conflict budget left over from a lemma question
            return self._interruptible(assumptions)
        return self._sliced(assumptions)

    def _interruptible(self, assumptions) -> bool | None:
        import threading
        timer = threading.Timer(max(limits.left() or 0, 0), self.solver.interrupt)
        timer.start()
        try:
            answer = run_stoppable(lambda: self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True),
                                   self.solver.interrupt)
        finally:
            timer.cancel()
        self.solver.clear_interrupt()
        return answer

    def _sliced(self, assumptions) -> bool | None:
        while not limits.expired():
            t0 = time.monotonic()
            self.solver.conf_budget(self.slice)
            answer = pysat_call(self.solver.solve_limited, assumptions=assumptions)
            spent = time.monotonic() - t0
            if answer is not None:
                return answer
            # aim at ~0.2 s per slice, so the clock is read often enough
            if spent < 0.1:
                self.slice = min(self.slice * 2, 1_000_000)
            elif spent > 0.4:
                self.slice = max(self.slice // 2, 100)
        return None

    def solve_budget(self, assumptions, conflicts: int) -> bool | None:
        """True, False, or None when ``conflicts`` conflicts (or the time limit)
        did not settle it."""
        self.sync()
        self.solver.conf_budget(conflicts)
        if limits.left() is not None and self.interruptible:
            return self._interruptible(assumptions)
        return pysat_call(self.solver.solve_limited, assumptions=assumptions)

    def values(self) -> set[int]:
        return {v for v in self.solver.get_model() if v > 0}

    def figures(self) -> dict:
        stats = self.solver.accum_stats() or {}
        conflicts = stats.get("conflicts", 0)
        delta, self.last_conflicts = conflicts - self.last_conflicts, conflicts
        return {"vars": self.model.top, "clauses": self.clauses, "conflicts": delta}

    def close(self) -> None:
        self.solver.delete()
