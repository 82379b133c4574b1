"""Counting invariants of a grounded task: sets of facts of which every reachable state
holds exactly one (a cell is empty or covered by one piece).  Pairs of facts that never hold together (:mod:`.mutex`) say "at most one";
these also say "at least one", which the goal side of the double-ended unrolling needs:
its states are free but for what the encoding states of every state (the hand-written
families state their piece counts there, :meth:`~puzzleplan.encodings.base.Encoder.invariant`).

Representation
--------------
set      facts, never every value of one variable (that is a trivial set)
change   an action changes v from ``old`` to ``new``; ``old`` is its precondition on v,
         or the one value the mutexes leave (:func:`.inverse.known`); when several are
         possible, none of them is in the set (then the count would depend on the state)
proof    the initial state holds one fact of the set, and every action that can apply
         keeps the number: as many of its new values as of its old ones are in the set.
         By induction every reachable state holds one: each set found is an invariant,
         whether or not the search found them all

The sets are found by SAT: one Boolean per fact ("in the set"), "each action keeps the
number" as a cardinality constraint, one fact of the initial state in the set, and a
given fact in it (each fact of the task but negations in turn, a new set each), made as small as possible by improving models under a falling size bound.
A variable's values up to facts that every reachable state holds together (the implications
of :mod:`.mutex` both ways: a Sokoban cell's "none of those" and the player on it) are a
trivial set too: a set holding one fact of each value's class says what the one-hot and the
implications say (on a Sokoban room the search spent its whole budget on such sets; on Rush
Hour card 38 it found the pairs "clear or the one car that can cover it" among them).  (Taking
one fact of each class only, tried first, lost sets whose proof needs the other: card 38 in
slides, 70 sets to 66, twice the conflicts.)  (Sets
of k > 1, a kind's pieces, are invariants too; stated as cardinality constraints on card
40 they made the run slower, so they are not sought.)
The search stops at its budget (a solver call too: the set it was making is kept if it has
one) with the sets found so far.
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import limits

# the search's own budget, in the solver's conflicts (counted rather than timed: the same sets,
# and the same encoding, on a busy machine; the run's time limit still stops it)
CONFLICTS = 200_000
MAX_SIZE = 256      # facts in a set (the size bound's counter goes this far)
MAX_FACTS = 5_000


@dataclass(frozen=True)
class Count:
    facts: tuple[tuple[int, int], ...]
    k: int


def count_invariants(task, ops, mutexes=None, conflicts: int | None = None) -> list[Count]:
    """Counting invariants of a task (its ``task.values``, ``ops``, ``initial`` and ``avoided``
    facts; see the module doc); ``ops``: its operators with the preconditions reachable states
    imply (:func:`.inverse.known`); ``mutexes``: :func:`.mutex.mutexes`' answer (or None), to
    tell which old values are possible where a precondition does not say."""
    from pysat.formula import IDPool, WCNF

    from ...encodings.pysat_sigint import disable
    disable()
    values = task.task.values
    if sum(map(len, values)) > MAX_FACTS:
        return []
    pool = IDPool()
    hard = WCNF()
    for v, names in enumerate(values):       # never a variable's every value (a trivial set)
        hard.append([-pool.id((v, x)) for x in range(len(names))])
    if mutexes is not None:
        _no_classes(hard, pool, values, mutexes, task.avoided)
    _keep_counts(hard, pool, values, task, ops, mutexes)
    facts = [(v, x) for v, names in enumerate(values) for x in range(len(names))]
    lits = [pool.id(f) for f in facts]       # (every fact's variable made before the size counter's)
    seeds = [f for f in facts if not values[f[0]][f[1]].startswith(("not ", "<"))]
    return _Search(hard, pool, facts, lits, CONFLICTS if conflicts is None else conflicts).run(seeds)


def _no_classes(hard, pool, values, mutexes, avoided) -> None:
    """Nor a variable's every value up to facts that every reachable state holds together (a
    Sokoban cell's "none of those" and the player on it): such a set is that variable's one-hot
    again; "covered": some fact of the value's class is in the set."""
    from .mutex import implications
    said = implications(mutexes, values, avoided)
    same: dict = {}
    for f, of in said.items():
        for w, y in of.items():
            if said.get((w, y), {}).get(f[0]) == f[1]:
                same.setdefault(f, set()).add((w, y))
    for v, names in enumerate(values):
        if not any((v, x) in same for x in range(len(names))):
            continue
        covered = []
        for x in range(len(names)):
            c = pool.id(("covered", v, x))
            covered.append(c)
            for g in [(v, x), *sorted(same.get((v, x), ()))]:
                hard.append([-pool.id(g), c])
        hard.append([-c for c in covered])


def _keep_counts(hard, pool, values, task, ops, mutexes) -> None:
    """Every action that can apply keeps the number of the set's facts; the start holds one."""
    from pysat.card import CardEnc, EncType
    never = set(mutexes.unreachable) if mutexes else set()
    apart: dict = {}
    for a, b in (mutexes.pairs if mutexes else ()):
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    for op, grounded in zip(ops, task.ops):
        limits.checkpoint(1 + len(op.eff))
        if any(f in task.avoided for f in grounded.eff):
            continue                # never applies in a plan
        pre = dict(op.pre)
        new_lits, old_lits = [], []
        for v, x in op.eff:
            if pre.get(v) == x:
                continue
            if v in pre:
                new_lits.append(pool.id((v, x)))
                old_lits.append(pool.id((v, pre[v])))
                continue
            possible = [y for y in range(len(values[v])) if (v, y) not in never
                        and not any((v, y) in apart.get(p, ()) for p in op.pre)]
            for y in possible:      # the old value is not known: no value it may have is in the set
                hard.append([-pool.id((v, y))])
            new_lits.append(pool.id((v, x)))
        if new_lits or old_lits:
            lits = new_lits + [-o for o in old_lits]
            for clause in CardEnc.equals(lits, len(old_lits), vpool=pool, encoding=EncType.seqcounter).clauses:
                hard.append(clause)
    start = [pool.id((v, x)) for v, x in enumerate(task.initial)]
    for clause in CardEnc.equals(start, 1, vpool=pool, encoding=EncType.seqcounter).clauses:   # k = 1
        hard.append(clause)


class _Search:
    """The sets, smallest first through each seed fact, within a budget of conflicts."""

    def __init__(self, hard, pool, facts, lits, budget: int):
        self.hard, self.pool, self.facts, self.lits, self.budget = hard, pool, facts, lits, budget

    def run(self, seeds) -> list[Count]:
        from pysat.card import ITotalizer
        from pysat.solvers import Solver
        found: list[Count] = []
        with Solver(name="glucose42", bootstrap_with=self.hard.hard) as solver:
            self.solver = solver
            self.size = ITotalizer(self.lits, ubound=min(len(self.lits), MAX_SIZE), top_id=self.pool.top)
            solver.append_formula(self.size.cnf.clauses)
            for seed in seeds:
                if self.spent() >= self.budget:
                    return found
                limits.checkpoint(64)
                chosen = self.smallest(seed)
                if chosen is not None:
                    found.append(Count(chosen, 1))
                    solver.add_clause([-self.pool.id(f) for f in chosen])     # never again, nor a set holding it
        return found

    def spent(self) -> int:
        return (self.solver.accum_stats() or {}).get("conflicts", 0)

    def sat(self, assumptions) -> bool | None:
        """One solver call, stopped at the search's budget (None), the run's deadline (TimeUp)
        or Ctrl-C (KeyboardInterrupt)."""
        solver = self.solver
        left = self.budget - self.spent()
        if left <= 0:
            return None
        solver.conf_budget(left)
        with limits.watchdog().guard(solver.interrupt):
            answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
        solver.clear_interrupt()
        if answer is None and self.spent() < self.budget:     # stopped by the watchdog, not the budget
            raise limits.TimeUp() if limits.expired() else KeyboardInterrupt()
        return answer

    def smallest(self, seed) -> tuple | None:
        """The smallest set through ``seed`` not holding a set found before (improving models
        under a falling size bound; at the budget, the smallest found so far)."""
        best = None
        bound: list[int] = []
        while self.sat([self.pool.id(seed), *bound]):
            model = self.solver.get_model()
            best = tuple(f for f, lit in zip(self.facts, self.lits) if model[lit - 1] > 0)
            if len(best) <= 1 or len(best) - 2 >= len(self.size.rhs):
                break
            bound = [-self.size.rhs[len(best) - 2]]       # at most one fact fewer
        return best
