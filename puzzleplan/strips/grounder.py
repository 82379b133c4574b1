"""Our own grounder for plain STRIPS tasks, in this process: a PDDL domain and problem ->
a :class:`.sas.Grounded` task, as Fast Downward's translator would make it, without
the translator's start, its Datalog model and its child process.

What it reads: ``:strips``, ``:typing``, ``:equality`` and ``:action-costs`` (a constant
``(increase (total-cost) N)``); preconditions and goals that are conjunctions of atoms
(and of ``=`` or ``not =`` in a precondition), effects that are conjunctions of atoms and
negated atoms.  Anything else (a negative precondition, a quantifier, a disjunction, a
cost read from a function, a goal no relaxed plan reaches, a delete that would need the
translator's conditional effect) raises :class:`Unsupported`, and :func:`.ground.translate`
hands the task to the translator, which says what it makes of it.

The stages, as the translator's modules (each a short pass over the task):

1. :mod:`.parse`: the text as parenthesised lists, with lines;
2. :mod:`.normalise`: the plain STRIPS fragment read (schemas, typed objects, init, goal);
3. :mod:`.instantiate`: the ground actions and facts a relaxed plan reaches;
4. :mod:`.invariants`: fact groups "at most one of these holds", checked on the ground actions;
5. :mod:`.fact_groups`: the groups that become variables, the largest first;
6. :mod:`.finite_domain`: the SAS+ task, simplified, in the causal graph's order
   (:mod:`.causal_graph`).

The task is the translator's to the last detail on every family's exports, the catalogue's
and the bundled IPC problems (the tests compare them); one difference is by design: a group
is checked on the actions a relaxed plan reaches, where the translator checks every action,
so an action that never applies cannot break a group here, and ours may have groups (hence
variables) the translator has not; every group of its is within one of ours, and the two
tasks have the same states, transitions and goals.
"""
from __future__ import annotations

import gc
import time

from .finite_domain import finite_domain, trivial
from .instantiate import instantiate
from .invariants import invariants
from .normalise import Unsupported, read
from .sas import Grounded

__all__ = ["Unsupported", "ground"]


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
    task = read(domain_text, problem_text, where)
    inst = instantiate(task)
    if inst is None:
        return trivial(False, time.perf_counter() - t0)     # the translator's "no relaxed solution"
    groups = invariants(inst.facts, inst.ops, set(inst.init))
    return finite_domain(inst, groups, task.costs, t0)
