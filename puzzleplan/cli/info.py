"""What is here: ``families`` and ``solvers``."""
from __future__ import annotations

import json

import click

from ..puzzle import PuzzleError
from .common import fail, json_option


@click.command("families")
@json_option
def list_families(as_json):
    """List the puzzle families: file types, metrics, and what each can do (SAT, search, PDDL, animation)."""
    from .. import registry
    try:
        found = registry.all_families()
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


@click.command()
@click.option("--path", "program", default=None, metavar="NAME",
              help="Print only the path of solver program NAME (e.g. kissat), or of a PDDL planner's "
                   "driver script (fd-lmcut, symk), to run it by hand.")
@json_option
def solvers(program, as_json):
    """List the solvers found here and where they are: solver programs (for external:NAME and
    by hand), python-sat, OR-Tools, the PDDL planners, the DRAT checker."""
    from ..solvers import PROGRAMS, lines, table
    if program:
        from ..pddl.planners import available, driver
        from ..planner.backends.external_backend import find_solver
        from ..plugins import PLANNER, names
        if program in names(PLANNER):     # a planner's driver script (run it with python)
            path = str(driver(program)) if available(program) else None
        else:
            path = find_solver(program)
        if path is None:
            fail(PuzzleError(f"solver program {program!r} not found"
                             + (f"; it comes from {PROGRAMS[program]}" if program in PROGRAMS else "")), as_json)
        click.echo(json.dumps({"name": program, "path": path}) if as_json else path)
        return
    try:
        rows = table()
    except PuzzleError as err:      # a method plug-in that does not load
        fail(err, as_json)
    click.echo(json.dumps(rows) if as_json else "\n".join(lines(rows)))
