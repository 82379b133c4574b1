"""Grounding: a PDDL domain and problem -> a finite-domain (SAS+) task (:mod:`.sas`): by our own
grounder (:mod:`.grounder`, in this process) for plain STRIPS tasks (types, equality, constant
action costs), else by Fast Downward's translator (:mod:`.translator`, a child process).  The
two make the same task where both apply (the same variables, values, actions and mutex groups;
the tests compare them on every family's export and the bundled IPC problems; ours may find
more fact groups where an action that never applies breaks one for the translator:
:mod:`.invariants`); ours takes a fifth to a twentieth of the time (0.005-0.23 s against
0.10-0.84 s on the catalogue's exports) as it needs no second Python, no Datalog model of the
task and no files.  ``grounder="translator"`` (the CLI's ``--grounder translator``) asks for
the translator always.
"""
from __future__ import annotations

from ..puzzle import PuzzleError
from .grounder import Unsupported, ground as ground_here
from .sas import Grounded
from .translator import run_translator

GROUNDERS = ("own", "translator")


def translate(domain_text: str, problem_text: str, where: str, grounder: str = "own") -> Grounded:
    """Ground a task given as the texts of its domain and problem: by our own grounder
    (:mod:`.grounder`) if it reads it (``grounder="own"``), else by the translator (:func:`.translator.run_translator`)."""
    if grounder not in GROUNDERS:
        raise PuzzleError(f"unknown grounder {grounder!r}: choose {' or '.join(GROUNDERS)}", where)
    if grounder == "own":
        try:
            return ground_here(domain_text, problem_text, where)
        except Unsupported:
            pass
    return run_translator(domain_text, problem_text, where)
