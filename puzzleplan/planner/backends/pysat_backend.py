"""python-sat backend: one incremental solver per run; goals come as assumptions.

Cardinality constraints are lowered with ``pysat.card`` into the model's own
variable numbering (one pool).  CaDiCaL 1.9.5 cannot be interrupted, so a time
limit is kept by solving under a conflict budget in slices.  Kissat in
python-sat does not support assumptions nor clauses added after a solve and is
refused here.
"""
from __future__ import annotations

import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver, SolverNames

from ...encodings.model import Card
from ...puzzle import PuzzleError

ENCODINGS = {"seqcounter": EncType.seqcounter, "totalizer": EncType.totalizer,
             "sortnetwrk": EncType.sortnetwrk, "cardnetwrk": EncType.cardnetwrk,
             "mtotalizer": EncType.mtotalizer, "kmtotalizer": EncType.kmtotalizer}
SLICE_CONFLICTS = 20000
DEFAULT_SOLVER = "glucose42"    # measured fastest with reachability lemmas (README)


def solver_names() -> list[str]:
    return sorted({n for key, names in vars(SolverNames).items() if not key.startswith("_") for n in names})


def lower_card(item: Card, top: int, encoding: str = "seqcounter") -> tuple[list[list[int]], int]:
    """Clauses for ``item`` using fresh variables above ``top``; returns (clauses, new top)."""
    lits, k = list(item.lits), item.k
    clauses: list[list[int]] = []
    pool = IDPool(start_from=top + 1)
    if item.op in ("<=", "==") and k == 1 and len(lits) <= 6:
        clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
    elif item.op in ("<=", "=="):
        if k < 0:
            clauses.append([])
        elif k < len(lits):
            clauses += CardEnc.atmost(lits, k, vpool=pool, encoding=ENCODINGS[encoding]).clauses
    if item.op in (">=", "=="):
        if k > len(lits):
            clauses.append([])
        elif k == 1:
            clauses.append(lits)
        elif k > 0:
            clauses += CardEnc.atleast(lits, k, vpool=pool, encoding=ENCODINGS[encoding]).clauses
    new_top = max(top, pool.top)
    if item.guard is not None:
        clauses = [[-item.guard, *c] for c in clauses]
    return clauses, new_top


class PysatBackend:
    def __init__(self, model, name: str = DEFAULT_SOLVER, card_encoding: str = "seqcounter"):
        if name in ("kissat", "ks", "ks4", "kissat4", "kissat404", "cryptosat", "cms", "cms5", "crypto", "crypto5", "cryptominisat", "cryptominisat5"):
            raise PuzzleError(f"{name} in python-sat is not incremental with assumptions here; "
                              "use it through export instead")
        if name not in solver_names():
            raise PuzzleError(f"unknown python-sat solver {name!r}; known: " + ", ".join(solver_names()))
        if card_encoding not in ENCODINGS:
            raise PuzzleError(f"unknown cardinality encoding {card_encoding!r}; known: " + ", ".join(ENCODINGS))
        self.model, self.name, self.card_encoding = model, name, card_encoding
        self.solver = Solver(name=name)
        self.synced = 0
        self.clauses = 0
        self.last_conflicts = 0

    def lower(self, index: int = 0):
        """Yield the clauses of the model's items from ``index`` on, lowering cards."""
        for item in self.model.since(index):
            if isinstance(item, Card):
                clauses, top = lower_card(item, self.model.top, self.card_encoding)
                self.model.reserve(top)
                yield from clauses
            else:
                yield list(item)

    def sync(self) -> None:
        end = len(self.model.items)
        for clause in self.lower(self.synced):
            self.solver.add_clause(clause)
            self.clauses += 1
        self.synced = end

    def solve(self, assumptions, time_limit: float | None = None) -> bool | None:
        """True (SAT), False (UNSAT under the assumptions), None (time limit)."""
        self.sync()
        if time_limit is None:
            return self.solver.solve(assumptions=assumptions)
        deadline = time.monotonic() + time_limit
        while time.monotonic() < deadline:
            self.solver.conf_budget(SLICE_CONFLICTS)
            answer = self.solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
        return None

    def solve_budget(self, assumptions, conflicts: int) -> bool | None:
        """True, False, or None when ``conflicts`` conflicts did not settle it."""
        self.sync()
        self.solver.conf_budget(conflicts)
        return self.solver.solve_limited(assumptions=assumptions)

    def values(self) -> set[int]:
        return {v for v in self.solver.get_model() if v > 0}

    def figures(self) -> dict:
        stats = self.solver.accum_stats() or {}
        conflicts = stats.get("conflicts", 0)
        delta, self.last_conflicts = conflicts - self.last_conflicts, conflicts
        return {"vars": self.model.top, "clauses": self.clauses, "conflicts": delta}

    def close(self) -> None:
        self.solver.delete()
