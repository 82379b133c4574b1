"""Actions that undo each other, found from the grounded operators alone: ``(a, b)`` such
that applying a and then b, from any state where both apply in turn, gives back the state
a started from.  Such a pair never appears in a shortest plan (nor in a cheapest one when
every action costs at least 1): without it the plan is shorter, visits only states it
visited, and uses fewer of every action.  So the SAT encoding may bar b straight after a
(as the hand-written families bar a piece's move straight back) unless a side condition
rewards moves: a count ``>= k`` or ``== k`` (k > 0) can need the extra moves, and then
nothing is barred.

State values after a then b, for each variable v (pre/eff as in :class:`~puzzleplan.strips.sas.Operator`):
- v set by b: b's value; it must be v's value before a: a's precondition on v, or, when a
  does not set v, b's precondition on v (a left it as it was);
- v set by a only: a's value; it must be a's precondition on v (a set it to what it was);
- otherwise unchanged.
A value that is not known from the preconditions is not known to come back: no pair.
With the task's mutexes (:mod:`.mutex`), a variable an action sets without reading is
known too when a single value of it is reachable together with the action's
preconditions (a car's new anchor in Rush Hour: its cells are not covered by the car
before, since it stands next to them): every reachable state where the action applies
has that value, so it counts as a precondition here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ... import limits


def _restores(a, b) -> bool:
    pre_a, pre_b = dict(a.pre), dict(b.pre)
    eff_a, eff_b = dict(a.eff), dict(b.eff)
    # b must apply after a somewhere: its preconditions agree with what a leaves
    for v, x in pre_b.items():
        if v in eff_a and eff_a[v] != x:
            return False
        if v not in eff_a and v in pre_a and pre_a[v] != x:
            return False
    for v, x in eff_b.items():
        before = pre_a.get(v, pre_b.get(v) if v not in eff_a else None)
        if before != x:
            return False
    return all(v in eff_b or pre_a.get(v) == x for v, x in eff_a.items())


@dataclass(frozen=True)
class Known:
    """An operator with the preconditions that reachable states imply added."""

    pre: tuple
    eff: tuple


def known(ops: Sequence, values: Sequence, mutexes=None) -> list:
    """``ops`` with, for each variable an operator sets without reading it, the one value
    it can have where the operator applies, when the mutexes leave one."""
    if mutexes is None:
        return list(ops)
    apart: dict = {}
    for a, b in mutexes.pairs:
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    never = set(mutexes.unreachable)
    out = []
    for op in ops:
        limits.checkpoint()
        pre = dict(op.pre)
        for v, _ in op.eff:
            if v in pre:
                continue
            left = [x for x in range(len(values[v])) if (v, x) not in never
                    and not any((v, x) in apart.get(p, ()) for p in op.pre)]
            if len(left) == 1:
                pre[v] = left[0]
        out.append(Known(tuple(sorted(pre.items())), op.eff))
    return out


def inverse_pairs(ops: Sequence) -> list[tuple[int, int]]:
    """Every ``(i, j)``: operator j straight after operator i gives back i's start state (see
    the module doc; an action that changes nothing is in no pair: it is its own "inverse",
    and barring it straight after itself would not keep the rules' successors).  ``ops``: the grounded operators, or :func:`known`'s."""
    by_effect: dict[tuple[int, int], list[int]] = {}
    for j, op in enumerate(ops):
        for fact in op.eff:
            by_effect.setdefault(fact, []).append(j)
    out = []
    for i, a in enumerate(ops):
        pre_a = dict(a.pre)
        changed = [(v, x) for v, x in a.eff if pre_a.get(v) != x]
        if not changed:
            continue
        v, _ = changed[0]
        if v not in pre_a:
            continue            # its previous value is not known: it cannot be known to come back
        for j in by_effect.get((v, pre_a[v]), ()):     # b must set v back
            limits.checkpoint()
            if _restores(a, ops[j]):
                out.append((i, j))
    return out
