"""Run methods on instances and append one CSV row per run.

A row is written as soon as its run ends, so a killed benchmark loses nothing;
a rerun skips the (instance, level, metric, method) rows already in the file.
Runs are sequential in this process (timings stay fair on a shared machine).
"""
from __future__ import annotations

import csv
import os
import platform
import sys
from pathlib import Path

from ..formats.load import load
from ..planner import solve
from ..puzzle import PuzzleError
from ..search import SEARCHES

FIELDS = ["instance", "level", "metric", "method", "status", "length", "seconds", "horizons",
          "vars", "clauses", "conflicts", "expanded", "peak_rss_mb", "machine", "python"]


def machine() -> str:
    return f"{platform.machine()} {os.cpu_count()} cores {platform.system()}"


def run_one(path: str, level: int | None, metric: str, method: str, time_limit: float) -> dict:
    domain = load(path, level).domain
    if method in SEARCHES:
        result = SEARCHES[method](domain, metric, time_limit)
    else:
        result = solve(domain, metric, method, time_limit)
    s = result.stats
    return {"status": result.status.value, "length": result.length, "seconds": s.get("seconds"),
            "horizons": s.get("horizons_tried"), "vars": s.get("vars"), "clauses": s.get("clauses"),
            "conflicts": s.get("conflicts"), "expanded": s.get("expanded"), "peak_rss_mb": s.get("peak_rss_mb")}


def bench(tasks, methods, out: str | Path, time_limit: float = 300, echo=print) -> int:
    """``tasks``: ``[(path, level, metric)]``.  Returns the number of runs made."""
    out = Path(out)
    done = set()
    if out.exists():
        with open(out) as f:
            done = {(r["instance"], r["level"], r["metric"], r["method"]) for r in csv.DictReader(f)}
    new_file = not out.exists()
    made = 0
    with open(out, "a", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        if new_file:
            writer.writeheader()
        for path, level, metric in tasks:
            for method in methods:
                key = (str(path), "" if level is None else str(level), metric, method)
                if key in done:
                    continue
                try:
                    row = run_one(str(path), level, metric, method, time_limit)
                except PuzzleError as err:
                    row = {"status": f"error: {err.problem}"}
                row.update(instance=key[0], level=key[1], metric=metric, method=method,
                           machine=machine(), python=sys.version.split()[0])
                writer.writerow(row)
                f.flush()
                made += 1
                echo(f"{key[0]} {key[1]} {metric} {method}: {row['status']} {row.get('length')} "
                     f"{row.get('seconds')}s")
    return made


def summary(path: str | Path) -> list[str]:
    """A Markdown table: per method, solved count, total and median seconds."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    methods = sorted({r["method"] for r in rows})
    lines = ["| method | runs | optimal | total s | median s |", "|---|---|---|---|---|"]
    for m in methods:
        mine = [r for r in rows if r["method"] == m]
        secs = sorted(float(r["seconds"]) for r in mine if r["seconds"])
        med = secs[len(secs) // 2] if secs else float("nan")
        lines.append(f"| {m} | {len(mine)} | {sum(r['status'] == 'optimal' for r in mine)} | "
                     f"{sum(secs):.1f} | {med:.2f} |")
    return lines
