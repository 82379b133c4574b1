"""The deepening loop: encode, solve horizon after horizon, decode, replay, report.

One loop serves every backend (:mod:`.backends`; what each can do is in its
``capabilities``).  Horizons start at the rules' admissible lower bound (or
``start_horizon``) and go up one at a time; with ``optimal=False`` (``--fast``),
or for a backend that minimises within a horizon (``cpsat``), they double,
never past ``max_horizon``, which is always tried last.  Every encoding allows
no-ops at the end, so refuting horizon T refutes all shorter ones; a plan found
is ``optimal`` when its length is one more than the largest horizon refuted (or
when a minimising backend proved its length is the least within the horizon).
A plan is reported only after the problem's own rules replayed it.

Limits and interrupts live here: the time limit covers building the encoding,
lemmas and solving (:mod:`puzzleplan.limits`); Ctrl-C stops the run and the
result keeps what was proved (status ``interrupted``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Iterator, Mapping, Sequence

from .. import limits
from ..constraints import counts_refused, state_space
from ..encodings import encoder_for
from ..plugins import DEFAULT_SAT
from ..encodings.model import BoolModel
from ..puzzle import Check, MoveCount, Outcome, PuzzleError, Result, Status, Verdict, check_metric
from .anytime import PROBE_AFTER, PROBE_MIN, GapReached, Incumbent, Probes, gap, probe_solver, replayed, shortened
from .backends import make_backend
from .enumeration import enumerated_first
from .unrolling import unrolling_for

DEFAULT_MAX_HORIZON = 1000
# conflicts (lemmas and horizons together) after which a run counts as hard, and the encoder
# may add what costs more to find or to carry than an easy run takes (Encoder.escalate: the
# PDDL counting invariants, 0.05-0.5 s to find on a Rush Hour card whose easy runs take 0.1 s
# in all, and one order for commuting actions)
HARD_RUN = 2_000
# an admissible lower bound from which the first plan (:mod:`.first`) is sought before the
# first horizon, where a run with a bound this high may stay for long (the 15-puzzle position of
# benchmarks/anytime: 28, its first horizon not answered in a minute); Klotski's bound is 3 and
# Rush Hour's a handful: theirs come once the run is hard (HARD_RUN)
FIRST_FROM = 20
# the deepening's conflicts before windows of the plan are re-solved (:mod:`.first`; from then
# on a third of the work): a run proved sooner pays only for its greedy first plan (Rush Hour
# card 40 in steps, 27,988 conflicts to its proof, 1.6 CPU s: windows from the first plan on
# spent 19,432 conflicts more and took it to 2.3 CPU s)
WINDOWS_AFTER = 50_000


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
    counts          move counts on top of the problem's own
    card_encoding   python-sat's cardinality encoding for move counts
    method_options  the backend's own options by name (the fields of its class's
                    ``own_options``: ``pysat``'s :class:`~.backends.pysat_backend.LemmaOptions`,
                    ``pysat-de``'s :class:`~.backends.pysat_backend.DoubleEndedOptions`:
                    ``lemma_budget``, ``first_probe``, ``goal_lemmas``, ``bounds``); :func:`solve`
                    also takes them as keywords
    enumerate_first enumerate a small state space first (``unsolvable`` at once)
    certify         prove optimality with a checked DRAT proof; ``proof_file`` keeps it
    probes          python-sat methods, one at a time: once the run is hard, probes with slack for a
                    plan (an upper bound) beside the deepening (:mod:`.anytime`); off by default:
                    on the Rush Hour cards measured they did not pay
    gap             stop once a plan is within this many per cent of the proven lower bound
                    (None: go on to the optimum)
    first_plan      a first plan and shorter ones beside the deepening (:mod:`.first`): before the
                    first horizon when the admissible lower bound is at least ``FIRST_FROM``, else
                    once the run is hard (``HARD_RUN`` conflicts)
    progress        ``progress(row)``: one row per horizon
    asking          ``asking(horizon)``: a horizon is about to be prepared and asked
    say             ``say(text)``: notes for the user
    jobs, horizon_conflicts  horizons in batches across processes, conflicts each (:mod:`.parallel`)
    """

    backend: str = DEFAULT_SAT
    time_limit: float | None = None
    max_horizon: int = DEFAULT_MAX_HORIZON
    optimal: bool = True
    start_horizon: int | None = None
    counts: Sequence[MoveCount] = ()
    card_encoding: str = "seqcounter"
    method_options: Mapping[str, Any] = field(default_factory=dict)
    enumerate_first: bool = False
    certify: bool = False
    proof_file: str | None = None
    probes: bool = False
    gap: float | None = None
    first_plan: bool = True
    progress: Callable[[dict], None] | None = None
    asking: Callable[[int], None] | None = None
    say: Callable[[str], None] | None = None
    jobs: int = 1
    horizon_conflicts: int | None = None


def solve(target, metric: str | None = None, backend: str | None = None, time_limit: float | None = None,
          options: SolveOptions | None = None, **changes) -> Result:
    """Plan for ``target`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    :class:`~puzzleplan.contract.Instance`, or a bare rules object) by SAT/CP-SAT; see the module doc for the statuses.

    ``options`` (a :class:`SolveOptions`; ``backend``, ``time_limit`` and keyword
    ``changes`` replace its fields) say how.

    ``start_horizon``: the first horizon tried (default: the admissible lower
    bound); below it only the lower bound is proven, unless a horizon is refuted.

    ``enumerate_first``: before deepening, enumerate the reachable states if
    there are at most :data:`.enumeration.ENUMERATE_STATES` (past :data:`.enumeration.ENUMERATE_OPEN`, only
    while its frontier is under 2/5 of the states seen); when none is a goal the result is
    ``unsolvable`` by that enumeration.  Its budget is in states, never seconds: the
    same answer on any machine (only the user's time limit can cut it short).

    ``certify``: once optimal, prove with a checked DRAT proof that horizon
    length-1 has no plan (``result.stats["certified"]``); ``proof_file`` keeps it.
    ``progress(row)`` gets one row per horizon; ``say(text)`` gets notes.
    """
    # recorded from the start: a Ctrl-C that Python drops while the options are checked (a
    # solver is tried out, a library loads) is raised at the first solver call
    with limits.interrupts_recorded():
        return _solve(target, metric, backend, time_limit, options, changes)


def _solve(target, metric, backend, time_limit, options, changes) -> Result:
    from .. import plugins, registry
    given = {k: v for k, v in (("backend", backend), ("time_limit", time_limit)) if v is not None}
    general = {f.name for f in fields(SolveOptions)}
    outside = [k for k in changes if k not in general]
    own = {k: changes.pop(k) for k in outside if k in _own_option_names()} if outside else {}
    try:
        o = replace(options or SolveOptions(), **given, **changes)
    except TypeError as err:       # a misspelt option: the Python API's own mistake, said plainly
        raise TypeError(f"solve(): {err}; options are the fields of SolveOptions and the backends' own "
                        f"({', '.join(sorted(_own_option_names()))})") from None
    problem = registry.problem(target)
    o = replace(o, time_limit=check_options(o.time_limit, o.max_horizon, o.start_horizon),
                say=o.say or (lambda text: None))
    metric = check_metric(problem, metric)
    method, option, code = plugins.code(o.backend, plugins.SAT)
    o = replace(o, method_options=_own_options(code, {**o.method_options, **own}))
    built = code.build(method.name, option)
    deepen = _deepen        # horizons across processes: :mod:`.parallel` drives this loop's Deepening (by name)
    if o.jobs != 1 or o.horizon_conflicts is not None:
        deepen = plugins.load("puzzleplan.planner.parallel:checked")(o, built)
    why = built.supports(problem.family, metric, problem.counts + tuple(o.counts))
    why = why or counts_refused(problem, metric, o.counts)     # e.g. counts in makespan
    if why:         # refused before any work, with the reason
        raise PuzzleError(why)
    if o.certify:
        if isinstance(built, plugins.Runner):
            raise PuzzleError(f"{o.backend} proves optimality by a checked invariant; --certify is for SAT backends")
        if o.counts:
            raise PuzzleError("certification covers the instance's own constraints: load them with the instance")
        from .certify import checker_engine
        checker_engine()      # fail early if the checker is missing
    t0, cpu0 = time.perf_counter(), time.process_time()
    with limits.time_limit(o.time_limit):
        runner = isinstance(built, plugins.Runner)     # a model checker: one system, not horizons
        # a greedy plan before the first horizon proves a goal reachable: no enumeration then
        try:
            greedy = _first_greedy(problem, metric, o) if o.enumerate_first and deepen is _deepen and not runner \
                else None
        except (limits.TimeUp, MemoryError):    # met again, and said, by what comes next
            greedy = None
        except KeyboardInterrupt:
            return Result(Status.INTERRUPTED, metric, o.backend, board=problem.rules.board(), message="interrupted")
        result = enumerated_first(problem, metric, o.say) if o.enumerate_first and greedy is None else None
        if result is None and runner:
            result = built.solve(problem, metric, o)
        elif result is None:
            result = deepen(problem, metric, o, cpu0) if greedy is None else _deepen(problem, metric, o, cpu0, greedy)
        result.stats["seconds"] = round(time.perf_counter() - t0, 4)
        if o.certify and result.status is Status.OPTIMAL:     # within the same time limit
            _certified(result, problem, o)
    return result.scoped(problem.rules)


def _own_option_names() -> set[str]:
    """The own options of every per-horizon backend of the registry."""
    from .. import plugins
    out = set()
    for name in plugins.names(plugins.SAT):
        impl = plugins.table()[name].load()
        if getattr(impl, "own_options", None) is not None:
            out |= {f.name for f in fields(impl.own_options)}
    return out


def _own_options(code, given: Mapping[str, Any]) -> dict:
    """``given`` checked against the backend's own options and completed with their defaults;
    another backend's options are kept as given (the loop notes those it cannot follow: ``bounds``
    without the double-ended unrolling); a name no backend takes is a TypeError."""
    unknown = set(given) - _own_option_names() if given else set()
    if unknown:
        raise TypeError(f"solve(): unknown option(s) {', '.join(sorted(unknown))}; options are the fields of "
                        f"SolveOptions and the backends' own ({', '.join(sorted(_own_option_names()))})")
    cls = getattr(code, "own_options", None)
    mine = {f.name for f in fields(cls)} if cls is not None else set()
    settled = vars(cls(**{k: v for k, v in given.items() if k in mine})) if cls is not None else {}
    return {**{k: v for k, v in given.items() if k not in mine}, **settled}


def _certified(result: Result, problem, o: SolveOptions) -> None:
    """Certify an optimal result; an interrupt or the time limit keeps the plan and its
    optimality by refutation, without a checked proof."""
    try:
        _certify(result, problem, o.card_encoding, o.proof_file, o.say)
    except KeyboardInterrupt:
        result.check = Check.INTERRUPTED
        result.message = "certification interrupted: optimal by the refuted horizon, without a checked proof"
    except limits.TimeUp:          # the limit is an answer, not an error
        result.check = Check.TIMED_OUT
        result.message = ("certification stopped by the time limit: optimal by the refuted horizon, "
                          "without a checked proof")
    except MemoryError:            # the proof or its check did not fit within --memory
        result.check = Check.MEMOUT
        result.message = ("certification stopped by the memory limit: optimal by the refuted horizon, "
                          "without a checked proof")


def _first_greedy(problem, metric: str, o: SolveOptions):
    """Where the first plan is sought before the first horizon (a lower bound of at least
    ``FIRST_FROM``), the greedy search's first states (:class:`.first.Greedy`) if they reach a
    goal, else None."""
    from .first import Greedy
    if not o.first_plan or o.counts:
        return None
    with limits.preemptive():
        space = state_space(problem)
        if space.heuristic(space.initial, metric) < FIRST_FROM:
            return None
        greedy = Greedy(problem, metric, o.counts)
        return greedy if greedy.go(0)[0] is not None else None


def _deepen(problem, metric: str, o: SolveOptions, cpu0: float = 0.0, greedy=None) -> Result:
    """Horizon after horizon through the backend ``o.backend`` (see the module doc)."""
    model = BoolModel()
    board = problem.rules.board()
    try:
        with limits.preemptive():       # the family's lower bound stops at the deadline
            space = state_space(problem)
            lower = space.heuristic(space.initial, metric)
    except limits.TimeUp:
        return Result(Status.TIMEOUT, metric, o.backend, board=board, message="time limit reached")
    except KeyboardInterrupt:        # while the bound was computed (a large PDDL task's mutexes)
        return Result(Status.INTERRUPTED, metric, o.backend, board=board, message="interrupted")
    try:
        solver = make_backend(o.backend, model, o.card_encoding, problem.family)
    except KeyboardInterrupt:        # while a solver library was loading
        return Result(Status.INTERRUPTED, metric, o.backend, lower_bound=lower, board=board,
                      bound=lower - 1 if lower > 0 else None, message="interrupted")
    except MemoryError:              # the library did not fit within the memory limit (limits.library)
        return Result(Status.MEMOUT, metric, o.backend, lower_bound=lower, board=board,
                      bound=lower - 1 if lower > 0 else None, message=limits.memout_message())
    run = Deepening(problem, metric, solver, lower, o, cpu0)
    run.greedy = greedy             # a greedy search that has reached a goal already (or None)
    unrolling = None
    with solver:
        try:
            encoder, horizons = run.plan()
            if encoder is not None:
                unrolling = unrolling_for(encoder, model, solver, o, o.say)
            for horizon in horizons:
                if run.closed():     # the plan in hand is optimal
                    break
                if o.asking:
                    o.asking(horizon)
                ts = time.perf_counter()
                if not unrolling.prepare(horizon):
                    raise limits.TimeUp()
                answer = solver.solve(unrolling.goal(horizon), horizon, run.minimise)
                run.record(horizon, answer, unrolling.units(), ts)
                if answer.status is Verdict.SAT:
                    run.found(answer, *replayed(problem, encoder, model, solver.values(), metric, o.counts))
                    break
                if not run.hard and (total_conflicts(run.result.horizons) or 0) >= HARD_RUN:
                    run.hard = True
                    unrolling.escalate(horizon + 1)
                run.between()
            else:
                run.exhausted()
        except GapReached as why:
            run.stopped(Status.FEASIBLE, str(why))
        except limits.TimeUp:
            run.stopped(Status.TIMEOUT, "time limit reached")
        except KeyboardInterrupt:
            run.stopped(Status.INTERRUPTED, "interrupted")
        except MemoryError:
            unrolling = None        # what it holds is what filled the memory: let it go first
            run.probes = None
            run.stopped(Status.MEMOUT, limits.memout_message())
        finally:
            run.close()
    return run.finish(model, unrolling)


class Deepening:
    """What one deepening run has proved so far, and the result it reports."""

    def __init__(self, problem, metric: str, solver, lower: int, o: SolveOptions, cpu0: float | None = None):
        self.problem, self.metric, self.solver, self.lower, self.o = problem, metric, solver, lower, o
        self.result = Result(Status.TIMEOUT, metric, solver.method, lower_bound=lower, board=problem.rules.board())
        self.refuted = lower - 1        # every horizon up to here has no plan (the lower bound is admissible)
        self.minimise = o.optimal and "minimise" in solver.capabilities
        self.doubling = not o.optimal or "minimise" in solver.capabilities
        self.cap, self.cap_reason = longest_plan(problem, metric)    # refuting it proves unsolvable
        self.hard = False               # past HARD_RUN conflicts: the encoder told (Unrolling.escalate)
        self.max_horizon = o.max_horizon if self.cap is None or self.cap >= o.max_horizon else max(self.cap, 0)
        self.incumbent = Incumbent()    # the best plan so far: the upper bound (never grows)
        self.probes = (Probes(problem, metric, o.counts, probe_solver(solver.method))
                       if o.probes and not self.doubling and solver.method.startswith("pysat") else None)
        self.probed_at = 0              # the deepening's conflicts at the last probe
        # the run's start (CPU seconds of the process), for the improvements' CPU seconds
        self.cpu0 = time.process_time() if cpu0 is None else cpu0
        self.first_done = not o.first_plan  # the first plan's ways tried (:mod:`.first`)
        self.first_rows: list[dict] = []
        self.greedy = None              # the greedy search, going on while it has no plan (:class:`.first.Greedy`)
        self.parallel_at = None         # the conflicts from which the parallel steps are asked (:func:`.first.parallel_due`)
        self.windows = None             # windows of the plan re-solved (:class:`.first.Windows`)
        self.windows_at = 0             # the deepening's conflicts when they last ran

    def plan(self):
        """The encoder (None when nothing is to be encoded) and the horizons to try; says where
        the deepening goes."""
        first = max(self.lower, self.o.start_horizon or 0)
        how = f"{'doubling' if self.doubling else 'one at a time'}, {self.solver.method}"
        self.o.say(f"deepening from horizon {first} to {self.max_horizon} ({how}"
                   + (f"; no plan within {self.refuted} by the admissible lower bound)" if self.refuted >= 0 else ")"))
        if limits.expired():      # spent already (a huge board): no encoder to build
            raise limits.TimeUp()
        if first > self.max_horizon:      # the lower bound beyond the largest horizon answers alone
            return None, []
        with limits.preemptive():       # the family's encoder is set up within the limit
            encoder = encoder_for(self.problem, self.metric, self.o.counts)
        for line in encoder.notes():
            self.o.say(line)
        if not self.first_done and self.lower >= FIRST_FROM:      # a first plan before the first horizon
            self.first_plans()
        return encoder, schedule(first, self.max_horizon, self.doubling)

    def record(self, horizon: int, answer, units: dict, started: float) -> None:
        """The horizon's row (to the result and ``progress``); a refuted horizon is proved."""
        row = {"horizon": horizon, **self.solver.figures(), "seconds": round(time.perf_counter() - started, 4),
               "result": {Verdict.SAT: "minimum" if answer.proof else "sat", Verdict.UNSAT: "unsat",
                          Verdict.UNKNOWN: "timeout"}[answer.status],
               **units}
        if self.incumbent.length is not None:
            row["upper"] = self.incumbent.length
        self.result.horizons.append(row)
        if self.o.progress:
            self.o.progress(row)
        if answer.status is Verdict.UNKNOWN:
            raise limits.TimeUp()
        if answer.status is Verdict.UNSAT:
            self.refuted = max(self.refuted, horizon)

    def found(self, answer, steps: list, length: int) -> None:
        """A replayed plan: optimal when every shorter horizon is refuted (else shortened by
        replay, and kept only if shorter than the plan in hand)."""
        r = self.result
        if answer.bound is not None:       # no plan of fewer moves fits this horizon
            self.refuted = max(self.refuted, min(answer.bound, length) - 1)
        if length <= self.refuted + 1:
            self.incumbent.offer(steps, length, "deepening")
            r.status = Status.OPTIMAL
            r.proof = answer.proof or (f"horizon {self.refuted} refuted" if self.refuted >= self.lower
                                       else f"admissible lower bound {self.lower}")
        else:
            self.offer(steps, length, "deepening")
            r.status, r.bound = Status.FEASIBLE, self.refuted

    def offer(self, steps: list, length: int, how: str) -> None:
        """A replayed plan that is not known optimal: kept if it is the best, then shortened (a
        stop while it is shortened keeps the plan as found)."""
        kept = self.incumbent.offer(steps, length, how)
        short, cut = shortened(self.problem, steps, length, self.metric, self.o.counts)
        if self.incumbent.offer(short, cut, f"{how}, shortened by replay") or kept:
            lower = self.refuted + 1
            self.o.say(f"plan of {self.incumbent.length} {self.metric} ({self.incumbent.how}); optimum >= {lower} "
                       f"(gap {gap(self.incumbent.length, lower)} %)")

    def closed(self) -> bool:
        """Whether the plan in hand ends the deepening: every horizon below its length is
        refuted (by the deepening or a probe), so it is optimal."""
        upper = self.incumbent.length
        if upper is None or self.refuted < upper - 1:
            return False
        r = self.result
        r.status = Status.OPTIMAL
        r.proof = (f"horizon {self.refuted} refuted" if self.refuted >= self.lower
                   else f"admissible lower bound {self.lower}")
        return True

    def between(self) -> None:
        """After a refuted horizon: a probe when one is due (:mod:`.anytime`), then the gap
        checked against ``--gap``."""
        spent = total_conflicts(self.result.horizons) or 0
        if not self.first_done and spent >= HARD_RUN:
            self.first_plans()
        elif self.greedy is not None and self.incumbent.steps is None and (
                self.greedy.due(spent) or self.parallel_at is not None and spent >= self.parallel_at):
            self.first_plans(spent)
        elif self.windows is not None and spent >= max(WINDOWS_AFTER, 2 * self.windows_at):   # a third of the work
            self.shorten((spent - self.windows_at) // 2)
        if self.probes is not None and spent >= max(PROBE_AFTER, 2 * self.probed_at):
            horizon = self.probes.horizon(self.refuted, self.incumbent.length)
            if horizon is not None and horizon <= self.max_horizon:
                answer, steps, length = self.probes.ask(horizon, max(PROBE_MIN, spent - self.probed_at))
                if answer is None and limits.expired():
                    raise limits.TimeUp()
                if answer is True:
                    self.offer(steps, length, f"probe at horizon {horizon}")
                elif answer is False:
                    self.refuted = max(self.refuted, horizon)
            self.probed_at = spent
        within = self.o.gap
        upper = self.incumbent.length
        if within is not None and upper is not None and not self.closed() and gap(upper, self.refuted + 1) <= within:
            raise GapReached(f"stopped at a gap of {gap(upper, self.refuted + 1)} % (--gap {within:g})")

    def first_plans(self, spent: int = 0) -> None:
        """A first plan by the ways of :mod:`.first` (greedy search within its first states, else
        the parallel-step SAT encoding; later the greedy search again, within the deepening's
        ``spent`` conflicts), then shorter ones by windows re-solved; each offered to the incumbent."""
        from .first import WINDOW_BUDGET, Greedy, Windows, parallel_due, parallel_first
        p, metric, counts = self.problem, self.metric, self.o.counts
        name = probe_solver(self.solver.method) if self.solver.method.startswith("pysat") else None
        how = "greedy best-first search (not SAT)"
        if not self.first_done:
            self.first_done, self.greedy = True, self.greedy or Greedy(p, metric, counts)
            self.first_rows.append(self.greedy.row)
            self.parallel_at = parallel_due(p, metric, counts)
        steps, length = self.greedy.go(spent)
        if steps is None and self.parallel_at is not None and spent >= self.parallel_at:
            self.parallel_at = None         # asked once
            steps, length, row = parallel_first(p, metric, counts, name, self.refuted + 1)
            how = "parallel steps (SAT)"
            self.first_rows += [row] if row is not None else []
        if steps is not None:
            self.offer(steps, length, how)
        if self.incumbent.steps is not None and self.windows is None and Windows.available(p, metric, counts):
            self.windows = Windows(p, metric, counts, name)
            self.first_rows.append(self.windows.row)
            if self.lower >= FIRST_FROM:        # a run that may stay at its first horizon: windows now
                self.shorten(WINDOW_BUDGET)

    def shorten(self, budget: int) -> None:
        """Windows of the plan in hand re-solved within ``budget`` conflicts (:mod:`.first`)."""
        if self.windows is None or self.closed():
            return
        self.windows_at = total_conflicts(self.result.horizons) or 0
        self.windows.shorten(self.incumbent.steps, self.incumbent.length, lambda steps, length:
                             self.offer(steps, length, "windows re-solved (SAT)"), budget)

    def close(self) -> None:
        """The solvers of the probes and the windows let go."""
        for other in (self.probes, self.windows):
            if other is not None:
                other.close()

    def exhausted(self) -> None:
        """Every horizon up to the largest refuted (or the lower bound exceeds it)."""
        r, top, cap = self.result, self.max_horizon, self.cap
        self.refuted = top
        r.status, r.bound = Status.NO_PLAN_WITHIN, top
        if cap is not None and top >= cap:
            r.status = Status.UNSOLVABLE
            r.proof = (f"the admissible lower bound {self.lower} exceeds the longest possible plan ({cap} {self.metric})"
                       if self.lower > cap else
                       f"horizon {top} refuted, and no plan is longer: {self.cap_reason}")

    def stopped(self, status: Status, message: str) -> None:
        self.result.status, self.result.message = status, message

    def finish(self, model, unrolling) -> Result:
        r = self.result
        best = self.incumbent
        if best.steps is not None:
            r.steps, r.length = best.steps, best.length
        if r.status in (Status.TIMEOUT, Status.INTERRUPTED, Status.MEMOUT, Status.FEASIBLE):
            r.bound = self.refuted if self.refuted >= 0 else None
            if r.steps is not None:        # a plan in hand, not proven optimal
                r.stopped = {Status.INTERRUPTED: Outcome.INTERRUPTED, Status.MEMOUT: Outcome.MEMOUT}.get(r.status)
                r.status = Status.FEASIBLE
        rows = total_conflicts(r.horizons)
        spent = self.solver.conflicts()     # a horizon stopped midway counts too (0: not counted)
        r.stats = {"horizons_tried": len(r.horizons), "vars": model.top,
                   "clauses": r.horizons[-1].get("clauses", 0) if r.horizons else 0,
                   "conflicts": max(rows, spent) if rows is not None else rows,
                   **(unrolling.figures() if unrolling is not None else {}), **self.solver.stats()}
        if r.status is Status.FEASIBLE:
            lower = max(self.refuted + 1, self.lower, 0)
            r.stats.update(upper=best.length, optimum_at_least=lower, gap=gap(best.length, lower),
                           plan_found_by=best.how)
        if len(best.history) > 1 or r.status is Status.FEASIBLE:     # an optimum found at once: as before
            r.stats["improvements"] = [{"length": n, "how": how, "cpu_s": round(cpu - self.cpu0, 2)}
                                       for (n, how), cpu in zip(best.history, best.cpu)]
        if self.probes is not None and self.probes.asked:
            r.stats["probes"] = self.probes.asked
        if self.first_rows:
            r.stats["first_plans"] = self.first_rows
        return r


def longest_plan(problem, metric: str) -> tuple[int | None, str]:
    """The least of the rules' bounds on a shortest plan's length, and why: their own
    (:meth:`~puzzleplan.contract.Rules.longest_plan`) or, where every move costs 1, the states
    they can reach less one (:meth:`~puzzleplan.contract.Rules.state_bound`)."""
    bounds = []
    rules = problem.rules
    own = rules.longest_plan(metric)
    if own is not None:
        bounds.append((own, "the rules' bound"))
    states = state_space(problem).state_bound() if rules.unit_costs(metric) else None
    if states is not None:
        bounds.append((max(states - 1, 0), f"the rules reach at most {states:,} states"))
    return min(bounds) if bounds else (None, "")


def total_conflicts(horizons: list[dict]) -> int | None:
    """The conflicts of every horizon, or None if a solver did not report some (unknown is not 0)."""
    counts = [h.get("conflicts", 0) for h in horizons]
    return None if None in counts else sum(counts)


def _certify(result: Result, problem, card_encoding: str, proof_file: str | None, say) -> None:
    """Add a checked DRAT proof that horizon length-1 has no plan (CaDiCaL + dratify)."""
    from .certify import certify as prove
    tc = time.perf_counter()
    figures = prove(problem, result.metric, result.length, card_encoding, proof_file, say=say)
    result.stats.update({f"certify_{k}": v for k, v in figures.items() if v is not None and k != "certified"},
                        certified=figures["certified"], certify_seconds=round(time.perf_counter() - tc, 3))
    result.check = Check.PASSED if figures["certified"] else Check.FAILED
    if figures["certified"]:
        result.proof = (f"certified: DRAT proof that horizon {figures['horizon']} has no plan, "
                        f"checked by dratify ({figures.get('engine', '-')})")
    else:
        result.message = "CERTIFICATION FAILED: the DRAT proof did not check"
