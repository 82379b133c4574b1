"""Pairs of actions that one action does at once: ``(a, b, c)`` such that from any state
where a and then b apply, c applies and gives the state b gives (Rush Hour in slides: a
car's slide of 1 then of 2 the same way is its slide of 3, a slide of 2 then of 1 back is
its slide of 1).  A shortest plan never holds a then b (c alone is shorter, visiting fewer
states), nor a cheapest one when c costs no more than a and b together.  So the encoding
may bar b straight after a, as the sliding family bars a second slide along the same axis,
unless move counts or frozen pieces are stated: c may be another mover's action.

What is known of the state s before a: a's preconditions, and b's on the variables a
does not set (a left them as they were); operators come with the preconditions reachable
states imply (:func:`.inverse.known`).  The state after b: b's effects, a's on what b does
not set, s elsewhere.  c fits when each of its preconditions is known of s, and its effect
on each variable that a, b or c sets is that value after b (a variable c leaves must come
back to its known value in s).
"""
from __future__ import annotations

from typing import Sequence

from ... import limits


def _before_and_after(a, b) -> tuple[dict, dict] | None:
    """What is known of the state before a, and the values a then b set; None if b never
    applies straight after a."""
    pre_a, eff_a = dict(a.pre), dict(a.eff)
    before = dict(pre_a)
    for v, x in b.pre:
        if v in eff_a:
            if eff_a[v] != x:
                return None
        elif before.setdefault(v, x) != x:
            return None
    after = {**eff_a, **dict(b.eff)}
    return before, after


def _does(c, before: dict, after: dict) -> bool:
    """Whether c, where ``before`` is known, applies and leaves what a then b leave."""
    if any(before.get(v) != x for v, x in c.pre):
        return False
    eff_c = dict(c.eff)
    for v in set(after) | set(eff_c):
        want = after.get(v, before.get(v))       # after b: set by a or b, else as before
        got = eff_c.get(v, before.get(v))        # after c: set by c, else as before
        if want is None or got is None or want != got:
            return False
    return True


def shortcuts(ops: Sequence, costs: Sequence[int] | None = None) -> list[tuple[int, int, int]]:
    """Every ``(i, j, k)``: operator k does operator i then operator j at once, costing no
    more (``costs``: each operator's, default 1), see the module doc; one k per pair.  ``ops``: the grounded
    operators, or :func:`.inverse.known`'s.  The one action is looked up by the variables
    it changes."""
    cost = costs or [1] * len(ops)

    def changed(op) -> frozenset:
        pre = dict(op.pre)
        return frozenset((v, x) for v, x in op.eff if pre.get(v) != x)

    by_change: dict[frozenset, list[int]] = {}
    for k, op in enumerate(ops):
        by_change.setdefault(changed(op), []).append(k)
    readers: dict[int, list[int]] = {}       # variable -> operators reading or setting it
    for j, op in enumerate(ops):
        for v in {v for v, _ in op.pre} | {v for v, _ in op.eff}:
            readers.setdefault(v, []).append(j)
    out = []
    for i, a in enumerate(ops):
        touched = {v for v, _ in changed(a)}
        for j in sorted({j for v in touched for j in readers.get(v, ())}):
            limits.checkpoint()
            known = _before_and_after(a, ops[j])
            if known is None:
                continue
            before, after = known
            net = frozenset((v, x) for v, x in after.items() if before.get(v) != x)
            if not net:
                continue            # a then b changes nothing: an inverse pair (:mod:`.inverse`)
            for k in by_change.get(net, ()):
                if cost[k] <= cost[i] + cost[j] and _does(ops[k], before, after):
                    out.append((i, j, k))
                    break
    return out
