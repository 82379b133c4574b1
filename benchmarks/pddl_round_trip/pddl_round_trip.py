"""Every catalogue puzzle through our own PDDL export, read back as a PDDL task (grounded by
Fast Downward's translator) and solved by uniform-cost search on the exported costs: the
optimum must be the catalogue's.  Metrics STRIPS cannot say here (sliding's ``moves``) are
recorded as refused.  One row per catalogue entry, appended to
``benchmarks/pddl_round_trip/pddl_round_trip.csv``: the export's size, the grounded task's size, status,
length, CPU seconds of the search, whether it agrees, the load average before the run.

    .venv/bin/python benchmarks/pddl_round_trip/pddl_round_trip.py [SECONDS per search, default 20]
"""
import csv
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

from puzzleplan.bench.run import machine
from puzzleplan.catalogue import catalogue, instances_root
from puzzleplan.formats.load import load
from puzzleplan.pddl import export
from puzzleplan.puzzle import PuzzleError
from puzzleplan.search import breadth_first_search

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks/pddl_round_trip/pddl_round_trip.csv"
FIELDS = ["name", "metric", "optimum", "exported", "variables", "actions", "status", "length", "cpu_seconds",
          "agrees", "load", "machine"]


def catalogue_exports(names: set[str] | None = None) -> Iterator[tuple[dict, object, object, str | None, str | None]]:
    """Each catalogue entry (of ``names``, when given) as (its row, its rules, the exported task, the exported
    ``problem.pddl``, None) or, where the export refuses it, (row, rules, None, None, why).
    The files live in a temporary folder until the next entry is asked for."""
    for row in catalogue():
        if names and row["name"] not in names:
            continue
        level = int(row["level"]) if row["level"] else None
        native = load(instances_root() / row["file"], level).problem
        with tempfile.TemporaryDirectory() as tmp:
            try:
                task, _, problem = export(native, row["metric"], tmp)
            except PuzzleError as err:
                yield row, native, None, None, err.problem
                continue
            yield row, native, task, problem, None


def main(seconds: float) -> None:
    new = not OUT.exists()
    with open(OUT, "a", newline="") as fh:
        out = csv.DictWriter(fh, FIELDS)
        if new:
            out.writeheader()
        for row, _, task, problem, refused in catalogue_exports():
            rec = {"name": row["name"], "metric": row["metric"], "optimum": row["optimum"],
                   "load": os.getloadavg()[0], "machine": machine()}
            if refused:
                rec.update(exported=f"refused: {refused}")
                out.writerow(rec)
                continue
            read = load(problem).rules
            rec.update(exported=f"{len(task.schemas)} schemas", variables=len(read.task.values),
                       actions=len(read.ops))
            t0 = time.process_time()
            got = breadth_first_search(read, "cost", seconds)
            rec.update(status=got.status.value, length=got.length,
                       cpu_seconds=round(time.process_time() - t0, 2),
                       agrees="" if got.length is None else str(str(got.length) == row["optimum"]))
            out.writerow(rec)
            fh.flush()
            print(rec["name"], rec["metric"], rec["status"] if "status" in rec else rec["exported"], rec.get("length"),
                  row["optimum"], flush=True)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 20)
