"""Run methods x instances, each run in a process of its own, and append the figures.

Isolation: every run is ``python -m puzzleplan.bench.worker``, which first limits
its own address space (``RLIMIT_AS``), with a wall-clock limit after which the process is killed; a
run that exceeds either is recorded (``timeout``/``memout``) and the bench goes on.

Results: one row per run, appended and flushed as the run ends (``.csv``, or
``.jsonl`` for JSON lines), so a killed bench loses nothing; a rerun skips the
(instance, level, metric, method, constraints) rows already there, except rows
that ended in ``error``: those runs are made again, and the old rows stay as
history (readers take the latest row of each key).  A CSV is appended to only under the
bench's own header and after a whole row; a row cut short is left out by readers, and its run
made again.  Each invocation also appends its command, machine and versions to ``OUT.meta.jsonl``.

Interrupts: on Ctrl-C (SIGINT) the bench launches nothing more, kills the
process groups of its running runs (each run has a session of its own, so an
external solver it started dies too), keeps every finished row and raises
:class:`Interrupted`; the command line exits with 130.  A rerun resumes.

Parallelism: ``jobs`` local processes at a time (default 1, so timings stay
fair), or a Dask cluster (``dask_address``): the same isolated run is submitted
to Dask workers, which must see the instance files at the same paths.
"""
from __future__ import annotations

import fnmatch
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..catalogue import catalogue, instances_root
from .. import registry
from ..formats.common import number
from ..outputs import append_to, appendable, check_folder
from ..formats.load import level_count
from ..limits import BLAS_THREADS
from ..puzzle import PuzzleError
from .results import KEY, Sink, done_keys, is_meta, read_results, resolved  # noqa: F401 (read_results: a caller's)

ROOT = Path(__file__).resolve().parent.parent.parent
GRACE = 10.0     # seconds a run may overshoot its own time limit before it is killed


@dataclass(frozen=True)
class Task:
    instance: str
    level: int | None
    metric: str | None
    method: str
    constraints: tuple[str, ...] = field(default=())
    # why the method does not take this puzzle (Plugin.supports, asked when the bench is
    # planned): the run is not made, its row says ``refused`` and why
    refused: str | None = field(default=None, compare=False)

    def fields(self) -> tuple[str, ...]:
        """The key columns of its row, the instance as it was given."""
        return (self.instance, "" if self.level is None else str(self.level), self.metric or "", self.method,
                " ".join(self.constraints))

    def key(self) -> tuple[str, ...]:
        """What a rerun recognises it by: the key columns, the instance file resolved."""
        return (resolved(self.instance),) + self.fields()[1:]


def parse_levels(text: str | None) -> list[int] | None:
    """``1-40`` or ``1,3,5-7``."""
    if not text:
        return None
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        first, last = number(lo.strip()), number((hi or lo).strip())
        if first is None or last is None:
            raise PuzzleError(f"--levels {text!r}: write levels like 1-40 or 1,3,5")
        if last < first:      # 5-1 is a slip, not "every level"
            raise PuzzleError(f"--levels {text!r}: the range {part} runs backwards (write {last}-{first})")
        if last - first >= 100_000:
            raise PuzzleError(f"--levels {text!r}: the range {part} holds more than 100,000 levels")
        out += list(range(first, last + 1))
    return out


CATALOGUED = "catalogue:"


def _files(spec: str) -> list[str]:
    """The puzzle files a set names (none for the catalogue, whose entries name their levels)."""
    path = Path(spec)
    if spec.startswith(CATALOGUED) or not path.exists():
        return []
    if path.is_dir():
        return [str(p) for p in sorted(path.rglob("*")) if p.is_file() and registry.is_puzzle_file(p)]
    return [spec]


def located(instance: str) -> str:
    """The file behind a row's instance: ``catalogue:instances/...`` is a bundled
    instance (a checkout's or an installed package's); anything else is a path as given."""
    if instance.startswith(CATALOGUED):
        return str(instances_root() / instance[len(CATALOGUED):].removeprefix("instances/"))
    return instance


def own_levels(spec: str) -> tuple[str, list[int] | None]:
    """``thinkfun40.rh@1-5`` -> (``thinkfun40.rh``, [1..5]): a set with levels of its own; a set without
    ``@`` (or whose ``@`` is part of an existing file's name) has none."""
    path, sep, levels = spec.rpartition("@")
    if not sep or not path or Path(spec).exists() or spec.startswith("catalogue:"):
        return spec, None
    try:
        return path, parse_levels(levels)
    except PuzzleError as err:
        raise PuzzleError(f"{spec}: " + err.problem.partition(": ")[2]) from None


def metric_choice(text: str | None) -> tuple[str | None, dict[str, str]]:
    """``-m``: ``slides`` (every run), ``sliding=slides,knights=steps`` (per family), or both:
    (the metric for every family not named, {family: metric}); families are checked by name."""
    overall, per_family = None, {}
    for part in (p.strip() for p in (text or "").split(",")):
        if not part:
            continue
        family, sep, metric = part.partition("=")
        if not sep:
            if overall is not None and overall != part:
                raise PuzzleError(f"--metric {text!r}: two metrics for every run ({overall}, {part}); name the "
                                  "family of one: FAMILY=METRIC")
            overall = part
            continue
        registry.get(family.strip())        # an unknown family, said with the known ones
        per_family[family.strip()] = metric.strip()
    return overall, per_family


def instances(spec: str, levels: list[int] | None, metric: str | None) -> list[tuple[str, int | None, str | None]]:
    """``(path, level, metric)`` for a file (every level of a collection unless ``levels``, which
    single puzzles ignore; ``FILE@LEVELS``: levels of its own), a folder (every puzzle file under
    it) or ``catalogue:GLOB`` (entries of instances/catalogue.csv whose name matches, each with its
    own metric unless one is given)."""
    spec, own = own_levels(spec)
    if spec.startswith("catalogue:"):
        pattern = spec.partition(":")[2] or "*"
        rows = [r for r in catalogue() if fnmatch.fnmatch(r["name"], pattern)]
        if not rows:
            raise PuzzleError(f"no catalogue entry matches {pattern!r}")
        out = []
        for r in rows:
            # stored as ``catalogue:instances/...``: the same key from any clone or folder
            item = (CATALOGUED + "instances/" + r["file"], int(r["level"]) if r["level"] else None,
                    metric or r["metric"])
            if item not in out:
                out.append(item)
        return out
    path = Path(spec)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and registry.is_puzzle_file(p))
        if not files:
            raise PuzzleError(f"no puzzle file in the folder {spec}")
        return [item for f in files for item in instances(str(f), levels, metric)]
    if not path.exists():
        raise PuzzleError(f"no such file or folder: {spec}")
    count = level_count(path)
    chosen = own or (levels if count > 1 else None) or (list(range(1, count + 1)) if count > 1 else [None])
    for lv in chosen:
        if lv is not None and not 1 <= lv <= count:
            raise PuzzleError(f"unknown level number {lv}: {spec} has {count}")
    return [(str(path), lv, metric) for lv in chosen]


def machine() -> str:
    model = platform.processor()
    try:
        model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{platform.machine()} {os.cpu_count()} cores {model}".strip()


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children waited for (an outside planner, the
    translator): the benchmarks' clock for runs in this process."""
    import resource
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + child.ru_utime + child.ru_stime


def revision() -> str | None:
    """The project's git commit (``+changes`` when the tree differs from it), if it is a checkout."""
    if not (ROOT / "pyproject.toml").is_file():     # an installed package, not a checkout
        return None
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+changes" if dirty else "")


def versions() -> str:
    """Python, puzzleplan and every package a method of the registry needs (its ``requires``:
    python-sat, OR-Tools, the planners' wheels...), with their versions where installed."""
    from importlib.metadata import PackageNotFoundError, version

    from .. import plugins
    out = [f"python {platform.python_version()}"]
    rev = revision()
    packages = ["puzzleplan"] + [r.dist for r in plugins.requirements(plugins.table()) if isinstance(r, plugins.Package)]
    for pkg in dict.fromkeys(packages):
        try:
            out.append(f"{pkg} {version(pkg)}" + (f" (git {rev})" if pkg == "puzzleplan" and rev else ""))
        except PackageNotFoundError:
            pass
    return ", ".join(out)


class Interrupted(Exception):
    """The bench was stopped by Ctrl-C; ``made`` runs are on file, ``left`` were not run."""

    def __init__(self, made: int, left: int):
        super().__init__(f"interrupted: {made} runs on file, {left} not run")
        self.made, self.left = made, left


class Launcher:
    """The runs' processes, so that an interrupt can stop launching and kill them all.

    Launching and stopping hold one lock: no run starts after :meth:`stop`."""

    def __init__(self):
        self.lock = threading.Lock()
        self.stopped = False
        self.running: set[subprocess.Popen] = set()

    def start(self, cmd: list[str], env: dict | None = None) -> subprocess.Popen | None:
        with self.lock:
            if self.stopped:
                return None
            # a session of its own: the terminal's Ctrl-C does not reach it, we kill its group
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True, env=env)
            self.running.add(proc)
            return proc

    def finished(self, proc: subprocess.Popen) -> None:
        with self.lock:
            self.running.discard(proc)

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for proc in self.running:
                kill_group(proc)


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_isolated(task: dict, time_limit: float | None, memory_mb: int | None,
                 launcher: Launcher | None = None) -> dict | None:
    """Run one task in a fresh process under the limits; returns its figures
    (``None`` if ``launcher`` was stopped before the run began, or while it ran)."""
    payload = json.dumps({**task, "time_limit": time_limit, "memory_mb": memory_mb})
    cmd = [sys.executable, "-m", "puzzleplan.bench.worker", payload]
    launcher = launcher or Launcher()
    # the run's temporary files (a model checker's, a planner's) in a folder of its own, removed
    # here however the run ends: a run killed at its limit or by Ctrl-C cannot clean up itself
    scratch = tempfile.mkdtemp(prefix="puzzleplan-run-")
    t0 = time.perf_counter()
    try:
        proc = launcher.start(cmd, {**BLAS_THREADS, **os.environ, "TMPDIR": scratch})
        if proc is None:
            return None
        try:
            out, err = proc.communicate(timeout=None if time_limit is None else time_limit + GRACE)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            proc.communicate()
            return {"status": "timeout", "seconds": round(time.perf_counter() - t0, 4),
                    "message": "killed at the wall-clock limit"}
        finally:
            launcher.finished(proc)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if launcher.stopped:
        return None
    wall = round(time.perf_counter() - t0, 4)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if proc.returncode == 0 and lines:
        row = json.loads(lines[-1])
        return row
    tail = err.strip().splitlines()[-1] if err.strip() else f"exit code {proc.returncode}"
    memory = any(word in err for word in ("MemoryError", "bad_alloc", "Cannot allocate", "out of memory",
                                          "failed to map segment", "OpenBLAS error: Memory allocation"))
    return {"status": "memout" if memory else "error", "seconds": wall, "message": tail[:300]}


def bench(tasks: Iterable[Task], out: str | Path, time_limit: float | None = 300, memory_mb: int | None = 4096,
          jobs: int = 1, dask_address: str | None = None, echo: Callable[[str], None] = print,
          command: Sequence[str] | None = None, announce: Callable[[int], None] | None = None) -> int:
    """Run every task not already in ``out``; returns the number of rows written (runs made, and
    tasks refused up front: their rows say ``refused`` and why).
    ``echo(line)`` gets one line per run as it ends; ``announce(n)``, the number of runs to make."""
    from ..limits import check_seconds
    time_limit = check_seconds(time_limit)      # before anything is written
    out = Path(out)
    check_folder(out.parent, (), True, "--out")     # one new folder at most, where its parent exists
    appendable(out, lambda p: True, "a results file")     # a link refused (done_keys checks the contents)
    meta_file = appendable(str(out) + ".meta.jsonl", is_meta, "a bench's meta file")
    skip = done_keys(out)           # before anything is written: an unrelated file is refused untouched
    client = connect(dask_address) if dask_address else None
    out.parent.mkdir(exist_ok=True)
    todo = [t for t in dict.fromkeys(tasks) if t.key() not in skip]
    meta = {"command": list(command if command is not None else sys.argv), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "machine": machine(), "versions": versions(), "jobs": jobs, "dask": dask_address,
            "time_limit": time_limit, "memory_mb": memory_mb, "runs": len(todo), "skipped": len(skip)}
    with append_to(meta_file) as fh:
        fh.write(json.dumps(meta) + "\n")
    sink = Sink(out)
    if announce:
        announce(len(todo))
    common = {"machine": meta["machine"], "versions": meta["versions"], "time_limit": time_limit, "memory_mb": memory_mb}

    made = 0

    def record(task: Task, figures: dict) -> None:
        nonlocal made
        row = {**dict(zip(KEY, task.fields())), **common, **figures}
        sink.write(row)
        made += 1
        # a failed run says why on its own line, not only in the file
        why = f"\n  {row['message']}" if row["status"] in ("error", "memout", "refused") and row.get("message") else ""
        echo(f"{task.instance} {row['level']} {row['metric']} {task.method}: {row['status']} "
             f"{row.get('length') if row.get('length') is not None else '-'} {row.get('seconds')}s{why}")

    rows = len(todo)
    for task in [t for t in todo if t.refused]:        # refused up front: no run, the reason on file
        record(task, {"status": "refused", "message": task.refused, "seconds": 0.0})
    todo = [t for t in todo if not t.refused]
    payloads = {t: {k: v for k, v in asdict(t).items() if k != "refused"} for t in todo}
    try:
        if client is not None:
            run_on_dask(client, todo, payloads, time_limit, memory_mb, record)
        else:
            run_locally(jobs, todo, payloads, time_limit, memory_mb, record)
    except KeyboardInterrupt:
        raise Interrupted(made, rows - made) from None
    finally:
        sink.close()
    return rows


def run_locally(jobs, todo, payloads, time_limit, memory_mb, record) -> None:
    """``jobs`` runs at a time; on Ctrl-C nothing more starts and the running ones are killed."""
    launcher = Launcher()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = {pool.submit(run_isolated, payloads[t], time_limit, memory_mb, launcher): t for t in todo}
        for fut in as_completed(futures):
            record(futures[fut], fut.result())
    except BaseException:
        launcher.stop()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


DASK_CONNECT_SECONDS = 15


def connect(address: str):
    """A Dask client for ``address``, or one line saying why not (a wrong address, nobody there,
    the package missing)."""
    try:
        from distributed import Client
    except ImportError:
        raise PuzzleError("--dask needs the distributed package: pip install -e '.[cluster]'") from None
    try:
        return Client(address, timeout=DASK_CONNECT_SECONDS)
    # OSError: timeouts too; ValueError: a malformed address; anything else the client raises
    # while it connects (an assertion inside it, seen once under load) is still "cannot connect"
    except Exception as err:
        raise PuzzleError(f"--dask {address}: cannot connect: {str(err).splitlines()[0] if str(err) else type(err).__name__}") from None


def run_on_dask(client, todo, payloads, time_limit, memory_mb, record) -> None:
    from distributed import as_completed as dask_completed
    with client:
        futures = {client.submit(run_isolated, payloads[t], time_limit, memory_mb, pure=False): t for t in todo}
        try:
            for fut in dask_completed(futures):
                record(futures[fut], fut.result())
        except BaseException:
            client.cancel(list(futures))
            raise


def plan_tasks(sets: Sequence[str], levels: str | None, metric: str | None, methods: Sequence[str],
               constraints: Sequence[str] = ()) -> list[Task]:
    """The runs of a bench: every method on every instance of ``sets`` (files, folders,
    ``catalogue:GLOB``; ``levels`` like ``1-40``), each method checked before any run
    (known, its solver or planner installed), each metric checked against its family, the
    conditions against each instance; a method that does not take an instance in its metric
    under the conditions (:meth:`~puzzleplan.plugins.Plugin.supports`) gets a task marked
    ``refused`` with the reason, which the bench records without running it."""
    from .. import methods as registry
    from ..formats.load import load
    from ..puzzle import Contradiction, check_metric
    chosen = parse_levels(levels)
    overall, per_family = metric_choice(metric)
    if chosen and not any(level_count(Path(p)) > 1 for spec in sets for p in _files(own_levels(spec)[0])):
        raise PuzzleError(f"--levels {levels}: none of the instances is a collection of levels (give a "
                          "file's own levels as FILE@LEVELS)")
    names = [m.strip() for m in methods if m.strip()]
    for method in dict.fromkeys(names):
        registry.check(method)
    built = {method: registry.build(method) for method in dict.fromkeys(names)}
    tasks = []
    for spec in sets:
        for path, level, m in instances(spec, chosen, overall):
            try:        # the conditions are checked here too: one that names nothing is a mistake, said once
                problem = load(located(path), level, constraints=constraints).problem
            except Contradiction:       # well formed, no plan can meet them: that run's answer
                problem = load(located(path), level).problem
            m = check_metric(problem, per_family.get(problem.family.name, m))
            tasks += [Task(path, level, m, method, tuple(constraints),
                           built[method].supports(problem.family, m, problem.counts))
                      for method in names]
    return tasks
