"""The goal side's tile distances with and without what tiles in each other's way add
(``SlidingEncoder.conflicts_bound``, :mod:`puzzleplan.families.sliding.conflicts`), by
``pysat-de`` on hard 8-puzzles and 15-puzzle positions: one JSON line per run on stdout.

    python benchmarks/bounds/excess.py --time-limit 90 > benchmarks/bounds/excess.jsonl
"""
import argparse
import json
import platform
import time

from puzzleplan.families.sliding.encoding import SlidingEncoder
from puzzleplan.formats.load import load
from puzzleplan.planner import solve

POINTS = ["instances/pddl/pddlgym/slidetile/eight01x.slide", "instances/pddl/pddlgym/slidetile/eight02x.slide"] + [
    f"benchmarks/pdb/instances/sliding-fifteen-{p}.slide" for p in ("d40-s1", "d40-s2", "d50-s2", "d40-s0", "d50-s0", "d60-s2")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=90)
    args = ap.parse_args()
    for path in POINTS:
        for on in (True, False):
            SlidingEncoder.conflicts_bound = on
            t0 = time.process_time()
            r = solve(load(path).problem, "steps", backend="pysat-de", time_limit=args.time_limit)
            print(json.dumps({"file": path.split("/")[-1], "excess": on, "status": r.status.value, "length": r.length,
                              "conflicts": r.stats.get("conflicts"), "cpu_s": round(time.process_time() - t0, 2),
                              "machine": platform.processor() or platform.machine()}), flush=True)


if __name__ == "__main__":
    main()
