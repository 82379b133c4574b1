"""The first horizon's probe on and off, everything else the same: pysat-de, 30 s a run, one
process, one run at a time, on crossover points where the probe answers and where it is
refuted or runs out of its budget.  From the checkout, .venv active:
    python benchmarks/probe_owed/probe_on_off.py      (appends to probe_on_off.csv)"""
from __future__ import annotations

import csv
import platform
import subprocess
import time
from pathlib import Path

from puzzleplan.formats.load import load
from puzzleplan.planner import solve

HERE = Path(__file__).parent
SERIES = HERE.parent / "crossover" / "instances"
POINTS = ["sliding-each-k09-s0.slide", "sliding-each-k10-s0.slide", "sliding-each-k06-s0.slide",
          "sliding-crowd-n09-s0.slide", "sliding-crowd-n15-s0.slide", "sliding-crowd-n21-s0.slide",
          "knights-wide-n05-s0.knights", "knights-wide-n08-s0.knights", "sokoban-boxes-k06-s0.xsb"]


def main() -> None:
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    out = HERE / "probe_on_off.csv"
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["instance", "first_probe", "status", "length", "conflicts", "cpu_seconds", "probe_answer",
                        "git", "machine"])
        for name in POINTS:
            domain = load(SERIES / name).problem
            for probe in (False, True):
                t = time.process_time()
                r = solve(domain, None, "pysat-de", 30, first_probe=probe)
                w.writerow([name, probe, r.status.value, r.length, r.stats.get("conflicts"),
                            round(time.process_time() - t, 2), r.stats.get("first_probe", ""), rev,
                            f"{platform.machine()} {cpu}"])
                f.flush()


if __name__ == "__main__":
    main()
