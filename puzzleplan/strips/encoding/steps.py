"""The sequential encoding of a grounded task: one action per time step (the package doc says
the whole formula).  :class:`StepsEncoder` states the core -- each state's one-hots, the
translator's mutex groups and the avoided facts; each action's preconditions and effects; the
explanatory frame axioms; the barred pairs -- and asks each lever (:mod:`.levers`) for its
clauses at the fixed points: each state, each step, each goal-side state, once a run proves
hard."""
from __future__ import annotations

from ...encodings.base import Encoder, frame
from ...puzzle import Move, PuzzleError
from .actions import Actions
from .levers import TABLE


class StepsEncoder(Encoder):
    bounds_by_default = frozenset({"goal"})
    costed = False          # actions count 1 each (:class:`~.cost.CostEncoder`: their own costs)

    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        p = self.rules
        self.values = p.task.values
        self.leaving, self.arriving = _changes(p.ops, self.values)
        # a variable of two values is one Boolean: its first value that is not a negation
        self.kept = [None if len(names) != 2 else 1 if names[0].startswith("not ") else 0 for names in self.values]
        self.goal_steps: list = []
        self.tables: dict = {}                # step -> its literal of every value (:meth:`lits`)
        self.step_moves: dict = {}            # step -> its actions' literals, by index
        on = self.levers_on(p.levers)
        self.levers = {row.name: row.load()(self, row.name in on) for row in TABLE}
        self.factored = self.levers["factor"].found
        self.after: dict[int, list[int]] = {}
        self.before: dict[int, list[int]] = {}
        self.barred = 0
        for a, b in sorted(self.levers["inverse"].pairs | self.levers["shortcut"].pairs):
            self.after.setdefault(a, []).append(b)
            self.before.setdefault(b, []).append(a)

    def levers_on(self, names) -> frozenset:
        """The levers this encoder turns on, of those the task names (a subclass may keep fewer)."""
        return frozenset(names)

    def lever(self, name: str):
        """The lever ``name`` of this encoder (:mod:`.levers`)."""
        return self.levers[name]

    def notes(self) -> list[str]:
        return self.levers["mutex"].notes()

    def figures(self) -> dict:
        out = {}
        for lever in self.levers.values():
            out.update(lever.figures())
            if lever.name == "shortcut" and self.after:
                out["barred_pairs"] = self.barred
        return out

    def val(self, m, v, x, t):
        keep = self.kept[v]
        if keep is None:
            return m.var(("val", v, x, t))
        lit = m.var(("val", v, keep, t))
        return lit if x == keep else -lit

    def lits(self, m, t) -> list[list[int]]:
        """Step t's literal of every value (``[v][x]``), made once a step (its variables in the
        order :meth:`val` makes them): a layer's clauses read 200,000 of them on Rush Hour card
        40, and each :meth:`val` builds a key and looks it up."""
        table = self.tables.get(t)
        if table is None:
            table = self.tables[t] = [[self.val(m, v, x, t) for x in range(len(names))]
                                      for v, names in enumerate(self.values)]
        return table

    def state_vars(self, m, t):
        lit = self.lits(m, t)
        for v, names in enumerate(self.values):
            if self.kept[v] is None:
                m.exactly_one(lit[v])
        for group in self.rules.task.mutexes:
            if len(group) > 1:
                m.at_most_one([lit[v][x] for v, x in group])
        for v, x in sorted(self.rules.avoided):
            m.add([-lit[v][x]])
        for lever in self.levers.values():
            lever.state(m, t, lit)

    # -- admissible bounds (double-ended unrolling, :mod:`puzzleplan.planner.double`) ----------
    def goal_bound(self, m, t, moves_left):
        return self.levers["bound"].goal_bound(m, t, moves_left)

    def start_bound(self, m, t, moves_done):
        return self.levers["bound"].start_bound(m, t, moves_done)

    def invariant(self, m, t):
        """On a goal-side state (the start side keeps them by itself): what the levers state
        there (the tallies' "exactly k", the counts' "at least one")."""
        self.goal_steps.append(t)
        for lever in self.levers.values():
            lever.goal_side(m, t)

    def escalate(self, m, horizon):
        """The run has proved hard: what the levers add then (the counting invariants on the
        goal side, one order for commuting actions), on every step built so far and from now on."""
        for lever in self.levers.values():
            lever.escalate(m, horizon)

    def facts(self, m, t):
        return {("val", v, x): self.val(m, v, x, t) for v, names in enumerate(self.values) for x in range(len(names))
                if self.kept[v] in (None, x)}

    def initial(self, m):
        for v, x in enumerate(self.rules.initial):
            m.add([self.val(m, v, x, 0)])

    def moves(self, m, t):
        p = self.rules
        out = []
        now, nxt = self.lits(m, t), self.lits(m, t + 1)
        fac = self.factored
        mvs = Actions(self, m, t)
        for o, op in enumerate(p.ops):
            if fac is not None and o in fac.of_op:
                continue
            mv = mvs[o]
            for v, x in op.pre:
                m.implies(mv, [now[v][x]])
            for v, x in op.eff:
                m.implies(mv, [nxt[v][x]])
            out.append((mv, p.mover[o]))
            self.bar(m, t, mvs, o)
        if fac is not None:
            out += self.levers["factor"].clauses(m, t, now, nxt)
            for o in sorted(fac.of_op):
                self.bar(m, t, mvs, o)
        for v, names in enumerate(self.values):
            for x in range(len(names)):
                if self.kept[v] not in (None, x):
                    continue
                frame(m, now[v][x], nxt[v][x], mvs.reasons(v, self.leaving.get((v, x), [])),
                      mvs.reasons(v, self.arriving.get((v, x), [])))
        self.step_moves[t] = mvs        # for the levers that come once the run proves hard
        for lever in self.levers.values():
            lever.step(m, t, mvs)
        return out

    def bar(self, m, t, mvs, o) -> None:
        """No action straight after one it undoes or one action does with it (:mod:`.levers.barred`):
        with the step before, and with the step after where that was built first (the goal side
        of the double-ended unrolling)."""
        pairs = [(t + 1, j) for j in self.after.get(o, ()) if t + 1 in self.step_moves] + \
                [(t - 1, i) for i in self.before.get(o, ()) if t - 1 in self.step_moves]
        for u, j in pairs:
            m.add([-lit for lit in mvs.conj(o) + self.step_moves[u].conj(j)])
            self.barred += 1

    def action_lits(self, m, t, least_cost: int = 0) -> list[int]:
        """Step t's literal of each action of cost at least ``least_cost`` (the metric's), a
        factored group's for its actions (:mod:`.levers.factor`)."""
        fac = self.factored
        ops = self.rules.ops
        out = [m.var(("mv", o, t)) for o, op in enumerate(ops)
               if (fac is None or o not in fac.of_op) and op.cost >= least_cost]
        if fac is not None:
            out += [m.var(("fj", g, t)) for g, c in enumerate(fac.cost) if c >= least_cost]
        return out

    def op_at(self, m, values, t) -> int | None:
        """The action the model ``values`` applies at step t, if any."""
        for o in range(len(self.rules.ops)):
            key = ("mv", o, t)
            if m.has(key) and m.var(key) in values:
                return o
        fac = self.factored
        if fac is not None:
            for g, takes in enumerate(fac.takes):
                if m.has(("fj", g, t)) and m.var(("fj", g, t)) in values:
                    return next(fac.op_of[(g, s)] for s in takes if m.var(("fx", s, t)) in values)
        return None

    def decode(self, m, values):
        if self.factored is None:
            return super().decode(m, values)
        steps = sorted({m.key(v)[-1] for v in values if isinstance(m.key(v), tuple) and m.key(v)[0] in ("mv", "fj")})
        return [Move(self.rules.mover[o], o) for o in (self.op_at(m, values, t) for t in steps)]

    def placed(self, m, i, T):
        return [self.val(m, v, x, T) for v, x in self.rules.task.alternatives()[i]]

    def place_lit(self, m, mover, place, T):
        raise PuzzleError("a PDDL task has no cells for end conditions")

    def decode_move(self, key):
        _, o, _ = key
        return Move(self.rules.mover[o], o)


def _changes(ops, values) -> tuple[dict, dict]:
    """Per value ``(v, x)``, the actions that may make it false (they set v to another value
    and may apply while it holds) and those that make it true."""
    leaving: dict = {}
    arriving: dict = {}
    for o, op in enumerate(ops):
        pre = dict(op.pre)
        for v, x in op.eff:
            if pre.get(v) == x:
                continue            # sets what already holds: no change
            arriving.setdefault((v, x), []).append(o)
            for y in range(len(values[v])):
                if y != x and pre.get(v, y) == y:
                    leaving.setdefault((v, y), []).append(o)
    return leaving, arriving
