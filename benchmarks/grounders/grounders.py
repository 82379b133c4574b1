"""Grounders measured on the IPC 2008 optimal Sokoban track: Fast Downward's translator
(``fast-downward-translate``, run as puzzleplan runs it) and unified-planning's own grounder
(``up_grounder``, unified-planning 1.3.0, which is not a dependency: install it beside to
rerun this).  Per problem: wall seconds (the process start included for the translator, as
puzzleplan pays it), ground actions, and state variables (the translator's finite-domain
variables and facts; unified-planning's Boolean fluents).

    .venv/bin/python benchmarks/grounders/grounders.py [IPC folder] > benchmarks/grounders/grounders.csv
    (with unified-planning importable, e.g. PYTHONPATH of a venv that has it)

With ``--own``: our grounder (:mod:`puzzleplan.strips.grounder`) against the
translator, per problem: each one's wall and CPU seconds (the translator's child's CPU
counted), and whether the two tasks are the same (variables, values, actions, mutex groups).

    .venv/bin/python benchmarks/grounders/grounders.py --own [IPC folder] > benchmarks/grounders/own_vs_translator.csv
"""
from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from puzzleplan.strips.ground import run_translator as translate


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


def own(folder: str) -> None:
    from dataclasses import replace
    from puzzleplan.bench.run import cpu_seconds as cpu, machine, revision
    from puzzleplan.strips import grounder as lifted
    root = Path(folder)
    out = csv.writer(sys.stdout)
    out.writerow(["problem", "actions", "variables", "facts", "translator_seconds", "translator_cpu", "own_seconds",
                  "own_cpu", "same_task", "revision", "machine"])
    domain = (root / "domain.pddl").read_text()
    for problem in sorted(root.glob("p*.pddl")):
        text = problem.read_text()
        w, c = time.perf_counter(), cpu()
        theirs = translate(domain, text, problem.name)
        fd = (round(time.perf_counter() - w, 3), round(cpu() - c, 3))
        w, c = time.perf_counter(), cpu()
        ours = lifted.ground(domain, text, problem.name)
        mine = (round(time.perf_counter() - w, 3), round(cpu() - c, 3))
        same = replace(ours, seconds=0, grounder="") == replace(theirs, seconds=0, grounder="")
        out.writerow([problem.name, len(ours.operators), len(ours.values), ours.facts, *fd, *mine, same,
                      revision(), machine()])
        sys.stdout.flush()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--own"]
    (own if "--own" in sys.argv else main)(args[0] if args else "../shared/datasets/pddl/sokoban-opt08-strips")
