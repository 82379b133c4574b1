"""Which python-sat solver should the default backend use on knights puzzles?

Runs ``pysat`` (reachability lemmas) with Glucose 4.2.1 and with CaDiCaL 1.9.5, and both
without lemmas, on the seed puzzle (13 jumps), Guarini (16) and generated 3x4 boards with
four knights (optimum 10 or more), and appends one row per run to
``benchmarks/knights_solvers/knights_solvers.csv``: wall and CPU seconds (CPU time is what to compare when
the machine is shared), conflicts, status, length.

    .venv/bin/python benchmarks/knights_solvers/knights_solvers.py
"""
import csv
import random
import sys
import time
from pathlib import Path

from puzzleplan.families.knights import generate
from puzzleplan.bench.run import machine, versions
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.search import breadth_first_search

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks/knights_solvers/knights_solvers.csv"
BACKENDS = ["pysat:glucose42", "pysat:cadical195", "pysat-plain:glucose42", "pysat-plain:cadical195"]


def cases():
    yield "knights_seed003", load(ROOT / "instances/seeds/knights_seed003.knights").rules
    yield "guarini", load(ROOT / "instances/knights/guarini.knights").rules
    rng, found = random.Random(2026), 0
    while found < 6:
        d = generate.knights(rng, 3, 4, n=4, holes=2)
        ref = breadth_first_search(d, "steps")
        if ref.length is not None and ref.length >= 10:
            found += 1
            yield f"generated_{found}_opt{ref.length}", d


def main() -> None:
    new = not OUT.exists()
    with open(OUT, "a", newline="") as fh:
        out = csv.writer(fh)
        if new:
            out.writerow(["case", "backend", "status", "length", "wall_s", "cpu_s", "conflicts", "machine", "versions"])
        for name, domain in cases():
            for backend in BACKENDS:
                c0, t0 = time.process_time(), time.perf_counter()
                r = solve(domain, "steps", backend, time_limit=300)
                row = [name, backend, r.status.value, r.length, round(time.perf_counter() - t0, 2),
                       round(time.process_time() - c0, 2), r.stats.get("conflicts"), machine(), versions()]
                out.writerow(row)
                fh.flush()
                print(*row[:7], file=sys.stderr)


if __name__ == "__main__":
    main()
