"""Where does SAT's time go on the ThinkFun cards with the longest optima (steps), and does a
solver or lemma budget change it?

Runs the default deepening loop in this process on the 10 cards with the longest optima
(62-82 steps), once per variant (``BACKEND[@BUDGET]``: a ``pysat`` backend and a lemma budget
in conflicts), and writes one row per card and variant to ``benchmarks/long_plans/long_cards_variants.csv``:
status, length, seconds, conflicts, lemma calls, and, split by timers around the solver calls,
the seconds spent in reachability-lemma questions, in horizon questions, handing clauses to the
solver, and in the rest of the Python (building the encoding, decoding, replay).

    .venv/bin/python benchmarks/long_plans/long_cards_variants.py pysat pysat@1000 pysat@2000 pysat@20000 \\
        pysat:cadical195 pysat-plain pysat:glucose3 pysat:minisat22 pysat:glucose4 pysat:cadical153

Run it on a quiet machine: the seconds are wall-clock.
"""
from __future__ import annotations

import argparse
import csv
import platform
import statistics
import time
from pathlib import Path

from puzzleplan.formats.load import load
from puzzleplan.planner import lemmas as lemma_module
from puzzleplan.planner import solve
from puzzleplan.planner.backends import pysat_backend

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "instances/rushhour/thinkfun40.rh"
LONGEST = [32, 36, 37, 31, 34, 35, 33, 38, 40, 39]      # optima 62..82 steps
FIELDS = ["variant", "level", "status", "length", "seconds", "conflicts", "lemma_calls", "lemma_s",
          "horizon_s", "clauses_s", "python_s", "machine"]


class Timers:
    """Timers around the backend's solver calls and clause hand-over (patched in)."""

    def __init__(self):
        self.lemma = self.horizon = self.sync = 0.0
        self.asking = False
        timers = self
        ask, budget, sync = (lemma_module.ReachabilityLemmas._ask, pysat_backend.PysatBackend.solve_budget,
                             pysat_backend.PysatBackend.sync)

        def timed_ask(self, lits):
            timers.asking = True
            try:
                return ask(self, lits)
            finally:
                timers.asking = False

        def timed_budget(self, assumptions, conflicts):
            self.sync()             # timed on its own, below
            t0 = time.perf_counter()
            try:
                return budget(self, assumptions, conflicts)
            finally:
                spent = time.perf_counter() - t0
                if timers.asking:
                    timers.lemma += spent
                else:           # the horizon's goal question, or layer 0's first model
                    timers.horizon += spent

        def timed_sync(self):
            t0 = time.perf_counter()
            try:
                return sync(self)
            finally:
                timers.sync += time.perf_counter() - t0

        lemma_module.ReachabilityLemmas._ask = timed_ask
        pysat_backend.PysatBackend.solve_budget = timed_budget
        pysat_backend.PysatBackend.sync = timed_sync

    def reset(self):
        self.lemma = self.horizon = self.sync = 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="+", help="BACKEND[@LEMMA_BUDGET], e.g. pysat pysat@1000 pysat:cadical195")
    ap.add_argument("-o", "--out", default=str(ROOT / "benchmarks/long_plans/long_cards_variants.csv"))
    ap.add_argument("--time-limit", type=float, default=120)
    args = ap.parse_args()
    machine = f"{platform.machine()} {platform.processor() or ''}".strip()
    timers = Timers()
    out = Path(args.out)
    new = not out.exists()
    with out.open("a", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        if new:
            writer.writeheader()
        for variant in args.variants:
            backend, _, budget = variant.partition("@")
            seconds = []
            for level in LONGEST:
                domain = load(CARDS, level).problem
                timers.reset()
                t0 = time.perf_counter()
                r = solve(domain, "steps", backend, time_limit=args.time_limit,
                          lemma_budget=int(budget) if budget else None)
                total = time.perf_counter() - t0
                row = {"variant": variant, "level": level, "status": r.status.value, "length": r.length,
                       "seconds": round(total, 3), "conflicts": r.stats.get("conflicts"),
                       "lemma_calls": r.stats.get("lemma_calls"), "lemma_s": round(timers.lemma, 3),
                       "horizon_s": round(timers.horizon, 3), "clauses_s": round(timers.sync, 3),
                       "python_s": round(total - timers.lemma - timers.horizon - timers.sync, 3),
                       "machine": machine}
                writer.writerow(row)
                f.flush()
                seconds.append(total)
            print(f"{variant}: median {statistics.median(seconds):.2f} s, total {sum(seconds):.2f} s", flush=True)


if __name__ == "__main__":
    main()
