"""SAT (``pysat-de``) on the strips series with interchangeable objects (gripper's balls and
grippers, ferry's cars that share a start and a goal), with the ``symmetry`` lever and
without it (``--levers -symmetry``): one run each, one after the other in this process.

Rows are appended to ``benchmarks/crossover/symmetry/levers.csv`` with the load average
before each run, the command, the git revision and the machine.

    .venv/bin/python benchmarks/crossover/symmetry/levers.py [--seconds 20] FILE...
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path

from puzzleplan.bench.run import machine, revision
from puzzleplan.formats.load import load
from puzzleplan.planner import solve

ROOT = Path(__file__).resolve().parents[3]
OUT = Path(os.environ.get("SYMMETRY_LEVERS_OUT", ROOT / "benchmarks/crossover/symmetry/levers.csv"))
FIELDS = ["instance", "levers", "status", "length", "refuted", "cpu_seconds", "wall_seconds", "conflicts",
          "interchangeable", "symmetry_pairs", "symmetry_clauses", "load", "time_limit", "command", "revision",
          "machine"]
CONFIGS = {"default": "default", "-symmetry": "-symmetry"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--seconds", type=float, default=20.0, help="time limit of each run (wall seconds)")
    args = ap.parse_args()
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    new = not OUT.exists()
    with open(OUT, "a", newline="") as fh:
        out = csv.DictWriter(fh, FIELDS)
        if new:
            out.writeheader()
        for path in args.files:
            for name, levers in CONFIGS.items():
                rules = load(path, options={"levers": levers}).problem
                load_avg = os.getloadavg()[0]
                t0, c0 = time.perf_counter(), time.process_time()
                got = solve(rules, "steps", time_limit=args.seconds)
                s = got.stats
                row = {"instance": Path(path).name, "levers": name, "status": got.status.value,
                       "length": got.length, "refuted": got.bound,
                       "cpu_seconds": round(time.process_time() - c0, 2),
                       "wall_seconds": round(time.perf_counter() - t0, 2), "conflicts": s.get("conflicts"),
                       "interchangeable": s.get("interchangeable", s.get("symmetry")),
                       "symmetry_pairs": s.get("symmetry_pairs"), "symmetry_clauses": s.get("symmetry_clauses"),
                       "load": round(load_avg, 2), "time_limit": args.seconds, "command": command,
                       "revision": revision(), "machine": machine()}
                out.writerow(row)
                fh.flush()
                print(row["instance"], name, row["status"], row["length"], row["wall_seconds"], flush=True)


if __name__ == "__main__":
    main()
