"""Horizons in parallel across processes (``solve --jobs N``): batch-synchronous deepening.

N worker processes (``spawn``) each keep one incremental solver of the backend and its own
unrolling of the encoding.  The horizons go in batches of N consecutive ones, ``h .. h+N-1``;
worker ``k`` asks the ``k``-th of every batch (so its solver goes ``h+k``, ``h+k+N``, ... and
keeps what it learnt on the way).  A batch's answers are combined only when the whole batch is
back, in the order of the horizons, so the outcome never depends on which process finished
first: the same input gives the same horizons, answers and conflicts on any machine.

Combining a batch: every encoding allows no-ops at the end, so a refuted horizon refutes
every shorter one.  The least horizon answered SAT gives the plan (decoded and replayed by the
rules in the worker, :func:`.anytime.replayed`, and replayed again here); it is optimal when
every shorter horizon is refuted (:meth:`.deepening.Deepening.found`).  With
``horizon_conflicts``, each horizon is asked under that many conflicts: one left open above
the largest refuted horizon stops the run after its batch (status ``timeout``, the bound
proved kept; a plan found in the batch is reported ``feasible``).  Once the conflicts of all
batches pass :data:`.deepening.HARD_RUN`, every worker escalates its encoding before the next
batch (as the serial loop does after a horizon).

Only the deepening runs in the workers: no first plan, probes or windows beside it.  The time
limit and Ctrl-C stop the run at once (the workers killed and reaped); what the answered
horizons proved is kept.  Each worker inherits the run's memory limit (``--memory``): N workers
may use N times the memory of one solver.  From the Python API, as with any ``spawn`` process,
the script that calls :func:`~puzzleplan.planner.solve` with ``jobs`` must guard its top level
with ``if __name__ == "__main__":``.

Measured (``benchmarks/parallel_horizons``): on 31-step 8-puzzles, long Rush Hour cards and
Sokoban rooms two workers spent 1.5-2.2 times the serial run's conflicts, the workers' solvers
starting without what the serial solver learnt on the way; it did not pay there.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
from dataclasses import replace
from multiprocessing.connection import wait
from types import SimpleNamespace

from .. import limits
from ..puzzle import PuzzleError, Result, Status, Verdict
from .anytime import replayed_length
from .backends.base import Answer, Backend, DeferredSigint

MAX_JOBS = 64


def checked(o, built):
    """:func:`deepen` if ``o.jobs`` and ``o.horizon_conflicts`` are usable with the backend
    ``built``, else a PuzzleError (``jobs`` 1 is the serial loop: never asked here)."""
    from .. import plugins
    jobs, budget = o.jobs, o.horizon_conflicts
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise PuzzleError(f"jobs must be a whole number from 1 to {MAX_JOBS}, not {jobs!r}")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 1):
        raise PuzzleError(f"the conflicts per horizon must be a whole number, 1 or more, not {budget!r}")
    if jobs == 1 and budget is not None:
        raise PuzzleError("a conflict budget per horizon is for horizons in parallel (jobs 2 or more)")
    backend = getattr(built, "backend", None)
    if isinstance(built, plugins.Runner) or backend is None or not built.name.startswith("pysat") \
            or "+" in (built.option or "") or backend.solve_budget is Backend.solve_budget:
        raise PuzzleError(f"horizons in parallel take a python-sat backend of one solver, not {o.backend}")
    for name, on in (("gap (--gap)", o.gap is not None), ("probes (--probes)", o.probes),
                     ("doubling (--fast)", not o.optimal)):
        if on and jobs > 1:
            raise PuzzleError(f"horizons in parallel go one at a time with the deepening alone: no {name}")
    return deepen


def _die_with_parent() -> None:
    """Linux: killed when the run's process dies, even by SIGKILL (no orphan solver)."""
    try:
        import ctypes
        parent = os.getppid()
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _worker(conn, setup) -> None:
    """One worker: ``("ask", horizon, conflicts, escalate, seconds left)`` -> its answer (a dict),
    ``("close",)`` ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the run stops us
    _die_with_parent()
    from ..encodings.pysat_sigint import disable
    disable()
    state = _State(*setup)
    try:
        while True:
            message = conn.recv()
            if message[0] == "close":
                break
            try:
                out = state.ask(*message[1:])
            except MemoryError:
                out = {"error": "memout"}
            except Exception as err:        # said by the run as its error, never a traceback here
                out = {"error": f"{type(err).__name__}: {err}" if not isinstance(err, PuzzleError) else str(err)}
            conn.send(out)
    except (EOFError, OSError):     # the run has gone
        return
    state.close()


class _State:
    """A worker's solver and unrolling, built at its first question (within the time limit)."""

    def __init__(self, problem, metric, backend, card_encoding, counts, method_options):
        self.problem, self.metric, self.backend, self.counts = problem, metric, backend, counts
        self.card_encoding, self.method_options = card_encoding, method_options
        self.solver = self.unrolling = None
        self.notes: list[str] = []

    def build(self) -> None:
        from ..encodings import encoder_for
        from ..encodings.model import BoolModel
        from .backends import make_backend
        from .unrolling import unrolling_for
        self.model = BoolModel()
        self.solver = make_backend(self.backend, self.model, self.card_encoding, self.problem.family)
        with limits.preemptive():
            self.encoder = encoder_for(self.problem, self.metric, self.counts)
        self.notes.extend(self.encoder.notes())
        self.unrolling = unrolling_for(self.encoder, self.model, self.solver,
                                       SimpleNamespace(method_options=self.method_options), self.notes.append)

    def ask(self, horizon: int, conflicts: int | None, escalate: bool, left: float | None) -> dict:
        from .anytime import replayed
        t0, cpu0 = time.perf_counter(), time.process_time()
        with limits.time_limit(left):
            if self.solver is None:
                self.build()
            if escalate:
                self.unrolling.escalate(horizon)
            if not self.unrolling.prepare(horizon):
                answer = Answer(Verdict.UNKNOWN)
            elif conflicts is None:
                answer = self.solver.solve(self.unrolling.goal(horizon), horizon, False)
            else:
                answer = Answer.of(self.solver.solve_budget([self.unrolling.goal(horizon)], conflicts))
        out = {"horizon": horizon, "status": answer.status.value, "figures": self.solver.figures(),
               "units": self.unrolling.units(), "notes": self.notes}
        self.notes = []
        if answer.status is Verdict.SAT:
            out["steps"], out["length"] = replayed(self.problem, self.encoder, self.model, self.solver.values(),
                                                   self.metric, self.counts)
        out.update(seconds=round(time.perf_counter() - t0, 4), cpu=round(time.process_time() - cpu0, 4),
                   timed_out=answer.status is Verdict.UNKNOWN and limits.expired())
        return out

    def close(self) -> None:
        if self.solver is not None:
            self.solver.close()


class Workers:
    """The worker processes, and what they have said: it plays the backend for the run's
    bookkeeping (:class:`.deepening.Deepening`: ``method``, ``figures``, ``conflicts``, ``stats``)."""

    def __init__(self, jobs: int, setup: tuple, method: str, capabilities: frozenset, budget: int | None):
        self.jobs, self.method, self.capabilities, self.budget = jobs, method, capabilities, budget
        self.spent, self.cpu, self.batches, self.top = 0, 0.0, 0, 0
        self.per_horizon: dict[str, int] = {}
        self.row: dict = {}
        self.setup = setup
        self.conns, self.procs = [], []

    def start(self) -> None:
        """The worker processes started (``spawn``: nothing of this process is shared with them)."""
        ctx = multiprocessing.get_context("spawn")
        with DeferredSigint():      # each start done whole (a task half handed over kills the worker)
            for _ in range(self.jobs):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(child, self.setup), daemon=True)
                proc.start()
                child.close()
                self.conns.append(parent)
                self.procs.append(proc)

    def ask(self, horizons: list[int], escalate: bool) -> tuple[list[dict], str | None]:
        """Each horizon to its worker; every answer back (in the order of ``horizons``), or those
        back when the time limit or Ctrl-C stopped the batch, and which stopped it."""
        left = limits.left()
        if left is not None and left <= 0:
            return [], "time"
        limits.raise_if_interrupted()
        for conn, horizon in zip(self.conns, horizons):
            conn.send(("ask", horizon, self.budget, escalate, left))
        self.batches += 1
        deadline = None if left is None else time.monotonic() + left
        pending, back, stop = dict(enumerate(self.conns[:len(horizons)])), {}, None
        while pending and stop is None:
            try:
                timeout = 0.05 if deadline is None else min(0.05, max(0.0, deadline - time.monotonic()))
                ready = wait(list(pending.values()), timeout=timeout)
            except KeyboardInterrupt:
                ready, stop = [], "interrupt"
            if stop is None and limits.interrupt_pending():
                stop = "interrupt"
            for i, conn in list(pending.items()):
                if conn in ready:
                    back[i] = self._received(i, conn)
                    del pending[i]
            if stop is None and pending and deadline is not None and time.monotonic() >= deadline:
                stop = "time"
        return [back[i] for i in sorted(back)], stop

    def _received(self, i: int, conn) -> dict:
        try:
            out = conn.recv()
        except (EOFError, OSError):
            raise PuzzleError(f"worker {i} of the horizons in parallel ended unexpectedly") from None
        if out.get("error") == "memout":
            raise MemoryError
        if "error" in out:
            raise PuzzleError(out["error"])
        out["worker"] = i
        self.spent += out["figures"].get("conflicts") or 0
        self.cpu += out["cpu"]
        self.top = max(self.top, out["figures"].get("vars", 0))
        return out

    def figures(self) -> dict:
        return self.row

    def conflicts(self) -> int:
        return self.spent

    def stats(self) -> dict:
        return {"jobs": self.jobs, "parallel": {"jobs": self.jobs, "schedule": "batches of consecutive horizons",
                             "batches": self.batches, "conflicts_per_horizon_budget": self.budget,
                             "conflicts_per_horizon": dict(self.per_horizon),
                             "workers_cpu_seconds": round(self.cpu, 4)}}

    def close(self, at_once: bool = False) -> None:
        """The workers asked to end (killed at once when stopped, or if still busy after a second)."""
        for conn in self.conns:
            if not at_once:
                try:
                    conn.send(("close",))
                except (BrokenPipeError, OSError):
                    pass
        deadline = time.monotonic() + (0.0 if at_once else 1.0)
        for proc in self.procs:
            proc.join(timeout=max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
            proc.join()
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []


def deepen(problem, metric: str, o, cpu0: float = 0.0) -> Result:
    """The deepening of :func:`.deepening.solve` with ``o.jobs`` workers (see the module doc)."""
    from ..constraints import state_space
    from .backends import make_backend
    from .deepening import Deepening
    from ..encodings.model import BoolModel
    board = problem.rules.board()
    o = replace(o, first_plan=False, probes=False)
    try:
        with limits.preemptive():
            space = state_space(problem)
            lower = space.heuristic(space.initial, metric)
        with make_backend(o.backend, BoolModel(), o.card_encoding, problem.family) as named:
            method, capabilities = named.method, named.capabilities
    except limits.TimeUp:
        return Result(Status.TIMEOUT, metric, o.backend, board=board, message="time limit reached")
    except KeyboardInterrupt:
        return Result(Status.INTERRUPTED, metric, o.backend, board=board, message="interrupted")
    setup = (problem, metric, o.backend, o.card_encoding, tuple(o.counts), dict(o.method_options))
    workers = Workers(o.jobs, setup, method, capabilities, o.horizon_conflicts)
    run = Deepening(problem, metric, workers, lower, o, cpu0)
    stopped_at_once = False
    try:
        workers.start()
        _batches(run, workers, o)
    except limits.TimeUp:
        run.stopped(Status.TIMEOUT, "time limit reached")
        stopped_at_once = True
    except KeyboardInterrupt:
        run.stopped(Status.INTERRUPTED, "interrupted")
        stopped_at_once = True
    except MemoryError:
        run.stopped(Status.MEMOUT, limits.memout_message())
        stopped_at_once = True
    finally:
        workers.close(at_once=stopped_at_once or limits.interrupt_pending())
    return run.finish(SimpleNamespace(top=workers.top), None)


def _batches(run, workers: Workers, o) -> None:
    """Batch after batch until a plan, a horizon left open, or the largest horizon refuted."""
    from .deepening import HARD_RUN
    first = max(run.lower, o.start_horizon or 0)
    o.say(f"deepening from horizon {first} to {run.max_horizon} (one at a time, {workers.method}; "
          f"{workers.jobs} horizons at once, one per process"
          + (f", {workers.budget:,} conflicts each" if workers.budget else "")
          + (f"; no plan within {run.refuted} by the admissible lower bound)" if run.refuted >= 0 else ")"))
    said: set[str] = set()
    escalate = False
    h = first
    while h <= run.max_horizon:
        horizons = list(range(h, min(h + workers.jobs, run.max_horizon + 1)))
        if o.asking:
            o.asking(horizons[0])
        answers, stop = workers.ask(horizons, escalate)
        for note in (n for a in answers for n in a["notes"]):
            if note not in said:
                said.add(note)
                o.say(note)
        done = _combine(run, workers, answers, o)
        proved = run.result.status is Status.OPTIMAL     # an answer no stop takes back
        if stop == "interrupt" and not proved:
            raise KeyboardInterrupt
        if (stop == "time" or any(a["timed_out"] for a in answers)) and not proved:
            raise limits.TimeUp()
        if done:
            return
        if not run.hard and workers.spent >= HARD_RUN:
            run.hard = escalate = True
        else:
            escalate = False
        h = horizons[-1] + 1
    run.exhausted()


def _combine(run, workers: Workers, answers: list[dict], o) -> bool:
    """A batch's rows recorded in the order of their horizons; whether the run ends here (a plan,
    or a horizon left open above every refuted one)."""
    answers = sorted(answers, key=lambda a: a["horizon"])
    for a in answers:
        row = {"horizon": a["horizon"], **a["figures"], "seconds": a["seconds"],
               "result": {"sat": "sat", "unsat": "unsat", "unknown": "timeout"}[a["status"]], **a["units"],
               "worker": a["worker"], "cpu": a["cpu"]}
        run.result.horizons.append(row)
        workers.per_horizon[str(a["horizon"])] = row.get("conflicts")
        if o.progress:
            o.progress(row)
        if a["status"] == "unsat":
            run.refuted = max(run.refuted, a["horizon"])
    sat = [a for a in answers if a["status"] == "sat"]
    if sat:
        best = sat[0]
        if replayed_length(run.problem, best["steps"], run.metric, o.counts) != best["length"]:
            raise PuzzleError(f"the plan of horizon {best['horizon']} fails the replay by the rules")
        run.found(Answer(Verdict.SAT), best["steps"], best["length"])
        if run.result.status is Status.FEASIBLE:
            run.result.message = _open_message(answers, run.refuted, workers.budget)
        return True
    open_ = [a for a in answers if a["status"] == "unknown" and a["horizon"] > run.refuted and not a["timed_out"]]
    if open_:
        run.stopped(Status.TIMEOUT, _open_message(answers, run.refuted, workers.budget))
        return True
    return False


def _open_message(answers: list[dict], refuted: int, budget: int | None) -> str:
    left = [a["horizon"] for a in answers if a["status"] == "unknown" and a["horizon"] > refuted]
    return (f"conflict budget per horizon ({budget:,}) spent at horizon {left[0]}" if left and budget
            else "stopped with horizons not answered")
