"""A grounded task in parallel steps: Rintanen's relaxed ∃-step semantics, for a first plan.

One time step holds any set of actions that can be carried out one after another in a fixed
total order (:func:`fixed_order`); the plan is the steps' actions, each step's in that order,
and it is replayed by the rules like any other plan.  Per step ``t`` and action ``o``
(``("mv", o, t)``), for each precondition ``f = (v, x)`` of ``o``:

* ``f`` holds at ``t``, or an action earlier in the order sets it in the same step (the
  relaxed ∃-step: an earlier action may establish a later one's precondition), and
* no action earlier in the order that may make ``f`` false (sets ``v`` to another value and
  may apply while ``f`` holds) is taken in the same step;

each effect holds at ``t + 1`` unless an action later in the order writes its variable in the
same step, and the explanatory frame axioms of the sequential encoding (:mod:`.steps`) tie
``t`` to ``t + 1``: a value changes only through an action taken that changes it.  An action
that sets a fact to avoid is never taken (the state after it, inside a step, would hold it).
There is no "at most one action a step".

Why the order is a legal sequence ending in the state of ``t + 1``: by induction over the
order, each precondition ``f`` of an action holds at its turn.  If ``v`` never changed before
it, ``f`` held at ``t`` (an earlier action setting ``f`` that changed nothing found it there).
Otherwise let ``w`` be the last earlier action that changed ``v``; if ``w`` set ``x``, done;
if not, ``f`` held at some moment before ``w`` (at ``t``, or after an earlier action setting
it), and the first change away from it afterwards was by an action that may apply while ``f``
holds, earlier than ``o``: barred.  At ``t + 1``: a variable that no action changed keeps its
value (an action that may make a value false changes it when taken while the value holds),
and one that changed has the last writer's value, which its effect clause asserts (no writer
of that variable comes after it).  Every state at a step boundary, and every state between,
is reachable without a fact to avoid, so the invariants the sequential encoding states on each
state (the translator's and the h^2 mutexes, the avoided facts, the tallies) stay sound.

One action per step is a parallel plan, so horizon ``T`` is satisfiable when a plan of ``T``
actions exists; an ``unsat`` proves nothing about the sequential optimum, which is why this
encoding is for first plans only (:mod:`puzzleplan.planner.first`).

The levers about consecutive steps (barred pairs, symmetry, order) and the factored actions
are off here; the levers on states (mutex, tallies) stay as the task has them.
"""
from __future__ import annotations

from bisect import bisect_left

from ...encodings.base import frame
from ...puzzle import Move, PuzzleError
from .steps import StepsEncoder

# the levers that speak of states only, kept from the task's; the rest speak of one action a step
STATE_LEVERS = frozenset({"mutex", "tallies"})
# prefixes this long or shorter are written out in each clause; longer ones go through a chain
DIRECT = 4


def enabling_order(ops, arriving: dict, within: list[int]) -> list[int]:
    """``within`` (actions of one component) ordered so that an action comes before those it
    enables (sets one of their preconditions) where the "enables" graph allows: the reverse
    postorder of a depth-first search from each action in turn (index order)."""
    inside = set(within)
    requirers: dict = {}
    for o in within:
        for f in ops[o].pre:
            requirers.setdefault(f, []).append(o)
    succ = {o: [] for o in within}
    for f, setters in arriving.items():
        for a in setters:
            if a in inside:
                succ[a].extend(b for b in requirers.get(f, ()) if b != a)
    seen, post = set(), []
    for root in within:
        if root in seen:
            continue
        seen.add(root)
        work = [(root, iter(succ[root]))]
        while work:
            node, it = work[-1]
            nxt = next((b for b in it if b not in seen), None)
            if nxt is None:
                post.append(node)
                work.pop()
            else:
                seen.add(nxt)
                work.append((nxt, iter(succ[nxt])))
    return post[::-1]


def fixed_order(ops, leaving: dict, arriving: dict | None = None) -> list[int]:
    """The actions in the order a step carries them out: an action that may make another's
    precondition false comes after it where the "disables" graph allows (Tarjan's strongly
    connected components, which come out sinks first); within a component, by
    :func:`enabling_order` when ``arriving`` (each fact's setters) is given, else by index.
    Measured on Sokoban rooms (benchmarks/anytime/README.md): the enabling order needs fewer
    parallel steps (4 against 6, 7 against 10)."""
    n = len(ops)
    requirers: dict = {}
    for o, op in enumerate(ops):
        for f in op.pre:
            requirers.setdefault(f, []).append(o)
    succ: list[list[int]] = [[] for _ in range(n)]
    for f, leavers in leaving.items():
        for a in leavers:
            succ[a].extend(b for b in requirers.get(f, ()) if b != a)
    index, low, on, stack, comps = [None] * n, [0] * n, [False] * n, [], []
    counter = 0
    for root in range(n):
        if index[root] is not None:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on[root] = True
        while work:
            node, i = work[-1]
            if i < len(succ[node]):
                work[-1] = (node, i + 1)
                nxt = succ[node][i]
                if index[nxt] is None:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on[nxt] = True
                    work.append((nxt, 0))
                elif on[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on[top] = False
                    comp.append(top)
                    if top == node:
                        break
                comps.append(sorted(comp))
    if arriving is None:
        return [o for comp in comps for o in comp]
    return [o for comp in comps for o in (enabling_order(ops, arriving, comp) if len(comp) > 1 else comp)]


class ExistsSteps(StepsEncoder):
    """Relaxed ∃-step encoding of a grounded task (see the module doc)."""

    no_system = "parallel steps are for first plans only"
    #: conflicts for the first plan's horizons in all (``first.parallel_first``): Sokoban rooms
    #: that greedy search leaves without a plan needed 9,032 and 15,455 (benchmarks/anytime/README.md)
    first_budget = 20_000

    def __init__(self, problem, metric="steps", counts=()):
        super().__init__(problem, metric, counts)
        if self.counted or self.finish:
            raise PuzzleError("parallel steps take no move counts nor end conditions")
        self.order = fixed_order(self.rules.ops, self.leaving, self.arriving)
        self.rank = {o: r for r, o in enumerate(self.order)}
        by_rank = self.rank.__getitem__
        self.setters = {f: sorted(ops, key=by_rank) for f, ops in self.arriving.items()}
        self.breakers = {f: sorted(ops, key=by_rank) for f, ops in self.leaving.items()}
        writers: dict = {}
        for o, op in enumerate(self.rules.ops):
            for v, _ in op.eff:
                writers.setdefault(v, []).append(o)
        self.writers = {v: sorted(ops, key=by_rank, reverse=True) for v, ops in writers.items()}
        # each chain's ranks, ascending (the writers' negated: a suffix is a prefix read backwards)
        self.ranks = {**{("some", f): [self.rank[o] for o in ops] for f, ops in self.setters.items()},
                      **{("any", f): [self.rank[o] for o in ops] for f, ops in self.breakers.items()},
                      **{("later", v): [-self.rank[o] for o in ops] for v, ops in self.writers.items()}}
        self.chained = 0                    # chain variables made, for the figures

    def levers_on(self, names) -> frozenset:
        return frozenset(names) & STATE_LEVERS

    def double_ended(self):
        return "parallel steps are unrolled from the start only"

    def figures(self) -> dict:
        return {**super().figures(), "chain_vars": self.chained}

    def _chains(self, m, t) -> dict:
        """Per fact and per variable, the chain of its actions' literals in the order: a fact's
        setters (``"some"``: a chain variable true only when one is taken), the actions that may
        make it false (``"any"``: true when one is taken), a variable's writers from the last
        (``"later"``, a suffix read as a prefix of the reversed list)."""
        mv = self.mv_lits(m, t)
        out = {}
        for kind, table in (("some", self.setters), ("any", self.breakers), ("later", self.writers)):
            for f, ops in table.items():
                out[kind, f] = _prefix(m, [mv[o] for o in ops], (kind, f), t, kind != "any", self)
        return out

    def mv_lits(self, m, t) -> list[int]:
        return [m.var(("mv", o, t)) for o in range(len(self.rules.ops))]

    def moves(self, m, t):
        p = self.rules
        now, nxt = self.lits(m, t), self.lits(m, t + 1)
        mv = self.mv_lits(m, t)
        chains = self._chains(m, t)
        for o, op in enumerate(p.ops):
            r = self.rank[o]
            for v, x in op.pre:         # holds, or an earlier action set it; none earlier may break it
                k = bisect_left(self.ranks["some", (v, x)], r) if ("some", (v, x)) in chains else 0
                m.add([-mv[o], now[v][x], *(chains["some", (v, x)](k) if k else [])])
                k = bisect_left(self.ranks["any", (v, x)], r) if ("any", (v, x)) in chains else 0
                for lit in (chains["any", (v, x)](k) if k else []):
                    m.add([-mv[o], -lit])
            if any(f in p.avoided for f in op.eff):
                m.add([-mv[o]])
            for v, x in op.eff:         # holds at t + 1 unless a later action writes v
                later = self.ranks["later", v]
                k = bisect_left(later, -r)
                m.add([-mv[o], nxt[v][x], *(chains["later", v](k) if k else [])])
        for v, names in enumerate(self.values):
            for x in range(len(names)):
                if self.kept[v] in (None, x):
                    frame(m, now[v][x], nxt[v][x], [mv[o] for o in self.leaving.get((v, x), [])],
                          [mv[o] for o in self.arriving.get((v, x), [])])
        return [(mv[o], p.mover[o]) for o in range(len(p.ops))]

    def step(self, m, t):
        """Any set of actions the fixed order can carry out: ``("act", t)`` iff one is taken."""
        act = m.var(("act", t))
        m.equiv_or(act, [lit for lit, _ in self.moves(m, t)])
        return act

    def decode(self, m, values):
        """The actions, step by step, each step's in the fixed order: a sequential plan."""
        chosen = []
        for key in (m.key(v) for v in values):
            if isinstance(key, tuple) and key[0] == "mv":
                _, o, t = key
                chosen.append((t, self.rank[o], o))
        return [Move(self.rules.mover[o], o) for _, _, o in sorted(chosen)]

    def parallel_steps(self, m, values) -> int:
        """How many time steps hold an action."""
        return len({m.key(v)[-1] for v in values if isinstance(m.key(v), tuple) and m.key(v)[0] == "mv"})


def _prefix(m, lits: list, name: tuple, t: int, only_when_taken: bool, counter):
    """``prefix(k)``: literals one of which is true when one of the first ``k`` of ``lits`` is
    taken (``only_when_taken``: and only then): the literals themselves up to :data:`DIRECT`,
    else one chain variable ``(*name, k, t)``, the chain made up to ``k`` on first asking
    (``counter.chained`` counts them)."""
    def prefix(k):
        if k <= DIRECT:
            return lits[:k]
        j = k
        while j > DIRECT and not m.has((*name, j, t)):
            j -= 1
        for i in range(j + 1, k + 1):
            c = m.var((*name, i, t))
            counter.chained += 1
            below = lits[:i - 1] if i - 1 <= DIRECT else [m.var((*name, i - 1, t))]
            if only_when_taken:
                m.implies(c, [lits[i - 1], *below])
            else:
                for lit in [lits[i - 1], *below]:
                    m.implies(lit, [c])
        return [m.var((*name, k, t))]
    return prefix
