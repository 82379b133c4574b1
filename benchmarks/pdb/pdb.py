"""Additive pattern databases against Manhattan distance on a 15-puzzle series, for search and
as SAT's start horizon.  One process, one run at a time; expansions and conflicts are the
steady figures, CPU seconds (``time.process_time``) the costly ones.  From the checkout, .venv
active:

    python benchmarks/pdb/pdb.py [--time-limit 60] [--sat-limit 60] [--sat N] [--only TEXT]
                                                                (appends to pdb.csv)

Points: ``puzzleplan generate sliding fifteen --values 40,50,60,70,80 --seeds 3`` (in ``instances/``),
the blank walked 40 to 80 random steps from the goal.  Methods: A* and IDA* with the tables
(the rules' heuristic), A* with Manhattan distance (the rules' per-tile bounds alone,
``SlidingPuzzle.patterns = False``); SAT (``pysat-de``) started at either bound on the first
``--sat`` points.  The tables are made once and read from the cache folder afterwards
(``$PUZZLEPLAN_CACHE``); their build is measured first, in a cache folder of its own."""
from __future__ import annotations

import argparse
import csv
import os
import tempfile
import time
from pathlib import Path

from puzzleplan.bench.run import machine, revision
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.planner.deepening import total_conflicts
from puzzleplan.search import astar_search, ida_star_search

HERE = Path(__file__).parent
FIELDS = ["instance", "method", "heuristic", "status", "length", "start_bound", "manhattan", "expanded",
          "conflicts", "refuted", "cpu_seconds", "seconds", "pdb_patterns", "pdb_bytes", "pdb_build_cpu_s", "git",
          "machine"]


def build_figures() -> dict:
    """The tables of the 15-puzzle made in an empty cache folder: CPU seconds and bytes."""
    with tempfile.TemporaryDirectory() as d:
        old = os.environ.get("PUZZLEPLAN_CACHE")
        os.environ["PUZZLEPLAN_CACHE"] = d
        from puzzleplan.families.sliding import pdb
        pdb._MADE.clear()
        rules = load(sorted((HERE / "instances").glob("*.slide"))[0]).rules
        figures = rules.pattern_tables("steps").figures()
        pdb._MADE.clear()
        if old is None:
            del os.environ["PUZZLEPLAN_CACHE"]
        else:
            os.environ["PUZZLEPLAN_CACHE"] = old
    return figures


def run(path: Path, method: str, tables: bool, args) -> dict:
    rules = load(path).rules
    rules.patterns = tables
    manhattan = sum(rules.mover_bounds(rules.initial, "steps", 0).values())
    start = rules.heuristic(rules.initial, "steps")
    t, c = time.perf_counter(), time.process_time()
    if method == "sat":
        r = solve(rules, "steps", "pysat-de", args.sat_limit)
    else:
        r = {"astar": astar_search, "idastar": ida_star_search}[method](rules, "steps", args.time_limit)
    return {"instance": path.name, "method": method, "heuristic": "pdb" if tables else "manhattan",
            "status": r.status.value, "length": r.length, "start_bound": start, "manhattan": manhattan,
            "expanded": r.stats.get("expanded"), "conflicts": total_conflicts(r.horizons) if method == "sat" else None,
            "refuted": r.bound, "cpu_seconds": round(time.process_time() - c, 2),
            "seconds": round(time.perf_counter() - t, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=60, help="per search run (seconds)")
    ap.add_argument("--sat-limit", type=float, default=60, help="per SAT run (seconds)")
    ap.add_argument("--sat", type=int, default=4, help="SAT on the first N points")
    ap.add_argument("--only", help="instances whose name contains this")
    ap.add_argument("--methods", default="astar,idastar,astar-manhattan,sat")
    ap.add_argument("-o", "--out", default=str(HERE / "pdb.csv"))
    args = ap.parse_args()
    rev, where = revision(), machine()
    built = build_figures()
    print(f"tables {built}", flush=True)
    fixed = {"pdb_patterns": built["patterns"], "pdb_bytes": built["bytes"], "pdb_build_cpu_s": built["build_cpu_s"],
             "git": rev, "machine": where}
    out = Path(args.out)
    new = not out.exists()
    points = sorted((HERE / "instances").glob("*.slide"), key=lambda p: (len(p.name), p.name))
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()
        for i, path in enumerate(points):
            if args.only and args.only not in path.name:
                continue
            for spec in args.methods.split(","):
                method, _, heuristic = spec.partition("-")
                if method == "sat" and i >= args.sat:
                    continue
                variants = [True, False] if method == "sat" else [heuristic != "manhattan"]
                for tables in variants:
                    row = {**run(path, method, tables, args), **fixed}
                    w.writerow(row)
                    f.flush()
                    print(" ".join(f"{k}={row[k]}" for k in FIELDS[:12]), flush=True)


if __name__ == "__main__":
    main()
