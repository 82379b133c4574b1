"""Measuring: ``seeds`` (every seed puzzle by SAT and BFS), ``generate`` (instance series),
``bench`` (methods x instances, one process per run) and ``report`` (tables and plots of a
bench's results)."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..limits import MIN_MEMORY_MB
from ..methods import usage as method_usage
from ..plugins import DEFAULT_SAT
from ..puzzle import Outcome, PuzzleError, Status
from .common import AT_LEAST_1, MEMORY, SECONDS, Described, counts_option, fail, json_option
from .outcomes import end_with


@click.command()
@click.option("--time-limit", type=SECONDS, default=60, show_default=True, help="Seconds per SAT run.")
@click.option("--backend", "-b", default=DEFAULT_SAT, show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (there is none unless stderr is a terminal).")
@json_option
def seeds(time_limit, backend, quiet, as_json):
    """Solve every seed puzzle (instances/seeds) by SAT and by BFS, side by side."""
    from ..bench.seeds import seed_rows, solve_seed
    from ..progress import Bar
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


@click.command()
@click.argument("sets", nargs=-1, required=True, metavar="INSTANCES...")
@click.option("--levels", default=None, help="Levels of the collections among INSTANCES, e.g. 1-40 or 1,3,5 (default: "
                                            "all); a file's own: FILE@LEVELS, e.g. thinkfun40.rh@1-5.")
@click.option("--metric", "-m", default=None,
              help="Metric for every run, or per family: sliding=slides,knights=steps (default: the catalogue's, or "
                   "the family's first).")
@click.option("--methods", default="bfs,astar,pysat-de,cpsat", show_default=True, cls=Described,
              describe=lambda: f"Comma-separated: {method_usage()} (PDDL planners: extra 'planners').")
@click.option("--time-limit", type=SECONDS, default=300, show_default=True, help="Seconds per run (killed 10 s after).")
@click.option("--memory", "memory_mb", type=MEMORY, default=4096, show_default=True,
              help=f"MiB of address space per run, at least {MIN_MEMORY_MB} (a lower limit of the shell, ulimit -v, "
                   "wins).")
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
    Ctrl-C stops at once: running runs are killed, finished rows stay, exit code 130
    (143 for SIGTERM, which stops it the same way).
    """
    from ..bench.run import Interrupted
    try:
        run_bench(sets, levels, metric, methods, time_limit, memory_mb, jobs, dask_address, out, constraints, quiet)
    except (Interrupted, KeyboardInterrupt) as err:
        made = f"{err.made} runs made (on file), {err.left} left" if isinstance(err, Interrupted) else "no run made"
        click.echo(f"puzzleplan: interrupted: {made}; the same command resumes", err=True)
        end_with(Outcome.INTERRUPTED)


def run_bench(sets, levels, metric, methods, time_limit, memory_mb, jobs, dask_address, out, constraints, quiet=False):
    from ..bench.report import status_table
    from ..bench.results import read_results
    from ..bench.run import bench as run, plan_tasks
    from ..progress import Bar
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
        skipped = []
        click.echo("\n".join(status_table(read_results(out, skipped=skipped))))
        warn_cut(out, skipped)
    except PuzzleError as err:
        fail(err)


def warn_cut(path, lines: list[int]) -> None:
    """One line on stderr for the rows of a results file left out because they were cut short:
    the tables are made from the whole rows."""
    if lines:
        where = ", ".join(map(str, lines[:5])) + (f" and {len(lines) - 5} more" if len(lines) > 5 else "")
        click.echo(f"puzzleplan: warning: {path}: {len(lines)} row{'s' * (len(lines) > 1)} cut short left out "
                   f"(line{'s' * (len(lines) > 1)} {where}; a bench killed while it wrote one?)", err=True)


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--plots", "plot_dir", default=None, type=click.Path(file_okay=False),
              help="Folder for the plots (cactus, time against length, horizon growth).")
@click.option("--baseline", default=None,
              help="Method the time ratios are taken against (default: bfs); several: fd-lmcut,symk.")
@click.option("--markdown", "md_file", default=None, type=click.Path(dir_okay=False), help="Also write the tables here.")
@click.option("--force", is_flag=True, help="Overwrite the Markdown file and the plots if they exist.")
def report(results, plot_dir, baseline, md_file, force):
    """Summarise bench RESULTS files (one or several, their rows taken together): tables, and
    plots with --plots."""
    from ..bench.report import PLOTS, report as make
    from ..outputs import check_folder, check_new, put
    try:
        if md_file:
            check_new(md_file, force, "--markdown")
        if plot_dir:
            check_folder(plot_dir, PLOTS, force, "--plots")
        skipped = {}
        text, made = make(list(results), plot_dir, baseline, skipped)
        if md_file:
            put(md_file, text, force)
    except PuzzleError as err:
        fail(err)
    for path, lines in skipped.items():
        warn_cut(path, lines)
    click.echo(text)
    for path in made:
        click.echo(f"plot: {path}")




@click.command()
@click.argument("family", required=False)
@click.argument("series", required=False)
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Folder to write into (made if missing, inside one that exists).")
@click.option("--values", default=None, help="Points of the series, e.g. 2,4,6 or 1-5 (default: the series' own), "
                                             "within the values it makes.")
@click.option("--seed", type=click.IntRange(0, 10**6), default=0, show_default=True, help="First seed.")
@click.option("--seeds", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Instances per point (seeds SEED, SEED+1, ...).")
@click.option("--force", is_flag=True, help="Overwrite files of the same names.")
@json_option
def generate(family, series, out, values, seed, seeds, force, as_json):
    """Write an instance series of FAMILY: puzzles along a size parameter, for a bench.

    Without SERIES (or FAMILY): list the series there are.  The same seed writes the same
    files; each file's first line says its family, series, parameter and seed, and its
    name (FAMILY-SERIES-PARAMVALUE-sSEED) is what `report` reads the series from.
    """
    from .. import registry
    from ..series import generate as write, parse_values, series_of
    try:
        families = [registry.get(family)] if family else registry.all_families()
        if series is None:
            rows = [{"family": f.name, "series": s.name, "parameter": s.parameter, "values": list(s.values),
                     "regime": s.regime, "summary": s.summary} for f in families for s in series_of(f).values()]
            if family and not rows:
                raise PuzzleError(f"the {family} family has no series")
            if as_json:
                return click.echo(json.dumps(rows))
            for r in rows:
                span = f"{r['parameter']}={r['values'][0]}..{r['values'][-1]}"
                click.echo(f"{r['family']:<9} {r['series']:<8} {span:<10} {r['regime']:<10} {r['summary']}")
            return
        if out is None:
            raise PuzzleError("give a folder to write into: --out DIR")
        fam = families[0]
        known = series_of(fam)
        if series not in known:
            raise PuzzleError(f"the {fam.name} family has no series {series!r}; its series: {', '.join(known) or 'none'}")
        files = write(fam, series, out, parse_values(values, known[series]), range(seed, seed + seeds), force)
    except PuzzleError as err:
        fail(err, as_json)
    if as_json:
        click.echo(json.dumps([str(f) for f in files]))
    else:
        click.echo(f"{len(files)} puzzles written to {out}")
