"""Additive pattern databases against Manhattan distance on a 15-puzzle series, for search and
as SAT's start horizon.  One process, one run at a time; expansions and conflicts are the
steady figures, CPU seconds (``time.process_time``) the costly ones.  From the checkout, .venv
active:

    python benchmarks/pdb/pdb.py [--points FILE] [--cap-factor 50] [--astar] [--sat N] [--sat-limit 60]
                                                                (appends to pdb.csv)

Points: the instances named in ``points.txt`` (``--points``): the series of optima 30-50.
Methods per point:

- ``idastar`` / ``pdb``: IDA* with the rules' tables (6-6-3 with the blank projected out, and
  the same tables on the reflected board), searched in place (``SlidingPuzzle.tile_search``);
- ``idastar`` / ``manhattan``: the same search with Manhattan distance
  (``SlidingPuzzle.patterns = False``), stopped after ``--cap-factor`` times the PDB run's
  expansions (at least ``--cap-min``): a stopped run gives the ratio as a lower bound;
- ``astar`` / ``pdb`` (``--astar``): the rules' A* with the same tables, up to ``--astar-cap``
  expansions;
- ``sat`` / ``pdb`` and ``sat`` / ``manhattan``: ``pysat-de`` started at either bound, on
  the first ``--sat`` points, ``--sat-limit`` seconds each.

The tables are read from the cache folder (``$PUZZLEPLAN_CACHE``) or made there first; their
build is reported (CPU seconds, bytes) with how they came (``made`` or ``read``)."""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from puzzleplan.bench.run import machine, revision
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.planner.deepening import total_conflicts
from puzzleplan.search import astar_search, ida_star_search

HERE = Path(__file__).parent
FIELDS = ["instance", "method", "heuristic", "status", "length", "start_bound", "manhattan", "expanded",
          "cap", "conflicts", "refuted", "cpu_seconds", "seconds", "pdb_patterns", "pdb_bytes", "pdb_build_cpu_s",
          "git", "machine"]


def build_figures(point: Path, sizes: tuple[int, ...]) -> dict:
    """The 15-puzzle's tables from the cache folder, made there if missing: CPU s and bytes."""
    rules = load(point).rules
    rules.pattern_sizes = sizes
    t0 = time.process_time()
    figures = rules.pattern_tables("steps").figures()
    figures["wall_cpu_s"] = round(time.process_time() - t0, 2)
    return figures


def run(path: Path, method: str, tables: bool, args, cap: int | None = None) -> dict:
    rules = load(path).rules
    rules.patterns = tables
    rules.pattern_sizes = args.sizes
    manhattan = sum(rules.mover_bounds(rules.initial, "steps", 0).values())
    start = rules.heuristic(rules.initial, "steps")
    t, c = time.perf_counter(), time.process_time()
    if method == "sat":
        r = solve(rules, "steps", "pysat-de", args.sat_limit)
    elif method == "astar":
        r = astar_search(rules, "steps", args.time_limit, max_expanded=cap)
    else:
        r = ida_star_search(rules, "steps", args.time_limit, max_expanded=cap)
    return {"instance": path.name, "method": method, "heuristic": "pdb" if tables else "manhattan",
            "status": r.status.value, "length": r.length, "start_bound": start, "manhattan": manhattan,
            "expanded": r.stats.get("expanded"), "cap": cap,
            "conflicts": total_conflicts(r.horizons) if method == "sat" else None,
            "refuted": r.bound, "cpu_seconds": round(time.process_time() - c, 2),
            "seconds": round(time.perf_counter() - t, 2)}


def upgrade(out: Path) -> None:
    """Rows written under an older header are rewritten under :data:`FIELDS` (new columns empty)."""
    if not out.exists():
        return
    with out.open(newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] == FIELDS:
        return
    header, keep = rows[0], []
    for row in rows[1:]:
        keep.append(dict(zip(FIELDS, row)) if len(row) == len(FIELDS) else dict(zip(header, row)))
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(keep)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", default=str(HERE / "points.txt"), help="a file of instance names, one a line")
    ap.add_argument("--sizes", default="6,6,3", type=lambda t: tuple(int(x) for x in t.split(",")),
                    help="the pattern sizes (the rules' default on the 15-puzzle: 4,4,4,3)")
    ap.add_argument("--time-limit", type=float, default=600, help="per search run (seconds; a safety net)")
    ap.add_argument("--cap-factor", type=int, default=50, help="Manhattan's budget: this times the PDB run's")
    ap.add_argument("--cap-min", type=int, default=1000000, help="Manhattan's budget at least")
    ap.add_argument("--sat-limit", type=float, default=60, help="per SAT run (seconds)")
    ap.add_argument("--sat", type=int, default=0, help="SAT on the first N points")
    ap.add_argument("--astar", action="store_true", help="A* with the tables too")
    ap.add_argument("--astar-cap", type=int, default=300000, help="A*'s budget (expansions)")
    ap.add_argument("--sat-only", action="store_true", help="SAT alone (no search)")
    ap.add_argument("--only", help="instances whose name contains this")
    ap.add_argument("-o", "--out", default=str(HERE / "pdb.csv"))
    args = ap.parse_args()
    rev, where = revision(), machine()
    names = Path(args.points).read_text().split()
    points = [HERE / "instances" / name for name in names]
    points = [p for p in points if not args.only or args.only in p.name]
    built = build_figures(points[0], args.sizes)
    print(f"tables {built}", flush=True)
    fixed = {"pdb_patterns": built["patterns"], "pdb_bytes": built["bytes"], "pdb_build_cpu_s": built["build_cpu_s"],
             "git": rev, "machine": where}
    out = Path(args.out)
    upgrade(out)
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()

        def emit(row):
            w.writerow({**row, **fixed})
            f.flush()
            print(" ".join(f"{k}={row[k]}" for k in FIELDS[:13]), flush=True)
            return row

        for i, path in enumerate(points):
            if not args.sat_only:
                pdb = emit(run(path, "idastar", True, args))
                cap = max(args.cap_min, args.cap_factor * (pdb["expanded"] or 0))
                emit(run(path, "idastar", False, args, cap))
            if args.astar and not args.sat_only:
                emit(run(path, "astar", True, args, args.astar_cap))
            if i < args.sat:
                for tables in (True, False):
                    emit(run(path, "sat", tables, args))


if __name__ == "__main__":
    main()
