"""Under action costs (:class:`CostEncoder`): horizon T asks for a plan of total cost at most T,
actions of cost 0 in layers of their own or a walk in one transition (:mod:`.walk`); the
package doc says why and how.  :func:`tidy` makes each run of free actions in a decoded plan a
shortest one."""
from __future__ import annotations

from ...puzzle import Move, PuzzleError
from ..analyses.free import MAX_RUN, free_actions, too_long
from .steps import StepsEncoder
from .walk import walk_step


class CostEncoder(StepsEncoder):
    """Horizon = a bound on the plan's cost (see the package doc)."""

    costed = True
    no_system = "its goal, a bound on the cost of every step's actions, is not a property of one state"

    def __init__(self, problem, metric, counts=()):
        super().__init__(problem, metric, counts)
        p = self.rules
        costs = [op.cost for op in p.ops]
        self.free = free_actions(p.task.values, p.known_ops(), costs, [op.name for op in p.ops],
                                 p.mutexes() if "mutex" in p.levers else None)
        if isinstance(self.free, str):
            raise PuzzleError(f"SAT under cost: {self.free}: use search (bfs, astar) or a planner")
        self.top = max(costs, default=1)
        self.free_layers = 0        # the layers of cost 0 the last goal added (for the figures)
        # each free action's effects that change its variable (one of them must hold false before)
        self.free_changes = {o: [(v, x) for v, x in op.eff if dict(op.pre).get(v) != x]
                             for o, op in enumerate(p.ops) if op.cost < 1}
        # a walk that follows one variable, in one transition of its own: not with move counts
        # (they count a walk's actions) nor avoided facts (a walk's own states are not laid out)
        w = self.free.walk
        self.closure = w if w is not None and not self.lever("walk").note else None
        if self.closure is None and self.free.per_run > MAX_RUN:
            walker = next(op.name for op in p.ops if op.cost < 1)
            raise PuzzleError(f"SAT under cost: {too_long(walker, len(w.follow) + 1, self.free.per_run, MAX_RUN)}, "
                              f"laid out a layer each (with move counts, avoided facts or --levers -walk): use search "
                              f"(bfs, astar) or a planner")

    def laid_out(self, horizon: int) -> int:
        """The layers that hold every plan of cost at most ``horizon`` (:mod:`~puzzleplan.strips.analyses.free`); a walk in
        one transition (:meth:`walk_step`): a walk, then a costly action, per unit of cost, and
        a last walk."""
        return 2 * horizon + 1 if self.closure is not None else self.free.layers(horizon)

    def walk(self, t: int) -> bool:
        """Whether transition ``t`` is one of a run of free actions, else one of any action: a
        walk in one transition every other step (:meth:`walk_step`), or in blocks of
        :attr:`FreeActions.per_run` transitions, each then a costly one."""
        if self.closure is not None:
            return t % 2 == 0
        k = self.free.per_run
        return k > 0 and t % (k + 1) != k

    def extend(self, m, horizon):
        """The layers; with walks, in blocks (:meth:`walk`): a block's walk ends in no-ops
        only, its costly action needs the block before's, and a walk after the first block
        needs the costly action before it (one layout per plan)."""
        k = self.free.per_run
        if not k:
            return super().extend(m, horizon)
        gap = 2 if self.closure is not None else k + 1          # from a costly transition to the next
        while self.built < horizon:
            t = self.built
            self.state_vars(m, t + 1)
            act = self.walk_step(m, t) if self.closure is not None and self.walk(t) else self.step(m, t)
            if self.walk(t) and t:
                m.implies(act, [m.var(("act", t - 1))])       # no-ops last, after the costly action before
            elif not self.walk(t) and t >= gap:
                m.implies(act, [m.var(("act", t - gap))])     # costly actions in the first blocks
            self.built += 1

    def walk_step(self, m, t) -> int:
        """A whole walk from step t to t + 1 (:mod:`.walk`); returns ``("act", t)``: p moved."""
        return walk_step(self, m, t)

    def moves(self, m, t):
        """The steps' actions; one of cost 0 changes something (a shortest plan of its cost has
        none that does not: the bound on the layers counts on that); with walks, a walk's layer
        has only free actions and a block's last layer only costly ones (:meth:`walk`)."""
        out = super().moves(m, t)
        for o, effects in self.free_changes.items():
            m.add([-m.var(("mv", o, t))] + [-self.val(m, v, x, t) for v, x in effects])
        if self.free.per_run:
            walk = self.walk(t)
            for lit in self.action_lits(m, t, least_cost=1) if walk else \
                    [m.var(("mv", o, t)) for o in self.free_changes]:
                m.add([-lit])
        return out

    def decode(self, m, values):
        """The plan, with loops of states cut and each run of free actions made a shortest one
        (the same cost; not with move counts, whose moves a loop may hold).  A walk in one
        transition (:meth:`walk_step`) is found again between its two states."""
        moves = super().decode(m, values) if self.closure is None else self._walked(m, values)
        if (self.free.total or self.free.per_run) and not self.counted:
            moves = tidy(self.rules, moves)
        return moves

    def _walked(self, m, values) -> list:
        rules, out, state, t = self.rules, [], self.rules.initial, 0
        while m.has(("act", t)):
            if self.walk(t):
                end = rules.pack(tuple(self._value(m, values, v, t + 1) for v in range(len(self.values))))
                path = _free_path(rules, state, end, None)
                if path is None:
                    raise AssertionError(f"no walk of free actions between the states of steps {t} and {t + 1}")
            else:
                o = self.op_at(m, values, t)
                path = [] if o is None else [Move(rules.mover[o], o)]
            for move in path:
                state = rules.apply(state, move.data)
            out += path
            t += 1
        return out

    def _value(self, m, values, v, t) -> int:
        keep = self.kept[v]
        if keep is not None:
            return keep if m.var(("val", v, keep, t)) in values else 1 - keep
        return next(x for x in range(len(self.values[v])) if m.var(("val", v, x, t)) in values)

    def units(self, m, t):
        if self.closure is not None and self.walk(t):
            return []
        if not m.has(("unit", t, 1)):
            for j in range(1, self.top + 1):
                m.equiv_or(m.var(("unit", t, j)), self.action_lits(m, t, least_cost=j))
            m.cost_units[t] = [m.var(("unit", t, j)) for j in range(1, self.top + 1)]
        return m.cost_units[t]

    def goal(self, m, T):
        """A goal state within ``layers(T)`` layers and cost units at most T; with no action of
        cost 0 the layers are T and the goal is that of step T (the same keys as ever)."""
        L = self.laid_out(T)
        key = ("goal", T) if L == T else ("cost_goal", T)
        if m.has(key):
            return m.var(key)
        self.extend(m, L)
        self.free_layers = L - T
        at = super().goal(m, L)
        g = at if L == T else m.var(key)
        if L != T:
            m.implies(g, [at])
        m.card([u for t in range(L) for u in self.units(m, t)], "<=", T, guard=g)
        return g

    def figures(self) -> dict:
        out = super().figures()
        if self.free.total or self.free.per_run:
            out["free_layers"] = self.free_layers
        return out

    def state_goal(self, m, T):
        """No goal of one state: the cost bound counts the actions of every step (the AIGER
        export and the double-ended unrolling would drop it)."""
        raise PuzzleError("a bound on the plan's cost counts the actions of every step, not a property of one "
                          "state: no transition system under cost (use steps)")


def tidy(rules, moves: list) -> list:
    """``moves`` without loops (a state reached twice: the moves between cut, their cost is not
    negative) and with each run of free actions (cost 0) a shortest one between its two ends
    (breadth-first over free actions, up to :data:`TIDY_STATES` states a run)."""
    states, kept = [rules.initial], []
    seen = {rules.initial: 0}
    for move in moves:
        nxt = rules.apply(states[-1], move.data)
        if nxt in seen:
            del states[seen[nxt] + 1:], kept[seen[nxt]:]
            seen = {s: i for i, s in enumerate(states)}
            continue
        seen[nxt] = len(states)
        states.append(nxt)
        kept.append(move)
    out, i = [], 0
    while i < len(kept):
        if rules.ops[kept[i].data].cost >= 1:
            out.append(kept[i])
            i += 1
            continue
        j = i
        while j < len(kept) and rules.ops[kept[j].data].cost < 1:
            j += 1
        out += _free_path(rules, states[i], states[j], kept[i:j])
        i = j
    return out


#: states a run's breadth-first search may visit (:func:`tidy`)
TIDY_STATES = 100_000


def _free_path(rules, start, end, walk: list) -> list:
    """A shortest run of free actions from ``start`` to ``end``, or ``walk`` (one such run)."""
    back = {start: None}
    frontier = [start]
    while frontier and end not in back and len(back) < TIDY_STATES:
        ahead = []
        for s in frontier:
            for move, nxt in rules.successors(s):
                if rules.ops[move.data].cost < 1 and nxt not in back:
                    back[nxt] = (s, move)
                    ahead.append(nxt)
        frontier = ahead
    if end not in back:
        return walk             # (None: none found, see CostEncoder._walked)
    path, s = [], end
    while back[s] is not None:
        s, move = back[s]
        path.append(move)
    return path[::-1] if walk is None or len(path) < len(walk) else walk

