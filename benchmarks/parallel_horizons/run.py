"""Serial incremental deepening against ``solve --jobs 2`` on hard refutations.

For each point, each round runs the configurations one after the other (their order
alternates from round to round, so that a change of the machine's load falls on both), each
as its own ``puzzleplan solve --json -q`` process: wall seconds, CPU seconds of the process
and every process it started (``resource.getrusage(RUSAGE_CHILDREN)``, the workers included:
they are reaped by the run before it ends), the conflicts, and the load average before and
after.  Writes one CSV row per run (``--out``) and the runs' JSON (``--out`` with .jsonl).

    python benchmarks/parallel_horizons/run.py --rounds 2 --time-limit 240 \
        --out benchmarks/parallel_horizons/results.csv
    # a second session, each run started once the load is under 3 (or after a minute)
    python benchmarks/parallel_horizons/run.py --rounds 1 --first-round 3 --calm 3 --calm-wait 60 \
        --time-limit 240 --out benchmarks/parallel_horizons/results.csv
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POINTS = [      # (name, file, level, metric)
    ("8-puzzle eight01x", "instances/pddl/pddlgym/slidetile/eight01x.slide", None, "steps"),
    ("8-puzzle eight02x", "instances/pddl/pddlgym/slidetile/eight02x.slide", None, "steps"),
    ("Rush Hour card 40", "instances/rushhour/thinkfun40.rh", 40, "steps"),
    ("Rush Hour rh_long 1", "benchmarks/anytime/instances/rushhour_long.rh", 1, "steps"),
    ("Sokoban boxes k07", "benchmarks/crossover/instances/sokoban-boxes-k07-s0.xsb", None, "moves"),
    ("Sokoban boxes k08", "benchmarks/crossover/instances/sokoban-boxes-k08-s0.xsb", None, "moves"),
]
CONFIGS = {     # name: the options of solve
    "serial": [],
    "serial-no-first-plan": ["--no-first-plan"],
    "jobs2": ["--jobs", "2"],
}
FIELDS = ["point", "metric", "config", "round", "status", "length", "bound", "wall_s", "cpu_s", "conflicts",
          "horizons", "load1_before", "load1_after", "message"]


def run_one(file: str, level, metric: str, extra: list[str], limit: float) -> dict:
    cmd = [str(ROOT / ".venv/bin/puzzleplan"), "solve", str(ROOT / file), "--json", "-q", "--metric", metric,
           "--time-limit", str(limit), *extra] + (["--level", str(level)] if level is not None else [])
    load0 = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        out = json.loads(done.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        out = {"status": "error", "message": (done.stderr or done.stdout)[-300:]}
    return {"out": out, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load1_before": round(load0, 2),
            "load1_after": round(os.getloadavg()[0], 2), "exit": done.returncode}


def calm(under: float | None, wait: float) -> None:
    """Wait (at most ``wait`` s) for the machine's 1-minute load average to fall under ``under``:
    the timings are taken when the load is as low as the other work on the machine lets it be."""
    end = time.monotonic() + wait
    while under is not None and os.getloadavg()[0] >= under and time.monotonic() < end:
        time.sleep(5)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--out", required=True)
    ap.add_argument("--points", default="", help="comma-separated indexes into POINTS (default: all)")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--first-round", type=int, default=1, help="the number of the first round (a session added)")
    ap.add_argument("--calm", type=float, default=None,
                    help="before each run, wait until the 1-minute load average is under this ...")
    ap.add_argument("--calm-wait", type=float, default=120, help="... for at most this many seconds")
    args = ap.parse_args()
    points = [POINTS[int(i)] for i in args.points.split(",")] if args.points else POINTS
    configs = args.configs.split(",")
    new = not Path(args.out).exists()
    with open(args.out, "a", newline="") as fh, open(Path(args.out).with_suffix(".jsonl"), "a") as raw:
        w = csv.DictWriter(fh, FIELDS)
        if new:
            w.writeheader()
        for name, file, level, metric in points:
            for r in range(args.first_round, args.first_round + args.rounds):
                order = configs if r % 2 else configs[::-1]
                for config in order:
                    calm(args.calm, args.calm_wait)
                    got = run_one(file, level, metric, CONFIGS[config], args.time_limit)
                    o = got["out"]
                    row = {"point": name, "metric": metric, "config": config, "round": r,
                           "status": o.get("status"), "length": o.get("length"), "bound": o.get("bound"),
                           "wall_s": got["wall_s"], "cpu_s": got["cpu_s"], "conflicts": o.get("conflicts"),
                           "horizons": o.get("horizons_tried"), "load1_before": got["load1_before"],
                           "load1_after": got["load1_after"], "message": o.get("message") or ""}
                    w.writerow(row)
                    fh.flush()
                    raw.write(json.dumps({**row, "exit": got["exit"], "result": o}) + "\n")
                    raw.flush()
                    print(json.dumps(row), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
