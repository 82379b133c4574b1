"""Stage 3 of our own grounder (:mod:`.grounder`): instantiation, as the translator's
``instantiate.py`` does it -- the ground actions a relaxed plan can reach.

Each action's parameters are bound by joining its preconditions on static predicates (those no
action changes) with the initial state, the parameters they leave open by their types; ``=``
prunes.  Then relaxed reachability (every delete ignored, one counter per action) keeps the
reachable facts and actions.

Representation
--------------
ground action   ``(name, fluent preconditions, adds, deletes, cost)``, atoms as tuples and the
                name as a plan writes it (``slide-g1-down-1 k1 c-1-0 c-1-1 c-1-2 c-1-0``)
:class:`Instantiated`   the reachable fluent facts (sorted), the reachable ground actions, the
                initial state's fluent atoms and the goal's
"""
from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from .. import limits
from .normalise import Lifted, Schema, Unsupported

MAX_BINDINGS = 2_000_000          # more rows joined than this: the translator grounds it
MAX_TYPED = 200_000               # more bindings of parameters bound by their types alone: the same


class Instantiated(NamedTuple):
    facts: list
    ops: list
    init: list
    goal: list


def instantiate(task: Lifted) -> Instantiated | None:
    """The reachable ground actions and facts of ``task`` (see the module doc); None where a
    goal atom is never reached (the translator's "no relaxed solution")."""
    fluent = {a[0] for s in task.schemas for a in s.add + s.dele}
    static = {a[0] for a in task.init} - fluent
    statics = {a for a in task.init if a[0] in static}
    actions = _candidates(task, fluent, static, statics)
    reached, ops = _reachable(actions, {a for a in task.init if a[0] in fluent})
    for a in task.goal:
        if (a not in statics) if a[0] in static else (a not in reached):
            return None
    return Instantiated(sorted(reached), ops, [a for a in task.init if a[0] in fluent],
                        [a for a in task.goal if a[0] not in static])


def _candidates(task: Lifted, fluent: set, static: set, statics: set) -> list[tuple]:
    """Every ground action the static facts and the types allow: (name, fluent pre, add, del, cost)."""
    by_pred: dict = defaultdict(list)
    for a in statics:
        by_pred[a[0]].append(a[1:])
    indexes: dict = {}

    def index(pred, key):
        got = indexes.get((pred, key))
        if got is None:
            got = defaultdict(list)
            for row in by_pred.get(pred, ()):
                got[tuple(row[k] for k in key)].append(row)
            indexes[(pred, key)] = got
        return got

    actions = []
    for s in task.schemas:
        for b in _Join(s, static, index, task.of_type).bindings():
            limits.checkpoint()

            def g(a):
                return (a[0],) + tuple(b.get(x, x) for x in a[1:])
            pre = [g(a) for a in s.pre]
            if any(a[0] in static and a not in statics for a in pre):
                continue            # a static precondition on a term bound by its type only
            if any(a[0] not in static and a[0] not in fluent for a in pre):
                continue            # a predicate never true
            name = " ".join([s.name] + [b[p] for p, _ in s.params])
            actions.append((name, tuple(dict.fromkeys(a for a in pre if a[0] in fluent)),
                            tuple(dict.fromkeys(g(a) for a in s.add)), tuple(dict.fromkeys(g(a) for a in s.dele)), s.cost))
    return actions


def _reachable(actions: list, init: set) -> tuple[set, list]:
    """Relaxed reachability from ``init``: the facts reached and the actions that apply, in order."""
    reached = set(init)
    waiting: dict = defaultdict(list)
    missing = []
    queue = list(reached)
    live = []
    for i, (_, pre, _, _, _) in enumerate(actions):
        need = [a for a in pre if a not in reached]
        missing.append(len(need))
        for a in need:
            waiting[a].append(i)
        if not need:
            live.append(i)
    done = [False] * len(actions)

    def fire(i):
        done[i] = True
        for a in actions[i][2]:
            if a not in reached:
                reached.add(a)
                queue.append(a)
    for i in live:
        fire(i)
    while queue:
        limits.checkpoint()
        a = queue.pop()
        for i in waiting.pop(a, ()):
            missing[i] -= 1
            if missing[i] == 0 and not done[i]:
                fire(i)
    return reached, [actions[i] for i in range(len(actions)) if done[i]]


class _Join:
    """Every binding of a schema's parameters that its static preconditions, types and
    equalities allow (:meth:`bindings`): its static atoms joined, the one with the most of its
    arguments bound first, then the parameters left bound by their types."""

    def __init__(self, schema: Schema, static: set, index, of_type):
        self.schema, self.index, self.of_type = schema, index, of_type
        self.types = dict(schema.params)
        order, bound = [], set()
        todo = [a for a in schema.pre if a[0] in static]
        while todo:         # the atom with the most of its arguments bound first
            best = max(todo, key=lambda a: (sum(1 for x in a[1:] if not x.startswith("?") or x in bound), -len(a)))
            todo.remove(best)
            order.append(best)
            bound |= {x for x in best[1:] if x.startswith("?")}
        for p, _ in schema.params:
            if p not in bound:
                order.append(("?type", p))
                bound.add(p)
        self.order = order
        self.domains = {p: set(of_type.get(t, ())) for p, t in schema.params}
        typed = 1
        for step in order:
            if step[0] == "?type":
                typed *= len(self.domains[step[1]])
        if typed > MAX_TYPED:
            raise Unsupported("too many bindings by type")
        self.out: list[dict] = []
        self.budget = MAX_BINDINGS

    def bindings(self) -> list[dict]:
        self._extend(0, {})
        return self.out

    def _extend(self, i: int, b: dict) -> None:
        if i == len(self.order):
            self._close(b)
            return
        limits.checkpoint()
        step = self.order[i]
        if step[0] == "?type":
            p = step[1]
            for obj in self.of_type.get(self.types[p], ()):
                b[p] = obj
                self._extend(i + 1, b)
            b.pop(p, None)          # (a type without objects: nothing was bound)
            return
        pred, args = step[0], step[1:]
        key = tuple(k for k, x in enumerate(args) if not x.startswith("?") or x in b)
        values = tuple(b.get(args[k], args[k]) for k in key)
        rows = self.index(pred, key).get(values, ())
        self.budget -= len(rows)
        if self.budget < 0:
            raise Unsupported("too many candidate actions")
        for row in rows:
            new = self._bind(args, row, b)
            if new is not None:
                self._extend(i + 1, b)
            for x in new or ():
                del b[x]

    def _bind(self, args: tuple, row: tuple, b: dict) -> list | None:
        """Bind ``args``' open parameters to ``row`` in ``b``: the parameters bound, or None
        where the row does not fit (what it bound is undone then)."""
        new = []
        for k, x in enumerate(args):
            if x.startswith("?") and x not in b:
                if row[k] not in self.domains.get(x, ()):
                    break
                b[x] = row[k]
                new.append(x)
            elif x.startswith("?") and b[x] != row[k]:
                break
        else:
            return new
        for x in new:
            del b[x]
        return None

    def _close(self, b: dict) -> None:
        for x, y in self.schema.eq:
            if b.get(x, x) != b.get(y, y):
                return
        for x, y in self.schema.neq:
            if b.get(x, x) == b.get(y, y):
                return
        self.out.append(dict(b))
