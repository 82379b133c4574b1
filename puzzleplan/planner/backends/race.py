"""A solver race: the same question to two python-sat solvers, each in a process of its own
on its own core; the first answer wins and the other solver is stopped.

``pysat:glucose42+cadical195`` (any of the ``pysat`` methods, with two solver names joined
by ``+``).  Each worker keeps one incremental solver and gets the same clauses, so both
follow the model as it grows and keep what they learned; a question (a horizon or a lemma
question under a conflict budget) goes to both.  When one answers SAT or UNSAT, the other
is stopped (``interrupt()`` where python-sat has it, else between slices of conflicts, as
in :mod:`.pysat_backend`) and its answer is dropped; when both run out of budget or time
the answer is "unknown".  Ctrl-C and the time limit stop both; so does a Ctrl-C that Python
dropped in a finaliser and :mod:`puzzleplan.limits` recorded (before a question, or while the
race waits for its answers).

A race uses two cores: its wall-clock seconds are not comparable with one solver's.  The
per-horizon figures say which solver won (``winner``) and the CPU seconds both spent
(``cpu``); the result's stats count the wins per solver and the CPU seconds in all.
"""
from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from multiprocessing.connection import wait

from ... import limits
from ...encodings.lower import check_card_encoding, clauses_of
from ...puzzle import PuzzleError
from .base import Backend, DeferredSigint
from .pysat_solvers import INTERRUPTIBLE, Slicing, _kinds, check_solver, sliced


def _worker(key: str, conn, stop) -> None:
    """One solver (python-sat's kind ``key``) in a process: ``("add", clauses)``, ``("solve", assumptions, conflicts)``
    -> ``(answer, model or None, conflicts, cpu seconds)``, ``("close",)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the parent stops us
    from pysat.solvers import Solver

    from ...encodings.pysat_sigint import disable
    disable()
    solver = Solver(name=_kinds()[key][0])
    interruptible = key in INTERRUPTIBLE
    slicing = Slicing()
    try:
        while True:
            message = conn.recv()
            if message[0] == "close":
                break
            if message[0] == "add":
                for clause in message[1]:
                    solver.add_clause(clause)
                continue
            _, assumptions, conflicts = message
            cpu = time.process_time()
            answer = _solve(solver, interruptible, slicing, assumptions, conflicts, stop)
            stats = solver.accum_stats() or {}
            conn.send((answer, solver.get_model() if answer else None, stats.get("conflicts", 0),
                       time.process_time() - cpu))
    except (EOFError, OSError):     # the parent has gone (killed outright): nothing to answer, nothing to say
        return
    solver.delete()


def _solve(solver, interruptible, slicing, assumptions, conflicts, stop):
    if interruptible:
        solver.conf_budget(-1 if conflicts is None else conflicts)
        done = threading.Event()

        def watch():
            while not done.is_set():
                if stop.wait(0.02):
                    solver.interrupt()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            done.set()
            watcher.join()
            solver.clear_interrupt()
    return sliced(solver, assumptions, conflicts, slicing, stopped=stop.is_set)


def _unbroken(op) -> None:
    """``op()`` (the stop event's ``set`` or ``clear``) with SIGINT (and SIGTERM, which the CLI
    takes as one) held back until it returns.
    multiprocessing's Event is a condition of semaphores kept consistent by Python code: a
    KeyboardInterrupt raised in the middle of ``set`` leaves them out of step, and a later ``set``
    fails an assertion inside multiprocessing ("notify: Should not have been able to acquire
    _wait_semaphore": once in the Ctrl-C storm test under load).  A Ctrl-C held back is raised
    as soon as the signal is let through again."""
    if threading.current_thread() is not threading.main_thread():
        op()
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        op()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class RaceBackend(Backend):
    def __init__(self, model, names: list[str], card_encoding: str = "seqcounter", lemmas: bool = False,
                 double_ended: bool = False, family: str = "pysat"):
        keys = [check_solver(f"{family}:{'+'.join(names)}", n) for n in names]
        if len(names) != 2 or keys[0] == keys[1]:
            raise PuzzleError(f"a race needs two different solvers, e.g. {family}:glucose42+cadical195")
        self.model, self.names, self.card_encoding = model, keys, check_card_encoding(card_encoding)
        self.capabilities = frozenset({"lemmas"} if lemmas else ()) | frozenset({"double-ended"} if double_ended else ())
        self.method = f"{family}:{'+'.join(names)}"
        self.synced = self.clauses = 0
        self.solver_conflicts = [0, 0]     # each solver's, as it last said
        self.reported = 0
        self.cpu = 0.0
        self.cpu_reported = 0.0
        self.wins = {n: 0 for n in keys}
        self.winner = None
        self.model_values: list[int] = []
        ctx = multiprocessing.get_context("spawn")
        self.stop = ctx.Event()
        self.conns, self.procs = [], []
        try:
            # a worker whose start is cut short (its task half handed over) dies reading it, with
            # a traceback: each start is done whole, an interrupt raised after them
            with DeferredSigint():
                for key in keys:
                    parent, child = ctx.Pipe()
                    proc = ctx.Process(target=_worker, args=(key, child, self.stop), daemon=True)
                    proc.start()
                    child.close()
                    self.conns.append(parent)
                    self.procs.append(proc)
        except KeyboardInterrupt:
            self.close()
            raise

    def sync(self) -> None:
        end = len(self.model.items)
        batch = list(clauses_of(self.model, self.synced, self.card_encoding))
        if batch:
            for conn in self.conns:
                conn.send(("add", batch))
            self.clauses += len(batch)
        self.synced = end

    def solve(self, goal: int, horizon: int | None = None, minimise: bool = False):
        from .base import Answer
        return Answer.of(self.solve_budget([goal], None))

    def solve_budget(self, assumptions, conflicts: int | None) -> bool | None:
        self.sync()
        left = limits.left()
        if left is not None and left <= 0:
            return None
        limits.raise_if_interrupted()       # a Ctrl-C Python dropped (see limits.interrupts_recorded)
        _unbroken(self.stop.clear)
        for conn in self.conns:
            conn.send(("solve", list(assumptions), conflicts))
        deadline = None if left is None else time.monotonic() + left
        pending = dict(enumerate(self.conns))
        result, interrupted = None, False
        while pending:
            try:
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                ready = wait(list(pending.values()), timeout=0.05 if timeout is None else min(0.05, timeout))
            except KeyboardInterrupt:
                ready, interrupted = [], True
                _unbroken(self.stop.set)
            # a Ctrl-C whose KeyboardInterrupt Python dropped while this loop ran (in a finaliser:
            # the semaphores of an earlier race's stop event are released by one)
            if not interrupted and limits.interrupt_pending():
                interrupted = True
                _unbroken(self.stop.set)
            if not ready and deadline is not None and time.monotonic() >= deadline:
                _unbroken(self.stop.set)
            for i, conn in list(pending.items()):
                if conn not in ready:
                    continue
                try:
                    answer, values, conflicts_now, cpu = conn.recv()
                except EOFError:
                    raise PuzzleError(f"the {self.names[i]} solver process ended unexpectedly") from None
                del pending[i]
                self.cpu += cpu
                self.solver_conflicts[i] = conflicts_now
                if answer is not None and result is None:
                    result, self.winner = answer, self.names[i]
                    self.wins[self.names[i]] += 1
                    self.model_values = values or []
                    _unbroken(self.stop.set)
        _unbroken(self.stop.clear)
        if interrupted:
            limits.raise_if_interrupted()       # a recorded one is raised (and forgotten) here
            raise KeyboardInterrupt
        return result

    def values(self) -> set[int]:
        return {v for v in self.model_values if v > 0}

    def conflicts(self) -> int:
        return sum(self.solver_conflicts)

    def figures(self) -> dict:
        total = sum(self.solver_conflicts)
        delta, self.reported = total - self.reported, total
        cpu, self.cpu_reported = self.cpu - self.cpu_reported, self.cpu
        return {"vars": self.model.top, "clauses": self.clauses, "conflicts": delta,
                "winner": self.winner, "cpu": round(cpu, 3)}

    def stats(self) -> dict:
        return {"race_wins": dict(self.wins), "cpu_seconds": round(self.cpu, 6)}

    def close(self) -> None:
        _unbroken(self.stop.set)
        for conn in self.conns:
            try:
                conn.send(("close",))
            except (BrokenPipeError, OSError):
                pass
        # a worker stopped mid-question still sends its answer (with a model, more than a pipe
        # holds) before it reads "close": what it sends is read, so that it is not left waiting
        # on a reader that has gone; one still busy after half a second (a slice of conflicts
        # it cannot leave on a loaded machine) is killed: nothing it holds is needed any more
        # (it was waited for 2 s, and a Ctrl-C under the test suite's load took 2.08 s)
        deadline = time.monotonic() + 0.5
        for proc, conn in zip(self.procs, self.conns):
            while proc.is_alive() and time.monotonic() < deadline:
                try:
                    if conn.poll(0.01):
                        conn.recv()
                except (EOFError, OSError):
                    proc.join(timeout=0.01)
            if proc.is_alive():
                proc.kill()
            proc.join()
