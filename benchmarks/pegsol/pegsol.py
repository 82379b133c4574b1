"""What SAT and search prove on the peg-solitaire instances in a bounded time.

One row per run, appended to ``benchmarks/pegsol/pegsol.csv``: the planner (``solve``: deepening
with reachability lemmas) and the searches (BFS, A* with the family's heuristic) under
each metric, each with a time limit; for the French 37 board also the bare SAT question
"a plan within 35 jumps?" (the planner answers at once from the position-class lower
bound; this asks the encoding itself).  Wall and CPU seconds (compare CPU time: the
machine is shared), the load average before each run, the machine.

    .venv/bin/python benchmarks/pegsol/pegsol.py [quick|all]
"""
import csv
import os
import sys
import time
from pathlib import Path

from puzzleplan import limits
from puzzleplan.bench.run import machine, versions
from puzzleplan.encodings import encoder_for
from puzzleplan.encodings.model import BoolModel
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.planner.backends import make_backend
from puzzleplan.search import astar_search, breadth_first_search

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks/pegsol/pegsol.csv"
SMALL = ["latin_cross", "greek_cross", "fireplace", "pyramid", "triangle10", "triangle15"]


def runs(which: str):
    for name in SMALL:
        for metric in ("steps", "moves"):
            yield name, metric, "sat:pysat", 120
            yield name, metric, "bfs", 120
            yield name, metric, "astar", 120
    if which == "quick":
        return
    yield "french37", "steps", "sat:pysat", 600
    yield "french37", "steps", "raw-sat:pysat:cadical195", 300
    yield "french37", "steps", "bfs", 60
    yield "english33", "steps", "sat:pysat:cadical195", 600
    yield "english33", "steps", "astar", 60
    yield "english33", "moves", "sat:pysat:cadical195", 300
    yield "english33", "moves", "astar", 60


def raw_sat(domain, metric, backend, seconds):
    """The encoding at the rules' longest horizon, one solver call, no lower bound."""
    horizon = domain.longest_plan(metric)
    model = BoolModel()
    enc = encoder_for(domain, metric)
    solver = make_backend(backend, model)
    try:
        with limits.time_limit(seconds):
            enc.start(model)
            enc.extend(model, horizon)
            answer = solver.solve(enc.goal(model, horizon), horizon)
        conflicts = solver.figures().get("conflicts")
    except limits.TimeUp:
        return {"status": "timeout", "bound": None, "conflicts": None, "horizon": horizon}
    finally:
        solver.close()
    status = {"unsat": f"no_plan_within {horizon}", "sat": "plan", "unknown": "timeout"}[answer.status]
    return {"status": status, "bound": horizon if answer.status == "unsat" else None, "conflicts": conflicts,
            "horizon": horizon}


def main(which: str = "all") -> None:
    new = not OUT.exists()
    with open(OUT, "a", newline="") as fh:
        out = csv.writer(fh)
        if new:
            out.writerow(["instance", "metric", "method", "limit_s", "status", "length", "bound", "lower_bound",
                          "wall_s", "cpu_s", "conflicts", "expanded", "peak_rss_mb", "load_before", "machine",
                          "versions"])
        for name, metric, method, seconds in runs(which):
            domain = load(ROOT / f"instances/pegsol/{name}.peg").problem
            load_before = round(os.getloadavg()[0], 2)
            c0, t0 = time.process_time(), time.perf_counter()
            if method.startswith("raw-sat:"):
                r = raw_sat(domain, metric, method.partition(":")[2], seconds)
                row = [r["status"], None, r["bound"], None, r["conflicts"], None, None]
            else:
                if method.startswith("sat:"):
                    res = solve(domain, metric, method.partition(":")[2], time_limit=seconds)
                else:
                    search = {"bfs": breadth_first_search, "astar": astar_search}[method]
                    res = search(domain, metric, time_limit=seconds)
                row = [res.status.value, res.length, res.bound, res.lower_bound, res.stats.get("conflicts"),
                       res.stats.get("expanded"), res.stats.get("peak_rss_mb")]
            wall, cpu = round(time.perf_counter() - t0, 2), round(time.process_time() - c0, 2)
            status, length, bound, lower, conflicts, expanded, rss = row
            line = [name, metric, method, seconds, status, length, bound, lower, wall, cpu, conflicts, expanded,
                    rss, load_before, machine(), versions()]
            out.writerow(line)
            fh.flush()
            print(*line[:14], file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
