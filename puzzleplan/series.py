"""Instance series: generated puzzles along a named size parameter (``puzzleplan generate``).

A family may declare ``series="module:SERIES"``, a mapping of names to :class:`Series`.
Each point of a series is one value of its parameter (the number of knights, boxes,
pieces that must move...); a point's files are made from a seeded random generator, so
the same seed gives the same files, and the puzzle file's first line records where it
comes from::

    ; series knights/wide n=4 seed=0: four knights, each two moves from its target

Files are named ``FAMILY-SERIES-PARAMVALUE-sSEED.EXT`` (``knights-wide-n04-s0.knights``):
:func:`point_of` reads the series and the value back from a name alone, so that a bench's
results file is enough to draw a series (``puzzleplan report``).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from .outputs import check_folder, put
from .puzzle import PuzzleError

NAME = re.compile(r"^(?P<family>[a-z][a-z0-9_]*)-(?P<series>[a-z][a-z0-9_]*)-(?P<parameter>[a-z]+)(?P<value>\d+)"
                  r"-s(?P<seed>\d+)$")


@dataclass(frozen=True)
class Series:
    """A series of one family.

    ``make(rng, value)`` returns the files of one point: ``{suffix: text}``, the puzzle file
    first (its suffix is its extension; a PDDL problem's domain goes beside it as
    ``"-domain.pddl"``).  ``values``: the points the series is defined on (``generate``
    writes them all unless told otherwise).  ``regime``: what the series varies and what it
    keeps, in a few words (``wide``: the state space grows, the optimum stays short;
    ``deep``: the optimum grows at a fixed width; ``conditions``: side conditions grow).
    ``reference``: the search method that proves the first points (the tests check SAT
    against it there): A*; None for a series whose first points no method proves within
    minutes (sliding/dense: neither SAT nor LM-cut proves its first point in 240 s), checked
    only where a bench run proves them.  ``limits``: the lowest and highest value the series
    can make a puzzle of (``generate`` refuses any other before writing); None: its listed
    points' span.  ``metric``: the metric the series is made for, None: the family's first."""

    name: str
    summary: str
    parameter: str
    values: tuple[int, ...]
    make: Callable[[random.Random, int], Mapping[str, str]]
    regime: str = "wide"
    reference: str | None = "astar"
    limits: tuple[int, int] | None = None
    #: the metric the series is made for (its points are measured in it); None: the family's first
    metric: str | None = None

    @property
    def span(self) -> tuple[int, int]:
        """The lowest and highest value it makes."""
        return self.limits or (min(self.values), max(self.values))


def series_of(family) -> dict[str, Series]:
    """The series a family declares (none: an empty mapping)."""
    ref = getattr(family, "series", None)
    return dict(family.ref(ref, f"{family.name} family's series")) if ref else {}


def stem(family: str, series: Series, value: int, seed: int) -> str:
    return f"{family}-{series.name}-{series.parameter}{value:02d}-s{seed}"


def point_of(label: str) -> dict | None:
    """``{family, series, parameter, value, seed}`` of a generated file's name (its stem, or a
    bench label), or None for any other name."""
    m = NAME.match(Path(label).stem if "/" in label else label)
    if not m:
        return None
    d = m.groupdict()
    return {**d, "value": int(d["value"]), "seed": int(d["seed"])}


def files_of(family, series: Series, value: int, seed: int) -> dict[str, str]:
    """The files of one point, by name: the puzzle file's text starts with its origin."""
    rng = random.Random(f"{family.name}/{series.name}/{value}/{seed}")
    made = dict(series.make(rng, value))
    base = stem(family.name, series, value, seed)
    out = {}
    for i, (suffix, text) in enumerate(made.items()):
        if i == 0:
            text = (f"; series {family.name}/{series.name} {series.parameter}={value} seed={seed}: "
                    f"{series.summary}\n") + text
        out[base + suffix] = text
    return out


def parse_values(text: str | None, series: Series) -> list[int]:
    """``"2,4,6"`` or ``"2-6"`` (or None: the series' own points)."""
    if not text:
        return list(series.values)
    out = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            out += list(range(int(lo), int(hi) + 1)) if sep else [int(lo)]
    except ValueError:
        raise PuzzleError(f"--values {text}: give numbers like 2,4,6 or 2-6") from None
    if not out or min(out) < 0 or max(out) > 999:
        raise PuzzleError(f"--values {text}: give values from 0 to 999")
    return out


def generate(family, name: str, folder: str | Path, values: list[int] | None = None, seeds: range = range(1),
             force: bool = False) -> list[Path]:
    """Write the points ``values`` x ``seeds`` of series ``name`` of ``family`` into ``folder``
    (made if it is missing and its parent exists); nothing is written if any file exists,
    unless ``force``.  Returns the puzzle files."""
    table = series_of(family)
    if name not in table:
        raise PuzzleError(f"the {family.name} family has no series {name!r}; its series: "
                          f"{', '.join(table) or 'none'}")
    series = table[name]
    lo, hi = series.span
    outside = [v for v in (series.values if values is None else values) if not lo <= v <= hi]
    if outside:     # a point it cannot make (no knights, more boxes than the room holds): before anything
        raise PuzzleError(f"series {family.name}/{name} has no point {series.parameter}={outside[0]}: it makes "
                          f"{series.parameter} from {lo} to {hi}")
    made = {}
    puzzles = []
    for value in (series.values if values is None else values):
        for seed in seeds:
            try:
                files = files_of(family, series, value, seed)
            except ValueError as err:      # a point the generator cannot make (too many pieces for the board)
                raise PuzzleError(f"series {family.name}/{name} has no point {series.parameter}={value}: {err}") from None
            puzzles.append(next(iter(files)))
            made.update(files)
    d = check_folder(folder, made, force, "--out")
    d.mkdir(exist_ok=True)
    for file, text in made.items():
        put(d / file, text, force)
    return [d / p for p in puzzles]
