"""A counting bound: how many facts of one predicate a state holds, against how many a goal
state can hold, over how much one action can change that number.

For a group P of facts (those of one predicate, and those of one predicate with one first
argument: ``at(k3, ...)``, a kind's pieces), a state's count is the number of variables
whose value is a fact of P.  An action changes it by Δ: for each effect, +1 if
the value it sets is a P fact, -1 if the value it replaces is (known from its precondition,
or from the mutexes, :func:`.inverse.known`; when not known, the bound takes the change
that helps most).  A goal state holds at least ``need`` P facts (the goal's P facts) and at
most ``cap`` (the variables with a P value that the goal does not fix to another value).
A plan from s climbs from count(s) to at least ``need``: with up = the largest Δ per unit of
cost, its cost is at least ``ceil((need - count(s)) / up)``; likewise down to ``cap``.
Admissible, and consistent with integer costs (a step of cost c lowers it by at most c),
so A* may take the maximum with h^max; goal alternatives: the least over them.

A group whose count no action changes (every old value known, every Δ = 0) holds, in every
reachable state, the number the initial state holds: :attr:`CountingBound.constant`, which
the ``tallies`` lever states on the goal side of the double-ended unrolling.

Peg solitaire is the case in point: every jump clears one hole more (Δ = +1 on ``clear``),
so a board of n pegs needs n - 1 jumps, where h^max and LM-cut see half of that.
"""
from __future__ import annotations

from math import ceil
from typing import Sequence

from ... import limits


def _groups(name: str) -> tuple[str, ...]:
    """The groups a fact counts in: its predicate, and its predicate with its first argument
    (``at(k3, c-1-1)``: ``at`` and ``at(k3``)."""
    if name.startswith(("not ", "<none")) or "(" not in name:
        return ()
    pred, args = name.split("(", 1)
    first = args.split(",", 1)[0].rstrip(")").strip()
    return (pred.strip(), f"{pred.strip()}({first}") if first else (pred.strip(),)


class CountingBound:
    """Per predicate with a useful rate: the facts (variable -> its P values), the largest
    rise and fall per unit of cost, and per goal alternative the least and most a goal state
    holds."""

    def __init__(self, values: Sequence, ops: Sequence, costs: Sequence[int], alternatives: Sequence,
                 initial: Sequence[int] = ()):
        self.rows: list[tuple] = []
        # groups no action changes the count of (every old value known): (group, facts, the count)
        self.constant: list[tuple[str, tuple[tuple[int, int], ...], int]] = []
        preds: dict[str, dict[int, set]] = {}
        of_var: dict[int, list[str]] = {}       # variable -> the groups its values count in
        for v, names in enumerate(values):
            for x, name in enumerate(names):
                for p in _groups(name):
                    preds.setdefault(p, {}).setdefault(v, set()).add(x)
                    if p not in of_var.setdefault(v, []):
                        of_var[v].append(p)
        where = {p: {v: frozenset(xs) for v, xs in at.items()} for p, at in preds.items()}
        # one pass over the actions, each effect seen by the groups of its variable only
        # (Knights with move counts: 2,722 actions, 1.6 s when each group read every action)
        up = dict.fromkeys(preds, 0.0)
        down = dict.fromkeys(preds, 0.0)
        known = dict.fromkeys(preds, True)
        for op, cost in zip(ops, costs):
            pre = None
            rise: dict[str, int] = {}
            fall: dict[str, int] = {}
            for v, x in op.eff:
                limits.checkpoint(1 + len(of_var.get(v, ())))     # (a variable may be in thousands of groups)
                for p in of_var.get(v, ()):
                    if pre is None:
                        pre = dict(op.pre)
                    mine = where[p][v]
                    now = x in mine
                    if v in pre:
                        was = pre[v] in mine
                        rise[p] = rise.get(p, 0) + now - was
                        fall[p] = fall.get(p, 0) + was - now
                    else:           # unknown before: the change that helps each direction most
                        known[p] = False
                        rise[p] = rise.get(p, 0) + now
                        fall[p] = fall.get(p, 0) + (not now)
            for p in rise:
                r, f = max(rise[p], 0), max(fall[p], 0)
                if cost <= 0:
                    up[p] = up[p] if r == 0 else float("inf")
                    down[p] = down[p] if f == 0 else float("inf")
                else:
                    up[p], down[p] = max(up[p], r / cost), max(down[p], f / cost)
        for p, at in where.items():
            goals = []
            for alt in alternatives:
                fixed = dict(alt)
                need = sum(1 for v, x in fixed.items() if x in at.get(v, ()))
                cap = sum(1 for v in at if v not in fixed or fixed[v] in at[v])
                goals.append((need, cap))
            if 0 < up[p] < float("inf") or 0 < down[p] < float("inf"):
                self.rows.append((tuple(at.items()), up[p], down[p], tuple(goals)))
            elif known[p] and up[p] == down[p] == 0 and initial:
                facts = tuple((v, x) for v, xs in sorted(at.items()) for x in sorted(xs))
                self.constant.append((p, facts, sum(1 for v, xs in at.items() if initial[v] in xs)))

    def __call__(self, state) -> int:
        best = 0
        for where, up, down, goals in self.rows:
            count = sum(1 for v, xs in where if state[v] in xs)
            least = None
            for need, cap in goals:
                h = 0
                if need > count and up > 0:
                    h = ceil((need - count) / up) if up < float("inf") else 0
                if count > cap and down > 0:
                    h = max(h, ceil((count - cap) / down) if down < float("inf") else 0)
                least = h if least is None else min(least, h)
            best = max(best, least or 0)
        return best
