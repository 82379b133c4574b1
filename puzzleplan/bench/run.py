"""Run methods x instances, each run in a process of its own, and append the figures.

Isolation: every run is ``python -m puzzleplan.bench.worker``, which first limits
its own address space (``RLIMIT_AS``), with a wall-clock limit after which the process is killed; a
run that exceeds either is recorded (``timeout``/``memout``) and the bench goes on.

Results: one row per run, appended and flushed as the run ends (``.csv``, or
``.jsonl`` for JSON lines), so a killed bench loses nothing; a rerun skips the
(instance, level, metric, method, constraints) rows already there.  Each
invocation also appends its command, machine and versions to ``OUT.meta.jsonl``.

Parallelism: ``jobs`` local processes at a time (default 1, so timings stay
fair), or a Dask cluster (``dask_address``): the same isolated run is submitted
to Dask workers, which must see the instance files at the same paths.
"""
from __future__ import annotations

import csv
import fnmatch
import json
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..formats.load import KINDS, level_count
from ..puzzle import PuzzleError

ROOT = Path(__file__).resolve().parent.parent.parent
FIELDS = ["instance", "level", "metric", "method", "constraints", "status", "length", "bound", "seconds",
          "cpu_seconds", "peak_rss_mb", "horizons", "vars", "clauses", "conflicts", "expanded", "time_limit",
          "memory_mb", "message", "horizon_figures", "machine", "versions"]
KEY = ("instance", "level", "metric", "method", "constraints")
GRACE = 10.0     # seconds a run may overshoot its own time limit before it is killed


@dataclass(frozen=True)
class Task:
    instance: str
    level: int | None
    metric: str | None
    method: str
    constraints: tuple[str, ...] = field(default=())

    def key(self) -> tuple[str, ...]:
        return (self.instance, "" if self.level is None else str(self.level), self.metric or "", self.method,
                " ".join(self.constraints))


def parse_levels(text: str | None) -> list[int] | None:
    """``1-40`` or ``1,3,5-7``."""
    if not text:
        return None
    out = []
    try:
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            out += list(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise PuzzleError(f"--levels {text!r}: write levels like 1-40 or 1,3,5") from None
    return out


CATALOGUED = "catalogue:"


def located(instance: str) -> str:
    """The file behind a row's instance: ``catalogue:instances/...`` is under the
    project's root; anything else is a path as given."""
    if instance.startswith(CATALOGUED):
        return str(ROOT / instance[len(CATALOGUED):])
    return instance


def instances(spec: str, levels: list[int] | None, metric: str | None) -> list[tuple[str, int | None, str | None]]:
    """``(path, level, metric)`` for a file (every level of a collection unless ``levels``),
    a folder (every puzzle file under it) or ``catalogue:GLOB`` (entries of
    instances/catalogue.csv whose name matches, each with its own metric unless one is given)."""
    if spec.startswith("catalogue:"):
        pattern = spec.partition(":")[2] or "*"
        rows = [r for r in csv.DictReader(open(ROOT / "instances/catalogue.csv")) if fnmatch.fnmatch(r["name"], pattern)]
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
        files = sorted(p for p in path.rglob("*") if p.is_file() and
                       (p.suffix.lower() in KINDS or p.suffixes[-2:-1] and p.suffixes[-2].lower() in KINDS))
        if not files:
            raise PuzzleError(f"no puzzle file in the folder {spec}")
        return [item for f in files for item in instances(str(f), levels, metric)]
    if not path.exists():
        raise PuzzleError(f"no such file or folder: {spec}")
    count = level_count(path)
    chosen = levels or (list(range(1, count + 1)) if count > 1 else [None])
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


def revision() -> str | None:
    """The project's git commit (``+changes`` when the tree differs from it), if it is a checkout."""
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
    from importlib.metadata import PackageNotFoundError, version
    out = [f"python {platform.python_version()}"]
    rev = revision()
    for pkg in ("puzzleplan", "python-sat", "ortools", "up-fast-downward", "up-symk"):
        try:
            out.append(f"{pkg} {version(pkg)}" + (f" (git {rev})" if pkg == "puzzleplan" and rev else ""))
        except PackageNotFoundError:
            pass
    return ", ".join(out)


def run_isolated(task: dict, time_limit: float | None, memory_mb: int | None) -> dict:
    """Run one task in a fresh process under the limits; returns its figures."""
    payload = json.dumps({**task, "time_limit": time_limit, "memory_mb": memory_mb})
    cmd = [sys.executable, "-m", "puzzleplan.bench.worker", payload]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=None if time_limit is None else time_limit + GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"status": "timeout", "seconds": round(time.perf_counter() - t0, 4),
                "message": "killed at the wall-clock limit"}
    wall = round(time.perf_counter() - t0, 4)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if proc.returncode == 0 and lines:
        row = json.loads(lines[-1])
        return row
    tail = err.strip().splitlines()[-1] if err.strip() else f"exit code {proc.returncode}"
    memory = any(word in err for word in ("MemoryError", "bad_alloc", "Cannot allocate", "out of memory"))
    return {"status": "memout" if memory else "error", "seconds": wall, "message": tail[:300]}


def done_keys(out: Path) -> set[tuple[str, ...]]:
    if not out.exists():
        return set()
    if out.suffix == ".jsonl":
        rows = [json.loads(line) for line in open(out) if line.strip()]
    else:
        rows = list(csv.DictReader(open(out)))
    return {tuple("" if r.get(k) is None else str(r.get(k)) for k in KEY) for r in rows}


class Sink:
    """Appends rows to a CSV or JSON-lines file, flushing each one."""

    def __init__(self, out: Path):
        self.out, self.jsonl = out, out.suffix == ".jsonl"
        new = not out.exists() or out.stat().st_size == 0
        self.fh = open(out, "a", newline="")
        if not self.jsonl:
            self.writer = csv.DictWriter(self.fh, FIELDS, extrasaction="ignore")
            if new:
                self.writer.writeheader()

    def write(self, row: dict) -> None:
        if self.jsonl:
            self.fh.write(json.dumps(row) + "\n")
        else:
            self.writer.writerow({**row, "horizon_figures": json.dumps(row.get("horizon_figures") or [])})
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


def bench(tasks: Iterable[Task], out: str | Path, time_limit: float | None = 300, memory_mb: int | None = 4096,
          jobs: int = 1, dask_address: str | None = None, echo: Callable[[str], None] = print,
          command: Sequence[str] | None = None) -> int:
    """Run every task not already in ``out``; returns the number of runs made."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    skip = done_keys(out)
    todo = [t for t in dict.fromkeys(tasks) if t.key() not in skip]
    meta = {"command": list(command if command is not None else sys.argv), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "machine": machine(), "versions": versions(), "jobs": jobs, "dask": dask_address,
            "time_limit": time_limit, "memory_mb": memory_mb, "runs": len(todo), "skipped": len(skip)}
    with open(str(out) + ".meta.jsonl", "a") as fh:
        fh.write(json.dumps(meta) + "\n")
    sink = Sink(out)
    common = {"machine": meta["machine"], "versions": meta["versions"], "time_limit": time_limit, "memory_mb": memory_mb}

    def record(task: Task, figures: dict) -> None:
        row = {**dict(zip(KEY, task.key())), **common, **figures}
        sink.write(row)
        echo(f"{task.instance} {row['level']} {row['metric']} {task.method}: {row['status']} "
             f"{row.get('length') if row.get('length') is not None else '-'} {row.get('seconds')}s")

    payloads = {t: {k: v for k, v in asdict(t).items()} for t in todo}
    try:
        if dask_address:
            from distributed import Client, as_completed as dask_completed
            with Client(dask_address) as client:
                futures = {client.submit(run_isolated, payloads[t], time_limit, memory_mb, pure=False): t for t in todo}
                for fut in dask_completed(futures):
                    record(futures[fut], fut.result())
        else:
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                futures = {pool.submit(run_isolated, payloads[t], time_limit, memory_mb): t for t in todo}
                for fut in as_completed(futures):
                    record(futures[fut], fut.result())
    finally:
        sink.close()
    return len(todo)


def read_results(path: str | Path):
    """The results file as a pandas DataFrame (``horizon_figures`` decoded)."""
    import pandas as pd
    path = Path(path)
    if not path.exists():
        raise PuzzleError(f"no such results file: {path}")
    try:
        if path.suffix == ".jsonl":
            df = pd.read_json(path, lines=True)
        else:
            df = pd.read_csv(path, keep_default_na=True)
    except ValueError as err:
        raise PuzzleError(f"{path}: not a results file ({err})") from None
    missing = {"instance", "method", "status", "seconds"} - set(df.columns)
    if missing:
        raise PuzzleError(f"{path}: not a results file (no column {', '.join(sorted(missing))})")
    if "horizon_figures" in df.columns:
        df["horizon_figures"] = [json.loads(v) if isinstance(v, str) else (v if isinstance(v, list) else [])
                                 for v in df["horizon_figures"]]
    df["level"] = [("" if pd.isna(v) or v == "" else str(int(float(v)))) for v in df["level"]] if "level" in df else ""
    df["label"] = [Path(i).stem + (f":{lv}" if lv else "") for i, lv in zip(df["instance"], df["level"])]
    return df
