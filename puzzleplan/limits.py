"""Time limits that hold everywhere: while an encoding is built, lowered, solved or searched.

A run sets one deadline with :func:`time_limit`; long loops anywhere below it
(model building, CNF lowering, CP-SAT model construction, state-space search, and
setting up the rules of a huge board) call :func:`checkpoint`, which costs a counter
increment and, every 512 calls (or units of ``weight``), one clock read.  When the deadline has passed it raises :class:`TimeUp`, which
the planner and the searches turn into a ``timeout`` result with what was
proved so far.  Deadlines nest: an inner limit never extends an outer one.
Each thread has its own deadline (runs in threads of one process do not share one).

Memory is a limit too: :func:`limit_memory` caps the process's address space (children
started afterwards inherit it), so that running out is a ``MemoryError`` -- answered as
``memout`` -- rather than a machine brought to its knees.

What a family writes -- reading a file, building the rules, a lower bound, an encoder --
runs inside :func:`preemptive`: there the deadline interrupts plain Python wherever it
stands (a timer signal raises :class:`TimeUp` in the main thread), so a loop a family
author wrote without a checkpoint cannot overrun the limit.  Solver calls never run
inside it: a solver call runs under :func:`watchdog`, whose thread interrupts it at the
deadline or on Ctrl-C (the backends of :mod:`puzzleplan.planner.backends`, and a family's own
solver calls, such as the strips family's invariant search).
"""
from __future__ import annotations

import errno
import math
import os
import select
import signal
import threading
import time
from contextlib import contextmanager

_local = threading.local()
_calls = 0
_run_start: float | None = None     # when the command began (see start_run): its limits count from there
_held: list = []                    # what a run stopped by its limit left, freed only with the process (see hold)
_holding = False


def _get() -> float | None:
    return getattr(_local, "deadline", None)


class TimeUp(Exception):
    """The run's time limit passed (raised by :func:`checkpoint`)."""


# the longest time limit: the system's waits go no further than about 24 days (a pipe waited
# for with a timeout, in milliseconds of a C int), and a longer one is no limit in practice
MAX_SECONDS = 1_000_000


def check_seconds(seconds: float | None, what: str = "the time limit") -> float | None:
    """``seconds`` if it is a usable limit (finite, > 0, at most :data:`MAX_SECONDS`) or None;
    else a PuzzleError."""
    from .puzzle import PuzzleError
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) \
            or math.isinf(seconds) or seconds <= 0 or seconds > MAX_SECONDS:
        raise PuzzleError(f"{what} must be a positive number of seconds up to {MAX_SECONDS:,}, not {seconds!r}")
    return float(seconds)


def process_start() -> float:
    """When this process started, on the :func:`time.monotonic` clock: the interpreter's start
    and the imports count (now, where the system does not say)."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat") as fh:
            fields = fh.read().rpartition(")")[2].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")       # field 22: start, in ticks since boot
        elapsed = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - min(max(elapsed, 0.0), 30.0)


def start_run(at: float | None = None) -> None:
    """A command's whole-run limit counts from ``at`` (default: the process's start), not from
    the moment its file is opened: the interpreter's start and the imports (a second and more
    on a loaded machine) are part of the run.  Only the first outermost :func:`time_limit` block
    counts from there; for a process that runs one command (the CLI), never a test runner."""
    global _run_start
    _run_start = process_start() if at is None else at


def hold(on: bool = True) -> None:
    """In a process that ends with its command (the CLI): what a run stopped at its limit was
    building (a huge board half set up, millions of objects) is kept, not freed object by
    object past the deadline; :func:`held` says so and the process then ends at once."""
    global _holding
    _holding = on


def held() -> bool:
    """Whether a run stopped by its limit left objects that only the process's end frees."""
    return bool(_held)


def _time_up() -> TimeUp:
    """The exception that ends a run at its deadline: under :func:`hold`, kept with its frames
    when the run's own (outermost) deadline has passed (an inner budget's end is not kept)."""
    err = TimeUp()
    first = getattr(_local, "first", None)
    if _holding and first is not None and time.monotonic() >= first:
        _held.append(err)
    return err


@contextmanager
def time_limit(seconds: float | None):
    """Within the block, :func:`checkpoint` raises :class:`TimeUp` after ``seconds`` (the
    first outermost block of a command counts them from its start, see :func:`start_run`;
    the runs after it, ``seeds``' many solves, from their own).  A limit beyond
    :data:`MAX_SECONDS` counts as that: the timers that keep it go no further."""
    global _run_start
    outer = _get()
    first = getattr(_local, "first", None)
    if seconds is not None:
        seconds = min(seconds, MAX_SECONDS)
        base = time.monotonic()
        if outer is None and _run_start is not None:
            base, _run_start = _run_start, None
        mine = base + seconds
        _local.deadline = mine if outer is None else min(outer, mine)
        if outer is None:
            _local.first = mine
    try:
        yield
    finally:
        _local.deadline = outer
        _local.first = first


def left() -> float | None:
    """Seconds left before the current limit (None: no limit; may be negative)."""
    deadline = _get()
    return None if deadline is None else deadline - time.monotonic()


def expired() -> bool:
    deadline = _get()
    return deadline is not None and time.monotonic() >= deadline


def checkpoint(weight: int = 1) -> None:
    """Cheap; call it in any loop that may run long.  The clock is read once per 512 units of
    work; an iteration that does the work of many (a long slide, a big set copied) says how
    many with ``weight``, so that the limit still holds within a fraction of a second."""
    global _calls
    _calls += weight
    if _calls >= 512:
        _calls = 0
        if expired():
            raise _time_up()


_sigint_pending = False


@contextmanager
def interrupts_recorded():
    """Within the block (in the main thread, under Python's own Ctrl-C handler) a Ctrl-C is
    recorded as well as raised.  Python drops an exception raised inside a finaliser (a
    ``__del__`` or a weakref callback run by the garbage collector prints "Exception ignored"
    and goes on): a Ctrl-C that lands there would be lost, and a solve without a time limit
    would run on.  :func:`raise_if_interrupted`, called before and after solver calls,
    raises it again; a solver already running when it was dropped is stopped by what
    watches it (the watchdog, a race's wait loop), which reads :func:`interrupt_pending`.  Leaving
    the block forgets it (the run has answered ``interrupted``)."""
    global _sigint_pending
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    def record(signum, frame):
        global _sigint_pending
        _sigint_pending = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, record)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _sigint_pending = False


_terminated = False


def _terminate(signum, frame):
    """SIGTERM: what a Ctrl-C does where it lands (raise KeyboardInterrupt, or be recorded or
    deferred by the handler in place), noted so that the command exits with 143."""
    global _terminated
    _terminated = True
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:       # SIGINT ignored (a background job): SIGTERM still stops the run
        raise KeyboardInterrupt


def terminate_as_interrupt() -> None:
    """In a process of its own (the CLI), in the main thread: SIGTERM (a ``kill``, a supervisor
    stopping a job) stops the run as a Ctrl-C does -- solvers stopped, children killed, temporary
    files removed, what was proved reported -- rather than ending the process where it stands,
    which left solver programs running without a limit and their folders behind.  The solver
    watchdog sees it too (any signal with a handler writes to the wakeup fd)."""
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None) or \
            getattr(signal.getsignal(signal.SIGTERM), "until_loaded", False):
        signal.signal(signal.SIGTERM, _terminate)


def terminated() -> bool:
    """Whether the run was stopped by SIGTERM (see :func:`terminate_as_interrupt`)."""
    return _terminated


def interrupt_pending() -> bool:
    """Whether a Ctrl-C was recorded in this run (and may have been lost, see above)."""
    return _sigint_pending


def raise_if_interrupted() -> None:
    """Raise a recorded Ctrl-C (once): before a solver call, which would not see it."""
    global _sigint_pending
    if _sigint_pending:
        _sigint_pending = False
        raise KeyboardInterrupt


@contextmanager
def preemptive():
    """Within the block (in the main thread, under a deadline) the deadline raises
    :class:`TimeUp` wherever the interpreter stands, checkpoints or not.  For code that calls
    no solver and holds nothing that must be released by hand: parsing, building rules,
    lower bounds, encoders.  Blocks nest (the outermost arms the timer)."""
    deadline = _get()
    if deadline is None or getattr(_local, "armed", False) or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum, frame):
        raise _time_up()

    old = signal.signal(signal.SIGALRM, ring)
    _local.armed = True
    try:
        left_now = deadline - time.monotonic()
        if left_now <= 0:
            raise _time_up()
        signal.setitimer(signal.ITIMER_REAL, left_now)
        yield
    finally:
        # the alarm may ring while the block is being left: the teardown is retried until it
        # is done, or a later block would find the timer "armed" and never arm it again
        while True:
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
                _local.armed = False
                break
            except TimeUp:
                continue


DEFAULT_MEMORY_MB = 4096        # as bench's runs: a command that needs more says so (--memory)
# the least --memory taken: a small puzzle solved by CP-SAT needs about 300 MiB of address space
# (Guarini's knights on 2 cores: 88 MiB by python-sat, 272 by CP-SAT, whose libraries and numpy's
# OpenBLAS take most of it, 312 with a BLAS thread per core), and every method runs within 384
MIN_MEMORY_MB = 512
# OpenBLAS (numpy's, loaded with CP-SAT) maps a buffer and starts a thread per core as it loads:
# one thread, so that the memory a run needs does not grow with the machine's cores
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}


def limit_memory(memory_mb: int) -> int:
    """Lower this process's address-space limit to ``memory_mb`` MiB, never raise it (a
    lower limit in force, a shell's ``ulimit -v``, wins); returns the MiB in force."""
    import resource
    size = memory_mb * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    for limit in (soft, hard):
        if limit != resource.RLIM_INFINITY:
            size = min(size, limit)
    resource.setrlimit(resource.RLIMIT_AS, (size, hard))
    return size // (1024 * 1024)


_caps: list[int] = []                   # the MiB of the memory_limit blocks being run, innermost last
_memout_cap: int | None = None          # the MiB of the block a MemoryError left, for its memout message


@contextmanager
def memory_limit(memory_mb: int):
    """Within the block the address space is capped as by :func:`limit_memory` (children
    started inherit the cap); on leaving it the limit before is restored, so that a command
    run in-process (a test, a notebook) does not leave its cap on the caller.  A MemoryError
    (or a failure :func:`out_of_memory` tells as one) that leaves the block leaves its cap to
    :func:`memout_message`: the command reports it after the block, under the limit before (a
    shell's ``ulimit -v``, which is not the cap)."""
    global _memout_cap
    import resource
    before = resource.getrlimit(resource.RLIMIT_AS)
    _memout_cap = None
    _caps.append(limit_memory(memory_mb))
    try:
        yield _caps[-1]
    except BaseException as err:
        if out_of_memory(err):      # told while the cap is in force (a thread not started)
            _memout_cap = _caps[-1]
        raise
    finally:
        _caps.pop()
        resource.setrlimit(resource.RLIMIT_AS, before)


def memory_in_force() -> int | None:
    """The address-space limit in MiB, or None."""
    import resource
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // (1024 * 1024)


_NO_ROOM = ("failed to map segment", "annot allocate memory")      # a library's loader, ENOMEM said in words


def out_of_memory(err: BaseException | None) -> bool:
    """Whether ``err`` is the memory limit's doing: a MemoryError, or an ImportError or OSError
    that is one, or was caused by one (a shared library whose segments could not be mapped), or
    under a memory limit a thread that could not start (its stack is address space too)."""
    seen = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        if isinstance(err, MemoryError) or (isinstance(err, OSError) and err.errno == errno.ENOMEM):
            return True
        if isinstance(err, (ImportError, OSError)) and any(words in str(err) for words in _NO_ROOM):
            return True
        if isinstance(err, RuntimeError) and "can't start new thread" in str(err) \
                and (_caps or _memout_cap or memory_in_force()):
            return True
        err = err.__cause__ or err.__context__
    return False


def room_mb() -> int | None:
    """MiB of address space left under the limit in force (None: no limit, or not known)."""
    cap = memory_in_force()
    if cap is None:
        return None
    try:
        with open("/proc/self/status") as fh:
            used = next(int(line.split()[1]) for line in fh if line.startswith("VmSize:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return None
    return cap - used // 1024


def library(name: str):
    """``import name`` (CP-SAT, numpy) under the memory limit: not loading for want of memory is
    a MemoryError, the run's memout, never an ImportError nor the process's end.  numpy's
    OpenBLAS ends the process (exit code 1, from C) when it cannot map its buffer as it loads,
    so numpy is not loaded with less room than it takes (80 MiB on one thread, 40 more a thread)."""
    import importlib
    import sys
    if "numpy" not in sys.modules:
        try:
            threads = int(os.environ.get("OPENBLAS_NUM_THREADS") or os.cpu_count() or 1)
        except ValueError:
            threads = os.cpu_count() or 1
        room = room_mb()
        if room is not None and room < 48 * (1 + max(threads, 1)):
            raise MemoryError(f"{room} MiB left: too little to load numpy")
    try:
        return importlib.import_module(name)
    except ImportError as err:
        if out_of_memory(err):
            raise MemoryError(f"{name} cannot be loaded within the memory limit") from None
        raise


def memout_message() -> str:
    """What a run stopped by the memory limit says: the cap of the ``--memory`` block (see
    :func:`memory_limit`), else the limit in force, and how to raise it."""
    in_force = (_caps[-1] if _caps else _memout_cap) or memory_in_force()
    return "memory limit reached" + (f" ({in_force:,} MiB; more with --memory)" if in_force else "")


# --- stopping solver calls -----------------------------------------------------------------
class Watchdog:
    """Stops solver calls that run in their callers' threads, from a thread of its own.

    Within ``guard(stop)``, ``stop()`` is called (again every ``poll`` seconds,
    until the block ends) once Ctrl-C is pressed or the caller's time limit
    passes; several threads may be guarded at once.  Python's C-level signal
    handler writes to the wakeup fd even while the main thread is inside the
    solver; this thread waits on that fd.  The interrupt itself is raised by
    Python in the main thread when the call has returned.  A Ctrl-C recorded by
    :func:`interrupts_recorded` stops the main thread's calls too:
    one whose KeyboardInterrupt Python dropped in a finaliser as the call started,
    after landing before the wakeup fd was set, wrote nothing to it.  Solving in the
    caller's thread, rather than waiting for a solver thread, is ~8% faster on
    Rush Hour card 40 (209 short calls; a thread's wake-ups moved the solver
    between cores)."""

    def __init__(self, poll: float = 0.05):
        self.poll = poll
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        os.set_blocking(self.w, False)
        self.lock = threading.Lock()
        self.jobs: dict[int, list] = {}     # id -> [stop, deadline or None, fired, main thread]
        self.busy = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="puzzleplan-watchdog", daemon=True)
        self.thread.start()

    def _drain(self) -> bool:
        got = False
        try:
            while os.read(self.r, 512):
                got = True
        except BlockingIOError:
            pass
        return got

    def _loop(self):
        while True:
            self.busy.wait()
            with self.lock:
                if not self.jobs:
                    self.busy.clear()
                    continue
                # jobs already stopped are stopped again every poll, not in a busy loop
                deadlines = [job[1] for job in self.jobs.values() if job[1] is not None and not job[2]]
            wait = self.poll if not deadlines else max(0.0, min(self.poll, min(deadlines) - time.monotonic()))
            sigint = bool(select.select([self.r], [], [], wait)[0]) and self._drain()
            recorded = interrupt_pending()
            now = time.monotonic()
            with self.lock:
                for job in self.jobs.values():
                    if sigint or job[2] or (recorded and job[3]) or (job[1] is not None and now >= job[1]):
                        job[2] = True
                        try:
                            job[0]()
                        except Exception:   # a stop that fails must not end the thread
                            pass            # that stops every other call of the process

    @contextmanager
    def guard(self, stop):
        """Within the block, ``stop`` is called on Ctrl-C or at the caller's deadline."""
        main = threading.current_thread() is threading.main_thread()
        old = None
        key = object()
        try:        # a Ctrl-C while the job is being set up leaves neither the job nor the fd behind
            if main:
                self._drain()
                old = signal.set_wakeup_fd(self.w, warn_on_full_buffer=False)
            remaining = left()
            with self.lock:
                self.jobs[id(key)] = [stop, None if remaining is None else time.monotonic() + remaining, False, main]
                self.busy.set()
            yield
        finally:
            with self.lock:
                self.jobs.pop(id(key), None)
            if old is not None:
                signal.set_wakeup_fd(old)


_watchdog: Watchdog | None = None
_watchdog_lock = threading.Lock()


def watchdog() -> Watchdog:
    """The process's watchdog (started on first use, and again if its thread has ended)."""
    global _watchdog
    with _watchdog_lock:
        if _watchdog is None or not _watchdog.thread.is_alive():
            _watchdog = Watchdog()
        return _watchdog


def solve_stoppable(solver, assumptions=()) -> bool:
    """One call of a python-sat ``solver`` (one that can be interrupted) in this thread,
    stopped by :func:`watchdog` at the current deadline (raises :class:`TimeUp`) or on Ctrl-C
    (raises ``KeyboardInterrupt``); its answer otherwise.  For solver calls outside the
    planner's backends (a family's invariant search, the AIGER invariant check)."""
    with watchdog().guard(solver.interrupt):
        answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    solver.clear_interrupt()
    if answer is None:
        raise TimeUp() if expired() else KeyboardInterrupt()
    return answer
