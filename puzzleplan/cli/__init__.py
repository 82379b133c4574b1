"""``puzzleplan`` command line: show, search, explore, validate, solve, solvers, seeds, generate,
bench, report, export, decode, families.

One module per theme: :mod:`.solving` (search, solve, explore, validate), :mod:`.files`
(show, export, decode), :mod:`.benching` (seeds, generate, bench, report), :mod:`.info` (families,
solvers); :mod:`.common` holds the options several commands take, :mod:`.report` loads
the puzzle and prints results, :mod:`.outcomes` is the table of exit codes; :mod:`.commands`
gathers the commands into one group, ``main``, and :mod:`.entry` is the program's start.

``main`` is loaded when it is first asked for (``from puzzleplan.cli import main``): importing
this package loads nothing else, so that the program's start handles a Ctrl-C before the
commands load.
"""
from __future__ import annotations


def __getattr__(name: str):
    if name == "main":
        from .commands import main
        globals()["main"] = main
        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
