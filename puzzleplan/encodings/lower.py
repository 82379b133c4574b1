"""Lowering a :class:`~.model.BoolModel`: to CNF clauses (cardinalities through
``pysat.card``, in the model's own numbering), to DIMACS text, or to an OR-Tools
CP-SAT model; and one horizon's whole formula (:func:`build`).

This module sits below the planner: the planner's backends, certification and
``export`` all lower models here, so each cardinality is lowered one way only.
python-sat and OR-Tools are imported only when a function needs them.
"""
from __future__ import annotations

import itertools

from dataclasses import dataclass, field
from typing import Iterator

from .. import limits
from ..limits import checkpoint
from ..puzzle import PuzzleError, Verdict, check_metric
from .model import BoolModel, Card

CARD_ENCODINGS = ("seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer")
BYTES_PER_CLAUSE = 400      # measured (export, Klotski, horizons 300 and 1200): per lowered clause, with its
                            # share of the model, the variables' keys and the symbol table


def check_card_encoding(name: str) -> str:
    if name not in CARD_ENCODINGS:
        raise PuzzleError(f"unknown cardinality encoding {name!r}; known: " + ", ".join(CARD_ENCODINGS))
    return name


LONG_AMO = 1000     # above this many literals an at-most-one is written here (pysat's takes quadratic time:
                    # 16,000 literals 1 s, the 160,000 cells of a 400x400 room minutes)


def sequential_amo(lits: list[int], pool) -> list[list[int]]:
    """At most one of ``lits``: Sinz's sequential counter for k = 1 (3n-4 clauses, n-1 auxiliaries
    ``s_i`` = "one of the first i is true"), in linear time; what pysat's seqcounter writes."""
    s = [pool.id(("amo", i)) for i in range(len(lits) - 1)]     # a fresh pool per constraint
    out = [[-lits[0], s[0]]]
    for i in range(1, len(lits) - 1):
        checkpoint()
        out += [[-lits[i], s[i]], [-s[i - 1], s[i]], [-lits[i], -s[i - 1]]]
    out.append([-lits[-1], -s[-1]])
    return out


CLAUSES_PER_SECOND = 1.5e6     # pysat.card's C encoders with the clauses handed back (measured: 0.6-1.4 M/s)


def card_clauses_estimate(n: int, k: int, encoding: str) -> float:
    """About how many clauses pysat.card writes for a bound ``k`` on ``n`` literals (measured
    on n = 2,000-10,000: seqcounter 2nk, totalizer 1.9 nk log n, cardnetwrk 0.35 n log^2 n)."""
    import math
    log = math.log2(max(n, 2))
    k = min(k, n - k) if k < n else 0
    return {"totalizer": 1.9 * n * k * log, "mtotalizer": 1.9 * n * k * log, "kmtotalizer": 1.9 * n * k * log,
            "cardnetwrk": 0.35 * n * log * log, "sortnetwrk": 0.35 * n * log * log}.get(encoding, 2.0 * n * k)


def _within_the_limit(n: int, k: int, encoding: str) -> None:
    """TimeUp now when pysat.card's encoder would still be running at the deadline: its C code
    cannot be stopped (the deadline's alarm waits for it), and a huge bound takes minutes."""
    left = limits.left()
    if left is not None and card_clauses_estimate(n, k, encoding) / CLAUSES_PER_SECOND > left:
        raise limits.TimeUp()


def lower_card(item: Card, top: int, encoding: str = "seqcounter") -> tuple[list[list[int]], int]:
    """Clauses for ``item`` using fresh variables above ``top``; returns (clauses, new top)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    from .pysat_sigint import disable
    disable()
    lits, k = list(item.lits), item.k
    clauses: list[list[int]] = []
    pool = IDPool(start_from=top + 1)
    kind = getattr(EncType, check_card_encoding(encoding))
    if item.op in ("<=", "==") and k == 1 and len(lits) <= 6:
        clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
    elif item.op in ("<=", "==") and k == 1 and len(lits) > LONG_AMO:
        clauses += sequential_amo(lits, pool)
    elif item.op in ("<=", "=="):
        if k < 0:
            clauses.append([])
        elif k < len(lits):
            _within_the_limit(len(lits), k, encoding)
            clauses += CardEnc.atmost(lits, k, vpool=pool, encoding=kind).clauses
    if item.op in (">=", "=="):
        if k > len(lits):
            clauses.append([])
        elif k == 1:
            clauses.append(lits)
        elif k > 0:
            _within_the_limit(len(lits), k, encoding)
            clauses += CardEnc.atleast(lits, k, vpool=pool, encoding=kind).clauses
    new_top = max(top, pool.top)
    if item.guard is not None:
        clauses = [[-item.guard, *c] for c in clauses]
    return clauses, new_top


def clauses_of(model: BoolModel, start: int = 0, encoding: str = "seqcounter",
               copy: bool = True) -> Iterator[list[int]]:
    """The clauses of the model's items from ``start`` on, cardinalities lowered
    (their auxiliaries are named in the model as ``("aux", n)``); ``copy=False``: a clause
    may be the model's own tuple (for a reader that only reads it)."""
    for item in model.since(start):
        checkpoint()
        if isinstance(item, Card):
            lowered, top = lower_card(item, model.top, encoding)
            model.reserve(top)
            yield from lowered
        else:
            yield list(item) if copy else item


def to_cpsat(model: BoolModel, assumptions=()):
    """An OR-Tools CpModel of the model (cardinalities native, guarded with
    ``only_enforce_if``), the assumptions as constraints; returns (cp, xs) with
    ``xs[v]`` the CP-SAT literal of variable v."""
    cp_model = limits.library("ortools.sat.python.cp_model")
    cp = cp_model.CpModel()
    xs = [None] + [cp.new_bool_var(f"v{i}") for i in range(1, model.top + 1)]

    def lit(v):
        return xs[v] if v > 0 else xs[-v].Not()

    for item in model.items:
        checkpoint()
        if isinstance(item, Card):
            terms = sum(lit(v) for v in item.lits)
            expr = {"<=": terms <= item.k, ">=": terms >= item.k, "==": terms == item.k}[item.op]
            c = cp.add(expr)
            if item.guard is not None:
                c.only_enforce_if(lit(item.guard))
        else:
            cp.add_bool_or([lit(v) for v in item])
    for a in assumptions:
        cp.add_bool_or([lit(a)])
    return cp, xs


def dimacs(nvars: int, clauses: list[list[int]], comments=()) -> str:
    head = "".join(f"c {c}\n" for c in comments)
    return head + f"p cnf {nvars} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)


@dataclass
class Formula:
    """One horizon's encoding, lowered to clauses in the model's numbering."""

    model: BoolModel
    encoder: object
    clauses: list[list[int]]
    horizon: int
    metric: str
    card_encoding: str
    goal_lit: int           # the goal's literal (asked as a unit clause unless told not to)
    layers: int             # the steps laid out (more than the horizon under actions of cost 0)
    header: dict = field(default_factory=dict)

    @property
    def nvars(self) -> int:
        return self.model.top

    def symbols(self) -> dict[int, object]:
        return {v: self.model.keys[v] for v in range(1, self.model.top + 1)}

    def soft(self) -> list[int]:
        """``-act_t`` for each step: one soft clause each (fewest moves)."""
        return [-self.model.var(("act", t)) for t in range(self.layers)]

    def goal(self) -> int:
        return self.goal_lit


def available_bytes() -> int | None:
    """Memory this process may still use (MemAvailable, capped by RLIMIT_AS)."""
    free = None
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    free = int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            free = soft if free is None else min(free, soft)
    except (ImportError, ValueError):
        pass
    return free


def check_fits(problem, metric: str, horizon: int, counts=()) -> None:
    """Refuse, before building it, a horizon whose encoding cannot fit in memory."""
    if horizon <= 2:
        return
    need, per_layer = estimate_bytes(problem, metric, horizon, counts)
    free = available_bytes()
    if free is not None and need > free:
        raise PuzzleError(f"horizon {horizon} needs about {need / 2**30:.1f} GiB for its encoding "
                          f"({per_layer:,} clauses per step); {free / 2**30:.1f} GiB are available")


def estimate_bytes(problem, metric: str, horizon: int, counts=()) -> tuple[int, int]:
    """(bytes, clauses per step) of the encoding at ``horizon``: two layers are built and
    lowered to clauses (cardinalities too), and the second extrapolated."""
    from . import encoder_for
    probe = BoolModel()
    enc = encoder_for(problem, metric, counts)
    sizes = []
    for t in range(3):          # the start, layer 1, layer 2 (a layer like every later one)
        mark = len(probe.items)
        enc.start(probe) if t == 0 else enc.extend(probe, t)
        sizes.append(sum(1 for _ in clauses_of(probe, mark)))
    per_layer = max(1, sizes[2])
    return (sizes[0] + sizes[1] + per_layer * max(enc.laid_out(horizon) - 1, 0)) * BYTES_PER_CLAUSE, per_layer


def build(problem, metric: str | None, horizon: int, card_encoding: str = "seqcounter", goal_as_unit: bool = True,
          header: dict | None = None) -> Formula:
    """The encoding of ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded instance or
    a bare rules object) with ``horizon`` move steps and the goal at ``horizon`` (a unit clause)."""
    from .. import registry
    from . import encoder_for
    problem = registry.problem(problem)
    metric = check_metric(problem, metric)
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
        raise PuzzleError(f"the horizon must be a whole number, 0 or more, not {horizon!r}")
    check_card_encoding(card_encoding)
    check_fits(problem, metric, horizon)
    encoder = encoder_for(problem, metric)
    model = BoolModel()
    encoder.start(model)
    encoder.extend(model, horizon)
    goal = encoder.goal(model, horizon)
    clauses = list(clauses_of(model, 0, card_encoding))
    if goal_as_unit:
        clauses.append([goal])
    return Formula(model, encoder, clauses, horizon, metric, card_encoding, goal, encoder.laid_out(horizon),
                   dict(header or {}))



@dataclass
class Answer:
    status: Verdict
    true_vars: set[int] = field(default_factory=set)
    assigned: int = 0

    def __post_init__(self):
        self.status = Verdict(self.status)      # "sat", "unsat", "unknown" from a caller's own answer


def read_answer(text: str, source: str = "answer", max_values: int | None = None) -> Answer:
    """Parse SAT competition output or a minisat result file (more than ``max_values`` values,
    when given, is refused as it is read)."""
    import io
    lines = (line.strip() for line in io.StringIO(text))     # one at a time: a file of millions of lines
    lines = (line for line in lines if line)
    status, lits = None, []

    def more(values) -> None:
        lits.extend(values)
        if max_values is not None and len(lits) > max_values:
            raise PuzzleError(f"the answer holds more values than the formula has variables ({max_values - 1:,})",
                              source)

    first_line = next(lines, "")
    first = first_line.split()[0] if first_line else ""
    if first in ("SAT", "UNSAT", "INDET"):          # minisat's result file
        status = {"SAT": Verdict.SAT, "UNSAT": Verdict.UNSAT, "INDET": Verdict.UNKNOWN}[first]
        for line in lines:
            more(line.split())
    else:
        for line in itertools.chain([first_line] if first_line else [], lines):
            if line.startswith("s "):
                word = line[2:].strip().upper()
                status = {"SATISFIABLE": Verdict.SAT, "UNSATISFIABLE": Verdict.UNSAT, "UNKNOWN": Verdict.UNKNOWN}.get(word)
                if status is None:
                    raise PuzzleError(f"unknown solution line {line!r}", source)
            elif line.startswith("v ") or line == "v":
                more(line[1:].split())
    if status is None:
        raise PuzzleError("no 's SATISFIABLE/UNSATISFIABLE' line (nor a minisat result) in the solver's answer", source)
    try:
        values = [int(x) for x in lits]
    except ValueError:
        raise PuzzleError("a value line holds something other than integers", source) from None
    if status is Verdict.SAT:
        if not values or values[-1] != 0:
            raise PuzzleError("the model's value lines do not end with 0", source)
        values = values[:-1]
    return Answer(status, {v for v in values if v > 0}, len(values))
