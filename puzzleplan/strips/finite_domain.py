"""Stage 6 of our own grounder (:mod:`.grounder`): the finite-domain (SAS+) task, as the
translator's ``translate.py`` makes it from the chosen fact groups (:mod:`.fact_groups`).

A group with a state where none holds gets ``<none of those>``; the facts no group covers are
binary (``p``, ``not p``).  Values no action can reach from the initial value (the variable's
domain transition graph) are dropped, with the actions that need them; a variable left with
one value is dropped (always true).  Then the translator's order of the variables
(:mod:`.causal_graph`).  Names are the translator's (``at(k1, c-1-0)``, ``not clear(c-0-1)``,
``<none of those>``), so that plans, side conditions and the rules read both alike.
"""
from __future__ import annotations

import time
from collections import defaultdict

from .. import limits
from .causal_graph import causal_order
from .fact_groups import choose
from .instantiate import Instantiated
from .normalise import Unsupported
from .sas import Grounded, Operator


def trivial(solvable: bool, seconds: float) -> Grounded:
    """The translator's task for a goal found true or impossible before any search: one
    variable, no actions."""
    return Grounded("", "", (("dummy(val1)", "dummy(val2)"),), (0,), ((0, 0 if solvable else 1),), (), (), True,
                    round(seconds, 4), grounder="own")


def _name(f: tuple) -> str:
    return f"{f[0]}({', '.join(f[1:])})"


class _Variables:
    """The chosen groups as variables: ``where[fact] = (v, x)``, each variable's "none of
    those" (or "not f") value, and which groups each fact is in."""

    def __init__(self, groups: list, facts: list):
        self.chosen = choose(groups, facts)
        self.where = {}
        for v, g in enumerate(self.chosen):
            for x, f in enumerate(g):
                self.where[f] = (v, x)
        self.in_groups = defaultdict(list)
        for i, g in enumerate(groups):
            for f in g:
                self.in_groups[f].append(i)
        self.multi = [len(g) > 1 for g in self.chosen]
        self.none = [len(g) if len(g) > 1 else None for g in self.chosen]    # "none of those" / "not f"

    def possible(self, facts) -> bool:
        """No two of ``facts`` in one group (else no state holds them all)."""
        seen = {}
        return all(seen.setdefault(i, f) == f for f in facts for i in self.in_groups.get(f, ()))

    def start(self, init) -> list[int]:
        start = [self.none[v] if self.multi[v] else 1 for v in range(len(self.chosen))]
        for f in init:
            if f in self.where:
                v, x = self.where[f]
                start[v] = x
        return start

    def operator(self, pre, add, dele) -> tuple[dict, dict] | None:
        """An action's preconditions and effects as values, None if it never applies."""
        if not self.possible(pre):
            return None
        where = self.where
        p = dict(where[f] for f in pre)
        e: dict = {}
        for f in add:
            v, x = where[f]
            if e.get(v, x) != x:
                raise Unsupported("two values of one variable added")
            e[v] = x
        for f in dele:
            if f in add or f not in where:
                continue            # an add wins; a fact never reached needs no delete
            v, x = where[f]
            if v in e:
                continue            # the add of another value says it
            if self.multi[v]:
                if v not in p:
                    raise Unsupported("a delete the translator makes a conditional effect")
                if p[v] == x:
                    e[v] = self.none[v]          # (another value needed: nothing to delete)
            else:
                e[v] = 1
        return p, {v: x for v, x in e.items() if p.get(v) != x}

    def names(self, v: int) -> list[str]:
        g = self.chosen[v]
        return [_name(f) for f in g] + (["<none of those>"] if self.multi[v] else ["not " + _name(g[0])])


def finite_domain(inst: Instantiated, groups: list, costs: bool, t0: float) -> Grounded:
    """The finite-domain task of the reachable actions and facts ``inst`` over the fact
    ``groups`` (:mod:`.invariants`); ``t0``: when grounding began (its clock is the task's
    ``seconds``)."""
    var = _Variables(groups, inst.facts)
    if not var.possible(inst.goal):
        return trivial(False, time.perf_counter() - t0)     # "goal violates a mutex"
    start = var.start(inst.init)
    sas_ops = []
    for name, pre, add, dele, cost in inst.ops:
        limits.checkpoint()
        made = var.operator(pre, add, dele)
        if made is not None:
            sas_ops.append((name, *made, cost))
    reach = _reachable_values(len(var.chosen), start, sas_ops)
    where = var.where
    if any(where[f][1] not in reach[where[f][0]] for f in inst.goal):
        return trivial(False, time.perf_counter() - t0)     # "simplified to trivially false goal"
    return _simplified(var, reach, start, sas_ops, inst.goal, groups, costs, t0)


def _reachable_values(n: int, start: list, sas_ops: list) -> list[set]:
    """Per variable, the values its transition graph reaches from its initial value."""
    edges = [defaultdict(set) for _ in range(n)]
    anywhere = [set() for _ in range(n)]
    for _, p, eff, _ in sas_ops:
        for v, x in eff.items():
            if v in p:
                edges[v][p[v]].add(x)
            else:
                anywhere[v].add(x)
    reach = []
    for v in range(n):
        seen = {start[v]} | anywhere[v]
        stack = list(seen)
        while stack:
            x = stack.pop()
            for y in edges[v].get(x, ()):
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        reach.append(seen)
    return reach


def _simplified(var: _Variables, reach, start, sas_ops, goal, groups, costs: bool, t0: float) -> Grounded:
    """The translator's simplification (a variable left with one value is always true,
    dropped; values never reached dropped, with the actions that need them), then its order of
    the variables (the causal graph's), and the task in it."""
    n, where = len(var.chosen), var.where
    keep = [v for v in range(n) if len(reach[v]) > 1]
    simple = {v: i for i, v in enumerate(keep)}
    newx = {v: {x: i for i, x in enumerate(sorted(reach[v]))} for v in keep}

    def pairs(d: dict) -> list:
        return [(simple[v], newx[v][x]) for v, x in sorted(d.items()) if v in simple]
    kept_ops = [(name, pairs(p), pairs(eff), cost) for name, p, eff, cost in sas_ops
                if all(x in reach[v] for v, x in p.items())]
    goal_pairs = [(simple[where[f][0]], newx[where[f][0]][where[f][1]]) for f in goal if where[f][0] in simple]
    if not goal_pairs:
        return trivial(True, time.perf_counter() - t0)      # "simplified to empty goal"
    order = causal_order(len(keep), kept_ops, {v for v, _ in goal_pairs})
    new = {v: i for i, v in enumerate(order)}
    values = []
    for v in (keep[i] for i in order):
        names = var.names(v)
        values.append(tuple(names[x] for x in sorted(reach[v])))
    operators = []
    for name, p, eff, cost in sorted(kept_ops, key=lambda o: o[0]):
        operators.append(Operator(name, tuple(sorted((new[v], x) for v, x in p)), tuple((new[v], x) for v, x in eff),
                                  cost if costs else 1))
    mutexes = []
    for g in groups:
        facts = sorted({(simple[where[f][0]], newx[where[f][0]][where[f][1]]) for f in g
                        if where[f][0] in simple and where[f][1] in reach[where[f][0]]})
        if len({v for v, _ in facts}) > 1:
            mutexes.append(tuple((new[v], x) for v, x in facts))
    return Grounded("", "", tuple(values), tuple(newx[keep[i]][start[keep[i]]] for i in order),
                    tuple(sorted((new[v], x) for v, x in goal_pairs)),
                    tuple(operators), tuple(mutexes), costs, round(time.perf_counter() - t0, 4), grounder="own")
