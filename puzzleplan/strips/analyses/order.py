"""One order for actions that commute: a partial-order reduction for the sequential encoding
of any grounded task (the ``order`` lever; the hand-written sliding encoding has its own,
:mod:`puzzleplan.encodings.order`).

Two actions a and b *interfere* when one changes a variable the other reads or changes
(reads: its preconditions, and the effects that set what the precondition already says;
changes: its other effects).  When they do not, a then b and b then a both apply from the
same states and end in the same state, and every state in between holds only facts of the
state before or of the state after.  Each action has a *rank* (its own index, or its
schema's: :func:`schema_ranks`).  The rule: action b may follow action a straight (b at step
t + 1, a at step t) with b's rank below a's only when they interfere.

Why that is exact: of the plans of a horizon, take one with the fewest actions and, among
those, the smallest sequence of ranks (compared in order).  Were b straight after a with
b's rank lower and the two independent, swapping them would keep the plan valid, its
length, its cost, its actions (move counts, frozen actions) and, by the remark above, no
state would hold a fact that a state of the plan did not (avoided facts): a smaller
sequence.  The other barred pairs (:mod:`.inverse`, :mod:`.shortcut`) never stand in a plan
with the fewest actions.  So a horizon is satisfiable with the rule exactly when it is
without it; the states each step can hold are those of such plans' prefixes.

Ranks by action bar the most interleavings; ranks by schema leave two actions of one schema
in either order but need a ladder literal per schema rather than per action, and paid more:
Pennant's export in slides (386 actions, 48 schemas) proved in 45.8 s by schema against
60.2 s by action (the same conflicts within 1%), and the round trip's 16 slowest entries
both sides prove took 0.92x the CPU over the native file's by schema
(benchmarks/pddl_round_trip/order_ranks.csv).  The encoder orders by schema, by action where
schemas leave nothing to order (a task of one schema).

In the encoding (:class:`puzzleplan.strips.encoding.levers.order.ActionOrder`), per step t a ladder ``("ord_above", k, t)``:
an action of rank above k applies at t (forced true by it, never by anything else); then
one clause per action b: ``b at t + 1 and above(rank(b), t)`` implies one of the
interfering actions of rank above b's at t.  Interference is found through the variables
the actions touch, within a budget of pairs (:data:`PAIR_BUDGET`: off beyond it, and the
row says so).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ... import limits
from ...bitsets import bits, mask_of
from ..names import action_parts

# interfering pairs, and pairs that never follow each other, at most (beyond: the lever is off;
# dense tasks gain nothing from it)
PAIR_BUDGET = 2_000_000


def schema_ranks(ops: Sequence) -> list[int]:
    """Each action's rank as its schema's (the first word of its name, as
    :func:`puzzleplan.strips.names.action_parts` reads it; schemas numbered as they first appear): the order then
    says nothing between two actions of one schema.  The symmetry lever maps every operator onto
    one of its own schema, so onto one of the same rank (:mod:`.symmetry`)."""
    names: dict = {}
    return [names.setdefault(action_parts(op.name)[0] if op.name.split() else "", len(names)) for op in ops]


def _touch(op) -> tuple[set, set]:
    """(variables op reads, variables op changes)."""
    pre = dict(op.pre)
    changes = {v for v, x in op.eff if pre.get(v) != x}
    return set(pre) | {v for v, x in op.eff if pre.get(v) == x}, changes


def interfering_above(ops: Sequence, known: Sequence | None = None, values: Sequence | None = None,
                      mutexes=None, ranks: Sequence[int] | None = None) -> "Interference | None":
    """For each action b, the actions of rank above b's that interfere with it (see the module
    doc; ``ranks``: each action's, by default its own index). Given the operators with their
    implied preconditions (``known``, :func:`.inverse.known`), the variables' ``values`` and the
    h^2 ``mutexes``, also those that b can never follow straight (one of b's preconditions
    cannot hold with what a leaves: a's effects, and its preconditions on variables it does not
    change): b needs no clause when no other action above it is independent (in the 8-puzzle
    every move needs the blank, and moves of different blanks touch different variables but
    never follow each other), and they are left out of its clause. None when those pairs pass
    :data:`PAIR_BUDGET`."""
    # sets of actions as the bits of an int: a task's 2,722 actions (knights with move counts)
    # took 2.5 s to pass the budget as Python sets, 0.1 s so
    never = _never_masks(known, values, mutexes) if known is not None else None
    reads: list[set] = []
    changes: list[set] = []
    readers: dict = {}
    changers: dict = {}
    for o, op in enumerate(ops):
        r, c = _touch(op)
        reads.append(r)
        changes.append(c)
        for v in r:
            readers.setdefault(v, []).append(o)
        for v in c:
            changers.setdefault(v, []).append(o)
    readers = {v: mask_of(os) for v, os in readers.items()}
    changers = {v: mask_of(os) for v, os in changers.items()}
    near_above: list[int] = []
    free: list[bool] = []
    total = 0
    n = len(ops)
    if ranks is None:
        ranks = range(n)
    of_rank: list[list[int]] = [[] for _ in range(max(ranks, default=-1) + 1)]
    for a, r in enumerate(ranks):
        of_rank[r].append(a)
    # rank j -> the actions of rank above j (as bits), and how many; built from the top
    higher = [0] * len(of_rank)
    higher_count = [0] * len(of_rank)
    for j in range(len(of_rank) - 2, -1, -1):
        higher[j] = higher[j + 1] | mask_of(of_rank[j + 1])
        higher_count[j] = higher_count[j + 1] + len(of_rank[j + 1])
    for b in range(n):
        limits.checkpoint()
        near = 0
        for v in reads[b] | changes[b]:
            near |= changers.get(v, 0)
        for v in changes[b]:
            near |= readers.get(v, 0)
        up = higher[ranks[b]]
        above = near & up
        count = above.bit_count()
        never_count = (never(b) & ~near & up).bit_count() if never is not None else 0
        total += count + never_count
        if total > PAIR_BUDGET:
            return None
        near_above.append(above)
        free.append(count + never_count < higher_count[ranks[b]])
    return Interference([tuple(bits(above)) for above in near_above], free, tuple(ranks))


@dataclass(frozen=True)
class Interference:
    """Per action b: ``above[b]`` the actions of higher rank that interfere with it; ``free[b]``:
    some action of higher rank neither interferes with b nor can never precede it (b then
    needs a clause); ``ranks``: each action's (empty: its index)."""

    above: list
    free: list
    ranks: tuple = ()

    def __getitem__(self, b: int) -> tuple[int, ...]:
        return self.above[b]


def _never_after(known: Sequence, values: Sequence, mutexes):
    """``never(b)``: the actions a such that b cannot apply straight after a."""
    masks = _never_masks(known, values, mutexes)
    return lambda b: set(bits(masks(b)))


def _never_masks(known: Sequence, values: Sequence, mutexes):
    """:func:`_never_after` with the actions as the bits of an int."""
    apart: dict = {}
    for f, g in (mutexes.pairs if mutexes is not None else ()):
        apart.setdefault(f, set()).add(g)
        apart.setdefault(g, set()).add(f)
    leaving: dict = {}          # fact -> the actions after which it holds
    for a, op in enumerate(known):
        changed = {v for v, _ in op.eff}
        for f in list(op.eff) + [(v, x) for v, x in op.pre if v not in changed]:
            leaving.setdefault(f, []).append(a)
    leaving = {f: mask_of(acts) for f, acts in leaving.items()}

    def never(b: int) -> int:
        out = 0
        for v, x in known[b].pre:
            limits.checkpoint()
            for y in range(len(values[v])):
                if y != x:
                    out |= leaving.get((v, y), 0)
            for g in apart.get((v, x), ()):
                out |= leaving.get(g, 0)
        return out
    return never
