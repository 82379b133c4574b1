"""First plans by ABC's model checkers: one run of an engine on the puzzle's transition system
without a bound (what ``abc:pdr`` runs first), its counterexample decoded and replayed by the
rules, against greedy best-first search and the parallel-step SAT encoding on the same puzzle.

Usage (from the checkout): .venv/bin/python benchmarks/anytime/abc_first.py OUT.csv SECONDS [CASE...]
(CASE: ``name=path[@level]``; default: the cases below).  Each run in a process of its own;
CPU seconds: ABC's (getrusage of the children) plus ours (building the AIG, replaying), and for
greedy search and the parallel steps ``time.process_time()`` after the analyses.  SECONDS is a
wall-clock cap for ABC (a measurement cap, not a budget of the planner).
"""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv/bin/python")
SOKO = "/work/shared/datasets/pddl/sokoban-opt08-strips"
CASES = [
    ("klotski", "instances/seeds/klotski_seed000.slide", None),
    ("fifteen32", "benchmarks/anytime/instances/fifteen32.slide", None),
    ("rh_long1", "benchmarks/anytime/instances/rushhour_long.rh", 1),
    ("rh_long5", "benchmarks/anytime/instances/rushhour_long.rh", 5),
    ("sokoban_boxes_k05", "benchmarks/crossover/sokoban_pddl/instances/sokoban-boxes-k05-s0.pddl", None),
    ("ipc08_p04", f"{SOKO}/p04.pddl", None),
    ("ipc08_p08", f"{SOKO}/p08.pddl", None),
]
WAYS = ["greedy", "parallel", "abc:pdr", "abc:pdr-back", "abc:bmc3"]

CHILD = r"""
import json, resource, sys, time
from puzzleplan import limits
from puzzleplan.formats.load import load
from puzzleplan.planner import first
path, level, way, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
problem = load(path, int(level) if level != "-" else None).problem
problem.rules.heuristic(problem.rules.initial, "steps")       # the analyses, outside the timing
row = {}
t0 = time.process_time()
c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
if way == "greedy":
    steps, length, row = first.greedy_first(problem, "steps", ())
elif way == "parallel":
    steps, length, row = first.parallel_first(problem, "steps", (), None, 1, 200_000)
else:
    from puzzleplan.encodings.transition import build_system
    from puzzleplan.planner.abc import Run, parse_engine, frames_reached
    engine, backward = parse_engine(way[4:])
    length = None
    with limits.time_limit(seconds):
        run = Run(build_system(problem, "steps", (), backward=backward, bound=None), engine, lambda s: None).go()
    row = {"outcome": run.outcome.value, "frames": frames_reached(run.lines), "wall_s": run.seconds,
           "latches": run.aig.nlatches}
    if run.outcome.value == "cex":
        steps, length = run.plan(problem, "steps", ())
c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
row["cpu_s"] = round(time.process_time() - t0 + (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime), 2)
row["length"] = length
print(json.dumps(row))
"""


def one(name, path, level, way, seconds):
    full = path if path.startswith("/") else str(ROOT / path)
    got = subprocess.run([PY, "-c", CHILD, full, "-" if level is None else str(level), way, str(seconds)],
                         capture_output=True, text=True)
    try:
        row = json.loads(got.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        row = {"error": (got.stderr.strip().splitlines() or ["no output"])[-1][:200]}
    return {"puzzle": name, "way": way, "length": row.get("length"), "cpu_s": row.get("cpu_s"),
            "expanded": row.get("expanded"), "conflicts": row.get("conflicts"),
            "horizons": " ".join(f"{h}:{a}" for h, a in row.get("horizons", [])),
            "outcome": row.get("outcome"), "frames": row.get("frames"), "wall_s": row.get("wall_s"),
            "error": row.get("error", "")}


def main(out, seconds, cases, ways):
    rows = []
    for name, path, level in cases:
        for way in ways:
            row = one(name, path, level, way, seconds)
            rows.append(row)
            print(json.dumps(row), flush=True)
    with open(out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def parse_case(text):
    name, _, rest = text.partition("=")
    path, _, level = rest.partition("@")
    return name, path, int(level) if level else None


if __name__ == "__main__":
    args = sys.argv[3:]
    ways = next((a.split("=", 1)[1].split(",") for a in args if a.startswith("--ways=")), WAYS)
    picked = [parse_case(a) for a in args if not a.startswith("--")] or CASES
    main(sys.argv[1], float(sys.argv[2]), picked, ways)
