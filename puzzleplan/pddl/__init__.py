"""PDDL: puzzles exported as STRIPS tasks, planners' plans read back, outside planners run.

``task`` builds the task, ``files`` writes it and reads plans, ``planners`` runs
Fast Downward and SymK on it (``abstractions``: Fast Downward with abstraction heuristics).
"""
from __future__ import annotations

from pathlib import Path

from .. import limits, registry
from ..puzzle import PuzzleError
from .files import decode, domain_text, problem_text, read_plan_file, write
from .planners import Planner, available, plan
from .task import Task, build

__all__ = ["Planner", "Task", "available", "build", "decode", "export", "export_file", "plan", "read_plan_file",
           "read_plan_for", "write"]


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


def export(problem, metric: str | None, out_dir: str | None = None, out_file: str | None = None,
           force: bool = False, header=()) -> tuple[Task, Path, Path]:
    """Write the PDDL of ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded instance
    or a bare rules object); nothing existing is overwritten unless ``force``."""
    problem = registry.problem(problem)
    from ..outputs import check_folder, check_new, put
    domain_file, problem_file = targets(out_dir, out_file)
    folder = check_folder(domain_file.parent, (), force, "--pddl" if out_dir else "-o")   # at most one new folder
    if folder.is_dir():
        for path in (domain_file, problem_file):
            check_new(path, force)
    with limits.preemptive():       # built whole within the time limit, then written
        task = build(problem, metric)
        header = list(header) + (problem.rules.board() or [])
        texts = domain_text(task, header), problem_text(task, header)
    folder.mkdir(exist_ok=True)
    put(domain_file, texts[0], force)
    put(problem_file, texts[1], force)
    return task, domain_file, problem_file


def export_file(file, level, metric, constraints, margin, out_dir, out_file, force, options=None) -> str:
    """``puzzleplan export FILE --pddl OUTDIR`` (or ``-o PROBLEM.pddl``); returns the line to print."""
    from ..formats.load import load
    problem = load(file, level, margin=margin, constraints=constraints, options=options).problem
    header = [f"puzzleplan export {file}" + (f" --level {level}" if level else "")] + [f"-c {c}" for c in constraints]
    task, domain_file, problem_file = export(problem, metric, out_dir, out_file, force, header)
    return (f"{domain_file}, {problem_file}: {len(task.schemas)} action schemas, {len(task.init):,} initial facts "
            f"({task.metric}{', action costs' if task.costs else ''})")


def read_plan_for(problem, metric, path) -> list[str]:
    """The steps of a planner's plan file for our export of ``problem`` under ``metric``."""
    problem = registry.problem(problem)
    return read_plan_file(build(problem, metric), problem, path)
