"""A toy per-horizon backend, written outside puzzleplan: MiniSat 2.2 (python-sat), a fresh
solver on the whole formula at each horizon.  One file, and one row (this package's entry
point in the group ``puzzleplan.methods``): it then appears in ``solve --help``,
``puzzleplan solvers``, ``bench --methods`` and the tests' method matrix.

The shape of every method (:class:`puzzleplan.plugins.Plugin`): what it needs here is declared
(``requires``: ``puzzleplan solvers`` and the registry's check say why it cannot run where
python-sat is missing); what it cannot take is said before any run (a backend's ``refuses``,
beyond the family having a SAT encoding for the metric, which every SAT method asks); the
class, built from the option after the colon (``Backend.build``), runs through the deepening
loop, which makes the backend one run at a time."""
from pysat.solvers import Solver

from puzzleplan import limits
from puzzleplan.encodings.lower import clauses_of
from puzzleplan.planner.backends.base import Answer, Backend, watchdog
from puzzleplan.plugins import SAT, Method, Package


class ToyMinisat(Backend):
    requires = (Package("pysat", "python-sat", "pip install python-sat"),)

    @classmethod
    def refuses(cls, family, metric, conditions=()):
        # a fresh solver at every horizon takes every encoding; a backend that cannot (no
        # cardinality constraints, say) returns its reason here, and bench records it unrun
        return None

    def __init__(self, name, option, model, card_encoding="seqcounter"):
        self.method, self.model, self.card_encoding = name, model, card_encoding
        self.clauses, self.synced, self.model_true, self.last = [], 0, set(), {}

    def solve(self, goal, horizon=None, minimise=False):
        self.clauses += clauses_of(self.model, self.synced, self.card_encoding)
        self.synced = len(self.model.items)
        if limits.left() is not None and limits.left() <= 0:
            return Answer("unknown")
        with Solver("minisat22", bootstrap_with=self.clauses) as s:
            with watchdog().guard(s.interrupt):         # stopped at the deadline or on Ctrl-C
                found = s.solve_limited(assumptions=[goal], expect_interrupt=True)
            self.model_true = {v for v in (s.get_model() or []) if v > 0} if found else set()
            self.last = {"vars": self.model.top, "clauses": len(self.clauses), "conflicts": s.accum_stats()["conflicts"]}
        return Answer.of(found)

    def values(self):
        return self.model_true

    def figures(self):
        return dict(self.last)

    def close(self):
        pass


ROW = Method("toy", SAT, "toy_minisat:ToyMinisat", "a toy: MiniSat 2.2 from scratch at every horizon")
