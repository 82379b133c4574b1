"""Actions that are a product of two parts, said by two literals a step (the ``factor`` lever).

Our exports count a piece's moves with a counter variable c (``count-0``: n0 ... n9) that
every move of the piece steps: each jump of a knight is grounded once per counter value,
the jumps times the counter's steps (knights seed 003 with two counted knights: 2,722
actions, 272 jumps).  Where the actions that change a variable c fall into groups that
agree on everything but c (the same preconditions and effects on the other variables, the
same mover and cost) and each group takes several of c's transitions (the precondition
and effect on c), each action is the conjunction of its group's literal ``("fj", g, t)``
and its transition's ``("fx", s, t)``: a group's literal implies the group's preconditions
and effects and one of its transitions, a transition's literal its precondition and effect
on c and one of the groups that take it.  With at most one group a step (the shared rule's
at most one action), a true group and a true transition are one action of the task.

A group holds the actions of one ``rest`` (every condition but those on c) and says each of
c's transitions once; an action whose rest and transition another action has already (a
name the translator grounds twice) keeps its own literal.  Variables are taken greedily,
the one that saves the most literals first, each action factored on one variable at most,
while a variable saves at least :data:`MIN_SAVED` of the actions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from ... import limits

#: a variable is factored on when it saves at least this share of the task's action literals
MIN_SAVED = 0.25


@dataclass
class Factored:
    """Groups ``g`` (their variable ``var[g]``, the conditions ``pre[g]``/``eff[g]`` on the
    other variables, ``mover[g]``, ``cost[g]``, the transitions ``takes[g]``) and transitions
    ``s`` (``parts[s] = (c, value before, value after)``, ``groups_of[s]``); ``of_op[o] =
    (g, s)`` and ``op_of[(g, s)] = o``."""

    var: list[int] = field(default_factory=list)
    pre: list[tuple] = field(default_factory=list)
    eff: list[tuple] = field(default_factory=list)
    mover: list = field(default_factory=list)
    cost: list[int] = field(default_factory=list)
    takes: list[list[int]] = field(default_factory=list)
    parts: list[tuple[int, int, int]] = field(default_factory=list)
    groups_of: list[list[int]] = field(default_factory=list)
    of_op: dict[int, tuple[int, int]] = field(default_factory=dict)
    op_of: dict[tuple[int, int], int] = field(default_factory=dict)

    def reason(self, o: int, v: int) -> tuple[str, int]:
        """The literal key (without the step) that stands for factored action o where it
        changes variable v: its transition's on its own variable, its group's elsewhere."""
        g, s = self.of_op[o]
        return ("fx", s) if v == self.var[g] else ("fj", g)


def _transition(pre: dict, eff: dict, c: int) -> tuple[int, int]:
    """An action's transition on c (one that leaves c as it is: from its value to itself)."""
    return pre[c], eff.get(c, pre[c])


def _groups(ops: Sequence, movers: Sequence, todo: set, c: int, pres: list, effs: list) -> dict:
    """rest -> {transition on c: action} for the actions in ``todo`` (each reads c); ``pres``,
    ``effs``: each action's preconditions and effects as dicts."""
    out: dict = {}
    for i, o in enumerate(sorted(todo)):
        if i % 1024 == 0:
            limits.checkpoint()         # the run's deadline and Ctrl-C, on a task of 10^5 actions too
        op = ops[o]
        rest = (movers[o], op.cost, tuple(sorted((v, x) for v, x in op.pre if v != c)),
                tuple(sorted((v, x) for v, x in op.eff if v != c)))
        out.setdefault(rest, {}).setdefault(_transition(pres[o], effs[o], c), o)
    return out


def factor(ops: Sequence, movers: Sequence, costs: Sequence[int] | None = None) -> Factored | None:
    """The task's actions factored (see the module doc), None when no variable saves
    :data:`MIN_SAVED` of them.  Actions of cost below 1 (``costs``) are left alone: the
    cost encoding's walks and free layers name them one by one."""
    costs = [op.cost for op in ops] if costs is None else costs
    todo = {o for o in range(len(ops)) if costs[o] >= 1}
    pres, effs = [dict(op.pre) for op in ops], [dict(op.eff) for op in ops]
    by_var: dict[int, set] = {}
    for o in todo:
        for v, _ in ops[o].pre:
            by_var.setdefault(v, set()).add(o)
    out = Factored()
    while True:
        limits.checkpoint()
        best, best_saved = None, 0
        for c, acts in by_var.items():
            acts = acts & todo
            # saves at most x (1 - 1/p) - p with x <= the actions and p <= c's transitions (x
            # actions in groups of at most p, each group one literal, p transition literals):
            # its most at p = sqrt(x), within [2, the transitions]
            steps = len({_transition(pres[o], effs[o], c) for o in acts})
            if steps < 2:
                continue
            p = min(max(2.0, math.sqrt(len(acts))), steps)
            if len(acts) * (1 - 1 / p) - p <= max(best_saved, MIN_SAVED * len(ops) - 1):
                continue
            groups = _groups(ops, movers, acts, c, pres, effs)
            taken = [g for g in groups.values() if len(g) > 1]
            saved = sum(len(g) - 1 for g in taken) - len({t for g in taken for t in g})
            if saved > best_saved:
                best, best_saved = (c, taken), saved
        if best is None or best_saved < MIN_SAVED * len(ops):
            break
        c, taken = best
        index: dict = {}
        for group in taken:
            g = len(out.var)
            first = next(iter(group.values()))
            out.var.append(c)
            out.pre.append(tuple((v, x) for v, x in ops[first].pre if v != c))
            out.eff.append(tuple((v, x) for v, x in ops[first].eff if v != c))
            out.mover.append(movers[first])
            out.cost.append(costs[first])
            out.takes.append([])
            for (x, y), o in group.items():
                s = index.get((x, y))
                if s is None:
                    s = index[(x, y)] = len(out.parts)
                    out.parts.append((c, x, y))
                    out.groups_of.append([])
                out.takes[g].append(s)
                out.groups_of[s].append(g)
                out.of_op[o] = (g, s)
                out.op_of[(g, s)] = o
                todo.discard(o)
        del by_var[c]
    return out if out.var else None
