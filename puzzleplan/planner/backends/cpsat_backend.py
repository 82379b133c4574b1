"""OR-Tools CP-SAT backend: the model is rebuilt for each solve (CP-SAT has no
incremental mode); assumptions become constraints; cardinalities are native
linear constraints, guarded with ``only_enforce_if``."""
from __future__ import annotations

from ortools.sat.python import cp_model

from ...encodings.model import Card


class CpsatBackend:
    def __init__(self, model, workers: int = 1, seed: int = 0):
        self.model, self.workers, self.seed = model, workers, seed
        self.last: dict | None = None
        self.solution: set[int] = set()

    def sync(self) -> None:
        """Nothing to do: the CP-SAT model is built at each solve."""

    def build(self, assumptions) -> tuple[cp_model.CpModel, list]:
        cp = cp_model.CpModel()
        xs = [None] + [cp.new_bool_var(f"v{i}") for i in range(1, self.model.top + 1)]

        def lit(v):
            return xs[v] if v > 0 else xs[-v].Not()

        for item in self.model.items:
            if isinstance(item, Card):
                terms = sum(lit(v) for v in item.lits)
                expr = {"<=": terms <= item.k, ">=": terms >= item.k, "==": terms == item.k}[item.op]
                c = cp.add(expr)
                if item.guard is not None:
                    c.only_enforce_if(lit(item.guard))
            else:
                cp.add_bool_or([lit(v) for v in item])
        for a in assumptions:
            cp.add_bool_or([lit(a)])
        return cp, xs

    def solve(self, assumptions, time_limit: float | None = None) -> bool | None:
        cp, xs = self.build(assumptions)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        solver.parameters.random_seed = self.seed
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.01)
        status = solver.solve(cp)
        self.last = {"vars": self.model.top, "clauses": len(self.model.items),
                     "conflicts": solver.num_conflicts}
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            self.solution = {i for i in range(1, len(xs)) if solver.boolean_value(xs[i])}
            return True
        if status == cp_model.INFEASIBLE:
            return False
        return None

    def values(self) -> set[int]:
        return self.solution

    def figures(self) -> dict:
        return dict(self.last or {})

    def close(self) -> None:
        pass
