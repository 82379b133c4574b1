"""First plans on PDDL tasks: greedy best-first search (50,000 states) against the relaxed ∃-step
SAT encoding (:mod:`puzzleplan.strips.encoding.exists`, horizons growing by half as in
``first.parallel_first``), each on its own, CPU seconds by ``time.process_time()`` (one process
per task and way, so that grounding and the analyses are counted in neither).

Usage (from the checkout): .venv/bin/python benchmarks/anytime/pddl_first.py OUT.csv BUDGET TASK.pddl...
(BUDGET: the parallel way's conflicts in all; each task with its domain beside it).
"""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv/bin/python")

CHILD = r"""
import json, sys, time
from puzzleplan.formats.load import load
from puzzleplan.planner import first
path, way, budget = sys.argv[1], sys.argv[2], int(sys.argv[3])
problem = load(path).problem
problem.rules.heuristic(problem.rules.initial, "steps")     # the analyses, outside the timing
t0 = time.process_time()
if way == "greedy":
    steps, length, row = first.greedy_first(problem, "steps", ())
else:
    steps, length, row = first.parallel_first(problem, "steps", (), None, 1, budget)
row["cpu_s"] = round(time.process_time() - t0, 3)
row["length"] = length
print(json.dumps(row))
"""


def main(out, budget, paths):
    rows = []
    for path in paths:
        for way in ("greedy", "parallel"):
            got = subprocess.run([PY, "-c", CHILD, path, way, str(budget)], capture_output=True, text=True)
            try:
                row = json.loads(got.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                row = {"error": got.stderr.strip().splitlines()[-1] if got.stderr.strip() else "no output"}
            name = str(Path(path).resolve().relative_to(ROOT)) if Path(path).resolve().is_relative_to(ROOT) else path
            flat = {"task": name, "way": way, "budget": budget if way == "parallel" else 50000,
                    "length": row.get("length"), "cpu_s": row.get("cpu_s"), "expanded": row.get("expanded"),
                    "conflicts": row.get("conflicts"),
                    "horizons": " ".join(f"{h}:{a}" for h, a in row.get("horizons", [])),
                    "error": row.get("error", "")}
            rows.append(flat)
            print(json.dumps(flat), flush=True)
    with open(out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
