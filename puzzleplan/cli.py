"""``puzzleplan`` command line: show, search, explore, validate, solve, solvers, seeds, bench,
report, export, decode, families.

Exit codes:

- 0: an answer (``optimal``, ``feasible``, ``no_plan_within``, ``unsolvable``,
  ``timeout`` with what was proved so far);
- 1: ``validate``: the plan is legal but does not solve the puzzle;
- 2: bad input of any kind: one line ``puzzleplan: error: ...`` on stderr
  (``--json``: ``{"status": "error", ...}`` on stdout);
- 3: a check failed: ``--certify`` could not check its proof, a proof
  given to ``decode --proof`` does not check, a witness given to ``decode --witness``
  does not match its AIGER file or does not replay, or a model checker's invariant
  does not check (``solve --backend abc:pdr``);
- 4: ``decode``: the outside solver's UNSAT is a claim nobody checked
  (status ``unverified``; give ``--proof`` to check it);
- 130: interrupted by Ctrl-C; the result printed is what was proved so far.
"""
from __future__ import annotations

import functools
import json
import math
import os
import sys
from pathlib import Path

import click

from . import limits
from . import methods as registry
from .plans import read_plan
from .puzzle import Contradiction, PuzzleError, Result, Status

EXIT_NOT_SOLVED, EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_UNVERIFIED = 1, 2, 3, 4
EXIT_INTERRUPTED = 130      # 128 + SIGINT, as shells report a Ctrl-C


class Fail(click.ClickException):
    exit_code = EXIT_BAD_INPUT

    def show(self, file=None):
        click.echo(f"puzzleplan: error: {self.message}", err=True)


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds above zero (``nan``, ``inf``, ``0`` and below are refused;
    click.FloatRange lets ``nan`` through)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r}: give a number of seconds above 0", param, ctx)
        return seconds


SECONDS = Seconds()
AT_LEAST_0 = click.IntRange(min=0)
AT_LEAST_1 = click.IntRange(min=1)


class Group(click.Group):
    """Usage errors (a bad option value, a missing argument) also give one line and exit 2,
    like every other bad input, not click's usage block."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        argv = list(sys.argv[1:] if args is None else args)
        try:
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except click.ClickException as err:
            if isinstance(err, click.UsageError) and "--json" in argv:
                click.echo(json.dumps({"status": "error", "message": err.format_message()}))
            else:
                click.echo(f"puzzleplan: error: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except click.exceptions.Abort:
            click.echo("puzzleplan: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        leave(code or 0)

    def invoke(self, ctx):
        """Ctrl-C anywhere outside a solver or search (which report what they proved)
        ends the command with exit code 130 and one line."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("puzzleplan: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)


HUGE_HEAP = 1_000_000     # objects set aside by load_instance (gc.freeze) above which exit is immediate


def leave(code: int) -> None:
    """Exit with ``code``.  After a huge board (millions of objects) the interpreter would free
    them one by one for seconds, past the time limit: the process ends at once instead, its
    output flushed (nothing else is pending: every file and pool is closed by then).  Not
    inside a test runner, which shares the process."""
    import gc
    if gc.get_freeze_count() > HUGE_HEAP and sys.stdout is sys.__stdout__:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def fail(err: Exception, as_json: bool = False):
    if as_json:
        click.echo(json.dumps({"status": "error", "message": str(err)}))
        sys.exit(EXIT_BAD_INPUT)
    raise Fail(str(err))


def level_option(f):
    return click.option("--level", "-l", type=int, default=None, help="Level number in a collection (1-based).")(f)


def domain_option(f):
    """--domain FILE, handed to the command as ``options`` (what a format's reader takes)."""
    @functools.wraps(f)
    def wrapper(*args, domain=None, **kwargs):
        return f(*args, options={"domain": domain}, **kwargs)

    return click.option("--domain", type=click.Path(dir_okay=False), default=None,
                        help="PDDL: the domain file of the problem FILE (default: domain.pddl beside it).")(wrapper)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)


def metric_option(f):
    return click.option("--metric", "-m", default=None,
                        help="How plans are counted (default: the family's first metric); "
                             "'puzzleplan families' lists each family's metrics.")(f)


def counts_option(f):
    """Side-condition options, handed to the command as one ``constraints`` list of texts."""
    @functools.wraps(f)
    def wrapper(*args, moves=(), frozen=(), avoid=(), ends=(), constraint=(), **kwargs):
        texts = [f"{p}.frozen" for p in frozen] + list(constraint)
        for item in moves:
            for op in (">=", "<=", "="):
                if op in item:
                    piece, _, k = item.partition(op)
                    texts.append(f"{piece}.moves{op}{k}")
                    break
            else:
                fail(PuzzleError(f"--moves {item!r}: write PIECE=K, PIECE>=K or PIECE<=K (PIECE may be A+B)"),
                     kwargs.get("as_json", False))
        for flag, items, key in (("--avoid", avoid, "avoid"), ("--ends", ends, "ends")):
            for item in items:
                piece, sep, cells = item.partition(":")
                if not sep or not piece:
                    fail(PuzzleError(f"{flag} {item!r}: write PIECE:CELLS, like A:c3,d4"), kwargs.get("as_json", False))
                texts.append(f"{piece}.{key}={cells}")
        return f(*args, constraints=texts, **kwargs)

    options = [
        click.option("--moves", multiple=True, metavar="PIECE{=,>=,<=}K",
                     help="Moves a piece must make, e.g. --moves 'A>=3'; a group's total: --moves 'A+B<=5' "
                          "(quote it: > and < are redirections in a shell)."),
        click.option("--frozen", multiple=True, metavar="PIECE", help="A piece that never moves."),
        click.option("--avoid", multiple=True, metavar="PIECE:CELLS",
                     help="Cells a piece may never occupy, e.g. --avoid A:c3,d4 ('*' = every piece; "
                          "Sokoban: player or boxes). Cells: column letter, row from the top "
                          "(knights: algebraic)."),
        click.option("--ends", multiple=True, metavar="PIECE:CELLS",
                     help="Cells a piece must finish within, e.g. --ends A:e3,e4 (Sokoban: player)."),
        click.option("--constraint", "-c", multiple=True, metavar="TEXT",
                     help="A constraint as written in a file, e.g. -c 'A.moves>=3' -c B.frozen."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def animation_option(f):
    """--gif/--html/--mp4 OUT and --force, handed to the command as ``animations``: the
    outputs (``{kind: path}``) and the force flag, checked before any work is done."""
    @functools.wraps(f)
    def wrapper(*args, gif=None, html=None, mp4=None, force=False, **kwargs):
        from .animate import check_targets
        targets = {kind: path for kind, path in (("gif", gif), ("html", html), ("mp4", mp4)) if path}
        try:
            check_targets(targets, force)
        except PuzzleError as err:
            fail(err, kwargs.get("as_json", False))
        return f(*args, animations=(targets, force), **kwargs)

    for option in reversed([
            click.option("--gif", type=click.Path(dir_okay=False), help="Write an animated GIF of the plan."),
            click.option("--html", type=click.Path(dir_okay=False),
                         help="Write a self-contained HTML page that plays the plan."),
            click.option("--mp4", type=click.Path(dir_okay=False), help="Write an MP4 video of the plan (imageio-ffmpeg)."),
            click.option("--force", is_flag=True, help="Overwrite existing animation files.")]):
        wrapper = option(wrapper)
    return wrapper


def write_animations(animations, domain, steps, metric, as_json=False) -> None:
    """Draw the replayed plan into each file asked for; one line if there is no plan."""
    targets, force = animations
    if not targets:
        return
    if steps is None:
        click.echo("no plan found: no animation written", err=True)
        return
    from .animate import write
    try:
        for kind, path in targets.items():
            scene = write(domain, steps, metric, path, kind, force)
            click.echo(f"animation: {path} ({len(scene.frames)} frames)", err=True)
    except PuzzleError as err:
        fail(err, as_json)


def load_instance(path, level, margin=2, constraints=(), options=None):
    import gc
    from .formats.load import load
    # the puzzle lives as long as the command: out of the cyclic collector's way, whose full
    # passes over a huge board's rules took seconds each, past any time limit (reading and
    # setting up a puzzle makes no cycles to collect)
    gc.disable()
    try:
        inst = load(path, level, margin=margin, constraints=constraints, options=options)
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
    from .puzzle import check_metric
    try:
        domain = load_instance(file, level, margin, options=options).domain      # the puzzle alone: its board and metrics
        result = Result(Status.UNSOLVABLE, check_metric(domain, metric), method, board=domain.board(),
                        proof=f"no plan can meet the conditions: {err.problem}")
    except PuzzleError as other:
        fail(other, as_json)
    if animations:
        write_animations(animations, domain, None, result.metric, as_json)
    print_result(result, as_json)


def timed_out(metric, method) -> Result:
    """The time limit passed before the search or the planner began (a huge board)."""
    return Result(Status.TIMEOUT, metric or "-", method,
                  message="the time limit passed while the puzzle was read and its rules built")


def exit_code(result: Result) -> int:
    if result.status is Status.INTERRUPTED or result.stats.get("certify_interrupted"):
        return EXIT_INTERRUPTED
    if (result.stats.get("certified") is False or result.stats.get("proof_checked") is False
            or result.stats.get("invariant_checked") is False):
        return EXIT_CHECK_FAILED
    if result.status is Status.UNVERIFIED:
        return EXIT_UNVERIFIED
    return 0


def print_result(result: Result, as_json: bool, replay=None) -> None:
    """Print the result; exit with :func:`exit_code` when it is not 0."""
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        certified = {True: " (certified)", False: " (CERTIFICATE FAILED)"}.get(result.stats.get("certified"), "")
        if result.stats.get("certify_interrupted"):
            certified = " (certification interrupted)"
        elif result.stats.get("certify_timeout"):
            certified = " (certification timed out)"
        line = f"{result.status.value}{certified}: {result.method}"
        if result.length is not None:
            line += f", {result.length} {result.metric}"
            if result.steps is not None and result.metric != "steps" and result.length != len(result.steps):
                line += f" ({len(result.steps)} steps)"
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
    code = exit_code(result)
    if code:
        sys.exit(code)


def progress_printer(label: str, first: str = "expanded", second: str = "states"):
    def report(a, b):
        click.echo(f"{label}: {a:,} {first}, {b:,} {second}", err=True)
    return report


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="puzzleplan")
def main():
    """Solve move puzzles with SAT, CP-SAT and classic search."""


@main.command("families")
@json_option
def list_families(as_json):
    """List the puzzle families: file types, metrics, and what each can do (SAT, search, PDDL, animation)."""
    from . import registry as families
    try:
        found = families.all_families()
    except PuzzleError as err:
        fail(err, as_json)
    rows = [{"name": f.name, "summary": f.summary, "extensions": f.extensions(), "metrics": list(f.metrics),
             "sat_metrics": list(f.encoders), **f.features(), "package": f.package} for f in found]
    if as_json:
        return click.echo(json.dumps(rows))
    for r in rows:
        can = ", ".join(k for k in ("sat", "search", "pddl", "animation") if r[k])
        click.echo(f"{r['name']:<10} {' '.join(r['extensions']):<22} metrics: {', '.join(r['metrics']):<22} "
                   f"{can:<28} {r['summary']}")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@level_option
@click.option("--plan", "plan_file", type=click.Path(dir_okay=False), help="Also draw each position of this plan.")
@metric_option
@counts_option
@domain_option
@animation_option
def show(file, level, plan_file, metric, constraints, options, animations):
    """Draw the position in FILE (and a plan, frame by frame)."""
    from .puzzle import check_metric
    try:
        if animations[0] and not plan_file:
            raise PuzzleError("--gif, --html and --mp4 need --plan")
        try:
            inst = load_instance(file, level, constraints=constraints, options=options)
        except Contradiction as err:    # still a board to show
            inst = load_instance(file, level, options=options)
            click.echo(f"unsolvable: no plan can meet the conditions: {err.problem}", err=True)
        domain = inst.domain
        click.echo("\n".join(domain.board()))
        if plan_file:
            steps = read_plan(plan_file)
            frames = domain.replay(steps).frames()
            for i, (step, frame) in enumerate(zip(steps, frames[1:]), 1):
                click.echo(f"\nstep {i}: {step}")
                click.echo("\n".join(frame))
            write_animations(animations, domain, steps, check_metric(domain, metric))
    except PuzzleError as err:
        fail(err)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--algorithm", "-a", type=click.Choice(registry.names(registry.SEARCH)), default="bfs", show_default=True)
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
def search(file, algorithm, metric, level, constraints, time_limit, margin, options, plan_out, as_json, animations):
    """Solve FILE optimally by breadth-first search or A*."""
    try:
        if plan_out:
            from .outputs import check_new
            check_new(plan_out, flag="--plan-out")
        with limits.time_limit(time_limit):     # the clock starts before the file is read
            inst = load_instance(file, level, margin, constraints, options)
            result = registry.run(algorithm, inst.domain, metric, time_limit,
                                  progress=None if as_json else progress_printer(algorithm))
    except limits.TimeUp:
        return print_result(timed_out(metric, algorithm), as_json)
    except Contradiction as err:
        return no_plan(err, file, level, margin, metric, algorithm, as_json, animations, options)
    except PuzzleError as err:
        fail(err, as_json)
    write_animations(animations, inst.domain, result.steps, result.metric, as_json)
    write_plan(plan_out, inst.domain, result, as_json)
    print_result(result, as_json)


def write_plan(path, domain, result: Result, as_json: bool) -> None:
    """``--plan-out``: the plan in the IPC format (nothing is written without a plan)."""
    if not path:
        return
    if result.steps is None:
        click.echo("no plan found: no plan file written", err=True)
        return
    from .outputs import put
    from .plans import ipc_plan
    cost = domain.base.count(result.steps, "cost" if "cost" in domain.metrics else "steps")
    unit = "cost" not in domain.metrics or domain.base.unit_costs("cost")
    try:
        put(path, ipc_plan(result.steps, cost, unit))
    except PuzzleError as err:
        fail(err, as_json)
    click.echo(f"plan: {path}", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@metric_option
@level_option
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds; the figures are then of the states seen.")
@domain_option
@json_option
def explore(file, metric, level, time_limit, options, as_json):
    """Enumerate every state reachable in FILE."""
    from .search import explore as run
    try:
        with limits.time_limit(time_limit):     # the clock starts before the file is read
            inst = load_instance(file, level, options=options)
            figures = run(inst.domain, metric,
                          None if as_json else progress_printer("explore", "states reached", "in the frontier"),
                          time_limit)
    except limits.TimeUp:
        figures = {"complete": False, "stopped": "timeout", "reachable": 0,
                   "message": "the time limit passed while the puzzle was read and its rules built"}
        inst = None
    except PuzzleError as err:
        fail(err, as_json)
    status = "explored" if figures["complete"] else {"timeout": "timeout"}.get(figures.get("stopped"), "interrupted")
    if as_json:
        click.echo(json.dumps({"status": status, "board": inst and inst.domain.board(), **figures}))
    else:
        click.echo(("" if figures["complete"] else f"{status} (incomplete): ")
                   + ", ".join(f"{k}={v}" for k, v in figures.items()))
    if status == "interrupted":
        sys.exit(EXIT_INTERRUPTED)


@main.command()
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
    from .pddl import read_plan_for
    from .puzzle import check_metric
    from .validate import check_plan
    try:
        inst = load_instance(file, level, 2, constraints, options)
        metric = check_metric(inst.domain, metric)
        steps = read_plan_for(inst.domain, metric, planfile) if pddl_plan else read_plan(planfile)
        report = check_plan(inst.domain, steps, metric)
    except Contradiction as err:
        report = {"status": "not_solved", "solved": False, "problem": f"no plan can meet the conditions: {err.problem}"}
        click.echo(json.dumps(report) if as_json else f"not solved: {report['problem']}")
        sys.exit(EXIT_NOT_SOLVED)
    except PuzzleError as err:
        fail(err, as_json)
    if as_json:
        click.echo(json.dumps(report))
    else:
        # "81 steps" once; "51 slides, 81 steps" when the metric counts otherwise
        size = f"{report['length']} {metric}" + ("" if metric == "steps" else f", {len(steps)} steps")
        click.echo(f"{'valid' if report['solved'] else 'legal but not solved'}: {size}"
                   + ("" if report["solved"] else f" ({report['problem']})"))
    if not report["solved"]:
        sys.exit(1)


def conflicts(count: int | None) -> str:
    return "unknown" if count is None else f"{count:,}"


def horizon_printer(row: dict) -> None:
    lemmas = f" {row['lemmas']:>7,} lemmas" if "lemmas" in row else ""
    if "goal_lemmas" in row:
        lemmas += f" {row['goal_lemmas']:>7,} goal-side"
    if row.get("bounds"):
        lemmas += f" {row['bounds']:>4} bounds"
    if row.get("winner"):
        lemmas += f" won by {row['winner']} ({row['cpu']:.2f} CPU s)"
    click.echo(f"horizon {row['horizon']:>4}: {row['vars']:>8,} vars {row['clauses']:>9,} clauses "
               f"{conflicts(row.get('conflicts')):>9} conflicts{lemmas} {row['seconds']:>8.3f}s {row['result']}", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--backend", "-b", default="pysat-de", show_default=True,
              help=f"The SAT, CP-SAT or model-checking method: {registry.help_text(registry.SAT)}.")
@metric_option
@level_option
@counts_option
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds for the whole run.")
@click.option("--max-horizon", type=AT_LEAST_0, default=1000, show_default=True,
              help="Largest horizon tried; a run that refutes it reports no_plan_within.")
@click.option("--fast", is_flag=True, help="Double the horizon instead of +1 (optimality may stay unproven).")
@click.option("--start-horizon", type=AT_LEAST_0, default=None,
              help="First horizon tried (default: the admissible lower bound); a plan sooner on long puzzles.")
@click.option("--card-encoding", default="seqcounter", show_default=True,
              help="pysat.card encoding for move counts: seqcounter, totalizer, sortnetwrk, ...")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="Free cells around an open Sokoban level.")
@click.option("--quiet", "-q", is_flag=True, help="No per-horizon lines on stderr.")
@click.option("--certify", is_flag=True,
              help="Once optimal, prove it: a DRAT proof that length-1 has no plan, checked by dratify.")
@click.option("--proof", "proof_file", default=None, type=click.Path(dir_okay=False),
              help="With --certify: keep the DRAT proof in this file (it must not exist).")
@click.option("--enumerate/--no-enumerate", "enumerate_first", default=True, show_default=True,
              help="First enumerate the reachable states when there are few (at most 100,000, within 10 s or a tenth "
                   "of the time limit): if none is a goal, report unsolvable at once.")
@domain_option
@click.option("--plan-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the plan in the IPC format (one (action args) a line, '; cost = N'), as Fast "
                   "Downward does; it must not exist.")
@json_option
@animation_option
def solve(file, backend, metric, level, constraints, time_limit, max_horizon, fast, start_horizon, card_encoding,
          margin, quiet, certify, proof_file, enumerate_first, options, plan_out, as_json, animations):
    """Solve FILE by SAT or CP-SAT planning, deepening the horizon."""
    from .planner import SolveOptions, solve as plan
    try:
        if proof_file and not certify:
            raise PuzzleError("--proof needs --certify")
        if proof_file:
            from .outputs import check_new
            check_new(proof_file, flag="--proof")      # before the work: a proof that cannot be kept is lost
        talk = not (quiet or as_json)
        reader = options
        if plan_out:
            from .outputs import check_new
            check_new(plan_out, flag="--plan-out")
        solving = SolveOptions(backend, time_limit, max_horizon, not fast, start_horizon,
                               card_encoding=card_encoding, enumerate_first=enumerate_first, certify=certify,
                               proof_file=proof_file, progress=horizon_printer if talk else None,
                               say=note if talk else None)
        with limits.time_limit(time_limit):     # the clock starts before the file is read
            inst = load_instance(file, level, margin, constraints, reader)
            result = plan(inst.domain, metric, options=solving)
    except limits.TimeUp:
        return print_result(timed_out(metric, backend), as_json)
    except Contradiction as err:
        return no_plan(err, file, level, margin, metric, backend, as_json, animations, reader)
    except PuzzleError as err:
        fail(err, as_json)
    write_animations(animations, inst.domain, result.steps, result.metric, as_json)
    write_plan(plan_out, inst.domain, result, as_json)
    print_result(result, as_json)


def note(text: str) -> None:
    click.echo(text, err=True)


@main.command()
@click.option("--path", "program", default=None, metavar="NAME",
              help="Print only the path of solver program NAME (e.g. kissat), or of a PDDL planner's "
                   "driver script (fd-lmcut, symk), to run it by hand.")
@json_option
def solvers(program, as_json):
    """List the solvers found here and where they are: solver programs (for external:NAME and
    by hand), python-sat, OR-Tools, the PDDL planners, the DRAT checker."""
    from .solvers import PROGRAMS, lines, table
    if program:
        from .pddl.planners import PLANNERS, available, driver
        from .planner.backends.external_backend import find_solver
        if program in PLANNERS:     # a planner's driver script (run it with python)
            path = str(driver(program)) if available(program) else None
        else:
            path = find_solver(program)
        if path is None:
            fail(PuzzleError(f"solver program {program!r} not found"
                             + (f"; it comes from {PROGRAMS[program]}" if program in PROGRAMS else "")), as_json)
        click.echo(json.dumps({"name": program, "path": path}) if as_json else path)
        return
    rows = table()
    click.echo(json.dumps(rows) if as_json else "\n".join(lines(rows)))


@main.command()
@click.option("--time-limit", type=SECONDS, default=60, show_default=True, help="Seconds per SAT run.")
@click.option("--backend", "-b", default="pysat-de", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (there is none unless stderr is a terminal).")
@json_option
def seeds(time_limit, backend, quiet, as_json):
    """Solve every seed puzzle (instances/seeds) by SAT and by BFS, side by side."""
    from .bench.seeds import seed_rows, solve_seed
    from .progress import Bar
    try:
        rows = seed_rows()
    except PuzzleError as err:
        fail(err, as_json)
    out = []
    with Bar(len(rows), "seeds", quiet) as bar:
        for row in rows:
            entry = solve_seed(row, backend, time_limit, bar.doing)
            if not as_json:     # each line as soon as its seed is done (above the bar)
                bar.echo(seed_line(entry))
            bar.step()
            out.append(entry)
    if as_json:
        click.echo(json.dumps(out))


def seed_line(entry: dict) -> str:
    """``name metric known N | BFS N (s) | SAT status N (s)``"""
    sat = entry["sat"]
    if sat is None:
        sat_text = f"n/a ({entry['sat_error']})"
    else:
        sat_text = f"{sat['status']} {sat['length'] if sat['length'] is not None else '-'}"
        if sat["status"] != Status.OPTIMAL.value and sat.get("bound") is not None:
            sat_text += f" (no plan within {sat['bound']})"
    secs = entry["sat_seconds"]
    return (f"{entry['name']:<16} {entry['metric']:<7} known {entry['known']:>4} | BFS {entry['bfs']:>4} "
            f"({entry['bfs_seconds']:.2f}s) | SAT {sat_text}" + (f" ({secs:.2f}s)" if secs else ""))


@main.command()
@click.argument("sets", nargs=-1, required=True, metavar="INSTANCES...")
@click.option("--levels", default=None, help="Levels of collections, e.g. 1-40 or 1,3,5 (default: all).")
@click.option("--metric", "-m", default=None, help="Metric for every run (default: the catalogue's, or the domain's first).")
@click.option("--methods", default="bfs,astar,pysat-de,cpsat", show_default=True,
              help=f"Comma-separated: {registry.usage()} (PDDL planners: extra 'planners').")
@click.option("--time-limit", type=SECONDS, default=300, show_default=True, help="Seconds per run (killed 10 s after).")
@click.option("--memory", "memory_mb", type=AT_LEAST_1, default=4096, show_default=True,
              help="MiB of address space per run (a lower limit of the shell, ulimit -v, wins).")
@click.option("--jobs", "-j", type=AT_LEAST_1, default=1, show_default=True, help="Runs at a time on this machine.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run on a Dask cluster (scheduler address, e.g. tcp://host:8786) instead.")
@click.option("--out", "-o", default="results/bench.csv", show_default=True,
              help="Results file to append to (.csv or .jsonl); a rerun skips what it holds.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (there is none unless stderr is a terminal).")
@counts_option
def bench(sets, levels, metric, methods, time_limit, memory_mb, jobs, dask_address, out, quiet, constraints):
    """Run METHODS on INSTANCES (files, folders, catalogue:GLOB), one process per run.

    Each run's figures are appended to OUT as it ends: status, length, wall and
    CPU seconds, peak memory, horizons, variables, clauses, conflicts, states.
    A rerun skips the runs on file, except those that ended in an error.
    Ctrl-C stops at once: running runs are killed, finished rows stay, exit code 130.
    """
    from .bench.run import Interrupted
    try:
        run_bench(sets, levels, metric, methods, time_limit, memory_mb, jobs, dask_address, out, constraints, quiet)
    except (Interrupted, KeyboardInterrupt) as err:
        made = f"{err.made} runs made (on file), {err.left} left" if isinstance(err, Interrupted) else "no run made"
        click.echo(f"puzzleplan: interrupted: {made}; the same command resumes", err=True)
        sys.exit(EXIT_INTERRUPTED)


def run_bench(sets, levels, metric, methods, time_limit, memory_mb, jobs, dask_address, out, constraints, quiet=False):
    from .bench.report import status_table
    from .bench.run import bench as run, plan_tasks, read_results
    from .progress import Bar
    try:
        tasks = plan_tasks(sets, levels, metric, methods.split(","), constraints)
        if jobs < 1:
            raise PuzzleError("--jobs must be at least 1")
        if Path(out).suffix not in (".csv", ".jsonl"):
            raise PuzzleError(f"--out {out}: use a .csv or .jsonl file")
        with Bar(len(tasks), "bench", quiet) as bar:     # k of N runs, time spent, time left
            def echo(line: str) -> None:
                bar.echo(line)
                bar.step()
            made = run(tasks, out, time_limit, memory_mb, jobs, dask_address, echo, announce=bar.total)
        click.echo(f"{made} runs made, {len(tasks) - made} already in {out}")
        click.echo("\n".join(status_table(read_results(out))))
    except PuzzleError as err:
        fail(err)


@main.command()
@click.argument("results", type=click.Path(dir_okay=False))
@click.option("--plots", "plot_dir", default=None, type=click.Path(file_okay=False),
              help="Folder for the plots (cactus, time against length, horizon growth).")
@click.option("--baseline", default=None,
              help="Method the time ratios are taken against (default: bfs); several: fd-lmcut,symk.")
@click.option("--markdown", "md_file", default=None, type=click.Path(dir_okay=False), help="Also write the tables here.")
@click.option("--force", is_flag=True, help="Overwrite the Markdown file and the plots if they exist.")
def report(results, plot_dir, baseline, md_file, force):
    """Summarise a bench RESULTS file: tables, and plots with --plots."""
    from .bench.report import PLOTS, report as make
    from .outputs import check_folder, check_new, put
    try:
        if md_file:
            check_new(md_file, force, "--markdown")
        if plot_dir:
            check_folder(plot_dir, PLOTS, force, "--plots")
        text, made = make(results, plot_dir, baseline)
        if md_file:
            put(md_file, text, force)
    except PuzzleError as err:
        fail(err)
    click.echo(text)
    for path in made:
        click.echo(f"plot: {path}")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--horizon", "-t", type=AT_LEAST_0, default=None,
              help="Moves allowed (the goal must hold after them); not for PDDL.")
@metric_option
@level_option
@counts_option
@click.option("--card-encoding", default="seqcounter", show_default=True, help="pysat.card encoding for move counts.")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="Free cells around an open Sokoban level.")
@click.option("--out", "-o", default=None, type=click.Path(dir_okay=False),
              help="OUT.cnf (.gz/.bz2/.xz), OUT.wcnf or OUT.pb/.pbtxt (CP-SAT); a sidecar OUT.json is written too. "
                   "OUT.pddl: a PDDL problem, with domain.pddl beside it.")
@click.option("--pddl", "pddl_dir", default=None, type=click.Path(file_okay=False),
              help="Write the puzzle as PDDL: OUTDIR/domain.pddl and OUTDIR/problem.pddl (no horizon).")
@click.option("--force", is_flag=True, help="Overwrite OUT and its sidecar if they exist.")
@click.option("--backward", is_flag=True,
              help="AIGER: the backward system (from the goal states; bad is the start position).")
@domain_option
def export(file, horizon, metric, level, constraints, card_encoding, margin, out, pddl_dir, force, backward, options):
    """Write the encoding of FILE at one horizon for outside solvers, with its symbol table (or the puzzle as
    PDDL, or as a transition system for model checkers: OUT.aag, OUT.aig)."""
    from .export import AIGER_KINDS, build, export as write
    try:
        if pddl_dir or (out and out.endswith(".pddl")):
            from .pddl import export_file
            return click.echo(export_file(file, level, metric, constraints, margin, pddl_dir, out, force, options))
        if out and Path(out).suffix.lower() in AIGER_KINDS:
            return export_aiger(file, horizon, metric, level, constraints, margin, out, force, backward, options)
        if backward:
            raise PuzzleError("--backward is for AIGER exports (OUT.aag, OUT.aig)")
        if horizon is None or out is None:
            raise PuzzleError("give --horizon/-t and --out/-o (or --pddl OUTDIR for PDDL)")
        from .outputs import check_new
        for path in (out, out + ".json"):      # checked before the encoding is built, which may take long
            check_new(path, force)
        inst = load_instance(file, level, margin, constraints, options)
        header = {"instance": str(file), "level": level, "constraints": list(constraints)}
        formula = build(inst.domain, metric, horizon, card_encoding, header=header)
        made = write(formula, out)
    except Contradiction as err:
        fail(PuzzleError(f"nothing to export: the instance is unsolvable, no plan can meet the conditions: "
                         f"{err.problem}", err.path))
    except PuzzleError as err:
        fail(err)
    click.echo(f"{made[0]}: {formula.nvars:,} variables, {len(formula.clauses):,} clauses, horizon {horizon} "
               f"({formula.metric}); symbols in {made[1]}")


def export_aiger(file, horizon, metric, level, constraints, margin, out, force, backward, options=None) -> None:
    """``export FILE -o OUT.aag|OUT.aig``: the transition system, bounded by ``--horizon`` if given."""
    from .export import export_aiger as write
    from .outputs import check_new
    for path in (out, out + ".json"):
        check_new(path, force)
    inst = load_instance(file, level, margin, constraints, options)
    header = {"instance": str(file), "level": level, "constraints": list(constraints)}
    try:
        made, aig = write(inst.domain, metric, out, horizon, backward, header)
    except OSError as err:
        raise PuzzleError(f"cannot write {out}: {err.strerror}") from None
    click.echo(f"{made[0]}: {aig.ninputs:,} inputs, {aig.nlatches:,} latches, {len(aig.gates):,} and-gates"
               + (f", bad: a plan within {horizon}" if horizon is not None else "")
               + f" ({'backward' if backward else 'forward'}); symbols in {made[1]}")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--cnf", "cnf_file", default=None, type=click.Path(dir_okay=False), help="The exported CNF.")
@click.option("--model", "answer_file", default=None, type=click.Path(dir_okay=False),
              help="The solver's output (s/v lines) or minisat's result file.")
@click.option("--aiger", "aiger_file", default=None, type=click.Path(dir_okay=False),
              help="The exported AIGER file (instead of --cnf), with --witness.")
@click.option("--witness", "witness_file", default=None, type=click.Path(dir_okay=False),
              help="A model checker's witness on --aiger (AIGER/HWMCC format, or ABC's write_cex -a).")
@click.option("--margin", type=AT_LEAST_0, default=2, show_default=True, help="As given to export.")
@click.option("--proof", "proof_file", default=None, type=click.Path(dir_okay=False, exists=False),
              help="A DRAT proof of the solver's UNSAT answer, checked by dratify; without it an UNSAT answer "
                   "is reported as unverified (exit code 4).")
@json_option
def decode(file, cnf_file, answer_file, aiger_file, witness_file, margin, proof_file, as_json):
    """Turn a SAT solver's answer on an exported CNF of FILE (or a model checker's witness on an
    exported AIGER file) into a replayed plan."""
    from .planner.decode import Refused, decode as run, decode_witness
    try:
        if aiger_file or witness_file:
            if not (aiger_file and witness_file) or cnf_file or answer_file or proof_file:
                raise PuzzleError("give --aiger with --witness (or --cnf with --model)")
            result = decode_witness(file, aiger_file, witness_file, margin)
        elif not (cnf_file and answer_file):
            raise PuzzleError("give --cnf with --model (or --aiger with --witness)")
        else:
            result = run(file, cnf_file, answer_file, margin, proof_file)
    except Refused as err:
        if as_json:
            click.echo(json.dumps({"status": "refused", "message": str(err)}))
        else:
            click.echo(f"puzzleplan: refused: {err}", err=True)
        sys.exit(EXIT_CHECK_FAILED)
    except PuzzleError as err:
        fail(err, as_json)
    print_result(result, as_json)


if __name__ == "__main__":  # pragma: no cover
    main()
