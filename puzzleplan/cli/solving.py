"""The commands that answer a puzzle -- ``search`` and ``solve``, which share one
run-and-report path (:func:`run_and_report`) -- and ``explore`` and ``validate``."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass

import click

from .. import limits, methods
from ..plans import read_plan
from ..plugins import DEFAULT_SAT
from ..puzzle import Contradiction, Outcome, PuzzleError
from .common import (memory_option, AT_LEAST_0, AT_LEAST_1, SECONDS, Described, MethodChoice, animation_option,
                     counts_option, domain_option, fail, json_option, level_option, metric_option, patterned,
                     patterns_option)
from .outcomes import end_with
from .report import (load_instance, no_plan, print_result, progress_printer, timed_out, write_animations,
                     write_plan)


@dataclass
class Job:
    """What ``search`` and ``solve`` share: the puzzle named and how its answer is reported."""

    file: str
    level: int | None
    margin: int
    constraints: list
    reader: dict | None         # the format reader's options (--domain)
    metric: str | None
    method: str
    time_limit: float | None
    as_json: bool
    animations: tuple
    plan_out: str | None
    new_files: tuple = ()       # (path, flag): files the run will write, which must not exist yet


def run_and_report(job: Job, answer) -> None:
    """Load the puzzle within the time limit, ``answer(instance) -> Result``, then write the
    animations and the plan file and print the result (its exit code)."""
    from ..outputs import check_new
    try:
        for path, flag in job.new_files:      # before the work: what cannot be kept would be lost
            check_new(path, flag=flag)
        with limits.time_limit(job.time_limit):     # the clock starts before the file is read
            inst = load_instance(job.file, job.level, job.margin, job.constraints, job.reader)
            result = answer(inst)
    except limits.TimeUp:
        return print_result(timed_out(job.metric, job.method), job.as_json)
    except Contradiction as err:
        return no_plan(err, job.file, job.level, job.margin, job.metric, job.method, job.as_json, job.animations,
                       job.reader)
    except PuzzleError as err:
        fail(err, job.as_json)
    write_animations(job.animations, inst.problem, result.steps, result.metric, job.as_json)
    write_plan(job.plan_out, inst.problem, result, job.as_json)
    print_result(result, job.as_json)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--algorithm", "-a", type=MethodChoice(methods.SEARCH), default="bfs", show_default=True)
@metric_option
@level_option
@counts_option
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds.")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="Free cells around an open Sokoban level.")
@domain_option
@click.option("--plan-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the plan in the IPC format, as Fast Downward does; it must not exist.")
@json_option
@animation_option
@patterns_option
@memory_option
def search(file, algorithm, metric, level, constraints, time_limit, margin, options, plan_out, as_json, animations,
           patterns):
    """Solve FILE optimally by breadth-first search or A*."""
    job = Job(file, level, margin, constraints, options, metric, algorithm, time_limit, as_json, animations, plan_out,
              ((plan_out, "--plan-out"),) if plan_out else ())
    progress = None if as_json else progress_printer(algorithm)
    run_and_report(job, lambda inst: methods.run(algorithm, patterned(inst, patterns, metric), metric, time_limit,
                                                 progress=progress))


def conflicts(count: int | None) -> str:
    return "unknown" if count is None else f"{count:,}"


def horizon_line(row: dict) -> str:
    lemmas = f" {row['lemmas']:>7,} lemmas" if "lemmas" in row else ""
    if "goal_lemmas" in row:
        lemmas += f" {row['goal_lemmas']:>7,} goal-side"
    if row.get("bounds"):
        lemmas += f" {row['bounds']:>4} bounds"
    if row.get("winner"):
        lemmas += f" won by {row['winner']} ({row['cpu']:.2f} CPU s)"
    best = f" (best plan {row['upper']})" if row.get("upper") is not None else ""
    return (f"horizon {row['horizon']:>4}: {row['vars']:>8,} vars {row['clauses']:>9,} clauses "
            f"{conflicts(row.get('conflicts')):>9} conflicts{lemmas} {row['seconds']:>8.3f}s {row['result']}{best}")


def finite(value: float | None) -> float | None:
    """``--gap``'s value: a number of per cent (nan is in no range, and is refused as such)."""
    if value is not None and value != value:
        raise click.BadParameter(f"{value!r} is not in the range 0<=x<=100.")
    return value


class Progress:
    """How ``solve`` shows its deepening on stderr (nothing with ``-q`` or ``--json``):

    - ``--verbose``: the per-horizon table, a line per horizon;
    - in a terminal: one status line updated in place (horizon, last refuted, conflicts,
      elapsed), notes printed above it;
    - in a log (stderr not a terminal): a horizon's line at most every :data:`LOG_EVERY`
      seconds (and every plan found), and the last one at the end: where the run stood,
      without a thousand lines.

    What is shown depends on the clock; what the run does and proves does not."""

    LOG_EVERY = 10.0

    def __init__(self, verbose: bool, terminal: bool | None = None):
        import time
        self.clock = time.monotonic
        self.start = self.clock()
        self.mode = "table" if verbose else ("line" if (sys.stderr.isatty() if terminal is None else terminal)
                                             else "log")
        self.refuted: int | None = None
        self.upper: int | None = None     # the best plan's length so far
        self.conflicts = 0
        self.shown = False          # the status line is on screen
        self.last_printed = None    # the log: when a line was last printed
        self.pending: str | None = None     # the log: the last row's line, not printed yet

    def asking(self, horizon: int) -> None:
        """A horizon is about to be asked: the status line says so (the table and the log wait
        for its row)."""
        if self.mode == "line":
            self._status(f"horizon {horizon} being asked")

    def _status(self, head: str) -> None:
        """The status line: ``head``, then where the run stands."""
        import shutil
        refuted = "nothing refuted yet" if self.refuted is None else f"no plan within {self.refuted}"
        if self.upper is not None:
            refuted += f", best plan {self.upper}"
        text = f"{head}: {refuted}, {self.conflicts:,} conflicts, {self.clock() - self.start:.0f} s"
        width = shutil.get_terminal_size((80, 24)).columns - 1
        sys.stderr.write("\r" + text[:width] + "\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def row(self, row: dict) -> None:
        if row.get("result") == "unsat":
            self.refuted = max(self.refuted if self.refuted is not None else -1, row["horizon"])
        self.conflicts += row.get("conflicts") or 0
        if row.get("upper") is not None:
            self.upper = row["upper"]
        if self.mode == "table":
            click.echo(horizon_line(row), err=True)
        elif self.mode == "line":
            self._status(f"horizon {row['horizon']} {row['result']}")
        else:
            now = self.clock()
            line = horizon_line(row)
            if self.last_printed is None or now - self.last_printed >= self.LOG_EVERY or row["result"] != "unsat":
                click.echo(line, err=True)
                self.last_printed, self.pending = now, None
            else:
                self.pending = line

    def note(self, text: str) -> None:
        self._clear()
        click.echo(text, err=True)

    def close(self) -> None:
        """Before the answer is printed: the status line cleared, the log's last row shown."""
        self._clear()
        if self.pending is not None:
            click.echo(self.pending, err=True)
            self.pending = None

    def _clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--backend", "-b", default=DEFAULT_SAT, show_default=True, cls=Described,
              describe=lambda: f"The SAT, CP-SAT or model-checking method: {methods.help_text(methods.SAT)}.")
@metric_option
@level_option
@counts_option
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds for the whole run.")
@click.option("--max-horizon", type=AT_LEAST_0, default=1000, show_default=True,
              help="Largest horizon tried; a run that refutes it reports no_plan_within.")
@click.option("--fast", is_flag=True, help="Double the horizon instead of +1 (optimality may stay unproven).")
@click.option("--start-horizon", type=AT_LEAST_0, default=None,
              help="First horizon tried (default: the admissible lower bound); a plan sooner on long puzzles.")
@click.option("--gap", "gap", type=click.FloatRange(0, 100), default=None, callback=lambda ctx, param, value: finite(value),
              help="Stop once a plan is within PCT per cent of the proven lower bound (status feasible, both "
                   "bounds printed); 0: only at the optimum.")
@click.option("--probes", is_flag=True,
              help="Once a run is hard (50,000 conflicts), probe horizons with slack for a plan beside the "
                   "deepening (python-sat methods, one at a time), each on a solver without lemmas.")
@click.option("--first-plan/--no-first-plan", default=True, show_default=True,
              help="A first plan beside the deepening (greedy best-first search, else a parallel-step SAT "
                   "encoding), shortened by re-solving windows of it by SAT: when the lower bound is 20 or more, "
                   "or once the run is hard (2,000 conflicts).")
@click.option("--card-encoding", default="seqcounter", show_default=True,
              help="pysat.card encoding for move counts: seqcounter, totalizer, sortnetwrk, ...")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="Free cells around an open Sokoban level.")
@click.option("--quiet", "-q", is_flag=True, help="Nothing on stderr but errors: no progress, no notes.")
@click.option("--verbose", "-v", is_flag=True,
              help="A line per horizon on stderr (vars, clauses, conflicts, lemmas, seconds, result); without it a "
                   "terminal shows one status line, and a log a horizon's line every 10 s.")
@click.option("--certify", is_flag=True,
              help="Once optimal, prove it: a DRAT proof that length-1 has no plan, checked by dratify.")
@click.option("--proof", "proof_file", default=None, type=click.Path(dir_okay=False),
              help="With --certify: keep the DRAT proof in this file (it must not exist).")
@click.option("--enumerate/--no-enumerate", "enumerate_first", default=True, show_default=True,
              help="First enumerate the reachable states when there are few (at most 100,000; past 20,000 only "
                   "while the frontier is under 2/5 of the states seen; counted, never timed): if none is a goal, report unsolvable at once.")
@click.option("--bounds/--no-bounds", default=None,
              help="pysat-de: the pieces' distances to their targets and from their starts, added up, as constraints "
                   "on every layer (default: what the family turns on: knights both, sliding blocks the targets').")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Horizons asked at once, each by a solver in a process of its own, in batches of consecutive "
                   "horizons combined when the whole batch is back (python-sat backends; no first plan beside).")
@click.option("--horizon-conflicts", type=AT_LEAST_1, default=None,
              help="With --jobs: conflicts each horizon may take; one left open stops the run (status timeout).")
@domain_option
@click.option("--plan-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the plan in the IPC format (one (action args) a line, '; cost = N'), as Fast "
                   "Downward does; it must not exist.")
@json_option
@animation_option
@patterns_option
@memory_option
def solve(file, backend, metric, level, constraints, time_limit, max_horizon, fast, start_horizon, gap, probes,
          first_plan, card_encoding, margin, quiet, verbose, certify, proof_file, enumerate_first, bounds, jobs,
          horizon_conflicts, options, plan_out, as_json, animations, patterns):
    """Solve FILE by SAT or CP-SAT planning, deepening the horizon."""
    from ..planner import SolveOptions, solve as plan
    if proof_file and not certify:
        fail(PuzzleError("--proof needs --certify"), as_json)
    shown = None if quiet or as_json else Progress(verbose)
    solving = SolveOptions(backend, time_limit, max_horizon, not fast, start_horizon,
                           card_encoding=card_encoding, enumerate_first=enumerate_first, certify=certify,
                           method_options={} if bounds is None else {"bounds": bounds}, proof_file=proof_file,
                           probes=probes, gap=gap, first_plan=first_plan, jobs=jobs,
                           horizon_conflicts=horizon_conflicts, progress=shown and shown.row,
                           asking=shown and shown.asking, say=shown and shown.note)
    new = tuple((path, flag) for path, flag in ((proof_file, "--proof"), (plan_out, "--plan-out")) if path)
    job = Job(file, level, margin, constraints, options, metric, backend, time_limit, as_json, animations, plan_out, new)

    def answer(inst):
        try:
            return plan(patterned(inst, patterns, metric), metric, options=solving)
        finally:
            if shown is not None:
                shown.close()
    run_and_report(job, answer)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@metric_option
@level_option
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds; the figures are then of the states seen.")
@domain_option
@json_option
@memory_option
def explore(file, metric, level, time_limit, options, as_json):
    """Enumerate every state reachable in FILE."""
    from ..search import Stopped, explore as run
    contradiction = None
    try:
        with limits.time_limit(time_limit):     # the clock starts before the file is read
            try:
                inst = load_instance(file, level, options=options)
            except Contradiction as err:    # no plan under the file's conditions; the puzzle's states are still there
                contradiction = f"no plan can meet the conditions: {err.problem}"
                if not as_json:
                    click.echo(f"unsolvable: {contradiction}; the states explored are the puzzle's without them",
                               err=True)
                inst = load_instance(file, level, options=options, stated=False)
            figures = run(inst.problem, metric,
                          None if as_json else progress_printer("explore", "states reached", "in the frontier"),
                          time_limit)
    except limits.TimeUp:
        figures = {"complete": False, "stopped": Stopped.TIMEOUT.value, "reachable": 0,
                   "message": "the time limit passed while the puzzle was read and its rules built"}
        inst = None
    except PuzzleError as err:
        fail(err, as_json)
    status = "explored" if figures["complete"] else {Stopped.TIMEOUT: "timeout", Stopped.MEMOUT: "memout"}.get(
        Stopped(figures["stopped"]), "interrupted")
    if as_json:
        click.echo(json.dumps({"status": status, "board": inst and inst.rules.board(), **figures,
                               **({"conditions_left_out": contradiction} if contradiction else {})}))
    else:
        click.echo(("" if figures["complete"] else f"{status} (incomplete): ")
                   + ", ".join(f"{k}={v}" for k, v in figures.items()))
    end_with({"interrupted": Outcome.INTERRUPTED, "memout": Outcome.MEMOUT}.get(status, Outcome.ANSWER))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("planfile", type=click.Path(dir_okay=False))
@metric_option
@level_option
@counts_option
@click.option("--pddl-plan", is_flag=True, help="PLANFILE is a PDDL planner's plan on our export of FILE.")
@domain_option
@json_option
def validate(file, planfile, metric, level, constraints, pddl_plan, options, as_json):
    """Replay the plan in PLANFILE on FILE under the rules."""
    from ..pddl import read_plan_for
    from ..puzzle import check_metric
    from ..validate import check_plan
    try:
        inst = load_instance(file, level, 2, constraints, options)
        metric = check_metric(inst.problem, metric)
        steps = read_plan_for(inst.problem, metric, planfile) if pddl_plan else read_plan(planfile)
        report = check_plan(inst.problem, steps, metric)
    except Contradiction as err:
        report = {"status": "not_solved", "solved": False, "problem": f"no plan can meet the conditions: {err.problem}"}
        click.echo(json.dumps(report) if as_json else f"not solved: {report['problem']}")
        end_with(Outcome.NOT_SOLVED)
    except PuzzleError as err:
        fail(err, as_json)
    if as_json:
        click.echo(json.dumps(report))
    else:
        # "81 steps" once; "51 slides, 81 steps" when the metric counts otherwise
        size = f"{report['length']} {metric}" + ("" if metric == "steps" else f", {len(steps)} steps")
        click.echo(f"{'valid' if report['solved'] else 'legal but not solved'}: {size}"
                   + ("" if report["solved"] else f" ({report['problem']})"))
    end_with(Outcome.ANSWER if report["solved"] else Outcome.NOT_SOLVED)


