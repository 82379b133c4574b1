"""The deepening loop: encode, solve horizon after horizon, decode, replay, report.

Horizons start at the domain's admissible lower bound.  With ``optimal=True`` they
go up one at a time; otherwise they double (a plan is found in fewer solver calls,
and it is still reported ``optimal`` when its length is one more than the largest
horizon refuted).  Because every encoding allows no-ops, refuting horizon T
refutes all shorter ones.  A plan is reported only after the domain's own rules
replayed it.
"""
from __future__ import annotations

import time
from typing import Callable, Sequence

from ..puzzle import MoveCount, PuzzleError, Result, Status, check_metric
from ..validate import check_plan
from .backends import make_backend
from .backends.pysat_backend import DEFAULT_SOLVER
from .lemmas import ReachabilityLemmas
from ..encodings.model import BoolModel


def encoder_for(domain, metric: str, counts: Sequence[MoveCount] = ()):
    name = getattr(domain, "base", domain).name
    if name == "sliding":
        from ..encodings.sliding import SlidingEncoder as E
    elif name == "knights":
        from ..encodings.knights import KnightsEncoder as E
    elif name == "sokoban" and metric == "pushes":
        from ..encodings.sokoban import SokobanPushEncoder as E
    elif name == "sokoban":
        from ..encodings.sokoban import SokobanEncoder as E
    else:
        raise PuzzleError(f"no SAT encoding for {name}")
    return E(domain, metric, counts)


def solve(domain, metric: str | None = None, backend: str = "pysat", time_limit: float | None = None,
          max_horizon: int = 1000, optimal: bool = True, counts: Sequence[MoveCount] = (),
          card_encoding: str = "seqcounter", progress: Callable[[dict], None] | None = None,
          certify: bool = False, proof_file: str | None = None, start_horizon: int | None = None,
          lemma_budget: int | None = None) -> Result:
    """Plan for ``domain`` by SAT/CP-SAT; see the module doc for the statuses.

    ``backend="pysat"`` adds reachability lemmas (:mod:`.lemmas`), each question
    under ``lemma_budget`` conflicts (default :data:`.lemmas.BUDGET`);
    ``"pysat-plain"`` is the same solver without them.

    ``start_horizon``: the first horizon tried (default: the admissible lower
    bound).  Starting high finds a plan sooner on long puzzles; what it proves
    below that horizon is only the lower bound, unless a horizon is refuted.

    ``certify``: once optimal, prove with a checked DRAT proof that horizon
    length-1 has no plan (``result.stats["certified"]``); ``proof_file`` keeps it.
    """
    if certify:
        if counts:
            raise PuzzleError("certification covers the instance's own constraints: load them with the instance")
        from .certify import checker_engine
        checker_engine()      # fail early if the checker is missing
    if start_horizon is not None and not 0 <= start_horizon <= max_horizon:
        raise PuzzleError(f"the start horizon {start_horizon} must be between 0 and the maximum horizon {max_horizon}")
    name, _, option = backend.partition(":")
    if name == "cpsat":
        if option and not option.isdigit():
            raise PuzzleError(f"cpsat:{option}: give a number of workers, e.g. cpsat:2")
        result = solve_minimising(domain, metric, time_limit, max_horizon, int(option or 1), progress,
                                  optimal, counts, start_horizon)
    else:
        result = _deepen(domain, metric, backend, time_limit, max_horizon, optimal, counts, card_encoding,
                         progress, start_horizon, lemma_budget)
    if certify and result.status is Status.OPTIMAL:
        _certify(result, domain, card_encoding, counts, proof_file)
    return result


def _deepen(domain, metric, backend, time_limit, max_horizon, optimal, counts, card_encoding, progress,
            start_horizon=None, lemma_budget=None) -> Result:
    metric = check_metric(domain, metric)
    t0 = time.perf_counter()
    encoder = encoder_for(domain, metric, counts)
    model = BoolModel()
    solver = make_backend(backend, model, card_encoding)
    name, _, option = backend.partition(":")
    method = f"{name}:{option or DEFAULT_SOLVER}" if name in ("pysat", "pysat-plain") else backend
    lemmas = ReachabilityLemmas(encoder, model, solver, lemma_budget) if name == "pysat" else None
    lower = domain.heuristic(domain.initial, metric)
    result = Result(Status.TIMEOUT, metric, method, lower_bound=lower, board=domain.board())
    refuted = lower - 1           # every horizon up to here has no plan (lower bound is admissible)
    encoder.start(model)
    horizon = max(lower, start_horizon or 0)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        while horizon <= max_horizon:
            ts = time.perf_counter()
            if lemmas is not None and not lemmas.saturate(horizon, deadline):
                break                    # each layer saturated before the goal is asked there
            encoder.extend(model, horizon)
            goal = encoder.goal(model, horizon)
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            answer = solver.solve([goal], left)
            row = {"horizon": horizon, **solver.figures(), "seconds": round(time.perf_counter() - ts, 4),
                   "result": {True: "sat", False: "unsat", None: "timeout"}[answer]}
            if lemmas is not None:
                row["lemmas"] = lemmas.units
            result.horizons.append(row)
            if progress:
                progress(row)
            if answer is None:
                break
            if answer is False:
                refuted = horizon
                horizon = horizon + 1 if optimal else max(horizon + 1, 2 * horizon)
                continue
            steps, length = _replayed(domain, encoder, model, solver.values(), metric, counts)
            result.steps, result.length = steps, length
            if length <= refuted + 1:
                result.status = Status.OPTIMAL
                result.proof = (f"horizon {refuted} refuted" if refuted >= lower
                                else f"admissible lower bound {lower}")
            else:
                result.status, result.bound = Status.FEASIBLE, refuted
            break
        else:   # the lower bound may exceed max_horizon: then it alone proves the bound
            result.status, result.bound = Status.NO_PLAN_WITHIN, min(refuted, max_horizon)
    except KeyboardInterrupt:
        result.message = "interrupted"
    finally:
        solver.close()
    if result.status is Status.TIMEOUT:
        result.bound = refuted
    result.stats = {"seconds": round(time.perf_counter() - t0, 4), "horizons_tried": len(result.horizons),
                    "vars": model.top, "clauses": result.horizons[-1]["clauses"] if result.horizons else 0,
                    "conflicts": sum(h.get("conflicts", 0) for h in result.horizons)}
    if lemmas is not None:
        result.stats.update(lemmas.figures())
    return result


def _certify(result: Result, domain, card_encoding: str, counts, proof_file: str | None) -> None:
    """Add a checked DRAT proof that horizon length-1 has no plan (CaDiCaL + dratify)."""
    from .certify import certify as prove
    tc = time.perf_counter()
    figures = prove(domain, result.metric, result.length, card_encoding, proof_file)
    result.stats.update({f"certify_{k}": v for k, v in figures.items() if v is not None and k != "certified"},
                        certified=figures["certified"], certify_seconds=round(time.perf_counter() - tc, 3))
    if figures["certified"]:
        result.proof = (f"certified: DRAT proof that horizon {figures['horizon']} has no plan, "
                        f"checked by dratify ({figures.get('engine', '-')})")
    else:
        result.message = "certification failed: the DRAT proof did not check"


def _replayed(domain, encoder, model, values, metric, counts) -> tuple[list, int]:
    """Decode a model and replay it by the domain's rules: (steps, length)."""
    moves = encoder.decode(model, values)
    steps = domain.render_steps(moves) if hasattr(domain, "render_steps") else moves
    report = check_plan(domain, steps, metric, counts)
    if not report["solved"]:
        raise AssertionError(f"the decoded plan fails replay: {report['problem']}")
    return steps, report["length"]


def solve_minimising(domain, metric: str | None = None, time_limit: float | None = None, max_horizon: int = 1000,
                     workers: int = 1, progress: Callable[[dict], None] | None = None, optimal: bool = True,
                     counts: Sequence[MoveCount] = (), start_horizon: int | None = None) -> Result:
    """CP-SAT over one model: horizon H, goal at H, minimise the number of moves.

    No-ops come last, so a plan of L <= H moves fits the model and the minimum
    is the optimum; horizons double from the lower bound until the model is
    feasible (measured faster than a model per horizon: see the README).
    ``optimal=False`` takes the first plan found at the first feasible horizon.
    On a time limit with a plan in hand, CP-SAT's proven objective bound gives
    the refuted horizon.  Backend name ``cpsat`` (``cpsat:W`` for W workers).
    """
    import math
    from ortools.sat.python import cp_model
    from .backends.cpsat_backend import CpsatBackend
    metric = check_metric(domain, metric)
    t0 = time.perf_counter()
    encoder = encoder_for(domain, metric, counts)
    model = BoolModel()
    lower = domain.heuristic(domain.initial, metric)
    result = Result(Status.TIMEOUT, metric, "cpsat" if workers == 1 else f"cpsat:{workers}", lower_bound=lower,
                    board=domain.board())
    refuted = lower - 1
    encoder.start(model)
    horizon = min(max(lower, start_horizon or 1), max_horizon)
    try:
        while True:
            if lower > max_horizon:      # the admissible bound alone refutes every horizon allowed
                result.status, result.bound = Status.NO_PLAN_WITHIN, max_horizon
                break
            encoder.extend(model, horizon)
            goal = encoder.goal(model, horizon)
            left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
            if left is not None and left <= 0:
                break
            cp, xs = CpsatBackend(model).build([goal])
            if optimal:
                cp.minimize(sum(xs[model.var(("act", t))] for t in range(horizon)))
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = workers
            solver.parameters.random_seed = 0
            if left is not None:
                solver.parameters.max_time_in_seconds = max(left, 0.01)
            ts = time.perf_counter()
            status = solver.solve(cp)
            row = {"horizon": horizon, "vars": model.top, "clauses": len(model.items),
                   "conflicts": solver.num_conflicts, "seconds": round(time.perf_counter() - ts, 4),
                   "result": {cp_model.OPTIMAL: "minimum" if optimal else "sat", cp_model.FEASIBLE: "sat",
                              cp_model.INFEASIBLE: "unsat"}.get(status, "timeout")}
            result.horizons.append(row)
            if progress:
                progress(row)
            if status == cp_model.INFEASIBLE:
                refuted = horizon
                if horizon >= max_horizon:
                    result.status, result.bound = Status.NO_PLAN_WITHIN, horizon
                    break
                horizon = min(2 * horizon, max_horizon)
                continue
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                values = {i for i in range(1, len(xs)) if solver.boolean_value(xs[i])}
                result.steps, result.length = _replayed(domain, encoder, model, values, metric, counts)
                if optimal:   # every plan of fewer moves than the proven bound would fit this horizon
                    refuted = max(refuted, math.ceil(solver.best_objective_bound - 1e-6) - 1)
                if optimal and status == cp_model.OPTIMAL:
                    result.status, result.proof = Status.OPTIMAL, f"CP-SAT minimum over horizon {horizon}"
                elif result.length <= refuted + 1:
                    result.status, result.proof = Status.OPTIMAL, f"horizon {refuted} refuted"
                else:
                    result.status, result.bound = Status.FEASIBLE, refuted
            break
    except KeyboardInterrupt:
        result.message = "interrupted"
    if result.status is Status.TIMEOUT:
        result.bound = refuted
    result.stats = {"seconds": round(time.perf_counter() - t0, 4), "horizons_tried": len(result.horizons),
                    "vars": model.top, "clauses": len(model.items),
                    "conflicts": sum(h["conflicts"] for h in result.horizons)}
    return result
