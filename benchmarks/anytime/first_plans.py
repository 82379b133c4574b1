"""First plans and both bounds: `puzzleplan solve --json` on the long puzzles, each at a time
limit, with and without the first-plan ways; one row per run in results.csv / results.json.

Usage (from the checkout): .venv/bin/python benchmarks/anytime/first_plans.py [--only=PREFIX] [LIMITS...]
(default limits 10 and 60 seconds; ``--only=rh_long``: those puzzles only, written to
results_rh_long.csv / .json).  CPU seconds per run are the child's (getrusage).
"""
from __future__ import annotations

import csv
import json
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PP = str(ROOT / ".venv/bin/puzzleplan")

# (name, file, level, optimum in steps)
CASES = [
    ("klotski", "instances/seeds/klotski_seed000.slide", None, 116),
    ("fifteen32", "benchmarks/anytime/instances/fifteen32.slide", None, 32),
    ("card40", "instances/seeds/rushhour_card40_bmodel_v2.rh", None, 81),
    ("knights", "instances/seeds/knights_seed003.knights", None, 13),
]
LONG = HERE / "instances/rushhour_long.rh"      # "; optimum N steps: ..." above each board


def long_cases():
    out, optimum = [], None
    for line in LONG.read_text().splitlines():
        if line.startswith("; optimum "):
            optimum = int(line.split()[2])
        elif line.strip() and line[0] not in ";#":
            out.append((f"rh_long{len(out) + 1}", str(LONG.relative_to(ROOT)), len(out) + 1, optimum))
    return out


CASES += long_cases()


def run(name, path, level, limit, first):
    args = [PP, "solve", str(ROOT / path), "--json", "--no-enumerate", "--time-limit", str(limit)]
    if level is not None:
        args += ["-l", str(level)]
    if not first:
        args.append("--no-first-plan")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    doc = json.loads(out.stdout)
    imp = doc.get("improvements") or []
    lower = doc.get("optimum_at_least", doc.get("length") if doc["status"] == "optimal" else
                    (doc["bound"] + 1 if doc.get("bound") is not None else doc.get("lower_bound")))
    return {"puzzle": name, "level": level, "limit_s": limit, "first_plan": first, "status": doc["status"],
            "cpu_s": round(cpu, 2),
            "first_length": imp[0]["length"] if imp else doc.get("length"),
            "first_cpu_s": imp[0]["cpu_s"] if imp else None,
            "first_by": imp[0]["how"] if imp else None,
            "length": doc.get("length"), "lower": lower, "gap": doc.get("gap", 0.0 if doc["status"] == "optimal" else None),
            "plan_found_by": doc.get("plan_found_by"),
            "improvements": imp, "first_plans": doc.get("first_plans")}


def main(limits, only=None):
    rows = []
    for limit in limits:
        for name, path, level, optimum in CASES:
            if only and not name.startswith(only):
                continue
            for first in (True, False):
                row = run(name, path, level, limit, first)
                row["optimum"] = optimum
                rows.append(row)
                print(json.dumps({k: v for k, v in row.items() if k not in ("improvements", "first_plans")}),
                      flush=True)
    tag = f"_{only}" if only else ""
    (HERE / f"results{tag}.json").write_text(json.dumps(rows, indent=1) + "\n")
    keys = [k for k in rows[0] if k not in ("improvements", "first_plans")]
    with open(HERE / f"results{tag}.csv", "w", newline="") as f:
        w = csv.DictWriter(f, keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    args = sys.argv[1:]
    only = args.pop(0)[len("--only="):] if args and args[0].startswith("--only=") else None
    main([float(x) for x in args] or [10.0, 60.0], only)
