"""SAT on a puzzle's own file against SAT on its ``export --pddl``, with the strips family's
levers (:data:`puzzleplan.strips.encoding.levers.LEVERS`) off (``none``), each alone, all
those on by default (``default``), the default without one (``default-X``) and with one
that is off by default (``default+X``); BFS and A* on the PDDL task beside them.

Cases: Rush Hour card 40 in steps and in slides (the seeds' file), the hardest 8-puzzle
(31 steps, written here), two small Rush Hour cards (slides), Ma's puzzle (steps), two
Microban levels and two of the crossover study's Sokoban rooms (moves), Pennant (slides).  Each run is in this process, one after the other (one core), with a time limit;
what it proves is checked against BFS's optimum where that is known.  Rows are appended to
``benchmarks/pddl_levers/pddl_levers.csv`` with the machine, the load average before the run, the
command and the git revision.

    .venv/bin/python benchmarks/pddl_levers/pddl_levers.py [--seconds 60] [--cases card40-steps,...]
                                               [--configs native,none,bound,...]
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
import time
from pathlib import Path

from puzzleplan.bench.run import machine, revision
from puzzleplan.strips.encoding.levers import DEFAULT_LEVERS, LEVERS
from puzzleplan.formats.load import load
from puzzleplan.pddl import export
from puzzleplan.planner import solve
from puzzleplan.search import astar_search, breadth_first_search

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(os.environ.get("PDDL_LEVERS_OUT", ROOT / "benchmarks/pddl_levers/pddl_levers.csv"))
EIGHT_31 = "name: the hardest 8-puzzle (31 steps)\nboard:\nHFG\nBED\nC.A\n\ngoal:\nABC\nDEF\nGH.\n"
# name -> (file, level, metric, known optimum)
CASES = {
    "card40-steps": ("instances/seeds/rushhour_card40_bmodel_v2.rh", None, "steps", 81),
    "card40-slides": ("instances/seeds/rushhour_card40_bmodel_v2.rh", None, "slides", 51),
    "eight31-steps": (None, None, "steps", 31),
    "card3-slides": ("instances/rushhour/thinkfun40.rh", 3, "slides", 14),
    "card11-slides": ("instances/rushhour/thinkfun40.rh", 11, "slides", 25),
    "mas-steps": ("instances/sliding/mas_puzzle.slide", None, "steps", 36),
    "microban2-moves": ("instances/sokoban/Microban.txt", 2, "moves", None),
    "microban4-moves": ("instances/sokoban/Microban.txt", 4, "moves", None),
    "room6-moves": ("benchmarks/crossover/instances/sokoban-boxes-k06-s0.xsb", None, "moves", 28),
    "room8-moves": ("benchmarks/crossover/instances/sokoban-boxes-k08-s0.xsb", None, "moves", 33),
    "pennant-slides": ("instances/sliding/pennant.slide", None, "slides", 62),
}
# config -> levers on (None: the puzzle's own file, not the PDDL task)
CONFIGS = {"native": None, "none": (), **{lever: (lever,) for lever in DEFAULT_LEVERS}, "default": DEFAULT_LEVERS,
           **{f"default-{lever}": tuple(x for x in DEFAULT_LEVERS if x != lever) for lever in DEFAULT_LEVERS},
           **{f"default+{lever}": DEFAULT_LEVERS + (lever,) for lever in LEVERS if lever not in DEFAULT_LEVERS}}
SEARCHES = {"pddl-bfs": breadth_first_search, "pddl-astar": astar_search}
FIELDS = ["case", "metric", "config", "method", "status", "length", "known", "agrees", "lower_bound", "refuted",
          "cpu_seconds", "wall_seconds", "mutex_pairs", "barred_pairs", "lemma_units", "goal_lemma_units",
          "conflicts", "load", "time_limit", "command", "revision", "machine"]


def native_of(case: str, tmp: str):
    path, level, metric, known = CASES[case]
    if path is None:
        path = Path(tmp) / "eight31.slide"
        path.write_text(EIGHT_31)
    else:
        path = ROOT / path
    return load(path, level).rules, metric, known


def run(case: str, config: str, method: str, rules, metric: str, seconds: float) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    if method == "sat":
        got = solve(rules, metric if config == "native" else "steps", time_limit=seconds)
    else:
        got = SEARCHES[method](rules, "steps", seconds)
    s = got.stats
    return {"status": got.status.value, "length": got.length, "lower_bound": got.lower_bound,
            "refuted": got.bound, "cpu_seconds": round(time.process_time() - c0, 2),
            "wall_seconds": round(time.perf_counter() - t0, 2), "mutex_pairs": s.get("mutex_pairs", s.get("mutexes")),
            "barred_pairs": s.get("barred_pairs", s.get("inverse")), "lemma_units": s.get("lemma_units"),
            "goal_lemma_units": s.get("goal_lemma_units"), "conflicts": s.get("conflicts")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit of each run")
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated, of: " + ", ".join(CASES))
    ap.add_argument("--configs", default=",".join([*CONFIGS, *SEARCHES]),
                    help="comma-separated, of: " + ", ".join([*CONFIGS, *SEARCHES]))
    args = ap.parse_args()
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    new = not OUT.exists()
    with open(OUT, "a", newline="") as fh, tempfile.TemporaryDirectory() as tmp:
        out = csv.DictWriter(fh, FIELDS)
        if new:
            out.writeheader()
        for case in args.cases.split(","):
            native, metric, known = native_of(case, tmp)
            if known is None:       # the native BFS optimum (small cases)
                known = breadth_first_search(native, metric, args.seconds).length
            _, _, problem = export(native, metric, f"{tmp}/{case}")
            for config in args.configs.split(","):
                if config in SEARCHES:
                    rules, method = load(problem).rules, config
                elif CONFIGS[config] is None:
                    rules, method = native, "sat"
                else:
                    rules, method = load(problem).rules, "sat"
                    rules.levers = frozenset(CONFIGS[config])
                row = {"case": case, "metric": metric, "config": config, "method": method, "known": known,
                       "load": os.getloadavg()[0], "time_limit": args.seconds, "command": command,
                       "revision": revision(), "machine": machine()}
                row.update(run(case, config, method, rules, metric, args.seconds))
                if known is not None and row["length"] is not None:
                    row["agrees"] = row["length"] == known if row["status"] == "optimal" else row["length"] >= known
                out.writerow(row)
                fh.flush()
                print(f"{case:16} {config:10} {row['status']:15} {row['length']!s:5} {row['wall_seconds']:7.2f}s "
                      f"load {row['load']:.2f}", flush=True)


if __name__ == "__main__":
    main()
