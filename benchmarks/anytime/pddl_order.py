"""The fixed order of PDDL tasks' parallel steps: the least satisfiable parallel horizon with the
order by index within each component of the "disables" graph, against the enabling order
(:func:`puzzleplan.strips.encoding.exists.enabling_order`, the one used).  Horizons asked one by
one from 1 on one solver; the plan found there replayed.

Usage (from the checkout): .venv/bin/python benchmarks/anytime/pddl_order.py OUT.csv TASK.pddl...
(also two exports made by the unit tests: a Sokoban room and the 8-puzzle).
"""
from __future__ import annotations

import csv
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests/unit"), str(ROOT / "tests")]

from puzzleplan.formats.load import load  # noqa: E402
from puzzleplan.planner import first  # noqa: E402
from puzzleplan.registry import problem as problem_of  # noqa: E402
from puzzleplan.strips.encoding import exists  # noqa: E402


def least(problem, enabling: bool, most=80):
    enc = exists.ExistsSteps(problem, "steps")
    if not enabling:
        enc.order = exists.fixed_order(enc.rules.ops, enc.leaving)
        enc.rank = {o: r for r, o in enumerate(enc.order)}
        enc = _reranked(enc)
    model, solver = first._plain(problem, None)
    enc.start(model)
    t0, conflicts = time.process_time(), 0
    try:
        for h in range(1, most + 1):
            enc.extend(model, h)
            before = solver.conflicts()
            answer = solver.solve_budget([enc.goal(model, h)], 500_000)
            conflicts += solver.conflicts() - before
            if answer:
                got = first._checked(problem, enc.decode(model, solver.values()), "steps", ())
                return {"horizon": h, "plan": got[1], "conflicts": conflicts, "cpu_s": round(time.process_time() - t0, 2)}
            if answer is None:
                return {"horizon": None, "plan": None, "conflicts": conflicts, "cpu_s": round(time.process_time() - t0, 2)}
    finally:
        solver.close()
    return {"horizon": None}


def _reranked(enc):
    """The per-fact and per-variable lists sorted again by the encoder's ``rank``."""
    by_rank = enc.rank.__getitem__
    enc.setters = {f: sorted(ops, key=by_rank) for f, ops in enc.setters.items()}
    enc.breakers = {f: sorted(ops, key=by_rank) for f, ops in enc.breakers.items()}
    enc.writers = {v: sorted(ops, key=by_rank, reverse=True) for v, ops in enc.writers.items()}
    enc.ranks = {**{("some", f): [enc.rank[o] for o in ops] for f, ops in enc.setters.items()},
                 **{("any", f): [enc.rank[o] for o in ops] for f, ops in enc.breakers.items()},
                 **{("later", v): [-enc.rank[o] for o in ops] for v, ops in enc.writers.items()}}
    return enc


def main(out, paths):
    from test_strips_levers import eight_puzzle_export, sokoban_export
    cases = [("sokoban room (unit tests)", sokoban_export()), ("8-puzzle export (unit tests)", eight_puzzle_export())]
    cases += [(str(Path(p).resolve().relative_to(ROOT)), load(p).rules) for p in paths]
    rows = []
    for name, rules in cases:
        for enabling in (False, True):
            row = {"task": name, "order": "enabling" if enabling else "index", **least(problem_of(rules), enabling)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    with open(out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["task", "order", "horizon", "plan", "conflicts", "cpu_s"])
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
