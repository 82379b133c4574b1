"""Each lever of SAT on long plans alone, in one process, CPU seconds beside wall seconds.

Variants (``BACKEND[/CHANGE...]``): a backend as ``puzzleplan solve -b`` takes it, with levers
of the double-ended encoding changed: ``/nogoal`` (no goal-side lemmas), ``/bounds`` (the
goal-side distance bounds on; ``/nobounds``: off, the default), ``/nolemmas`` (no lemma
questions on either side: layers are only built).  Sets: ``cards`` (the 10 ThinkFun cards with the longest optima, steps),
``mas``, ``pennant``, ``klotski`` (steps), ``microban`` (the 30 IPC-mapped Microban levels,
pushes).  One row per instance and variant in ``benchmarks/levers/levers_inprocess.csv``, with the
load average before the run: on a loaded machine CPU seconds are the steadier figure.

    .venv/bin/python benchmarks/levers/levers.py cards pysat pysat-de pysat-de/nogoal pysat-de/nolemmas
    .venv/bin/python benchmarks/levers/levers.py microban --time-limit 60 pysat-de/bounds pysat-de/nobounds pysat
"""
from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from puzzleplan.formats.load import load
from puzzleplan.planner import lemmas as lemma_module
from puzzleplan.planner import solve

ROOT = Path(__file__).resolve().parents[2]
IPC_LEVELS = [12, 24, 14, 6, 95, 32, 66, 131, 128, 64, 152, 127, 142, 94, 134, 147, 96, 148, 83, 154, 107, 118,
              35, 106, 133, 78, 126, 150, 145, 146]
SETS = {
    "cards": [("rushhour/thinkfun40.rh", level, "steps") for level in [32, 36, 37, 31, 34, 35, 33, 38, 40, 39]],
    "mas": [("sliding/mas_puzzle.slide", None, "steps")],
    "pennant": [("sliding/pennant.slide", None, "steps")],
    "klotski": [("seeds/klotski_seed000.slide", None, "steps")],
    "microban": [("sokoban/Microban.txt", level, "pushes") for level in IPC_LEVELS],
}
FIELDS = ["variant", "instance", "level", "metric", "status", "length", "bound", "seconds", "cpu_seconds",
          "conflicts", "lemma_units", "goal_lemma_units", "load", "git", "machine"]


@contextmanager
def no_lemma_questions():
    """Lemma saturation only builds the layers (no SAT questions, no units)."""
    saturate = lemma_module.ReachabilityLemmas.saturate

    def build_only(self, t):
        while self.done < t:
            self.grow(self.done + 1)
            self.done += 1
        return True

    lemma_module.ReachabilityLemmas.saturate = build_only
    try:
        yield
    finally:
        lemma_module.ReachabilityLemmas.saturate = saturate


def run(variant: str, path: str, level, metric: str, time_limit: float) -> dict:
    backend, *off = variant.split("/")
    domain = load(ROOT / "instances" / path, level).problem
    options = {"goal_lemmas": "nogoal" not in off, "bounds": "bounds" in off}
    t0, c0 = time.perf_counter(), time.process_time()
    if "nolemmas" in off:
        with no_lemma_questions():
            r = solve(domain, metric, backend, time_limit=time_limit, **options)
    else:
        r = solve(domain, metric, backend, time_limit=time_limit, **options)
    cpu = time.process_time() - c0 + r.stats.get("cpu_seconds", 0)    # a race's solver processes
    return {"status": r.status.value, "length": r.length, "bound": r.bound,
            "seconds": round(time.perf_counter() - t0, 3), "cpu_seconds": round(cpu, 3),
            "conflicts": r.stats.get("conflicts"), "lemma_units": r.stats.get("lemma_units"),
            "goal_lemma_units": r.stats.get("goal_lemma_units")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("variants", nargs="+")
    ap.add_argument("-o", "--out", default=str(ROOT / "benchmarks/levers/levers_inprocess.csv"))
    ap.add_argument("--time-limit", type=float, default=120)
    args = ap.parse_args()
    machine = f"{platform.machine()} {os.cpu_count()} cores {platform.processor() or ''}".strip()
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    out = Path(args.out)
    new = not out.exists()
    with out.open("a", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        if new:
            writer.writeheader()
        for variant in args.variants:
            cpu = []
            for path, level, metric in SETS[args.set]:
                load_avg = round(os.getloadavg()[0], 2)
                row = {"variant": variant, "instance": path, "level": level, "metric": metric,
                       **run(variant, path, level, metric, args.time_limit),
                       "load": load_avg, "git": git, "machine": machine}
                writer.writerow(row)
                f.flush()
                cpu.append(row["cpu_seconds"])
                print(f"{variant} {path} {level or ''}: {row['status']} {row['length']} "
                      f"{row['seconds']} s ({row['cpu_seconds']} CPU s)", flush=True)
            print(f"{variant}: median {statistics.median(cpu):.2f} CPU s, total {sum(cpu):.2f}", flush=True)


if __name__ == "__main__":
    main()
