"""Stage 4 of our own grounder (:mod:`.grounder`): invariants, the translator's fact groups --
sets of facts of which at most one holds in every reachable state.

Candidate groups "at most one of these facts holds", each a set of predicates with one counted
argument and the others fixed (``at(k1, ?x)``: a car is at one place), are grown, as the
translator grows its candidates, by the predicate an action deletes where it adds to the group
(``clear(?c)`` joins ``at(?t, ?c)``: a cell is clear or holds one thing).  Each group is checked
on the ground actions: every action that adds one of its facts needs and deletes another, or
needs the one it adds.  As in the translator, a candidate is kept only if every one of its
groups passes, and of its groups those with exactly one fact in the initial state.  One
difference is by design: a group is checked on the actions a relaxed plan reaches, where the
translator checks every action, so an action that never applies cannot break a group here.

Representation
--------------
part       ``(predicate, counted argument or -1, the fixed arguments' positions in order)``
candidate  a sorted tuple of parts
group      a sorted tuple of facts (atoms as tuples)
"""
from __future__ import annotations

from collections import defaultdict
from itertools import permutations

from .. import limits
from .normalise import Unsupported

MAX_CANDIDATES = 300              # invariant candidates tried
MAX_PARTS = 4                     # predicates in one candidate


def invariants(facts: list, ops: list, init: set) -> list[tuple]:
    """Groups of facts of which at most one holds in every reachable state, each checked on
    the ground actions ``ops`` (:mod:`.instantiate`'s); :class:`Unsupported` past
    :data:`MAX_CANDIDATES` candidates."""
    by_pred = defaultdict(list)
    arity = {}
    for f in facts:
        arity[f[0]] = len(f) - 1
        by_pred[f[0]].append(f)
    # net effects (an add wins over a delete of the same fact), and what each action needs and deletes
    net = [(set(pre), set(add), set(pre) & (set(d) - set(add))) for _, pre, add, d, _ in ops]
    adders = defaultdict(list)
    for i, (_, add, _) in enumerate(net):
        for p in {f[0] for f in add}:
            adders[p].append(i)
    todo, tried, found = [], set(), {}
    for p, n in sorted(arity.items()):
        for c in [-1, *range(n)]:        # -1: none counted (grows into a group, as clear(?c))
            todo.append(((p, c, tuple(k for k in range(n) if k != c)),))
    while todo:
        if len(tried) >= MAX_CANDIDATES:
            raise Unsupported("more invariant candidates than are tried here")
        cand = todo.pop(0)
        if frozenset(cand) in tried:
            continue
        tried.add(frozenset(cand))
        fkeys: dict = defaultdict(list)         # fact -> its groups' keys
        for part in cand:
            limits.checkpoint(len(by_pred[part[0]]))
            for f in by_pred[part[0]]:
                fkeys[f].append(tuple(f[1 + k] for k in part[2]))
        bad, grow = _check(cand, fkeys, net, adders)
        for part in grow:
            new = tuple(sorted(cand + (part,)))
            if frozenset(new) not in tried:
                todo.append(new)
        if not bad:         # as the translator: a candidate holds for every action or not at all,
            _keep(fkeys, init, found)       # its groups those with one fact at the start
    return sorted(tuple(sorted(g)) for g in found)


def _check(cand: tuple, fkeys: dict, net: list, adders: dict) -> tuple[bool, list]:
    """Whether an action breaks the candidate's groups, and the parts to grow it by (from the
    first action that breaks it, as the translator grows it)."""
    preds = {part[0] for part in cand}
    bad, grow, patterns = False, [], set()
    for i in sorted({i for p in preds for i in adders[p]}):
        limits.checkpoint()
        pre, add, needed = net[i]
        held: dict = defaultdict(int)       # per group, the facts the action needs in it
        for f in pre:
            for k in fkeys.get(f, ()):
                held[k] += 1
        added: dict = {}
        for f in add:
            for k in fkeys.get(f, ()):
                if k in added:
                    added[k] = None         # two facts of one group added
                else:
                    added[k] = f
        for k, f in added.items():
            if held[k] > 1:
                continue            # needs two facts of the group: never applies while it holds
            if f is not None and (f in pre or any(k in fkeys.get(g, ()) for g in needed if g != f)):
                continue
            bad = True
            if len(cand) < MAX_PARTS:
                for g in needed:
                    pattern = (g[0], tuple(tuple(j for j, x in enumerate(g[1:]) if x == v) for v in k))
                    if g[0] not in preds and pattern not in patterns:
                        patterns.add(pattern)
                        grow += _parts_for(g, k)
        if bad:
            break           # as the translator: grown from the first action that breaks it
    return bad, grow


def _keep(fkeys: dict, init: set, found: dict) -> None:
    """A candidate that holds: its groups with exactly one fact at the start, into ``found``."""
    members, count = defaultdict(set), defaultdict(int)
    for f, ks in fkeys.items():
        for k in ks:
            members[k].add(f)
            count[k] += f in init
    for k, group in members.items():
        if count[k] == 1 and len(group) > 1:
            found.setdefault(frozenset(group), None)


def _parts_for(g: tuple, key: tuple) -> list:
    """The parts on ``g``'s predicate that count one of its arguments and fix the others as
    ``key`` (every order of its arguments that gives ``key``); counted -1: none (the fact
    itself, as ``clear(?c)`` in a group of the things at ``?c``)."""
    out = []
    n = len(g) - 1
    for c in [-1, *range(n)]:
        rest = [k for k in range(n) if k != c]
        if len(rest) != len(key):
            continue
        for order in set(permutations(rest)):
            if tuple(g[1 + k] for k in order) == key:
                out.append((g[0], c, order))
    return out
