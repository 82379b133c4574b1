"""PDDL text for a :class:`~puzzleplan.pddl.task.Task`, and planners' plan files read back.

Writing: ``domain.pddl`` (predicates, the kinds as constants, one action per
schema) and ``problem.pddl`` (cells and counter values as objects, the initial
facts with every static ``legal-*`` tuple, the goal, ``minimize (total-cost)`` when
the task has costs).  Comment lines (``;;``) carry the board, the metric, which
pieces each kind stands for and the constraints.

Reading: a plan file holds one ground action per line, ``(name arg ...)``, and
``;`` comments (``; cost = 12 (unit cost)``).  Each action becomes our unit
steps: sliding ``AU`` (the label is recovered by following the pieces), Sokoban
LURD letters (upper case for pushes), knights ``b1-c3``.
"""
from __future__ import annotations

from pathlib import Path

from ..puzzle import PuzzleError
from .task import Task


def atom(a) -> str:
    return "(" + " ".join(a) + ")"


def conj(atoms) -> str:
    return "(and " + " ".join(atom(a) for a in atoms) + ")"


def predicates(task: Task) -> dict[str, int]:
    """Every predicate used, with its arity."""
    out: dict[str, int] = {}
    for s in task.schemas:
        for a in s.pre + s.add + s.delete:
            out.setdefault(a[0], len(a) - 1)
        if s.rows:
            out.setdefault(f"legal-{s.name}", len(s.params))
    for a in task.init + task.goal:
        out.setdefault(a[0], len(a) - 1)
    return out


def action_text(task: Task, s) -> str:
    pre = list(s.pre) + ([(f"legal-{s.name}", *s.params)] if s.rows else [])
    effects = [atom(a) for a in s.add] + [f"(not {atom(a)})" for a in s.delete if a not in s.add]
    if task.costs:
        effects.append(f"(increase (total-cost) {s.cost})")
    return (f"  (:action {s.name}\n   :parameters ({' '.join(s.params + s.free)})\n"
            f"   :precondition {conj(pre)}\n   :effect (and {' '.join(effects)}))")


def domain_text(task: Task, header: list[str]) -> str:
    reqs = ":strips" + (" :action-costs" if task.costs else "")
    preds = " ".join("(" + " ".join([p] + [f"?a{i}" for i in range(n)]) + ")" for p, n in predicates(task).items())
    lines = [f";; {h}" for h in header] + [f"(define (domain {task.name})", f"  (:requirements {reqs})"]
    if task.constants:
        lines.append(f"  (:constants {' '.join(task.constants)})")
    lines.append(f"  (:predicates {preds})")
    if task.costs:
        lines.append("  (:functions (total-cost) - number)")
    lines += [action_text(task, s) for s in task.schemas] + [")"]
    return "\n".join(lines) + "\n"


def problem_text(task: Task, header: list[str], problem: str = "puzzle") -> str:
    lines = [f";; {h}" for h in header + task.comments]
    lines += [f"(define (problem {problem})", f"  (:domain {task.name})", f"  (:objects {' '.join(task.objects)})",
              "  (:init"] + [f"    {atom(a)}" for a in task.init]
    if task.costs:
        lines.append("    (= (total-cost) 0)")
    lines += ["  )", f"  (:goal {conj(task.goal)})"]
    if task.costs:
        lines.append("  (:metric minimize (total-cost))")
    return "\n".join(lines + [")"]) + "\n"


def write(task: Task, domain_file: Path, problem_file: Path, header: list[str] = ()) -> None:
    header = list(header)
    domain_file.write_text(domain_text(task, header))
    problem_file.write_text(problem_text(task, header))


# -- plans back ---------------------------------------------------------------
def plan_actions(text: str, where: str = "plan") -> list[tuple[int, str, list[str]]]:
    """``(line, name, args)`` of each action in a plan file's text."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split(";", 1)[0].strip()
        if not line:
            continue
        if not (line.startswith("(") and line.endswith(")")) or len(line) < 3:
            raise PuzzleError(f"not a ground action like (name arg ...): {line[:60]!r}", where, n)
        parts = line[1:-1].split()
        out.append((n, parts[0].lower(), [p.lower() for p in parts[1:]]))
    return out


def decode(task: Task, problem, text: str, where: str = "plan") -> list[str]:
    """The unit steps of a plan for ``task`` (built from ``problem``, a
    :class:`~puzzleplan.contract.Problem`, a loaded instance or a bare rules object): each action becomes the family's move (its PDDL
    part's ``to_move``), the moves become steps."""
    from .. import registry
    from .task import family_part
    problem = registry.problem(problem)
    base = problem.rules
    part = family_part(problem)
    moves = []
    for n, name, args in plan_actions(text, where):
        s = task.schema(name)
        if s is None:
            raise PuzzleError(f"action {name!r} is not in the exported domain ({task.metric})", where, n)
        if len(args) != len(s.params) + len(s.free):
            raise PuzzleError(f"action {name!r} takes {len(s.params) + len(s.free)} arguments, not {len(args)}",
                              where, n)
        if s.step[0] == "finish":
            continue
        try:
            cells = [task.cells[a] for a, p in zip(args, s.params) if p != "?k"]     # (?k: a kind)
        except KeyError as err:
            raise PuzzleError(f"unknown cell {err.args[0]!r}", where, n) from None
        moves.append(part.to_move(base, s, cells))
    try:
        return base.render_steps(moves)
    except StopIteration:
        raise PuzzleError("the plan moves a piece from a cell where no piece of its kind stands", where) from None


def read_plan_file(task: Task, problem, path) -> list[str]:
    from ..formats.common import read_text
    return decode(task, problem, read_text(path), str(path))
