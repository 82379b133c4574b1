"""A grounded PDDL task (SAS+) as SAT: one action per time step.

State at step t: ``("val", v, x, t)`` variable v has value x, exactly one value per
variable (one-hot); a variable of two values (a fact and its negation, as the translator
makes most of them) is one Boolean, its value that is not a negation, and the other is
its negative literal (measured on Rush Hour card 40: 20% less time than two variables
tied by a one-hot; the lemmas then ask about the kept values only).  The translator's mutex groups (facts of several variables that
never hold together) are added as at-most-one constraints, which the rules imply
but the solver would otherwise have to learn; so are the h^2 mutexes (:mod:`.mutex`:
a binary clause per pair of facts that no reachable state holds together, a unit per
fact none holds, and one clause "f implies w = y" where f's pairs leave one value of w, in
place of those pairs: :func:`.mutex.implications`), at every step of either end of the unrolling, in CP-SAT and in the
exports.  Avoided facts are false at every step.  The few facts of a group whose
number no action changes (one or two: a board's empty cells) are counted at every step,
larger counts on the goal side (:func:`tallies`), and a goal-side state has no goal
variable further from its goal value than the moves left, nor, over the variables no action
changes two of, more distance in all (:meth:`StepsEncoder.goal_bound`).  Once a run proves hard
(:meth:`StepsEncoder.escalate`), actions that commute are kept in one order (:mod:`.order`),
and, with the ``counts`` lever (off by default: its search cost more than it saved), the goal
side of the double-ended unrolling also says "at least one" of each set of facts that every
reachable state holds exactly one of (:mod:`.counts`: a cell is empty or covered), which its
otherwise free states lack and the start side keeps by itself.

Actions ``("mv", o, t)``: operator o applies at t; its preconditions hold at t, its
effects at t+1.  Explanatory frame axioms: a value turns false only through an
action that sets its variable to another value (and may apply while it holds),
and turns true only through an action that sets it.  An action is never followed
straight by one that undoes it (:mod:`.inverse`; not when a move count ``>= k`` or
``== k`` could need the moves), nor by one that a single action does together with it
(:mod:`.shortcut`; not with move counts or frozen pieces).  Actions that are a product (a
move times its counter's step: our exports' move counts) are said by two literals, their
group's ``("fj", g, t)`` and their transition's ``("fx", s, t)`` (:mod:`.factor`), each
frame axiom naming the transition for the counter and the group elsewhere.  The shared
:class:`~puzzleplan.encodings.base.Encoder` adds at most one action per step,
no-ops last, the goal and move counts.

``cost`` (:class:`CostEncoder`): horizon T asks for a plan of total cost at most T.
Where every action costs at least 1, such a plan has at most T actions, T layers hold
every plan of cost T, and refuting T refutes every plan of that cost, whatever its
length.  Actions of cost 0 get layers of their own, as many as a shortest plan of cost
T can need (:mod:`.free`: a finishing action once, a walk at most its states, one
transition for a walk that follows one variable; refused where a walk's states are too
many), and each changes something.  Per step, cost units
``("cost", t, j)``: an action of cost c at step t sets units 1..c; the goal of horizon
T bounds their number by T.
"""
from __future__ import annotations

from collections import Counter

from ... import limits
from ...encodings.base import Encoder, frame
from ...puzzle import Move, PuzzleError
from .factor import factor
from .free import MAX_RUN, free_actions, too_long
from .inverse import inverse_pairs
from .mutex import WORK, implications
from .order import ActionOrder, interfering_above, schema_ranks
from .shortcut import shortcuts


#: the largest count of a group stated at every step (:func:`tallies`): a board's one or two
#: empty cells, as the sliding family's own encoding says them
MAX_SCARCE = 2


def tallies(constant, values) -> tuple[list, list]:
    """The counts worth stating of those no action changes, as ``(tallies, scarce)``, each a
    list of ``(facts, k)``: none that every state holds by its variables' one-hots (each
    variable's values all in the group: the 8-puzzle's tiles).  *Scarce*: a predicate's whole
    count of at most :data:`MAX_SCARCE`, stated at every step, Booleans included (a sliding
    board's one or two empty cells: Pennant's export from 143k to 37k conflicts up to horizon
    45, as its native file says its empty cells at every step; a kind's two pieces too: 32k,
    but Rush Hour card 38 in slides 14.8k -> 17.2k, card 40 in steps 16.4k -> 17.2k: a kind's
    count stays on the goal side).  *Tallies*, the other counts above one, on the goal
    side only: a predicate's whole count (not only a kind's) when each of its facts is one of
    more than two values of its variable (a Sokoban cell holds a box, is clear, or holds the
    player: the boxes' count is said nowhere else), not when a fact is a Boolean beside its
    negation (Rush Hour's clear cells: their count follows from the cars', and its
    cardinality constraint cost card 38 in slides 3 s for no fewer conflicts), nor when its
    first arguments' counts add up to it (Rush Hour's ``at`` from each kind's cars)."""
    groups = {g: set(f) for g, f, _ in constant}
    out, scarce = [], []
    for g, facts, k in constant:
        in_group = {}
        for v, x in facts:
            in_group[v] = in_group.get(v, 0) + 1
        if all(n == len(values[v]) for v, n in in_group.items()):
            continue
        if k <= MAX_SCARCE and len(facts) > k and "(" not in g:
            scarce.append((facts, k))
            continue
        if k <= 1:
            continue
        if "(" not in g:
            if any(len(values[v]) <= 2 for v in in_group):
                continue
            parts = [f for h, f in groups.items() if h.startswith(g + "(")]
            if parts and set().union(*parts) >= set(facts):
                continue
        out.append((facts, k))
    return out, scarce


class StepsEncoder(Encoder):
    bounds_by_default = frozenset({"goal"})

    def __init__(self, domain, metric, counts=()):
        super().__init__(domain, metric, counts)
        p = self.domain
        self.values = p.task.values
        leaving: dict = {}
        arriving: dict = {}
        for o, op in enumerate(p.ops):
            pre = dict(op.pre)
            for v, x in op.eff:
                if pre.get(v) == x:
                    continue            # sets what already holds: no change
                arriving.setdefault((v, x), []).append(o)
                for y in range(len(self.values[v])):
                    if y != x and pre.get(v, y) == y:
                        leaving.setdefault((v, y), []).append(o)
        self.leaving, self.arriving = leaving, arriving
        # actions that are a product (a move times its counter's step): two literals a step
        self.factored = factor(p.ops, p.mover, [op.cost if metric == "cost" else 1 for op in p.ops]) \
            if "factor" in p.levers else None
        # a variable of two values is one Boolean: its first value that is not a negation
        self.kept = [None if len(names) != 2 else 1 if names[0].startswith("not ") else 0 for names in self.values]
        self._invariants(p)
        self._inverses(p)
        self._order(p)
        self._symmetry(p)
        self.one_of: list | None = None       # sought once the run proves hard (:meth:`escalate`)
        self.counts_from: int | None = None
        # the constant counts: the goal side's (:meth:`invariant`) and every step's (few facts)
        self.tallies, self.scarce = tallies(p.counting().constant, self.values) if "tallies" in p.levers else ([], [])
        self.scarce_constraints = 0
        self.sum_pays: bool | None = None     # whether the goal side's distances are summed
        self.goal_steps: list = []
        self.tables: dict = {}                # step -> its literal of every value (:meth:`lits`)
        self.step_moves: dict = {}            # step -> its actions' literals, by index
        self.count_constraints = self.tally_constraints = 0

    def _invariants(self, p) -> None:
        """The h^2 mutexes not said already (by a variable's one-hot or a translator group)."""
        found = p.mutexes() if "mutex" in p.levers else None
        self.unreachable: tuple = ()
        self.pairs: list = []
        self.implied: list = []
        self.invariant_clauses = 0
        self.mutex_note = "off" if "mutex" not in p.levers else "not computed (over its budget)" if found is None else ""
        if found is None:
            return
        groups = [set(g) for g in p.task.mutexes if len(g) > 1]
        in_group: dict = {}
        for i, g in enumerate(groups):
            for f in g:
                in_group.setdefault(f, set()).add(i)
        self.unreachable = tuple(f for f in found.unreachable if f not in p.avoided)
        imply = implications(found, self.values, p.avoided)
        two = [len(names) == 2 for names in self.values]

        def implied(a, b, base=False) -> bool:
            # a says b's variable has another value, or b says a's, or they say two values of one
            # (base: only through what a or b says of a variable of more than two values)
            (v, x), (w, y) = a, b
            of_a, of_b = imply.get(a, {}), imply.get(b, {})
            return (not (base and two[w]) and of_a.get(w, y) != y) or (not (base and two[v]) and of_b.get(v, x) != x) \
                or any(of_b.get(u, z) != z for u, z in of_a.items() if not (base and two[u]))

        def key(f, g):          # the clause "not f or g", the same whichever way it is read
            (v, x), (w, y) = f, g
            return frozenset({(v, 1 - x, True) if two[v] else (v, x, False), (w, y, True)})

        # f -> (w = y) for a w of two values is the pair f, (w = the other): not stated when what
        # f or that other says of variables of more values does (the player on one cell says each
        # box-free cell but its own clear); those of more values are all stated
        self.implied, seen = [], set()
        for f, said in sorted(imply.items()):
            for w, y in sorted(said.items()):
                if key(f, (w, y)) not in seen and not (two[w] and implied(f, (w, 1 - y), base=True)):
                    seen.add(key(f, (w, y)))
                    self.implied.append((f, (w, y)))
        self.pairs = [(a, b) for a, b in found.pairs
                      if a not in p.avoided and b not in p.avoided
                      and not in_group.get(a, set()) & in_group.get(b, set()) and not implied(a, b)]
        self.mutex_seconds = found.seconds

    def _inverses(self, p) -> None:
        """Pairs (a, b): b never straight after a (it undoes a, or one action does both)."""
        rewarded = any(r.op in (">=", "==") and r.k > 0 for alt in self.alts for r in alt)
        self.inverse_note = ("off" if "inverse" not in p.levers else
                             "off (a move count >= k or == k may need moves undone)" if rewarded else "")
        # the one action doing two may be another mover's: no counts at all, nor frozen pieces
        self.shortcut_note = ("off" if "shortcut" not in p.levers else
                              "off (move counts or frozen pieces)" if self.counted or self.still else "")
        self.after: dict[int, list[int]] = {}
        self.before: dict[int, list[int]] = {}
        self.barred = 0
        pairs = set()
        if not self.inverse_note:
            pairs.update(inverse_pairs(p.known_ops()))
            self.inverse_count = len(pairs)
        if not self.shortcut_note:
            costs = [op.cost if self.metric == "cost" else 1 for op in p.ops]
            found = {(i, j) for i, j, _ in shortcuts(p.known_ops(), costs)}
            self.shortcut_count = len(found)
            pairs |= found
        for a, b in sorted(pairs):
            self.after.setdefault(a, []).append(b)
            self.before.setdefault(b, []).append(a)

    def _symmetry(self, p) -> None:
        """Interchangeable objects touched in one order on the start side (:mod:`.symmetry`):
        not where a side condition names actions or facts (the swap may not keep it), nor with
        actions of cost 0 (a walk's transition has no action literals)."""
        self.sym = None
        self.sym_clauses = 0
        self.sym_note = ("off" if "symmetry" not in p.levers else
                         "off (move counts, frozen pieces or avoided facts)" if self.counted or self.still or p.avoided
                         else "off (actions of cost 0)" if self.metric == "cost" and any(op.cost < 1 for op in p.ops)
                         else "")
        if self.sym_note:
            return
        found = p.symmetry()
        if found is None:
            self.sym_note = "off (an action name stands for several actions)"
        elif not found.pairs:
            self.sym_note = "no interchangeable objects" + ("" if found.complete else " (the search stopped at its budget)")
        else:
            self.sym = found

    def _symmetric(self, m, t: int, mvs: list) -> None:
        """Step t of the start side: ``("sym", a, t)``, object a touched at t or before; for a
        pair (a, b), b touched means a touched (:mod:`.symmetry`).  Steps built before their
        step t - 1 (the goal side's) get nothing."""
        first = self.sym.pairs[0][0]
        if t > 0 and not m.has(("sym", first, t - 1)):
            return
        for a, ops in self.sym.touches.items():
            now = m.var(("sym", a, t))
            before = [m.var(("sym", a, t - 1))] if t > 0 else []
            for o in ops:
                m.add([-mvs[o], now])
            if before:
                m.add([-before[0], now])
            m.add([-now, *before, *(mvs[o] for o in ops)])
            self.sym_clauses += len(ops) + 1 + len(before)
        for a, b in self.sym.pairs:
            m.add([-m.var(("sym", b, t)), m.var(("sym", a, t))])
        self.sym_clauses += len(self.sym.pairs)

    def _order(self, p) -> None:
        """Actions that commute kept in one order (:mod:`.order`), added once the run proves
        hard (:meth:`escalate`: which pairs commute is found then, and the rule costs a ladder
        and a clause per action a step, more than an easy run saves)."""
        self.order = None
        self.order_from: int | None = None
        self.order_note = "off" if "order" not in p.levers else ""

    def notes(self) -> list[str]:
        if self.mutex_note.startswith("not computed"):
            return [f"h^2 mutexes not used: their fixpoint was not reached within its work budget "
                    f"({WORK:,} units); the encoding goes on without them"]
        return []

    def figures(self) -> dict:
        out = {}
        if self.mutex_note:
            out["mutexes"] = self.mutex_note
        else:
            out.update(mutex_pairs=len(self.pairs), unreachable_facts=len(self.unreachable),
                       implications=len(self.implied), invariant_clauses=self.invariant_clauses, mutex_seconds=self.mutex_seconds)
        if self.sum_pays is not None:
            out["distance_sum"] = "stated" if self.sum_pays else "not stated (no more than LM-cut at the start)"
        if "counts" not in self.domain.levers:
            out["exactly_one_sets"] = "off"
        elif self.one_of is not None:
            out.update(exactly_one_sets=len(self.one_of), count_clauses=self.count_constraints,
                       counts_from_horizon=self.counts_from)
        elif self.goal_steps:
            out["exactly_one_sets"] = "not sought (an easy run)"
        if "tallies" not in self.domain.levers:
            out["tallies"] = "off"
        else:
            out.update(tallies=len(self.tallies), tally_constraints=self.tally_constraints)
            if self.scarce:
                out.update(scarce_counts=len(self.scarce), scarce_constraints=self.scarce_constraints)
        if self.inverse_note:
            out["inverse"] = self.inverse_note
        else:
            out["inverse_pairs"] = self.inverse_count
        if self.shortcut_note:
            out["shortcut"] = self.shortcut_note
        else:
            out["shortcut_pairs"] = self.shortcut_count
        if self.after:
            out["barred_pairs"] = self.barred
        if "factor" not in self.domain.levers:
            out["factor"] = "off"
        elif self.factored is None:
            out["factor"] = "no actions that are a product"
        else:
            fac = self.factored
            out.update(factored_actions=len(fac.of_op), factor_literals=len(fac.var) + len(fac.parts))
        if self.sym_note:
            out["symmetry"] = self.sym_note
        else:
            out.update(interchangeable=" ".join("=".join(c) for c in self.sym.classes), symmetry_pairs=len(self.sym.pairs),
                       symmetry_clauses=self.sym_clauses, symmetry_seconds=self.sym.seconds)
            if not self.sym.complete:
                out["symmetry_search"] = "stopped at its budget"
        if self.order_note:
            out["order"] = self.order_note
        elif self.order is not None:
            out.update(order_clauses=self.order.clauses, order_from_horizon=self.order_from,
                       order_by=self.order.by)
        else:
            out["order"] = "not needed (an easy run)"
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
        for group in self.domain.task.mutexes:
            if len(group) > 1:
                m.at_most_one([lit[v][x] for v, x in group])
        for v, x in sorted(self.domain.avoided):
            m.add([-lit[v][x]])
        for v, x in self.unreachable:
            m.add([-lit[v][x]])
        for (v, x), (w, y) in self.pairs:
            m.add([-lit[v][x], -lit[w][y]])
        for (v, x), (w, y) in self.implied:
            m.add([-lit[v][x], lit[w][y]])
        for facts, k in self.scarce:
            m.card([lit[v][x] for v, x in facts], "==", k)
        self.scarce_constraints += len(self.scarce)
        self.invariant_clauses += len(self.pairs) + len(self.unreachable) + len(self.implied)

    # -- admissible bounds (double-ended unrolling, :mod:`puzzleplan.planner.double`) ----------
    def _distances(self):
        """The transition graphs' distances (:mod:`.dtg`), None when the ``bound`` lever is off."""
        return self.domain.distances() if "bound" in self.domain.levers else None

    def goal_bound(self, m, t, moves_left):
        """No goal variable has a value more moves from its goal value than are left (nor one from
        which none leads there: a state of no plan, not stated on the start side, where a step
        keeps every successor of the rules), and the
        distances of the variables no action changes two of add up to at most the moves left
        (:mod:`.dtg`: the sliding family's goal bound, for any task) where that sum at the start
        is more than LM-cut there (the 8-puzzle's tiles, 21 against 18: 94k -> 77k conflicts
        on hard1; not a knight swap's squares, 12 against 12, where it cost 80k -> 132k, nor a
        Sokoban room's cells, 7 against 13).  With several goal
        alternatives, none (the bound would be the least of theirs)."""
        dist = self._distances()
        if dist is None or len(dist.to_goal) != 1:
            return False
        if self.sum_pays is None:
            p = self.domain
            self.sum_pays = dist(p.initial) > max(p.relaxed("steps").hmax(p.initial), p.lmcut_at_start("steps"))
        return self._within(m, t, dist.to_goal[0], dist.summed[0] if self.sum_pays else (), moves_left, ("far", t))

    def start_bound(self, m, t, moves_done):
        """No variable has a value further from its start value than the moves made, and the
        variables no action changes two of have made, together, at most the moves made: their
        values' distances from the start's (:mod:`.dtg`) add up to at most ``moves_done``."""
        dist = self._distances()
        if dist is None:
            return False
        ds, summed = dist.from_start()
        return self._within(m, t, enumerate(ds), summed, moves_done, ("from", t))

    def _within(self, m, t, distances, summed, moves, key) -> bool:
        """At step t, no value of ``distances``' variables (``(v, its values' distances)``) more
        than ``moves`` away, and the ``summed`` variables' distances adding up to at most
        ``moves`` (:meth:`~puzzleplan.encodings.base.Encoder.distance_sum`); True if anything
        was added."""
        lit = self.lits(m, t)
        added = False
        groups = []
        for v, ds in distances:
            for x, d in enumerate(ds):
                if d > moves:
                    m.add([-lit[v][x]])
                    added = True
            if v in summed:
                groups.append(({lit[v][x]: d for x, d in enumerate(ds) if d <= moves}, "min"))
        return (bool(groups) and self.distance_sum(m, key, groups, moves)) or added

    def invariant(self, m, t):
        """On a goal-side state (the start side keeps them by itself): each tally's "exactly
        k", and, once the run has proved hard (:meth:`escalate`), "at least one" of each set
        of which every reachable state holds exactly one: the mutexes say "at most one"
        (measured on Rush Hour card 40 and the 8-puzzle: the whole "exactly k" as cardinality
        constraints, k > 1 included, was slower; stated at every step, no faster)."""
        self.goal_steps.append(t)
        for facts, k in self.tallies:
            m.card([self.val(m, v, x, t) for v, x in facts], "==", k)
        self.tally_constraints += len(self.tallies)
        self._one_of(m, [t])

    def escalate(self, m, horizon):
        """The run has proved hard: the counting invariants (:mod:`.counts`; their search costs
        0.05-0.5 s on a Rush Hour card, more than an easy card's whole run), stated on every
        goal-side state built so far and from now on; and one order for commuting actions
        (:mod:`.order`) between every two steps built so far and from now on."""
        if self.one_of is None and "counts" in self.domain.levers and self.goal_steps:
            self.one_of = [c for c in self.domain.counts() if c.k == 1]
            self.counts_from = horizon
            self._one_of(m, self.goal_steps)
        if self.order is None and not self.order_note:
            p = self.domain
            mutexes = p.mutexes() if "mutex" in p.levers else None
            # by schemas first (fewer ladder literals: the measured winner), by actions where
            # schemas leave nothing to order (a task of one schema)
            found = None
            for ranks in (schema_ranks(p.ops), None):
                if ranks is not None and len(set(ranks)) < 2:
                    continue
                found = interfering_above(p.ops, p.known_ops(), p.task.values, mutexes, ranks)
                if found is None or any(found.free):
                    break
            if found is None:
                self.order_note = "off (too many interfering pairs)"
            elif not any(found.free):
                self.order_note = "nothing to order (no two actions that can follow each other commute)"
            else:
                self.order = ActionOrder(found)
                self.order_from = horizon
                for t, lits in sorted(self.step_moves.items()):
                    self.order.step(m, t, lits)

    def _one_of(self, m, steps):
        if self.one_of is None:
            return
        for t in steps:
            for c in self.one_of:
                m.add([self.val(m, v, x, t) for v, x in c.facts])
            self.count_constraints += len(self.one_of)

    def facts(self, m, t):
        return {("val", v, x): self.val(m, v, x, t) for v, names in enumerate(self.values) for x in range(len(names))
                if self.kept[v] in (None, x)}

    def initial(self, m):
        for v, x in enumerate(self.domain.initial):
            m.add([self.val(m, v, x, 0)])

    def moves(self, m, t):
        p = self.domain
        out = []
        now, nxt = self.lits(m, t), self.lits(m, t + 1)
        fac = self.factored
        mvs = _Actions(self, m, t)
        for o, op in enumerate(p.ops):
            if fac is not None and o in fac.of_op:
                continue
            mv = mvs[o]
            for v, x in op.pre:
                m.implies(mv, [now[v][x]])
            for v, x in op.eff:
                m.implies(mv, [nxt[v][x]])
            out.append((mv, p.mover[o]))
            self._bar(m, t, mvs, o)
        if fac is not None:
            out += self._factored(m, t, now, nxt)
            for o in sorted(fac.of_op):
                self._bar(m, t, mvs, o)
        for v, names in enumerate(self.values):
            for x in range(len(names)):
                if self.kept[v] not in (None, x):
                    continue
                frame(m, now[v][x], nxt[v][x], mvs.reasons(v, self.leaving.get((v, x), [])),
                      mvs.reasons(v, self.arriving.get((v, x), [])))
        if self.sym is not None:
            self._symmetric(m, t, mvs)
        self.step_moves[t] = mvs        # for the order, should the run prove hard (:meth:`escalate`)
        if self.order is not None:
            self.order.step(m, t, mvs)
        return out

    def _bar(self, m, t, mvs, o) -> None:
        """No action straight after one it undoes (:attr:`after`): with the step before, and
        with the step after where that was built first (the goal side of the double-ended
        unrolling)."""
        pairs = [(t + 1, j) for j in self.after.get(o, ()) if t + 1 in self.step_moves] + \
                [(t - 1, i) for i in self.before.get(o, ()) if t - 1 in self.step_moves]
        for u, j in pairs:
            m.add([-lit for lit in mvs.conj(o) + self.step_moves[u].conj(j)])
            self.barred += 1

    def _factored(self, m, t, now, nxt) -> list:
        """Step t's factored actions (:mod:`.factor`): a group's literal implies its conditions
        and one of its transitions, a transition's its condition on its variable and one of
        its groups.  Returns the groups' literals with their movers."""
        fac = self.factored
        out = []
        for g, takes in enumerate(fac.takes):
            j = m.var(("fj", g, t))
            for v, x in fac.pre[g]:
                m.implies(j, [now[v][x]])
            for v, x in fac.eff[g]:
                m.implies(j, [nxt[v][x]])
            m.add([-j, *(m.var(("fx", s, t)) for s in takes)])
            out.append((j, fac.mover[g]))
        for s, (c, x, y) in enumerate(fac.parts):
            lit = m.var(("fx", s, t))
            m.implies(lit, [now[c][x]])
            m.implies(lit, [nxt[c][y]])
            m.add([-lit, *(m.var(("fj", g, t)) for g in fac.groups_of[s])])
        return out

    def action_lits(self, m, t, least_cost: int = 0) -> list[int]:
        """Step t's literal of each action of cost at least ``least_cost`` (the metric's), a
        factored group's for its actions (:mod:`.factor`)."""
        fac = self.factored
        ops = self.domain.ops
        out = [m.var(("mv", o, t)) for o, op in enumerate(ops)
               if (fac is None or o not in fac.of_op) and op.cost >= least_cost]
        if fac is not None:
            out += [m.var(("fj", g, t)) for g, c in enumerate(fac.cost) if c >= least_cost]
        return out

    def op_at(self, m, values, t) -> int | None:
        """The action the model ``values`` applies at step t, if any."""
        for o in range(len(self.domain.ops)):
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
        return [Move(self.domain.mover[o], o) for o in (self.op_at(m, values, t) for t in steps)]

    def placed(self, m, i, T):
        return [self.val(m, v, x, T) for v, x in self.domain.task.alternatives()[i]]

    def place_lit(self, m, mover, place, T):
        raise PuzzleError("a PDDL task has no cells for end conditions")

    def decode_move(self, key):
        _, o, _ = key
        return Move(self.domain.mover[o], o)


class _Actions:
    """Step t's action literals by index: ``conj(o)``, the literals whose conjunction is action o
    (its own, or its factored group's and transition's, :mod:`.factor`); ``[o]`` one literal,
    made for a factored action when asked (the symmetry and order levers name every action);
    ``reasons(v, ops)``, the literals for those actions changing variable v."""

    def __init__(self, encoder: "StepsEncoder", m, t: int):
        self.fac, self.m, self.t = encoder.factored, m, t
        self.lits = [None if self.fac is not None and o in self.fac.of_op else m.var(("mv", o, t))
                     for o in range(len(encoder.domain.ops))]

    def conj(self, o: int) -> list[int]:
        if self.lits[o] is not None:
            return [self.lits[o]]
        g, s = self.fac.of_op[o]
        return [self.m.var(("fj", g, self.t)), self.m.var(("fx", s, self.t))]

    def __getitem__(self, o: int) -> int:
        if self.lits[o] is None:
            j, x = self.conj(o)
            lit = self.lits[o] = self.m.var(("mv", o, self.t))
            self.m.equiv_and(lit, [j, x])
        return self.lits[o]

    def reasons(self, v: int, ops) -> list[int]:
        if self.fac is None:
            return [self.lits[o] for o in ops]
        out = {}
        for o in ops:
            lit = self.m.var(self.fac.reason(o, v) + (self.t,)) if o in self.fac.of_op else self.lits[o]
            out[lit] = None
        return list(out)


class CostEncoder(StepsEncoder):
    """Horizon = a bound on the plan's cost (see the module doc)."""

    no_system = "its goal, a bound on the cost of every step's actions, is not a property of one state"

    def __init__(self, domain, metric, counts=()):
        super().__init__(domain, metric, counts)
        p = self.domain
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
        self.closure = w if w is not None and "walk" in p.levers and not self.counted and not p.avoided else None
        if self.closure is None and self.free.per_run > MAX_RUN:
            walker = next(op.name for op in p.ops if op.cost < 1)
            raise PuzzleError(f"SAT under cost: {too_long(walker, len(w.follow) + 1, self.free.per_run, MAX_RUN)}, "
                              f"laid out a layer each (with move counts, avoided facts or --levers -walk): use search "
                              f"(bfs, astar) or a planner")

    def laid_out(self, horizon: int) -> int:
        """The layers that hold every plan of cost at most ``horizon`` (:mod:`.free`); a walk in
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
        """A whole walk from step t to t + 1 (:class:`.free.Walk`): p's values reached within
        j free actions, ``("reach", j, x, t)``, each from one reached within j - 1 through a free
        action whose preconditions hold along the walk: the actions into one value under the
        same preconditions as one literal a round (``via``: one of their sources reached, the
        preconditions hold), or none where they are the only ones into it (then the value's
        ``reach`` says so itself, each of its clauses with "reached the round before": staying
        needs nothing; a Sokoban player's steps into a cell; the Microban levels as PDDL
        from 6.35x the native file's time to 4.56x, pddl_sat_round_trip.csv); the variables that
        follow p set by where p ends, the others kept.  Its preconditions on a variable v that
        follows p, where p is out of v's C (else it is ``in``, by the mutexes): v is ``out`` if p
        started in C or v did, else v keeps its start value.  Returns ``("act", t)``: p moved."""
        w = self.closure
        p = w.p
        now, nxt = self.lits(m, t), self.lits(m, t + 1)
        follow = {v: (C, inn, out) for v, C, inn, out in w.follow}
        for v, names in enumerate(self.values):
            if v != p and v not in follow:
                for x in range(len(names)):
                    if self.kept[v] in (None, x):
                        m.add([-now[v][x], nxt[v][x]])
                        m.add([now[v][x], -nxt[v][x]])
        inside = {}
        for v, (C, inn, out) in follow.items():
            a0, a1 = m.fresh("walk"), m.fresh("walk")
            m.equiv_or(a0, [now[p][a] for a in sorted(C)])
            m.equiv_or(a1, [nxt[p][a] for a in sorted(C)])
            inside[v] = a0
            m.implies(a1, [nxt[v][inn]])
            m.add([a1, -a0, nxt[v][out]])
            for y in range(len(self.values[v])):
                m.add([a1, a0, -now[v][y], nxt[v][y]])
                m.add([a1, a0, now[v][y], -nxt[v][y]])
        # (value into, clauses the preconditions need) -> the values the free actions come from
        groups: dict = {}
        for o, op in enumerate(self.domain.known_ops()):
            if self.domain.ops[o].cost >= 1:
                continue
            pre, eff = dict(op.pre), dict(op.eff)
            if pre.get(p) is None or eff.get(p, pre[p]) == pre[p]:
                continue        # changes nothing (tracking: a free action that changes something moves p)
            a, needs = pre[p], []
            for v, y in pre.items():
                if v == p:
                    continue
                if v not in follow:
                    needs.append([now[v][y]])
                    continue
                C, inn, out = follow[v]
                if a in C:
                    needs = None if y != inn else needs
                elif y == out:
                    needs.append([inside[v], now[v][out]])
                else:
                    needs += [[-inside[v]], [now[v][y]]]
                if needs is None:
                    break
            if needs is not None:
                groups.setdefault((eff[p], tuple(sorted(set(map(tuple, needs))))), set()).add(a)
        ways = Counter(b for b, _ in groups)        # per value, the groups into it
        reach = [now[p][x] for x in range(len(self.values[p]))]
        for j in range(1, w.states):
            limits.checkpoint(len(groups))
            into: dict = {}
            new = [m.var(("reach", j, x, t)) for x in range(len(self.values[p]))]
            for (b, needs), sources in groups.items():
                if ways[b] == 1:        # b's reach says it: reached before, or by this group
                    head = [-new[b], reach[b]]
                else:
                    u = m.fresh("via")
                    head = [-u]
                    into.setdefault(b, []).append(u)
                m.add([*head, *(reach[a] for a in sorted(sources))])
                for clause in needs:
                    m.add([*head, *clause])
            for x in range(len(self.values[p])):
                if ways[x] != 1:
                    m.add([-new[x], reach[x], *into.get(x, [])])
                m.implies(reach[x], [new[x]])
            reach = new
        for x in range(len(self.values[p])):
            m.implies(nxt[p][x], [reach[x]])
        act = m.var(("act", t))
        for x in range(len(self.values[p])):
            m.add([act, -now[p][x], nxt[p][x]])
        return act

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
            moves = tidy(self.domain, moves)
        return moves

    def _walked(self, m, values) -> list:
        rules, out, state, t = self.domain, [], self.domain.initial, 0
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
        if not m.has(("cost", t, 1)):
            for j in range(1, self.top + 1):
                m.equiv_or(m.var(("cost", t, j)), self.action_lits(m, t, least_cost=j))
            m.cost_units[t] = [m.var(("cost", t, j)) for j in range(1, self.top + 1)]
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

