"""The double-ended encoding's distance bounds on and off, everything else the same: the sum of
the pieces' (knights') distances to their targets on each goal-side layer and from where they
started on each start-side layer (``Encoder.goal_bound``, ``Encoder.start_bound``).  pysat-de,
one process, one run at a time, CPU seconds and conflicts (the steadier figure).  From the
checkout, .venv active:

    python benchmarks/bounds/bounds.py --time-limit 30 [--variants off,both,default] [--only TEXT]
                                                            (appends to bounds.csv)

Points: the crossover study's knights and sliding series that unroll double-ended (the move-count
series unroll forward, where the bounds are not stated), the 10 ThinkFun cards with the longest
optima, Ma's puzzle, the 8-puzzle, Klotski and the knights seed."""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from puzzleplan.bench.run import machine, revision
from puzzleplan.formats.load import load
from puzzleplan.planner import solve

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SERIES = "benchmarks/crossover/instances"
POINTS = ([(f"{SERIES}/knights-wide-n{n:02d}-s0.knights", None) for n in range(1, 9)]
          + [(f"{SERIES}/knights-deep-d{d:02d}-s0.knights", None) for d in range(1, 7)]
          + [(f"{SERIES}/sliding-crowd-n{n:02d}-s0.slide", None) for n in range(3, 34, 3)]
          + [("instances/rushhour/thinkfun40.rh", level) for level in (32, 36, 37, 31, 34, 35, 33, 38, 40, 39)]
          + [("instances/sliding/mas_puzzle.slide", None), ("instances/sliding/eight_puzzle.slide", None),
             ("instances/seeds/klotski_seed000.slide", None), ("instances/seeds/knights_seed003.knights", None)])
FIELDS = ["instance", "level", "bounds", "status", "length", "bound", "conflicts", "cpu_seconds", "seconds",
          "goal_bounds", "start_bounds", "git", "machine"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("-o", "--out", default=str(HERE / "bounds.csv"))
    ap.add_argument("--only", help="instances whose path contains this")
    ap.add_argument("--variants", default="off,both", help="off (no bounds), both (both sides), default (the "
                    "sides the family turns on)")
    args = ap.parse_args()
    rev, where = revision(), machine()
    out = Path(args.out)
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()
        for path, level in POINTS:
            if args.only and args.only not in path:
                continue
            domain = load(ROOT / path, level).problem
            for variant in args.variants.split(","):
                bounds = {"off": False, "both": True, "default": None}[variant]
                t, c = time.perf_counter(), time.process_time()
                r = solve(domain, None, "pysat-de", args.time_limit, bounds=bounds)
                row = {"instance": path, "level": level or "", "bounds": variant, "status": r.status.value,
                       "length": r.length, "bound": r.bound, "conflicts": r.stats.get("conflicts"),
                       "cpu_seconds": round(time.process_time() - c, 2), "seconds": round(time.perf_counter() - t, 2),
                       "goal_bounds": r.stats.get("goal_bounds", 0), "start_bounds": r.stats.get("start_bounds", 0),
                       "git": rev, "machine": where}
                w.writerow(row)
                f.flush()
                print(f"{path} {level or ''} bounds={variant}: {row['status']} {row['length']} "
                      f"{row['conflicts']} conflicts {row['cpu_seconds']} CPU s", flush=True)


if __name__ == "__main__":
    main()
