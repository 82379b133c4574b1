"""The command group, ``main``: every command of :mod:`.info`, :mod:`.files`, :mod:`.solving` and
:mod:`.benching` under one ``puzzleplan``."""
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
