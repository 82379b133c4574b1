"""Do reachability lemmas pay, with which solver, and under which budget?

Runs the SAT planner (optimal deepening) without lemmas (``pysat-plain``) and with
them under several conflict budgets, with Glucose 4.2.1 and CaDiCaL 1.9.5, on
Rush Hour cards that take seconds and on Klotski-family puzzles that SAT does not
finish (there the figure is the horizon refuted within the time limit).  Appends
one CSV row per run to benchmarks/lemmas/lemmas.csv.

    python benchmarks/lemmas/lemmas.py [--time-limit 60] [--only NAME]
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import puzzleplan as pp
from puzzleplan.bench.run import machine, versions

ROOT = Path(__file__).resolve().parents[2]
CASES = [   # name, file, level, metric
    ("card 34 steps", "rushhour/thinkfun40.rh", 34, "steps"),
    ("card 37 steps", "rushhour/thinkfun40.rh", 37, "steps"),
    ("card 39 steps", "rushhour/thinkfun40.rh", 39, "steps"),
    ("card 40 steps", "seeds/rushhour_card40_bmodel_v2.rh", None, "steps"),
    ("card 40 slides", "seeds/rushhour_card40_bmodel_v2.rh", None, "slides"),
    ("Pennant steps", "sliding/pennant.slide", None, "steps"),
    ("Ma's puzzle steps", "sliding/mas_puzzle.slide", None, "steps"),
    ("Klotski steps", "seeds/klotski_seed000.slide", None, "steps"),
]
CONFIGS = [("pysat-plain", None), ("pysat", 2000), ("pysat", 5000), ("pysat", 10 ** 9)]
SOLVERS = ["glucose42", "cadical195"]
FIELDS = ["case", "solver", "lemmas", "status", "length", "bound", "seconds", "conflicts", "lemma_units",
          "lemma_dropped", "time_limit", "machine", "versions"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--only", default=None, help="Run only the cases whose name contains this.")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/lemmas/lemmas.csv"))
    args = ap.parse_args()
    new = not Path(args.out).exists()
    where, with_versions = machine(), versions()
    with open(args.out, "a", newline="") as fh:
        w = csv.DictWriter(fh, FIELDS)
        if new:
            w.writeheader()
        for name, rel, level, metric in CASES:
            if args.only and args.only not in name:
                continue
            domain = pp.load(ROOT / "instances" / rel, level).problem
            for solver in SOLVERS:
                for backend, budget in CONFIGS:
                    t = time.perf_counter()
                    r = pp.solve(domain, metric, f"{backend}:{solver}", args.time_limit, lemma_budget=budget)
                    secs = time.perf_counter() - t
                    lemmas = "off" if backend == "pysat-plain" else "unlimited" if budget >= 10 ** 9 else str(budget)
                    w.writerow({"case": name, "solver": solver, "lemmas": lemmas, "status": r.status.value,
                                "length": r.length, "bound": r.bound, "seconds": f"{secs:.2f}",
                                "conflicts": r.stats.get("conflicts"), "lemma_units": r.stats.get("lemma_units"),
                                "lemma_dropped": r.stats.get("lemma_dropped"), "time_limit": args.time_limit,
                                "machine": where, "versions": with_versions})
                    fh.flush()
                    print(name, solver, lemmas, r.status.value, r.length if r.length else f"bound {r.bound}",
                          f"{secs:.2f}s", flush=True)


if __name__ == "__main__":
    main()
