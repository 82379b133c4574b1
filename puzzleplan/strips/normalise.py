"""Stage 2 of our own grounder (:mod:`.grounder`): a parsed domain and problem (:mod:`.parse`)
read into the plain STRIPS fragment -- typed objects, action schemas with conjunctive
preconditions (atoms, ``=`` and ``not =``) and conjunctive effects (atoms, negated atoms, a
constant ``(increase (total-cost) N)``), an initial state, a conjunctive goal, the metric.

What it reads: ``:strips``, ``:typing``, ``:equality`` and ``:action-costs``.  Anything else (a
negative precondition, a quantifier, a disjunction, a cost read from a function, a block it
does not know) raises :class:`Unsupported`, and :func:`.ground.translate` hands the task to
Fast Downward's translator, which says what it makes of it.  So does anything the translator
would call an error (an atom the domain does not declare): the translator names it.

Representation
--------------
atom     a tuple ``(predicate, arg, ...)``; in a schema an argument ``?x`` is a parameter
schema   :class:`Schema`: name, typed parameters, preconditions, ``=``/``not =`` pairs,
         adds, deletes, a constant cost
task     :class:`Lifted`: the schemas, the objects of each type (a type's subtypes'
         included), the initial atoms, the goal atoms, whether the task has action costs
"""
from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from .parse import Sexp, parse

SUPPORTED = {":strips", ":typing", ":equality", ":action-costs"}
PROBLEM_BLOCKS = {"problem", ":domain", ":requirements", ":objects", ":init", ":goal", ":metric"}
DOMAIN_BLOCKS = {":requirements", ":types", ":constants", ":predicates", ":functions", ":action", "domain"}


class Unsupported(Exception):
    """Outside the fragment read here: the translator grounds it."""


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


class Lifted(NamedTuple):
    """A task read in the plain STRIPS fragment (see the module doc)."""

    schemas: list
    of_type: dict
    init: list
    goal: list
    costs: bool


def read(domain_text: str, problem_text: str, where: str) -> Lifted:
    """The domain and problem texts read (see the module doc); :class:`Unsupported` outside
    the fragment."""
    ds, ps = _blocks(parse(domain_text, where)[0], parse(problem_text, where)[0])
    parent, of_type, names, constants = _objects(ds, ps)
    arity = _predicates(ds, parent)
    schemas = [_action(s) for s in ds.get(":action", [])]
    init, goal = _init_and_goal(ps)
    _check_declared(schemas, init, goal, arity, parent, names, constants)
    return Lifted(schemas, of_type, init, goal, _metric(ps))


def _blocks(dom: Sexp, prob: Sexp) -> tuple[dict, dict]:
    """The domain's and the problem's blocks by their heads, each known and given once."""
    ds, ps = _sections(dom), _sections(prob)
    for reqs in ds.get(":requirements", []) + ps.get(":requirements", []):
        extra = set(reqs[1:]) - SUPPORTED
        if extra:
            raise Unsupported(f"requirement {sorted(extra)[0]}")
    if set(ds) - DOMAIN_BLOCKS or set(ps) - PROBLEM_BLOCKS:
        raise Unsupported("a block the plain reader does not know")
    if any(len(v) > 1 for k, v in list(ds.items()) + list(ps.items()) if k != ":action"):
        raise Unsupported("a block given twice")
    if len(ps.get(":init", [])) != 1 or len(ps.get(":domain", [])) != 1:
        raise Unsupported("a problem without its initial state or its domain")
    if list(ps[":domain"][0][1:]) != [dom[1][1]]:
        raise Unsupported("a problem for another domain")
    return ds, ps


def _objects(ds: dict, ps: dict) -> tuple[dict, dict, set, set]:
    """The types' parents, the objects of each type (with its subtypes'), every object's name,
    and the domain's constants."""
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
    return parent, of_type, names, constants


def _predicates(ds: dict, parent: dict) -> dict:
    """Each predicate's arity."""
    arity = {}
    for s in ds.get(":predicates", []):
        for p in s[1:]:
            if not isinstance(p, Sexp) or not p or isinstance(p[0], Sexp) or p[0] in arity:
                raise Unsupported("a predicate declared oddly")
            arity[p[0]] = len(_typed(list(p[1:])))
            if any(t not in parent for _, t in _typed(list(p[1:]))):
                raise Unsupported("a type not declared")
    return arity


def _init_and_goal(ps: dict) -> tuple[list, list]:
    """The initial atoms (``(= (total-cost) 0)`` skipped) and the goal's."""
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
    return init, goal


def _check_declared(schemas, init, goal, arity, parent, names, constants) -> None:
    """Anything the translator would call an error is left to it, to say so."""
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


def _metric(ps: dict) -> bool:
    """Whether the problem minimises ``(total-cost)`` (no other metric is read)."""
    metric = ps.get(":metric", [])
    if not metric:
        return False
    m = metric[0]
    if len(m) != 3 or m[1] != "minimize" or not isinstance(m[2], Sexp) or list(m[2]) != ["total-cost"]:
        raise Unsupported("a metric other than (minimize (total-cost))")
    return True
