"""The two grounders measured on the IPC 2008 optimal Sokoban track: Fast Downward's
translator (``fast-downward-translate``, the one puzzleplan uses, run as puzzleplan runs it)
and unified-planning's own grounder (``up_grounder``, unified-planning 1.3.0, which is not a
dependency: install it beside to rerun this).  Per problem: wall seconds (the process start
included for the translator, as puzzleplan pays it), ground actions, and state variables
(the translator's finite-domain variables and facts; unified-planning's Boolean fluents).

    .venv/bin/python benchmarks/grounders/grounders.py [IPC folder] > benchmarks/grounders/grounders.csv
    (with unified-planning importable, e.g. PYTHONPATH of a venv that has it)
"""
from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from puzzleplan.families.strips.ground import translate


def up_ground(domain: Path, problem: Path) -> tuple[float, int, int]:
    from unified_planning.engines import CompilationKind
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import Compiler, get_environment
    get_environment().credits_stream = None
    t0 = time.perf_counter()
    task = PDDLReader().parse_problem(str(domain), str(problem))
    with Compiler(name="up_grounder") as grounder:
        ground = grounder.compile(task, CompilationKind.GROUNDING).problem
    seconds = time.perf_counter() - t0
    fluents = sum(1 for _ in ground.initial_values if _.type.is_bool_type())
    return seconds, len(ground.actions), fluents


def main(folder: str) -> None:
    root = Path(folder)
    out = csv.writer(sys.stdout)
    out.writerow(["problem", "fd_seconds", "fd_actions", "fd_variables", "fd_facts",
                  "up_seconds", "up_actions", "up_fluents", "up_error"])
    for problem in sorted(root.glob("p*.pddl")):
        t0 = time.perf_counter()
        task = translate((root / "domain.pddl").read_text(), problem.read_text(), problem.name)
        fd = (round(time.perf_counter() - t0, 3), len(task.operators), len(task.values), task.facts)
        t0 = time.perf_counter()
        try:
            up = up_ground(root / "domain.pddl", problem)
            up = (round(up[0], 3), up[1], up[2], "")
        except ImportError:
            up = ("", "", "", "unified-planning not installed")
        except Exception as err:        # its grounder's own failure, recorded as such
            up = (round(time.perf_counter() - t0, 3), "", "", f"{type(err).__name__}: {err}")
        out.writerow([problem.name, *fd, *up])
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets/pddl/sokoban-opt08-strips")
