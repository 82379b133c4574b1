"""python-sat's solvers as the backends use them: which serve an incremental run here
(each is asked, on two clauses, what a run asks: :func:`refusal`), and solving in slices
of conflicts for those that cannot be interrupted (CaDiCaL), so that the clock, a conflict
budget and Ctrl-C take effect between slices.

Representation: a solver *kind* is python-sat's key (``glucose42``); each kind answers
to several names (``g42``, ``glucose421``...), and is made by the first of them.
"""
from __future__ import annotations

from functools import lru_cache

from ... import limits
from ...puzzle import PuzzleError

DEFAULT_SOLVER = "glucose42"    # measured fastest with reachability lemmas (docs/results/measured.md)
INTERRUPTIBLE = ("glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "minisat22", "minisatgh",
                 "maplechrono", "maplecm", "maplesat", "mergesat3", "minicard")


def _kinds() -> dict[str, tuple[str, ...]]:
    """python-sat's solver kinds and the names each answers to."""
    from pysat.solvers import SolverNames
    return {key: tuple(names) for key, names in vars(SolverNames).items() if not key.startswith("_")}


def canonical(name: str) -> str | None:
    """The solver kind a name stands for (``g42`` -> ``glucose42``), or None."""
    return next((key for key, names in _kinds().items() if name == key or name in names), None)


@lru_cache(maxsize=None)
def refusal(key: str) -> str | None:
    """Why solver kind ``key`` cannot serve an incremental run here, or None: it is made and
    asked what a run asks (clauses added between solves, assumptions, conflict budgets,
    statistics), on two clauses."""
    import gc
    import sys
    import warnings
    from pysat.solvers import Solver
    name = _kinds()[key][0]
    solver, hook = None, sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None    # a solver object half made (a missing package) errs when freed
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")      # kissat: "does not support assumptions"
            solver = Solver(name=name)
            solver.add_clause([1, 2])
            solver.conf_budget(100)
            first = solver.solve_limited(assumptions=[-1])
            solver.add_clause([-2, 3])
            second = solver.solve_limited(assumptions=[-3])
            solver.accum_stats()
        if (first, second) != (True, True):
            return "it answers a satisfiable question wrongly"
    except Exception as err:        # NotImplementedError, python-sat's own errors, a missing package
        return f"{str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__}"
    finally:
        if solver is not None:
            try:
                solver.delete()
            except Exception:
                pass
        solver = None
        gc.collect()
        sys.unraisablehook = hook
    return None


def solver_names() -> list[str]:
    """The solver kinds that serve incremental runs here (``puzzleplan solvers``)."""
    return sorted(key for key in _kinds() if refusal(key) is None)


def check_solver(spec: str, name: str) -> str:
    """The solver kind of ``name``; PuzzleError naming what works if it cannot serve."""
    key = canonical(name)
    if key is None:
        raise PuzzleError(f"{spec}: unknown python-sat solver {name!r}; use one of " + ", ".join(solver_names()))
    why = refusal(key)
    if why:
        raise PuzzleError(f"{spec}: python-sat's {name} is not incremental here ({why}); use one of "
                          + ", ".join(solver_names()) + " (or export the CNF for it)")
    return key


class Slicing:
    """The conflicts per slice, adapted so that a slice does about :data:`PROPAGATIONS`
    propagations (a fifth of a second of CaDiCaL here, 5-7 M propagations per CPU second on
    Rush Hour, Ma's puzzle and the knights).  Counted, not timed: where a slice ends changes
    CaDiCaL's search (each call starts from the root), so slices timed on the clock would make
    the same run take other conflicts, and find other plans, on a busy machine."""

    def __init__(self, size: int = 2000):
        self.size = size

    def adapt(self, propagations: int) -> None:
        if propagations < PROPAGATIONS // 2:
            self.size = min(self.size * 2, 1_000_000)
        elif propagations > PROPAGATIONS * 2:
            self.size = max(self.size // 2, 100)


PROPAGATIONS = 1_000_000


def counted(solver, name: str) -> int:
    """A python-sat solver's running count ``name`` (``conflicts``, ``propagations``...), 0 if
    it keeps none."""
    return (solver.accum_stats() or {}).get(name, 0)


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
        limits.raise_if_interrupted()       # a Ctrl-C Python dropped (see limits.interrupts_recorded)
        size = slicing.size if conflicts is None else min(slicing.size, conflicts - used)
        solver.conf_budget(size)
        before = counted(solver, "propagations")
        answer = solver.solve_limited(assumptions=assumptions)
        limits.raise_if_interrupted()
        if answer is not None:
            return answer
        used += size
        slicing.adapt(counted(solver, "propagations") - before)
    return None
