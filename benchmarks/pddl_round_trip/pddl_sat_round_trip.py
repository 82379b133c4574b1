"""SAT on every catalogue puzzle's own file against SAT on its ``export --pddl`` read back
(the ``strips`` family, its default levers): the same backend (``pysat-de``), the same time
limit, one run after the other in this process.  The PDDL side's time includes grounding
(our grounder in this process, or Fast Downward's translator, a child process, whose CPU is
counted: ``--grounder translator`` asks for it always) and the levers' set-up;
``ratio`` is the PDDL run's CPU over the native run's, ``ratio_sat`` the same without the
grounding.  Metrics the export cannot say (sliding's and peg solitaire's ``moves``) are
recorded as refused.  Each optimum is checked against the catalogue's.

The PDDL side reads its export with the default levers, or ``--levers`` (as the CLI takes
them: ``-order,-counts``; the ``command`` column says which).  Rows are appended to
``benchmarks/pddl_round_trip/pddl_sat_round_trip.csv`` with the load average before each
pair, the command, the git revision and the machine.

    .venv/bin/python benchmarks/pddl_round_trip/pddl_sat_round_trip.py [--seconds 60] [--only NAME,...] [--levers LIST] [--grounder own|translator]
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path

from puzzleplan.bench.run import cpu_seconds as cpu, machine, revision
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import PuzzleError
from puzzleplan.strips.encoding.levers import parse_levers

from pddl_round_trip import catalogue_exports    # this script's folder is on sys.path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(os.environ.get("PDDL_SAT_ROUND_TRIP_OUT", ROOT / "benchmarks/pddl_round_trip/pddl_sat_round_trip.csv"))
FIELDS = ["name", "metric", "optimum", "native_status", "native_length", "native_refuted", "native_cpu",
          "pddl_metric", "variables", "actions", "ground_cpu", "pddl_status", "pddl_length", "pddl_refuted",
          "pddl_sat_cpu", "pddl_cpu", "ratio", "ratio_sat", "agrees", "lower_bound_native", "lower_bound_pddl",
          "mutex_pairs", "barred_pairs", "goal_lemma_units_native", "goal_lemma_units_pddl", "conflicts_native",
          "conflicts_pddl", "load", "time_limit", "command", "revision", "machine"]


def agrees(status: str, length, optimum: str) -> str:
    if length is None or not optimum:
        return ""
    return str(length == int(optimum) if status == "optimal" else length >= int(optimum))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit of each run (wall seconds)")
    ap.add_argument("--only", default="", help="comma-separated catalogue names (default: all)")
    ap.add_argument("--levers", default=None, help="the PDDL side's levers, as --levers takes them (default: the defaults)")
    ap.add_argument("--grounder", default=None, choices=["own", "translator"],
                    help="who grounds the PDDL side (default: ours, else the translator)")
    args = ap.parse_args()
    if args.levers is not None:
        try:
            parse_levers(args.levers)       # a wrong name refused before any run
        except PuzzleError as err:
            sys.exit(err.problem)
    only = set(filter(None, args.only.split(",")))
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    new = not OUT.exists()
    with open(OUT, "a", newline="") as fh:
        out = csv.DictWriter(fh, FIELDS)
        if new:
            out.writeheader()
        for row, native, _, problem, refused in catalogue_exports(only):
            rec = {"name": row["name"], "metric": row["metric"], "optimum": row["optimum"],
                   "load": round(os.getloadavg()[0], 2), "time_limit": args.seconds, "command": command,
                   "revision": revision(), "machine": machine()}
            if refused:
                rec.update(native_status=f"refused by the export: {refused}")
                out.writerow(rec)
                fh.flush()
                continue
            c0 = cpu()
            got = solve(native, row["metric"], time_limit=args.seconds)
            s = got.stats
            rec.update(native_status=got.status.value, native_length=got.length, native_refuted=got.bound,
                       native_cpu=round(cpu() - c0, 2), lower_bound_native=got.lower_bound,
                       goal_lemma_units_native=s.get("goal_lemma_units"), conflicts_native=s.get("conflicts"))
            w0, c0 = time.perf_counter(), cpu()
            read = load(problem, options={"levers": args.levers, "grounder": args.grounder}).rules
            c1 = cpu()
            metric = "steps" if read.unit_costs("cost") else "cost"
            rec.update(pddl_metric=metric, variables=len(read.task.values), actions=len(read.ops),
                       ground_cpu=round(c1 - c0, 2))
            left = args.seconds - (time.perf_counter() - w0)
            try:
                got = solve(read, metric, time_limit=max(left, 0.01))
            except PuzzleError as err:
                rec.update(pddl_status=f"refused: {err.problem}")
            else:
                s = got.stats
                rec.update(pddl_status=got.status.value, pddl_length=got.length, pddl_refuted=got.bound,
                           pddl_sat_cpu=round(cpu() - c1, 2), pddl_cpu=round(cpu() - c0, 2),
                           lower_bound_pddl=got.lower_bound, mutex_pairs=s.get("mutex_pairs"),
                           barred_pairs=s.get("barred_pairs"), goal_lemma_units_pddl=s.get("goal_lemma_units"),
                           conflicts_pddl=s.get("conflicts"))
                if rec["native_status"] == "optimal" and rec["pddl_status"] == "optimal":
                    rec["ratio"] = round(rec["pddl_cpu"] / max(rec["native_cpu"], 0.01), 2)
                    rec["ratio_sat"] = round(rec["pddl_sat_cpu"] / max(rec["native_cpu"], 0.01), 2)
                rec["agrees"] = " ".join(filter(None, (agrees(rec["native_status"], rec["native_length"],
                                                              row["optimum"]),
                                                       agrees(rec["pddl_status"], rec["pddl_length"],
                                                              row["optimum"]))))
            out.writerow(rec)
            fh.flush()
            print(f"{rec['name']:20} {rec['metric']:7} native {rec['native_status']:14} {rec['native_cpu']!s:>7} "
                  f"pddl {rec.get('pddl_status', '')!s:14} {rec.get('pddl_cpu', '')!s:>7} "
                  f"ratio {rec.get('ratio', '')!s:6} load {rec['load']}", flush=True)


if __name__ == "__main__":
    main()
