"""``puzzleplan`` command line: show, search, explore, validate, solve, solvers, seeds, generate,
bench, report, export, decode, families.

One module per theme: :mod:`.solving` (search, solve, explore, validate), :mod:`.files`
(show, export, decode), :mod:`.benching` (seeds, generate, bench, report), :mod:`.info` (families,
solvers); :mod:`.common` holds the options several commands take, :mod:`.report` loads
the puzzle and prints results, :mod:`.outcomes` is the table of exit codes.
"""
from __future__ import annotations

import click

from . import benching, files, info, solving
from .common import Group


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="puzzleplan")
def main():
    """Solve move puzzles with SAT, CP-SAT and classic search."""


for command in (info.list_families, files.show, solving.search, solving.explore, solving.validate, solving.solve,
                info.solvers, benching.seeds, benching.generate, benching.bench, benching.report, files.export, files.decode):
    main.add_command(command)
