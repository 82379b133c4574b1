"""Progress of long commands (``seeds``, ``bench``): a tqdm bar on stderr, in a terminal only.

The bar says k of N, the time spent and tqdm's estimate of the time left; what the run is
doing (a SAT horizon, BFS's expanded states) goes into its postfix.  It stays away when
stderr is not a terminal (a pipe, a file, CI's log) or with ``-q``, so logs and tests see
only the lines the command prints anyway.  Lines printed while a bar is shown go through
:meth:`Bar.echo`, which keeps the bar below them.
"""
from __future__ import annotations

import os
import sys

import click


class Bar:
    def __init__(self, total: int, desc: str, quiet: bool = False):
        self.bar = None
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm
            try:        # a terminal that says no size (some pseudo-terminals) gets 80 columns
                sized = os.get_terminal_size(sys.stderr.fileno()).columns > 0
            except OSError:
                sized = False
            self.bar = tqdm(total=total, desc=desc, unit="run", file=sys.stderr, dynamic_ncols=sized,
                            ncols=None if sized else 80, nrows=None if sized else 24,
                            bar_format="{desc}: {n_fmt}/{total_fmt} |{bar}| {elapsed} elapsed, "
                                       "{remaining} left{postfix}")

    def __enter__(self) -> "Bar":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()

    def echo(self, line: str) -> None:
        """Print a result line (stdout) above the bar."""
        if self.bar is None:
            click.echo(line)
        else:
            self.bar.write(line, file=sys.stdout)

    def total(self, n: int) -> None:
        if self.bar is not None:
            self.bar.total = n
            self.bar.refresh()

    def step(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def doing(self, text: str) -> None:
        """What the current run is doing, after the figures."""
        if self.bar is not None:
            self.bar.set_postfix_str(text)
