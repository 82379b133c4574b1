"""The IPC 2008 optimal Sokoban track against our PDDL export of the same Microban levels.

For each of the 30 problems of sokoban-opt08-strips and each planner, runs the
planner on the IPC's own PDDL and on ``puzzleplan export`` of the mapped Microban
I level (``pushes``), replays both plans on the level under our rules, and
appends one CSV row to benchmarks/ipc_sokoban/ipc_sokoban.csv (a rerun skips rows it holds).

    python benchmarks/ipc_sokoban/ipc_sokoban.py [--datasets ../shared/datasets/pddl] [--time-limit 60]
                                     [--methods fd-lmcut,fd-blind,symk]
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from puzzleplan.bench.run import machine, versions
from puzzleplan.families.sokoban.ipc import crosscheck, mapping

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "ipc_sokoban.csv"
FIELDS = ["problem", "microban_level", "optimum", "method", "ipc_status", "ipc_pushes", "ipc_seconds",
          "ours_status", "ours_pushes", "ours_seconds", "ours_expanded", "agree", "time_limit", "machine",
          "versions", "date"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=str(ROOT.parent / "shared" / "datasets" / "pddl"))
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--methods", default="fd-lmcut,fd-blind,symk")
    args = ap.parse_args()
    datasets = Path(args.datasets)
    done = set()
    if OUT.exists():
        done = {(r["problem"], r["method"]) for r in csv.DictReader(open(OUT))}
    new = not OUT.exists()
    common = {"time_limit": args.time_limit, "machine": machine(), "versions": versions()}
    with open(OUT, "a", newline="") as fh:
        writer = csv.DictWriter(fh, FIELDS)
        if new:
            writer.writeheader()
        for row in mapping(datasets):
            for method in args.methods.split(","):
                if (row["file"], method) in done:
                    continue
                got = crosscheck(datasets, row, method, args.time_limit)
                solved = [v for v in (got["ipc_pushes"], got["ours_pushes"]) if v is not None]
                got["agree"] = all(v == row["optimum"] for v in solved)
                writer.writerow({**got, **common, "date": time.strftime("%Y-%m-%d")})
                fh.flush()
                print(", ".join(f"{k}={got[k]}" for k in ("problem", "method", "optimum", "ipc_status", "ipc_pushes",
                                                          "ipc_seconds", "ours_status", "ours_pushes", "ours_seconds")),
                      flush=True)


if __name__ == "__main__":
    main()
