"""Our own grounder for plain STRIPS tasks, in this process: a PDDL domain and problem ->
a :class:`.ground.Grounded` task, as Fast Downward's translator would make it, without
the translator's start, its Datalog model and its child process.

What it reads: ``:strips``, ``:typing``, ``:equality`` and ``:action-costs`` (a constant
``(increase (total-cost) N)``); preconditions and goals that are conjunctions of atoms
(and of ``=`` or ``not =`` in a precondition), effects that are conjunctions of atoms and
negated atoms.  Anything else (a negative precondition, a quantifier, a disjunction, a
cost read from a function, a goal no relaxed plan reaches, a delete that would need the
translator's conditional effect) raises :class:`Unsupported`, and :func:`.ground.translate`
hands the task to the translator, which says what it makes of it.

How, in the translator's steps, each a short pass over the ground task:

1. **Instantiation**: each action's parameters are bound by joining its preconditions on
   static predicates (those no action changes) with the initial state, the parameters they
   leave open by their types; ``=`` prunes.  Then relaxed reachability (every delete
   ignored, one counter per action) keeps the reachable facts and actions.
2. **Invariants** (the translator's fact groups): candidate groups "at most one of these
   facts holds", each a set of predicates with one counted argument and the others fixed
   (``at(k1, ?x)``: a car is at one place), grown, as the translator grows its candidates,
   by the predicate an action deletes where it adds to the group (``clear(?c)`` joins
   ``at(?t, ?c)``: a cell is clear or holds one thing).  Each group is checked on the ground
   actions: every action that adds one of its facts
   needs and deletes another, or needs the one it adds.  As in the translator, a candidate
   is kept only if every one of its groups passes, and of its groups those with exactly one
   fact in the initial state.
3. **Variables**: the largest groups first, each fact in one variable (the translator's
   partial encoding); a group with a state where none holds gets ``<none of those>``; the
   facts no group covers are binary (``p``, ``not p``).  Values no action can reach from
   the initial value (the variable's domain transition graph) are dropped, with the actions
   that need them; a variable left with one value is dropped (always true).

Then the translator's order of the variables (its causal graph's, :func:`causal_order`).
Names are the translator's (``at(k1, c-1-0)``, ``not clear(c-0-1)``, ``<none of those>``,
``slide-g1-down-1 k1 c-1-0 c-1-1 c-1-2 c-1-0``), so that plans, side conditions and the
rules read both alike.  The task is the translator's to the last detail on every family's
exports, the catalogue's and the bundled IPC problems (the tests compare them); one
difference is by design: a group is checked on the actions a relaxed plan reaches, where
the translator checks every action, so an action that never applies cannot break a group
here, and ours may have groups (hence variables) the translator has not; every group of its
is within one of ours, and the two tasks have the same states, transitions and goals.
"""
from __future__ import annotations

import gc
import heapq
import time
from collections import defaultdict, deque
from itertools import permutations

from ... import limits
from .sas import Grounded, Operator
from .source import Sexp, parse

SUPPORTED = {":strips", ":typing", ":equality", ":action-costs"}
MAX_BINDINGS = 2_000_000          # more rows joined than this: the translator grounds it
MAX_TYPED = 200_000               # more bindings of parameters bound by their types alone: the same
MAX_CANDIDATES = 300              # invariant candidates tried
MAX_PARTS = 4                     # predicates in one candidate


class Unsupported(Exception):
    """Outside the fragment read here: the translator grounds it."""


# ---- reading ------------------------------------------------------------------------------

def _typed(items: list) -> list[tuple[str, str]]:
    """``a b - t c`` -> [(a, t), (b, t), (c, object)]."""
    out, names, i = [], [], 0
    while i < len(items):
        x = items[i]
        if isinstance(x, Sexp):
            raise Unsupported("a list in a typed list (either)")
        if x == "-":
            if i + 1 >= len(items) or isinstance(items[i + 1], Sexp):
                raise Unsupported("either type")
            out += [(n, items[i + 1]) for n in names]
            names, i = [], i + 2
            continue
        names.append(x)
        i += 1
    return out + [(n, "object") for n in names]


def _conj(s) -> list:
    """A conjunction's members, in order (nested ``and`` flattened without recursion: a goal
    nested a thousand deep is valid PDDL; ``()`` is empty)."""
    out, todo = [], [s]
    while todo:
        s = todo.pop()
        if not isinstance(s, Sexp):
            raise Unsupported("a bare token as a formula")
        if s and s[0] == "and":
            todo.extend(reversed(s[1:]))
        elif s:
            out.append(s)
    return out


def _atom(s) -> tuple:
    if not isinstance(s, Sexp) or not s or isinstance(s[0], Sexp) or any(isinstance(a, Sexp) for a in s[1:]):
        raise Unsupported("not an atom")
    if s[0] in ("and", "or", "not", "imply", "forall", "exists", "when", "increase", "decrease"):
        raise Unsupported(f"({s[0]} ...)")
    return tuple(s)


class Schema:
    def __init__(self, name, params, pre, eq, neq, add, dele, cost):
        self.name, self.params = name, params
        self.pre, self.eq, self.neq, self.add, self.dele, self.cost = pre, eq, neq, add, dele, cost


def _sections(define: Sexp) -> dict:
    out = defaultdict(list)
    for part in define[2:]:
        if isinstance(part, Sexp) and part and isinstance(part[0], str):
            out[part[0]].append(part)
    return out


def _action(s: Sexp) -> Schema:
    name, fields = s[1], {}
    i = 2
    while i + 1 < len(s):
        fields[s[i]] = s[i + 1]
        i += 2
    if set(fields) - {":parameters", ":precondition", ":effect"}:
        raise Unsupported("an action field other than parameters, precondition and effect")
    params = _typed(list(fields.get(":parameters", Sexp())))
    pre, eq, neq = [], [], []
    for m in _conj(fields.get(":precondition", Sexp())):
        if m and m[0] == "not" and len(m) == 2 and isinstance(m[1], Sexp) and m[1] and m[1][0] == "=":
            neq.append(tuple(m[1][1:]))
        elif m and m[0] == "=":
            eq.append(tuple(m[1:]))
        else:
            pre.append(_atom(m))
    add, dele, cost = [], [], 0
    for m in _conj(fields.get(":effect", Sexp())):
        if m and m[0] == "not" and len(m) == 2:
            dele.append(_atom(m[1]))
        elif m and m[0] == "increase":
            if len(m) != 3 or list(m[1]) != ["total-cost"] or isinstance(m[2], Sexp) or not m[2].isdigit():
                raise Unsupported("a cost other than a constant")
            if cost:
                raise Unsupported("two costs in one action")
            cost = int(m[2])
        else:
            add.append(_atom(m))
    if any(a[0] == "=" for a in add + dele):
        raise Unsupported("an equality as an effect")
    for pair in eq + neq:
        if len(pair) != 2 or any(isinstance(x, Sexp) for x in pair):
            raise Unsupported("an equality that is not of two terms")
    return Schema(name, params, pre, eq, neq, add, dele, cost)


def read(domain_text: str, problem_text: str, where: str):
    dom, prob = parse(domain_text, where)[0], parse(problem_text, where)[0]
    ds, ps = _sections(dom), _sections(prob)
    for reqs in ds.get(":requirements", []) + ps.get(":requirements", []):
        extra = set(reqs[1:]) - SUPPORTED
        if extra:
            raise Unsupported(f"requirement {sorted(extra)[0]}")
    known = {":requirements", ":types", ":constants", ":predicates", ":functions", ":action", "domain"}
    if set(ds) - known or set(ps) - {"problem", ":domain", ":requirements", ":objects", ":init", ":goal", ":metric"}:
        raise Unsupported("a block the plain reader does not know")
    if any(len(v) > 1 for k, v in list(ds.items()) + list(ps.items()) if k != ":action"):
        raise Unsupported("a block given twice")
    if len(ps.get(":init", [])) != 1 or len(ps.get(":domain", [])) != 1:
        raise Unsupported("a problem without its initial state or its domain")
    if list(ps[":domain"][0][1:]) != [dom[1][1]]:
        raise Unsupported("a problem for another domain")
    parent = {"object": None}
    for s in ds.get(":types", []):
        for name, sup in _typed(list(s[1:])):
            if name in ("object", "number"):
                raise Unsupported(f"the type {name} declared")
            parent[name] = sup
    objects = []
    for s in ds.get(":constants", []) + ps.get(":objects", []):
        objects += _typed(list(s[1:]))
    of_type: dict = defaultdict(list)
    for obj, typ in objects:
        t, chain = typ, set()
        while t is not None:
            if t in chain or t not in parent:
                raise Unsupported("a type not declared, or a cycle of types")
            chain.add(t)
            of_type[t].append(obj)
            t = parent[t] if t != "object" else None
    names = {obj for obj, _ in objects}
    constants = {obj for s in ds.get(":constants", []) for obj, _ in _typed(list(s[1:]))}
    if len(names) != len(objects):
        raise Unsupported("an object declared twice")
    arity = {}
    for s in ds.get(":predicates", []):
        for p in s[1:]:
            if not isinstance(p, Sexp) or not p or isinstance(p[0], Sexp) or p[0] in arity:
                raise Unsupported("a predicate declared oddly")
            arity[p[0]] = len(_typed(list(p[1:])))
            if any(t not in parent for _, t in _typed(list(p[1:]))):
                raise Unsupported("a type not declared")
    schemas = [_action(s) for s in ds.get(":action", [])]
    init = []
    for s in ps.get(":init", []):
        for m in s[1:]:
            if isinstance(m, Sexp) and m and m[0] == "=":
                if len(m) == 3 and isinstance(m[1], Sexp) and list(m[1]) == ["total-cost"] and m[2] == "0":
                    continue
                raise Unsupported("a numeric initial value")
            init.append(_atom(m))
    goals = ps.get(":goal", [])
    if len(goals) != 1 or len(goals[0]) != 2:
        raise Unsupported("no single goal")
    goal = [_atom(m) for m in _conj(goals[0][1])]
    if not goal:
        raise Unsupported("an empty goal")
    # anything the translator would call an error is left to it, to say so
    for a in init + goal:
        if arity.get(a[0]) != len(a) - 1 or any(x not in names for x in a[1:]):
            raise Unsupported("an atom the domain does not declare")
    if len({sc.name for sc in schemas}) != len(schemas):
        raise Unsupported("an action declared twice")
    for sc in schemas:
        params = {p for p, _ in sc.params}
        if len(params) != len(sc.params) or any(t not in parent for _, t in sc.params):
            raise Unsupported("a parameter declared twice or of a type not declared")
        for a in sc.pre + sc.add + sc.dele + [("=",) + pair for pair in sc.eq + sc.neq]:
            if (a[0] != "=" and arity.get(a[0]) != len(a) - 1) or \
                    any(x not in (params if x.startswith("?") else constants) for x in a[1:]):
                raise Unsupported("an atom the domain does not declare")
    metric = ps.get(":metric", [])
    costs = False
    if metric:
        m = metric[0]
        if len(m) != 3 or m[1] != "minimize" or not isinstance(m[2], Sexp) or list(m[2]) != ["total-cost"]:
            raise Unsupported("a metric other than (minimize (total-cost))")
        costs = True
    return schemas, of_type, init, goal, costs


# ---- instantiation ------------------------------------------------------------------------

def _bindings(schema: Schema, static: set, index, of_type) -> list[dict]:
    """Every binding of the schema's parameters that its static preconditions, types and
    equalities allow."""
    types = dict(schema.params)
    atoms = [a for a in schema.pre if a[0] in static]
    order, bound = [], set()
    todo = list(atoms)
    while todo:         # the atom with the most of its arguments bound first
        best = max(todo, key=lambda a: (sum(1 for x in a[1:] if not x.startswith("?") or x in bound), -len(a)))
        todo.remove(best)
        order.append(best)
        bound |= {x for x in best[1:] if x.startswith("?")}
    for p, _ in schema.params:
        if p not in bound:
            order.append(("?type", p))
            bound.add(p)
    domains = {p: set(of_type.get(t, ())) for p, t in schema.params}
    typed = 1
    for step in order:
        if step[0] == "?type":
            typed *= len(domains[step[1]])
    if typed > MAX_TYPED:
        raise Unsupported("too many bindings by type")
    out: list[dict] = []
    budget = [MAX_BINDINGS]

    def extend(i: int, b: dict) -> None:
        if i == len(order):
            for x, y in schema.eq:
                if b.get(x, x) != b.get(y, y):
                    return
            for x, y in schema.neq:
                if b.get(x, x) == b.get(y, y):
                    return
            out.append(dict(b))
            return
        limits.checkpoint()
        step = order[i]
        if step[0] == "?type":
            p = step[1]
            for obj in of_type.get(types[p], ()):
                b[p] = obj
                extend(i + 1, b)
            b.pop(p, None)          # (a type without objects: nothing was bound)
            return
        pred, args = step[0], step[1:]
        key = tuple(k for k, x in enumerate(args) if not x.startswith("?") or x in b)
        values = tuple(b.get(args[k], args[k]) for k in key)
        rows = index(pred, key).get(values, ())
        budget[0] -= len(rows)
        if budget[0] < 0:
            raise Unsupported("too many candidate actions")
        for row in rows:
            new = []
            ok = True
            for k, x in enumerate(args):
                if x.startswith("?") and x not in b:
                    if row[k] not in domains.get(x, ()):
                        ok = False
                        break
                    b[x] = row[k]
                    new.append(x)
                elif x.startswith("?") and b[x] != row[k]:
                    ok = False
                    break
            if ok:
                extend(i + 1, b)
            for x in new:
                del b[x]

    extend(0, {})
    return out


def ground(domain_text: str, problem_text: str, where: str) -> Grounded:
    """The task grounded here; :class:`Unsupported` outside the plain STRIPS fragment.  The
    cyclic garbage collector pauses meanwhile (grounding makes many small tuples and no cycles:
    its passes over them cost 15-20% of a large task's time)."""
    was = gc.isenabled()
    gc.disable()
    try:
        return _ground(domain_text, problem_text, where)
    finally:
        if was:
            gc.enable()


def _ground(domain_text: str, problem_text: str, where: str) -> Grounded:
    t0 = time.perf_counter()
    schemas, of_type, init, goal, costs = read(domain_text, problem_text, where)
    fluent = {a[0] for s in schemas for a in s.add + s.dele}
    static = {a[0] for a in init} - fluent
    statics = {a for a in init if a[0] in static}
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

    # candidate ground actions: (name, fluent pre, add, del, cost)
    actions = []
    for s in schemas:
        for b in _bindings(s, static, index, of_type):
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
    # relaxed reachability
    reached = {a for a in init if a[0] in fluent}
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
    ops = [actions[i] for i in range(len(actions)) if done[i]]
    for a in goal:
        if (a not in statics) if a[0] in static else (a not in reached):
            return trivial(False, time.perf_counter() - t0)     # the translator's "no relaxed solution"
    goal = [a for a in goal if a[0] not in static]
    facts = sorted(reached)
    groups = invariants(facts, ops, {a for a in init if a[0] in fluent})
    return _sas(facts, groups, ops, init, goal, costs, t0)


# ---- invariants ---------------------------------------------------------------------------

def invariants(facts: list, ops: list, init: set) -> list[tuple]:
    """Groups of facts of which at most one holds in every reachable state, each checked on
    the ground actions."""
    arity, by_pred = {}, defaultdict(list)
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
        preds = {part[0] for part in cand}
        fkeys: dict = defaultdict(list)         # fact -> its groups' keys
        for part in cand:
            limits.checkpoint(len(by_pred[part[0]]))
            for f in by_pred[part[0]]:
                fkeys[f].append(tuple(f[1 + k] for k in part[2]))
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
        for part in grow:
            new = tuple(sorted(cand + (part,)))
            if frozenset(new) not in tried:
                todo.append(new)
        if not bad:         # as the translator: a candidate holds for every action or not at all,
            members, count = defaultdict(set), defaultdict(int)     # its groups those with one fact at the start
            for f, ks in fkeys.items():
                for k in ks:
                    members[k].add(f)
                    count[k] += f in init
            for k, group in members.items():
                if count[k] == 1 and len(group) > 1:
                    found.setdefault(frozenset(group), None)
    return sorted(tuple(sorted(g)) for g in found)


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


# ---- the finite-domain task ----------------------------------------------------------------

def _choose(groups: list, facts: list) -> list[list]:
    """The translator's cover: the largest group first, its facts taken from the others."""
    by_size: dict = defaultdict(list)
    by_fact: dict = defaultdict(list)
    for g in groups:
        g = set(g)
        by_size[len(g)].append(g)
        for f in g:
            by_fact[f].append(g)
    size = max(by_size, default=0)
    chosen = []
    while size > 1:
        lst = by_size[size]
        if not lst:
            size -= 1
            continue
        g = lst.pop()
        if len(g) != size:
            by_size[len(g)].append(g)
            continue
        pick = sorted(g)
        for f in pick:
            for other in by_fact[f]:
                other.discard(f)
        chosen.append(pick)
    covered = {f for g in chosen for f in g}
    chosen += [[f] for f in facts if f not in covered]
    return sorted(sorted(g) for g in chosen)


def _name(f: tuple) -> str:
    return f"{f[0]}({', '.join(f[1:])})"


def trivial(solvable: bool, seconds: float) -> Grounded:
    """The translator's task for a goal found true or impossible before any search: one
    variable, no actions."""
    return Grounded("", "", (("dummy(val1)", "dummy(val2)"),), (0,), ((0, 0 if solvable else 1),), (), (), True,
                    round(seconds, 4), grounder="own")


def _sas(facts, groups, ops, init, goal, costs, t0: float) -> Grounded:
    """The finite-domain task; ``t0``: when grounding began (its clock is the task's ``seconds``)."""
    chosen = _choose(groups, facts)
    where = {}
    for v, g in enumerate(chosen):
        for x, f in enumerate(g):
            where[f] = (v, x)
    in_groups = defaultdict(list)
    for i, g in enumerate(groups):
        for f in g:
            in_groups[f].append(i)

    def possible(facts) -> bool:
        """No two of ``facts`` in one group (else no state holds them all)."""
        seen = {}
        return all(seen.setdefault(i, f) == f for f in facts for i in in_groups.get(f, ()))
    if not possible(goal):
        return trivial(False, time.perf_counter() - t0)     # "goal violates a mutex"
    multi = [len(g) > 1 for g in chosen]
    none = [len(g) if len(g) > 1 else None for g in chosen]    # the value "none of those" / "not f"
    start = [none[v] if multi[v] else 1 for v in range(len(chosen))]
    for f in init:
        if f in where:
            v, x = where[f]
            start[v] = x
    sas_ops = []
    for name, pre, add, dele, cost in ops:
        limits.checkpoint()
        if not possible(pre):
            continue                # never applicable
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
            if multi[v]:
                if v not in p:
                    raise Unsupported("a delete the translator makes a conditional effect")
                if p[v] == x:
                    e[v] = none[v]          # (another value needed: nothing to delete)
            else:
                e[v] = 1
        eff = {v: x for v, x in e.items() if p.get(v) != x}
        sas_ops.append((name, p, eff, cost))
    # values reachable in each variable's transition graph from its initial value
    n = len(chosen)
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
    if any(where[f][1] not in reach[where[f][0]] for f in goal):
        return trivial(False, time.perf_counter() - t0)     # "simplified to trivially false goal"
    # the translator's simplification: a variable left with one value is always true, dropped
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
    # then its order of the variables (the causal graph's), and the task in it
    order = causal_order(len(keep), kept_ops, {v for v, _ in goal_pairs})
    new = {v: i for i, v in enumerate(order)}
    values = []
    for v in (keep[i] for i in order):
        names = [_name(f) for f in chosen[v]] + (["<none of those>"] if multi[v] else ["not " + _name(chosen[v][0])])
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


def causal_order(n: int, ops: list, goal_vars: set) -> list[int]:
    """The translator's order of the variables (Helmert 2006, section 5.2, with its weights):
    the strongly connected components of the causal graph (an edge from each variable an
    action needs to each it changes, weighted by the actions) in topological order, each
    made acyclic greedily (the variable with the least weight coming in first, a goal
    variable's edges weighing 100,000 more)."""
    weight = [defaultdict(int) for _ in range(n)]
    for _, pre, eff, _ in ops:
        for t, _ in eff:
            for s, _ in pre:
                if s != t:
                    weight[s][t] += 1
    order = []
    for scc in _components([sorted(w) for w in weight]):
        if len(scc) == 1:
            order.append(scc[0])
            continue
        inside = set(scc)
        edges = {v: [] for v in scc}
        for v in scc:
            for t, w in sorted(weight[v].items()):
                if t in inside:
                    if t in goal_vars:
                        edges[v].append((t, 100_000 + w))
                    edges[v].append((t, w))
        order += _greedy_dag(edges, scc)
    return order


def _components(succ: list[list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components, in topological order, each in the order its
    vertices were reached (vertices and successors visited in increasing order)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in range(len(succ)):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, 0)]
        while work:
            v, i = work[-1]
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                at = stack.index(v)
                scc = stack[at:]
                del stack[at:]
                on_stack.difference_update(scc)
                out.append(scc)
    out.reverse()
    return out


def _greedy_dag(edges: dict, given: list) -> list:
    """The vertices of one component, each next the one with the least weight still coming in
    (ties: the one waiting longest at that weight, first in ``given`` order)."""
    incoming: dict = defaultdict(int)
    for out in edges.values():
        for t, w in out:
            incoming[t] += w
    waiting: dict = defaultdict(deque)
    for v in given:
        waiting[incoming[v]].append(v)
    heap = list(waiting)
    heapq.heapify(heap)
    done, result = set(), []
    while heap:
        key = heap[0]
        entries = waiting[key]
        pick = None
        while entries and (pick is None or pick in done or key > incoming[pick]):
            pick = entries.popleft()
        if not entries:
            del waiting[key]
            heapq.heappop(heap)
        if pick is None or pick in done:
            continue
        done.add(pick)
        result.append(pick)
        for t, w in edges[pick]:
            if t not in done and w % 100_000:
                incoming[t] -= w % 100_000
                if incoming[t] not in waiting:
                    heapq.heappush(heap, incoming[t])
                waiting[incoming[t]].append(t)
    return result
