"""PDDL: puzzles exported as STRIPS tasks, planners' plans read back, outside planners run.

``task`` builds the task, ``files`` writes it and reads plans, ``planners`` runs
Fast Downward and SymK on it.
"""
from __future__ import annotations

from pathlib import Path

from ..puzzle import PuzzleError
from .files import decode, read_plan_file, write
from .planners import PLANNERS, available, plan
from .task import Task, build

__all__ = ["PLANNERS", "Task", "available", "build", "decode", "export", "plan", "read_plan_file", "write"]


def targets(out_dir: str | None, out_file: str | None) -> tuple[Path, Path]:
    """``(domain file, problem file)``: OUTDIR/domain.pddl and OUTDIR/problem.pddl, or
    the problem file given with domain.pddl beside it."""
    if out_dir and out_file:
        raise PuzzleError("give either --pddl OUTDIR or -o PROBLEM.pddl, not both")
    if out_dir:
        return Path(out_dir) / "domain.pddl", Path(out_dir) / "problem.pddl"
    problem = Path(out_file)
    if problem.suffix != ".pddl":
        raise PuzzleError(f"{out_file}: a PDDL problem file ends in .pddl")
    if problem.name == "domain.pddl":
        raise PuzzleError("name the problem file something other than domain.pddl (the domain goes beside it)")
    return problem.parent / "domain.pddl", problem


def export(domain, metric: str | None, out_dir: str | None = None, out_file: str | None = None,
           force: bool = False, header=()) -> tuple[Task, Path, Path]:
    """Write the PDDL of ``domain``; nothing existing is overwritten unless ``force``."""
    domain_file, problem_file = targets(out_dir, out_file)
    for path in (domain_file, problem_file):
        if path.exists() and not force:
            raise PuzzleError(f"{path} exists; use --force to overwrite it")
    task = build(domain, metric)
    board = getattr(domain, "base", domain).board() or []
    domain_file.parent.mkdir(parents=True, exist_ok=True)
    write(task, domain_file, problem_file, list(header) + board)
    return task, domain_file, problem_file
