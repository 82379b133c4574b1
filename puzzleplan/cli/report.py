"""Loading the puzzle a command names, and reporting what came of it: the result printed
(exit code from :mod:`.outcomes`), the plan and its animations written."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..puzzle import Check, Contradiction, PuzzleError, Result, Status
from .common import fail
from .outcomes import end_with


def write_animations(animations, problem, steps, metric, as_json=False) -> None:
    """Draw the replayed plan into each file asked for; one line if there is no plan."""
    targets, force = animations
    if not targets:
        return
    if steps is None:
        click.echo("no plan found: no animation written", err=True)
        return
    from ..animate import write
    try:
        for kind, path in targets.items():
            scene = write(problem, steps, metric, path, kind, force)
            click.echo(f"animation: {path} ({len(scene.frames)} frames)", err=True)
    except PuzzleError as err:
        fail(err, as_json)


def load_instance(path, level, margin=2, constraints=(), options=None, stated=True):
    import gc
    from ..formats.load import load
    # the puzzle lives as long as the command: out of the cyclic collector's way, whose full
    # passes over a huge board's rules took seconds each, past any time limit (reading and
    # setting up a puzzle makes no cycles to collect)
    gc.disable()
    try:
        inst = load(path, level, margin=margin, constraints=constraints, options=options, stated=stated)
    finally:
        if huge_file(path):     # only then: a frozen object is never collected (a process running
            gc.freeze()         # many commands, such as a test runner, would keep their cycles)
        gc.enable()
    return inst


def huge_file(path) -> bool:
    """A puzzle file of more than 100 KB: a huge board (the bundled collections are below 40 KB)."""
    try:
        return Path(path).stat().st_size > 100_000
    except OSError:
        return False


def no_plan(err: Contradiction, file, level, margin, metric, method, as_json, animations=None, options=None) -> None:
    """Conditions that contradict each other (well formed): the answer is ``unsolvable``, with the
    reason, exit code 0, as for any instance without a plan."""
    from ..puzzle import check_metric
    try:
        # the puzzle alone, without the conditions the file states either: its board and metrics
        problem = load_instance(file, level, margin, options=options, stated=False).problem
        result = Result(Status.UNSOLVABLE, check_metric(problem, metric), method, board=problem.rules.board(),
                        proof=f"no plan can meet the conditions: {err.problem}")
    except PuzzleError as other:
        fail(other, as_json)
    if animations:
        write_animations(animations, problem, None, result.metric, as_json)
    print_result(result, as_json)


def timed_out(metric, method) -> Result:
    """The time limit passed before the search or the planner began (a huge board)."""
    return Result(Status.TIMEOUT, metric or "-", method,
                  message="the time limit passed while the puzzle was read and its rules built")


#: how a check of the answer ended, after the status (a model checker's invariant is said in its proof)
CHECK_NOTES = {Check.PASSED: " (certified)", Check.FAILED: " (CERTIFICATE FAILED)",
               Check.INTERRUPTED: " (certification interrupted)", Check.TIMED_OUT: " (certification timed out)",
               Check.MEMOUT: " (certification out of memory)"}


def print_result(result: Result, as_json: bool, replay=None) -> None:
    """Print the result; exit with its outcome's code when it is not 0 (:func:`.outcomes.end_with`)."""
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        certified = CHECK_NOTES.get(result.check, "") if "certified" in result.stats or result.check not in (
            Check.PASSED, Check.FAILED) else ""
        line = f"{result.status.value}{certified}: {result.method}"
        if result.length is not None:
            line += f", {result.length} {result.metric}"
            if result.steps is not None and result.metric != "steps" and result.length != len(result.steps):
                line += f" ({len(result.steps)} steps)"
        if result.status is Status.FEASIBLE and result.stats.get("optimum_at_least") is not None:
            line += f", optimum >= {result.stats['optimum_at_least']} (gap {result.stats['gap']} %)"
        if result.bound is not None:
            line += f", no plan within {result.bound} {result.metric}"
        elif result.status in (Status.TIMEOUT, Status.INTERRUPTED):
            line += ", nothing refuted yet"
        if result.proof:
            line += f" ({result.proof})"
        click.echo(line)
        if result.scope:
            click.echo(f"scope: {result.scope}")
        if result.steps is not None:
            click.echo("plan: " + " ".join(result.steps))
        figures = {k: v for k, v in result.stats.items() if not isinstance(v, (list, dict))}
        if figures:
            click.echo("figures: " + ", ".join(f"{k}={'unknown' if v is None else v}" for k, v in figures.items()))
        if result.message:
            click.echo(result.message)
    end_with(result.outcome)


def progress_printer(label: str, first: str = "expanded", second: str = "states"):
    def report(a, b):
        click.echo(f"{label}: {a:,} {first}, {b:,} {second}", err=True)
    return report


def write_plan(path, problem, result: Result, as_json: bool) -> None:
    """``--plan-out``: the plan in the IPC format (nothing is written without a plan)."""
    if not path:
        return
    if result.steps is None:
        click.echo("no plan found: no plan file written", err=True)
        return
    from ..outputs import put
    from ..plans import ipc_plan
    cost, unit = problem.rules.plan_cost(result.steps)
    try:
        put(path, ipc_plan(result.steps, cost, unit))
    except PuzzleError as err:
        fail(err, as_json)
    click.echo(f"plan: {path}", err=True)

