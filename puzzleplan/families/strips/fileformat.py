"""PDDL problem files (``.pddl``) with their domain: checked (:mod:`puzzleplan.strips.parse`), then
grounded (:mod:`puzzleplan.strips.ground`).

The domain is ``--domain FILE`` or, without it, ``domain.pddl`` in the problem's
folder (the IPC's layout), else ``NAME-domain.pddl`` or ``domain-NAME.pddl`` beside
``NAME.pddl``.  ``--grounder translator`` grounds by Fast Downward's translator even where
our own grounder reads the task.  ``--levers`` (:func:`puzzleplan.strips.encoding.levers.parse_levers`) chooses what the rules add to
search and SAT.  A problem whose blocks are out of the translator's order (``:goal``
before ``:init``, as some public collections write it) is reordered first, with a note
on stderr.  Grounding is done once per pair of texts in a process, and its size is printed on stderr before any
encoding: ``grounded p01.pddl: 28 variables, 111 facts, 114 actions (0.01 s, our grounder)``.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ...contract import Parsed
from ...formats.common import read_text
from ...puzzle import PuzzleError
from ...strips import ground, parse as source
from ...strips.encoding.levers import parse_levers
from ...strips.sas import Grounded


def domain_file(problem: Path, given: str | None) -> Path:
    """The domain of ``problem``: ``given``, or the first of the usual names beside it."""
    if given:
        return Path(given)
    for name in ("domain.pddl", f"{problem.stem}-domain.pddl", f"domain-{problem.stem}.pddl"):
        candidate = problem.parent / name
        if candidate.is_file():
            return candidate
    raise PuzzleError("no domain file: give --domain FILE, or put domain.pddl beside the problem", str(problem))


def read(text: str, level: int | None = None, path: str | None = None, domain: str | None = None,
         levers: str | None = None, grounder: str | None = None) -> Parsed:
    if path is None:
        raise PuzzleError("a PDDL problem is read from a file (its domain is found beside it)")
    problem = Path(path)
    head, _ = source.header(text, str(problem))
    if head.kind == "domain":
        raise PuzzleError(f"this is the domain {head.name!r}, not a problem: give the problem file "
                          "(the domain goes with --domain, or beside it as domain.pddl)", str(problem))
    dfile = domain_file(problem, domain)
    dtext = read_text(dfile)
    dhead, _ = source.header(dtext, str(dfile))
    if dhead.kind != "domain":
        raise PuzzleError(f"the domain file holds the problem {dhead.name!r}, not a domain", str(dfile))
    if head.domain != dhead.name:
        raise PuzzleError(f"the problem is for domain {head.domain!r}, but {dfile} defines {dhead.name!r}", str(problem))
    text, moved = source.in_problem_order(text)
    if moved:
        print(f"note: {problem.name}: its blocks read in the order the translator takes them "
              f"({', '.join(moved)} moved)", file=sys.stderr)
    task = grounded(dtext, text, str(problem), grounder or "own")
    task = replace(task, name=head.name, domain=dhead.name, levers=None if levers is None else parse_levers(levers))
    return Parsed(task, title=f"{dhead.name} {head.name}")


@lru_cache(maxsize=8)
def grounded(domain_text: str, problem_text: str, shown: str, grounder: str = "own") -> Grounded:
    task = ground.translate(domain_text, problem_text, shown, grounder)
    by = "our grounder" if task.grounder == "own" else "the translator"
    print(f"grounded {Path(shown).name}: {task.size()} ({task.seconds:.2f} s, {by})", file=sys.stderr)
    return task
