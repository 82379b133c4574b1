"""2-literal invariants of a grounded task: pairs of facts that no reachable state holds
together, and facts no reachable state holds (h^2 reachability, Haslum and Geffner 2000;
as a mutex finder: Alcázar and Torralba, ICAPS 2015).  Madagascar and incplan owe much of
their strength to such pairs; the translator's mutex groups find only those its invariant
synthesis proves from the schemas.

Representation
--------------
fact    ``offset[v] + x`` for value x of variable v (as in :mod:`.relaxed`)
pairs   ``together[f]``: a bit set (a Python int) of the facts found together with f in some
        state so far, f itself included once f is reached
mutex   two facts of different variables, both reachable, never found together; a fact
        never reached is unreachable

The fixpoint starts from the initial state's facts and pairs.  An action applies in the
relaxation when each precondition is reached and each two are found together; it then
reaches its effects, their pairs, and each effect with every fact r that is found
together with all its preconditions and whose variable it does not set (r holds before,
and after).  Actions repeat until nothing new is found: an over-approximation of the
pairs of reachable states, so every mutex it reports is implied by the task.  Actions
that make an avoided fact true are never used (:mod:`.relaxed` does the same).

Cost: each round is a pass over the actions with bit-set operations over the facts; the
rounds are at most the number of pairs.  :func:`mutexes` gives up (None, nothing is
claimed: a fixpoint not reached proves nothing) past its ``work`` budget or the time limit.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ... import limits
from ...bitsets import bits

MAX_FACTS = 20_000      # above this the pairs alone (facts^2 bits) are not worth building
# the fixpoint's own budget, in units of work (an action looked at, weighed by its preconditions
# and by the facts' bitset words its set operations touch): about 10 s of CPU here, counted
# rather than timed, so that a task gets the same mutexes -- and the same encoding -- on a busy
# machine (the run's time limit still stops it)
WORK = 15_000_000


@dataclass(frozen=True)
class Mutexes:
    """What h^2 proved: facts (as ``(v, x)``) and pairs that no reachable state holds."""

    unreachable: tuple[tuple[int, int], ...]
    pairs: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    rounds: int
    seconds: float


def mutexes(task, work: int | None = None) -> Mutexes | None:
    """The h^2 mutexes of a task (its ``task.values``, ``ops``, ``initial`` and ``avoided``
    facts; see the module doc), or None if the fixpoint was not reached within ``work`` units
    (default :data:`WORK`) or the task has more than :data:`MAX_FACTS` facts."""
    t0 = time.monotonic()
    values = task.task.values
    offset, fact_of = [], []
    for v, names in enumerate(values):
        offset.append(len(fact_of))
        fact_of += [(v, x) for x in range(len(names))]
    n = len(fact_of)
    if n > MAX_FACTS:
        return None
    actions = _actions(task, values, offset)
    start = [offset[v] + x for v, x in enumerate(task.initial)]
    fixpoint = _fixpoint(actions, start, n, WORK if work is None else work)
    if fixpoint is None:
        return None
    reached, together, rounds = fixpoint
    unreachable = tuple(fact_of[f] for f in range(n) if not reached >> f & 1)
    pairs = []
    for f in bits(reached):
        limits.checkpoint()
        # facts after f, reached, of another variable, never found with f
        v = fact_of[f][0]
        same = ((1 << len(values[v])) - 1) << offset[v]
        apart = reached & ~together[f] & ~same & ~((1 << (f + 1)) - 1)
        pairs += [(fact_of[f], fact_of[g]) for g in bits(apart)]
    return Mutexes(unreachable, tuple(pairs), rounds, round(time.monotonic() - t0, 4))


def _actions(task, values, offset) -> list[tuple]:
    """Each usable action as ``(pre, pre_mask, eff, eff_mask, set_mask)`` over fact numbers."""
    avoided = {offset[v] + x for v, x in task.avoided}
    actions = []
    for op in task.ops:
        limits.checkpoint()
        eff = [offset[v] + x for v, x in op.eff]
        if avoided.intersection(eff):
            continue
        pre = [offset[v] + x for v, x in op.pre]
        pre_mask = sum(1 << f for f in set(pre))
        eff_mask = sum(1 << f for f in set(eff))
        # the facts of the variables it sets: none of them holds after it but its effect
        set_mask = 0
        for v, _ in op.eff:
            set_mask |= ((1 << len(values[v])) - 1) << offset[v]
        actions.append((pre, pre_mask, eff, eff_mask, set_mask))
    return actions


def _fixpoint(actions: list, start: list, n: int, budget: int) -> tuple[int, list, int] | None:
    """The facts reached, the facts found together with each, and the rounds; None past
    ``budget`` units of work."""
    start_mask = sum(1 << f for f in start)
    reached = start_mask
    together = [0] * n
    for f in start:
        together[f] = start_mask
    rounds, changed, spent = 0, True, 0
    words = 1 + n // 512        # a set operation's cost grows with the facts' bitsets
    while changed:
        changed = False
        rounds += 1
        for pre, pre_mask, eff, eff_mask, set_mask in actions:
            limits.checkpoint(1 + len(pre))
            spent += (1 + len(pre)) * words
            if spent > budget:
                return None
            if pre_mask & ~reached:
                continue
            # found together with every precondition (each precondition is with itself)
            common = reached
            for q in pre:
                common &= together[q]
            if common & pre_mask != pre_mask:
                continue        # two preconditions never found together
            new_with = (common & ~set_mask) | eff_mask
            for p in eff:
                add = new_with & ~together[p]
                if add:
                    changed = True
                    together[p] |= add
                    reached |= 1 << p
                    for r in bits(add & ~(1 << p)):
                        together[r] |= 1 << p
    return reached, together, rounds


def implications(found: Mutexes, values, avoided=()) -> dict:
    """What a fact says of other variables: ``{f: {w: y}}`` when every value of variable w
    but y that some reachable state can hold (not unreachable, not avoided) is mutex with
    fact f, so every reachable state holding f holds value y of w (one clause ``not f or
    (w = y)`` says what those pairs and w's one-hot say, and unit propagation also reads it
    backwards: w not y, so not f).  On a Sokoban export the translator makes each cell a
    variable (a box, clear, or "none of those": the player stands there) beside the player's
    position: the pairs tie the two, each "none of those" to the player's cell and back.
    Cost: one pass over the pairs."""
    gone = set(found.unreachable) | set(avoided)
    open_values = [sum((w, y) not in gone for y in range(len(names))) for w, names in enumerate(values)]
    apart: dict = {}
    for a, b in found.pairs:
        for f, (w, y) in ((a, b), (b, a)):
            apart.setdefault(f, {}).setdefault(w, set()).add(y)
    out: dict = {}
    for f, by_var in apart.items():
        limits.checkpoint()
        if f in gone:
            continue
        for w, ys in by_var.items():
            if sum((w, y) not in gone for y in ys) == open_values[w] - 1:
                y = next(y for y in range(len(values[w])) if y not in ys and (w, y) not in gone)
                out.setdefault(f, {})[w] = y
    return out
