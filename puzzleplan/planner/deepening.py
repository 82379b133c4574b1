"""The deepening loop: encode, solve horizon after horizon, decode, replay, report.

One loop serves every backend (:mod:`.backends`; what each can do is in its
``capabilities``).  Horizons start at the domain's admissible lower bound (or
``start_horizon``) and go up one at a time; with ``optimal=False`` (``--fast``),
or for a backend that minimises within a horizon (``cpsat``), they double,
never past ``max_horizon``, which is always tried last.  Every encoding allows
no-ops at the end, so refuting horizon T refutes all shorter ones; a plan found
is ``optimal`` when its length is one more than the largest horizon refuted (or
when a minimising backend proved its length is the least within the horizon).
A plan is reported only after the domain's own rules replayed it.

Limits and interrupts live here: the time limit covers building the encoding,
lemmas and solving (:mod:`puzzleplan.limits`); Ctrl-C stops the run and the
result keeps what was proved (status ``interrupted``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable, Iterator, Sequence

from .. import limits
from ..encodings import encoder_for
from ..encodings.model import BoolModel
from ..puzzle import MoveCount, PuzzleError, Result, Status, check_metric
from ..validate import check_plan

DEFAULT_MAX_HORIZON = 1000
ENUMERATE_STATES = 100_000     # the state space is enumerated first when it is at most this large,
ENUMERATE_SECONDS = 10.0       # and that takes at most this long (or a tenth of the time limit)


def default_solver(spec: str, domain) -> str:
    """``pysat`` -> ``pysat:SOLVER`` with the measured default solver of the domain's family
    (its ``default_solver``, e.g. CaDiCaL on knights: benchmarks/knights_solvers.csv)."""
    from .. import registry
    solver = registry.of(domain).default_solver
    if spec in ("pysat", "pysat-plain", "pysat-de") and solver:
        return f"{spec}:{solver}"
    return spec


def check_options(time_limit, max_horizon, start_horizon) -> float | None:
    time_limit = limits.check_seconds(time_limit)
    if isinstance(max_horizon, bool) or not isinstance(max_horizon, int) or max_horizon < 0:
        raise PuzzleError(f"the maximum horizon must be a whole number, 0 or more, not {max_horizon!r}")
    if start_horizon is not None and (isinstance(start_horizon, bool) or not isinstance(start_horizon, int)
                                      or not 0 <= start_horizon <= max_horizon):
        raise PuzzleError(f"the start horizon {start_horizon} must be between 0 and the maximum horizon {max_horizon}")
    return time_limit


def schedule(first: int, max_horizon: int, doubling: bool) -> Iterator[int]:
    """Horizons to try: ``first``, then +1 (or doubling), ending with ``max_horizon``."""
    h = first
    while h <= max_horizon:
        yield h
        if h == max_horizon:
            return
        h = min(max(h + 1, 2 * h), max_horizon) if doubling else h + 1


@dataclass
class SolveOptions:
    """How :func:`solve` runs; every field has the CLI's default.

    backend         ``pysat-de[:SOLVER]`` (double-ended, lemmas from both ends, :mod:`.double`),
                    ``pysat[:SOLVER]`` (forward, reachability lemmas, :mod:`.lemmas`),
                    ``pysat-plain[:SOLVER]``; ``SOLVER`` may be ``A+B``, a race; ``cpsat[:WORKERS]``, ``cpsat-horizons``,
                    ``external:CMD`` (:mod:`puzzleplan.methods` lists them)
    time_limit      seconds for the whole run (None: no limit)
    max_horizon     the largest horizon tried
    optimal         +1 horizon at a time (False: doubling, ``--fast``)
    start_horizon   the first horizon tried (default: the admissible lower bound)
    counts          move counts on top of the domain's own
    card_encoding   python-sat's cardinality encoding for move counts
    lemma_budget    conflicts per reachability-lemma question
    goal_lemmas     ``pysat-de``: lemmas from the goal side too (off: from the start only)
    bounds          ``pysat-de``: the encoder's admissible distance bounds on the goal side (off:
                    on the 30 IPC-mapped Microban levels they did not pay, README)
    enumerate_first enumerate a small state space first (``unsolvable`` at once)
    certify         prove optimality with a checked DRAT proof; ``proof_file`` keeps it
    progress        ``progress(row)``: one row per horizon
    say             ``say(text)``: notes for the user
    """

    backend: str = "pysat-de"
    time_limit: float | None = None
    max_horizon: int = DEFAULT_MAX_HORIZON
    optimal: bool = True
    start_horizon: int | None = None
    counts: Sequence[MoveCount] = ()
    card_encoding: str = "seqcounter"
    lemma_budget: int | None = None
    goal_lemmas: bool = True
    bounds: bool = False
    enumerate_first: bool = False
    certify: bool = False
    proof_file: str | None = None
    progress: Callable[[dict], None] | None = None
    say: Callable[[str], None] | None = None


def solve(domain, metric: str | None = None, backend: str | None = None, time_limit: float | None = None,
          options: SolveOptions | None = None, **changes) -> Result:
    """Plan for ``domain`` by SAT/CP-SAT; see the module doc for the statuses.

    ``options`` (a :class:`SolveOptions`; ``backend``, ``time_limit`` and keyword
    ``changes`` replace its fields) say how.

    ``start_horizon``: the first horizon tried (default: the admissible lower
    bound); below it only the lower bound is proven, unless a horizon is refuted.

    ``enumerate_first``: before deepening, enumerate the reachable states if
    there are at most :data:`ENUMERATE_STATES` (within :data:`ENUMERATE_SECONDS`
    or a tenth of the time limit, and up to half of it while the enumeration is
    clearly finishing); when none is a goal the result is ``unsolvable`` by that
    enumeration.

    ``certify``: once optimal, prove with a checked DRAT proof that horizon
    length-1 has no plan (``result.stats["certified"]``); ``proof_file`` keeps it.
    ``progress(row)`` gets one row per horizon; ``say(text)`` gets notes.
    """
    given = {k: v for k, v in (("backend", backend), ("time_limit", time_limit)) if v is not None}
    try:
        o = replace(options or SolveOptions(), **given, **changes)
    except TypeError as err:       # a misspelt option: the Python API's own mistake, said plainly
        raise TypeError(f"solve(): {err}; options are the fields of SolveOptions") from None
    backend, time_limit, max_horizon, optimal, counts = o.backend, o.time_limit, o.max_horizon, o.optimal, o.counts
    card_encoding, progress, certify, proof_file = o.card_encoding, o.progress, o.certify, o.proof_file
    start_horizon, lemma_budget, enumerate_first, say = o.start_horizon, o.lemma_budget, o.enumerate_first, o.say
    time_limit = check_options(time_limit, max_horizon, start_horizon)
    metric = check_metric(domain, metric)
    if certify and backend.startswith("abc:"):
        raise PuzzleError(f"{backend} proves optimality by a checked invariant; --certify is for SAT backends")
    if certify:
        if counts:
            raise PuzzleError("certification covers the instance's own constraints: load them with the instance")
        from .certify import checker_engine
        checker_engine()      # fail early if the checker is missing
    say = say or (lambda text: None)
    t0 = time.perf_counter()
    with limits.time_limit(time_limit):
        result = None
        if enumerate_first:
            try:
                result = _enumerated(domain, metric, time_limit, say)
            except KeyboardInterrupt:
                result = Result(Status.INTERRUPTED, metric, "enumeration", board=domain.board(),
                                lower_bound=domain.heuristic(domain.initial, metric), message="interrupted")
        if result is None and backend.startswith("abc:"):     # a model checker: one system, not horizons
            from .abc import solve as model_check
            result = model_check(domain, metric, backend.partition(":")[2], counts,
                                 max_horizon if max_horizon != DEFAULT_MAX_HORIZON else None, say)
        if result is None:
            result = _deepen(domain, metric, backend, max_horizon, optimal, counts, card_encoding, progress,
                             start_horizon, lemma_budget, say, {"goal_lemmas": o.goal_lemmas, "bounds": o.bounds})
        result.stats["seconds"] = round(time.perf_counter() - t0, 4)
        if certify and result.status is Status.OPTIMAL:     # within the same time limit
            try:
                _certify(result, domain, card_encoding, proof_file, say)
            except KeyboardInterrupt:      # the plan and its optimality proof by refutation stay
                result.stats["certify_interrupted"] = True
                result.message = ("certification interrupted: optimal by the refuted horizon, "
                                  "without a checked proof")
            except limits.TimeUp:          # the same: the limit is an answer, not an error
                result.stats["certify_timeout"] = True
                result.message = ("certification stopped by the time limit: optimal by the refuted horizon, "
                                  "without a checked proof")
    return result.scoped(domain)


def _enumerated(domain, metric, time_limit, say) -> Result | None:
    """UNSOLVABLE if the whole reachable space is small, enumerated, and goal-free."""
    from ..search import explore
    # a tenth of the limit; past it, the enumeration goes on only while it is clearly finishing (a
    # frontier under a tenth of the states seen: BFS's last layers, or a narrow space such as
    # Klotski's), up to half the limit: a cheap, complete answer should not depend on the limit
    soft = ENUMERATE_SECONDS if time_limit is None else min(ENUMERATE_SECONDS, time_limit / 10)
    hard = ENUMERATE_SECONDS if time_limit is None else min(ENUMERATE_SECONDS, time_limit / 2)
    t0 = time.monotonic()

    def finishing(reached: int, frontier: int) -> None:     # called every 10,000 states
        if time.monotonic() - t0 > soft and frontier * 10 > reached:
            raise limits.TimeUp()

    with limits.time_limit(hard):
        figures = explore(domain, metric, progress=finishing, max_states=ENUMERATE_STATES)
    if figures.get("stopped") == "interrupted":
        raise KeyboardInterrupt
    if figures.get("complete") and not figures["goal_states"]:
        say(f"the reachable state space ({figures['reachable']:,} states) holds no goal")
        return Result(Status.UNSOLVABLE, metric, "enumeration", board=domain.board(),
                      proof=f"complete enumeration of {figures['reachable']:,} reachable states",
                      stats={"reachable": figures["reachable"]},
                      message="unsolvable: found by enumerating the states before any SAT call")
    return None


def _deepen(domain, metric, backend_spec, max_horizon, optimal, counts, card_encoding, progress,
            start_horizon, lemma_budget, say, levers=None) -> Result:
    from .backends import make_backend
    from .lemmas import ReachabilityLemmas
    model = BoolModel()
    lower = domain.heuristic(domain.initial, metric)
    backend_spec = default_solver(backend_spec, domain)
    try:
        solver = make_backend(backend_spec, model, card_encoding)
    except KeyboardInterrupt:        # while a solver library was loading
        return Result(Status.INTERRUPTED, metric, backend_spec, lower_bound=lower, board=domain.board(),
                      bound=lower - 1 if lower > 0 else None, message="interrupted")
    result = Result(Status.TIMEOUT, metric, solver.method, lower_bound=lower, board=domain.board())
    refuted = lower - 1        # every horizon up to here has no plan (the lower bound is admissible)
    minimise = optimal and "minimise" in solver.capabilities
    doubling = not optimal or "minimise" in solver.capabilities
    cap = domain.longest_plan(metric)      # no plan is longer: refuting it proves unsolvable
    if cap is not None and cap < max_horizon:
        max_horizon = max(cap, 0)
    first = max(lower, start_horizon or 0)
    say(f"deepening from horizon {first} to {max_horizon} ({'doubling' if doubling else 'one at a time'}, "
        f"{solver.method}; no plan within {refuted} by the admissible lower bound)" if refuted >= 0 else
        f"deepening from horizon {first} to {max_horizon} ({'doubling' if doubling else 'one at a time'}, "
        f"{solver.method})")
    lemmas = unrolling = None
    notes = {}
    try:
        if limits.expired():      # spent already (a huge board): no encoder to build
            raise limits.TimeUp()
        # the lower bound beyond the largest horizon answers alone: nothing to encode (a huge board)
        encoder = encoder_for(domain, metric, counts) if first <= max_horizon else None
        if encoder is not None and "double-ended" in solver.capabilities:
            why = encoder.double_ended()
            if why is None:
                from .double import DoubleEnded
                unrolling = DoubleEnded(encoder, model, solver, "lemmas" in solver.capabilities, lemma_budget,
                                        **(levers or {}))
            else:
                notes["unrolling"] = f"forward (not double-ended: {why})"
                say(f"unrolled forward: the double-ended encoding does not apply here ({why})")
        if unrolling is None:
            lemmas = (ReachabilityLemmas(encoder, model, solver, lemma_budget)
                      if encoder is not None and "lemmas" in solver.capabilities else None)
            if encoder is not None:
                encoder.start(model)
        for horizon in schedule(first, max_horizon, doubling):
            ts = time.perf_counter()
            if unrolling is not None:
                if not unrolling.prepare(horizon):
                    raise limits.TimeUp()
                goal = unrolling.goal(horizon)
            else:
                if lemmas is not None and not lemmas.saturate(horizon):
                    raise limits.TimeUp()          # each layer saturated before the goal is asked there
                encoder.extend(model, horizon)
                goal = encoder.goal(model, horizon)
            answer = solver.solve(goal, horizon, minimise)
            row = {"horizon": horizon, **solver.figures(), "seconds": round(time.perf_counter() - ts, 4),
                   "result": {"sat": "minimum" if answer.proof else "sat"}.get(answer.status, answer.status)}
            if answer.status == "unknown":
                row["result"] = "timeout"
            if lemmas is not None:
                row["lemmas"] = lemmas.units
            if unrolling is not None:
                row.update(unrolling.units())
            result.horizons.append(row)
            if progress:
                progress(row)
            if answer.status == "unknown":
                raise limits.TimeUp()
            if answer.status == "unsat":
                refuted = max(refuted, horizon)
                continue
            steps, length = _replayed(domain, encoder, model, solver.values(), metric, counts)
            result.steps, result.length = steps, length
            if answer.bound is not None:       # no plan of fewer moves fits this horizon
                refuted = max(refuted, min(answer.bound, length) - 1)
            if length <= refuted + 1:
                result.status = Status.OPTIMAL
                result.proof = answer.proof or (f"horizon {refuted} refuted" if refuted >= lower
                                                else f"admissible lower bound {lower}")
            else:
                result.status, result.bound = Status.FEASIBLE, refuted
            break
        else:   # every horizon up to max_horizon refuted (or the lower bound exceeds it)
            refuted = max_horizon
            result.status, result.bound = Status.NO_PLAN_WITHIN, max_horizon
            if cap is not None and max_horizon >= cap:
                result.status = Status.UNSOLVABLE
                result.proof = (f"the admissible lower bound {lower} exceeds the longest possible plan ({cap} {metric})"
                                if lower > cap else
                                f"no plan within {max_horizon} {metric}, and no plan is longer (the rules' bound)")
    except limits.TimeUp:
        result.status, result.message = Status.TIMEOUT, "time limit reached"
    except KeyboardInterrupt:
        result.status, result.message = Status.INTERRUPTED, "interrupted"
    finally:
        solver.close()
    notes.update(solver.stats())
    if result.status in (Status.TIMEOUT, Status.INTERRUPTED):
        result.bound = refuted if refuted >= 0 else None
        if result.steps is not None:        # a plan in hand, not proven optimal
            result.status = Status.FEASIBLE
    result.stats = {"horizons_tried": len(result.horizons), "vars": model.top,
                    "clauses": result.horizons[-1].get("clauses", 0) if result.horizons else 0,
                    "conflicts": total_conflicts(result.horizons)}
    if lemmas is not None:
        result.stats.update(lemmas.figures())
    if unrolling is not None:
        result.stats.update(unrolling="double-ended", **unrolling.figures())
    result.stats.update(notes)
    return result


def total_conflicts(horizons: list[dict]) -> int | None:
    """The conflicts of every horizon, or None if a solver did not report some (unknown is not 0)."""
    counts = [h.get("conflicts", 0) for h in horizons]
    return None if None in counts else sum(counts)


def _certify(result: Result, domain, card_encoding: str, proof_file: str | None, say) -> None:
    """Add a checked DRAT proof that horizon length-1 has no plan (CaDiCaL + dratify)."""
    from .certify import certify as prove
    tc = time.perf_counter()
    figures = prove(domain, result.metric, result.length, card_encoding, proof_file, say=say)
    result.stats.update({f"certify_{k}": v for k, v in figures.items() if v is not None and k != "certified"},
                        certified=figures["certified"], certify_seconds=round(time.perf_counter() - tc, 3))
    if figures["certified"]:
        result.proof = (f"certified: DRAT proof that horizon {figures['horizon']} has no plan, "
                        f"checked by dratify ({figures.get('engine', '-')})")
    else:
        result.message = "CERTIFICATION FAILED: the DRAT proof did not check"


def _replayed(domain, encoder, model, values, metric, counts) -> tuple[list, int]:
    """Decode a model and replay it by the domain's rules: (steps, length)."""
    moves = encoder.decode(model, values)
    steps = domain.render_steps(moves)
    report = check_plan(domain, steps, metric, counts)
    if not report["solved"]:
        raise AssertionError(f"the decoded plan fails replay: {report['problem']}")
    return steps, report["length"]
