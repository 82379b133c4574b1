"""A family's encoding as a transition system: one step of the sequential encoding, cut
out of the model and made time-free, for model checkers (:mod:`.aiger`).

Glossary.  A *latch* holds a value from one step to the next: the state facts (the
encoder's ``facts``), the previous step's variables that a step's clauses mention (no
move straight back), ``first`` (true before the first step), the bits of a move
counter.  An *input* is chosen freely at each step: the move variables, the next
step's facts, the auxiliaries of the step's clauses.  The *step* is a CNF over latches
and inputs that must hold at every step (an AIGER invariant constraint); each fact's
next value is the input naming that fact one step later.  *Bad* is "a goal state".

Built from the encoder itself (no second model): a model with two layers is built; the
clauses of the second layer (steps 1 to 2) are the step, the facts of step 1 the
latches, those of step 2 the inputs that the latches take next.  Clauses that also
mention step 0 (e.g. no move straight back) link two steps: their step-0 variables
become latches of the previous step, and the clause is off before the first step (as
the encoding has no such clause at step 0).  The clauses of layer 2 over the facts of
step 2 alone (each cell covered once, one position per piece) also hold of the
latches, when the start position satisfies them: they are kept as constraints over
the latches, for the model checker's benefit.

Forward: the start position is the initial state; bad = a goal state.  Backward: the
latches are the later state of a step and the inputs the earlier; a first, dummy step
chooses any goal state; bad = the start position.  Either way with ``bound`` B a
counter of the moves made is kept and bad also asks for at most B moves, so that "bad
is unreachable" means "no plan of at most B moves" (the counter stops at B+1).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..puzzle import PuzzleError, check_metric
from .lower import lower_card
from .model import BoolModel, Card


@dataclass
class System:
    """The transition system, in the model's variable numbers.

    ``inputs``: input variables; ``latches``: latch variables with their initial value
    (True/False) and next value (a literal of an input, ``"not-first"`` for the first
    flag's constant false, or ``("count", i)`` for counter bit i);
    ``step``: clauses (with ``first`` in cross-step clauses, already guarded);
    ``bad``: a conjunction of literals (inputs or latches) plus, with ``bound``, the
    counter's "at most bound"; ``act``: the input "a move is made" (the counter's step)."""

    model: BoolModel
    encoder: object
    problem: object         # :class:`~puzzleplan.contract.Problem`
    counts: tuple
    metric: str
    backward: bool
    bound: int | None
    inputs: list[int] = field(default_factory=list)
    latches: list[int] = field(default_factory=list)
    init: dict[int, bool] = field(default_factory=dict)
    nxt: dict[int, object] = field(default_factory=dict)
    step: list[list[int]] = field(default_factory=list)
    bad: list[int] = field(default_factory=list)
    counter: list[int] = field(default_factory=list)
    act: int = 0
    first: int = 0
    layer: int = 1          # the time index of the step's move variables in the model

    def names(self) -> tuple[list, list]:
        """The inputs' and latches' keys, in order: the symbol table."""
        return [self.model.key(v) for v in self.inputs], [self.model.key(v) for v in self.latches]


def lowered(m: BoolModel, items) -> list[list[int]]:
    out = []
    for item in items:
        if isinstance(item, Card):
            clauses, top = lower_card(item, m.top)
            m.reserve(top)
            out += clauses
        else:
            out.append(list(item))
    return out


def variables(item) -> set[int]:
    if isinstance(item, Card):
        return {abs(v) for v in item.lits} | ({abs(item.guard)} if item.guard is not None else set())
    return {abs(v) for v in item}


def shifted(key, by: int):
    return key[:-1] + (key[-1] + by,)


def rename(item, names: dict[int, int]):
    def r(lit):
        return names[abs(lit)] if lit > 0 else -names[abs(lit)]
    if isinstance(item, Card):
        return Card(tuple(r(v) for v in item.lits), item.op, item.k, None if item.guard is None else r(item.guard))
    return tuple(r(v) for v in item)


def holds(item, values: dict[int, bool]) -> bool:
    """Whether a clause or cardinality over ``values`` holds (every variable given)."""
    def val(lit):
        return values[abs(lit)] == (lit > 0)
    if isinstance(item, Card):
        if item.guard is not None and not val(item.guard):
            return True
        n = sum(val(v) for v in item.lits)
        return {"<=": n <= item.k, ">=": n >= item.k, "==": n == item.k}[item.op]
    return any(val(v) for v in item)


def start_state(m: BoolModel, items, facts: dict) -> dict:
    """The one assignment of the start position's facts that the encoding's first
    items allow (PuzzleError if none or several)."""
    from pysat.solvers import Solver

    from .pysat_sigint import disable
    disable()
    with Solver(name="glucose42", bootstrap_with=lowered(m, items)) as s:
        if not s.solve():
            raise PuzzleError("the start position contradicts the encoding")
        model = set(v for v in s.get_model() if v > 0)
        values = {name: v in model for name, v in facts.items()}
        s.add_clause([-v if values[name] else v for name, v in facts.items()])
        if s.solve():
            raise PuzzleError("the start position does not fix every fact of the encoding")
    return values


def unsupported_counts(encoder) -> list:
    """The goal's move counts that a step cannot say (all but the frozen pieces' zero)."""
    return [r for alt in encoder.alts for r in alt
            if not (r.k == 0 and r.op in ("<=", "==")
                    and all(mv in encoder.still for mv in _movers(encoder, r)))]


def _movers(encoder, req):
    from ..constraints import movers_of
    return movers_of(encoder.rules, req)


def build_system(problem, metric: str | None, counts=(), backward: bool = False, bound: int | None = None) -> System:
    """The transition system of ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    instance or a bare rules object) under ``metric`` (see the module doc)."""
    from .. import registry
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    enc = system_encoder(problem, metric, counts, bound)
    m = BoolModel()
    two = TwoLayers.build(enc, m)
    goal_items = two.goal_items(m, metric)
    start = start_state(m, m.items[:two.start_items], two.f0)
    s = System(m, enc, problem, tuple(counts), metric, backward, bound)
    s.first = m.var(("first",))
    step, prev, state_items = step_clauses(m, s, two, metric)
    s.step = step + closing_clauses(m, s, two, start, state_items, goal_items)
    add_latches(s, two, start, prev)
    s.act = m.var(("act", 1))
    if bound is not None:
        add_counter(s, bound)
    if backward:
        s.bad = [-s.first] + [two.here(backward)[name] if value else -two.here(backward)[name]
                              for name, value in start.items()]
    else:
        s.bad = [two.goal]
    latch_set = set(s.latches)
    used = {abs(lit) for c in s.step for lit in c} | {abs(x) for x in s.bad} | {s.act}
    used |= {v for v in s.nxt.values() if isinstance(v, int)}
    s.inputs = sorted(used - latch_set)
    return s


def system_encoder(problem, metric: str, counts, bound):
    """The family's encoder for a transition system; PuzzleError for a bad bound or move
    counts a step cannot say."""
    from . import encoder_for
    if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int) or bound < 0):
        raise PuzzleError(f"the bound must be a whole number, 0 or more, not {bound!r}")
    enc = encoder_for(problem, metric, counts)
    # one order for commuting moves (encodings/order.py) reads which cells the step before
    # changed: two steps back, which a transition system cannot say; it is only a lever
    enc.order = None
    bad_counts = unsupported_counts(enc)
    if bad_counts:
        raise PuzzleError("move counts in the goal (" + ", ".join(sorted({str(r) for r in bad_counts}))
                          + ") are not supported by the AIGER export; frozen pieces and avoided cells are")
    return enc


@dataclass
class TwoLayers:
    """A model of two layers (steps 0 to 2) and where its parts lie: ``start_items`` items
    fix step 0; the first layer's items end at ``mark1`` (variables up to ``top1``), the
    second's at ``mark2`` (up to ``top2``); ``goal``: the goal literal at step 1 (its items
    after ``mark2``); ``f0``-``f2``: each step's facts by name."""

    start_items: int
    top1: int
    mark1: int
    top2: int
    mark2: int
    goal: int
    f0: dict
    f1: dict
    f2: dict

    @classmethod
    def build(cls, enc, m: BoolModel) -> "TwoLayers":
        enc.start(m)
        start_items = len(m.items)
        enc.extend(m, 1)
        top1, mark1 = m.top, len(m.items)
        enc.extend(m, 2)
        mark2 = len(m.items)
        top2 = m.top
        g = enc.state_goal(m, 1)     # forward: the latches are a goal; backward: the first step's choice
        f0, f1, f2 = enc.facts(m, 0), enc.facts(m, 1), enc.facts(m, 2)
        if set(f1) != set(f2) or set(f0) != set(f1):
            raise PuzzleError("the encoding's facts differ between steps: not a transition system")
        return cls(start_items, top1, mark1, top2, mark2, g, f0, f1, f2)

    @property
    def fact1(self) -> dict:
        return {v: name for name, v in self.f1.items()}

    @property
    def fact2(self) -> dict:
        return {v: name for name, v in self.f2.items()}

    def here(self, backward: bool) -> dict:
        """The facts that are the latches (the later step's when backward)."""
        return self.f2 if backward else self.f1

    def there(self, backward: bool) -> dict:
        """The facts the latches take next (inputs)."""
        return self.f1 if backward else self.f2

    def goal_items(self, m: BoolModel, metric: str) -> list:
        """The goal's items, over step 1's facts; PuzzleError if the goal counts earlier steps."""
        fact1 = self.fact1
        out = []
        for item in m.items[self.mark2:]:
            vs = variables(item)
            if isinstance(item, Card) and not {abs(x) for x in item.lits} <= set(fact1):
                continue        # a count over moves: only the frozen pieces' zero (checked above), kept at every step
            if any(v <= self.top2 and v not in fact1 for v in vs):
                raise PuzzleError(f"the goal of this family's {metric} encoding is not a property of one state "
                                  "(it counts earlier steps): no transition system")
            out.append(item)
        return out


def step_clauses(m: BoolModel, s: System, two: TwoLayers, metric: str) -> tuple[list, dict, list]:
    """The second layer's clauses as the step: ``(clauses, prev, state_items)``; ``prev``
    maps a variable of the previous step that a clause links to its latch, ``state_items``
    are the items over step 2's facts alone."""
    fact1, fact2 = two.fact1, two.fact2
    step: list[list[int]] = []
    prev: dict[int, int] = {}           # a variable of the other step -> its latch
    state_items = []
    for item in m.items[two.mark1:two.mark2]:
        vs = variables(item)
        if vs <= set(fact2):
            state_items.append(item)
        older = {v for v in vs if v <= two.top1 and v not in fact1}
        if not older:
            step += lowered(m, [item])
            continue
        for v in older:
            if m.var(shifted(m.key(v), 1)) <= two.top1:
                raise PuzzleError(f"this family's {metric} encoding links steps more than one apart "
                                  f"({m.key(v)}): no transition system")
        if s.backward:
            # a clause linking two steps prunes plans (no-ops last, no move straight back):
            # reversed it could leave the start position without a predecessor at the last
            # step, so the backward system keeps every plan instead
            continue
        # a clause linking two steps: its step-0 variables are the previous step's (latches)
        names = {}
        for v in vs:
            if v in older:
                now = m.var(shifted(m.key(v), 1))
                names[v] = prev.setdefault(now, m.var(("prev", m.key(now))))
            elif v in fact1 or v in fact2:
                raise PuzzleError("a clause links two steps through their facts: not supported")
            else:
                names[v] = v
        for clause in lowered(m, [rename(item, names)]):
            step.append(clause + [s.first])
    if s.backward:
        # before the first step the latches are a dummy all-false state: every step clause is
        # off then, and the first step only chooses a goal state as the next latches
        step = [c if s.first in c else c + [s.first] for c in step]
    return step, prev, state_items


def closing_clauses(m: BoolModel, s: System, two: TwoLayers, start: dict, state_items, goal_items) -> list:
    """The step's clauses beyond the layer's: the goal's, and the state constraints over the
    latches (forward, when the start position satisfies them) or over the inputs (backward)."""
    fact2 = two.fact2
    if s.backward:
        there = two.there(True)
        out = lowered(m, goal_items) + [[two.goal, -s.first]]
        # the state constraints of the earlier state (the inputs), at every step
        return out + lowered(m, [rename(i, {v: there[fact2[v]] for v in variables(i)}) for i in state_items])
    # the state constraints, over the latches too (when the start position satisfies them)
    start_values = {two.f1[name]: value for name, value in start.items()}
    to_here = {v: two.f1[name] for v, name in fact2.items()}
    latch_items = [rename(item, to_here) for item in state_items if holds(rename(item, to_here), start_values)]
    return lowered(m, latch_items) + lowered(m, goal_items)


def add_latches(s: System, two: TwoLayers, start: dict, prev: dict) -> None:
    """The latches: the facts, the previous step's variables, ``first``."""
    here, there = two.here(s.backward), two.there(s.backward)
    for name in sorted(here, key=str):
        v = here[name]
        s.latches.append(v)
        s.nxt[v] = there[name]
        s.init[v] = False if s.backward else start[name]
    for now, latch in sorted(prev.items(), key=lambda kv: kv[1]):
        s.latches.append(latch)
        s.nxt[latch] = now
        s.init[latch] = False
    s.latches.append(s.first)
    s.nxt[s.first] = "not-first"
    s.init[s.first] = True


def add_counter(s: System, bound: int) -> None:
    """The bits of a counter of the moves made, up to ``bound + 1``, as latches."""
    for i in range(max(1, (bound + 1).bit_length())):
        bit = s.model.var(("count", i))
        s.counter.append(bit)
        s.latches.append(bit)
        s.nxt[bit] = ("count", i)
        s.init[bit] = False


def plan_moves(s: System, frames: list[list[int]]) -> list:
    """The moves of a trace of ``s`` (per step, the inputs' values in ``s.inputs``
    order; the last step is where bad holds, its own inputs are no move), in the
    rules' terms, by the encoder's own decoding on a model of that many steps."""
    steps = frames[:-1] if not s.backward else frames[1:-1][::-1]
    from . import encoder_for
    enc = encoder_for(s.problem, s.metric, s.counts)
    enc.order = None            # as in build_system
    m = BoolModel()
    enc.start(m)
    enc.extend(m, len(steps))
    values = set()
    for t, row in enumerate(steps):
        for v, value in zip(s.inputs, row):
            key = s.model.key(v)
            if value and isinstance(key, tuple) and key and isinstance(key[-1], int) and key[-1] == s.layer:
                moved = shifted(key, t - s.layer)
                if m.has(moved):
                    values.add(m.var(moved))
    return enc.decode(m, values)
