"""Exit codes: one table, read from a typed outcome (:class:`~puzzleplan.puzzle.Outcome`): a
result's, or a command's that answers otherwise (``explore``, ``validate``, ``decode``, ``bench``).

- 0: an answer (``optimal``, ``feasible``, ``no_plan_within``, ``unsolvable``, ``timeout``
  with what was proved so far);
- 1: ``validate``: the plan is legal but does not solve the puzzle;
- 2: bad input of any kind: one line ``puzzleplan: error: ...`` on stderr (``--json``:
  ``{"status": "error", ...}`` on stdout);
- 3: a check failed: ``--certify`` could not check its proof, a proof given to
  ``decode --proof`` does not check, a witness given to ``decode --witness`` does not match
  its AIGER file or does not replay, or a model checker's invariant does not check;
- 4: ``decode``: the outside solver's UNSAT is a claim nobody checked (status
  ``unverified``; give ``--proof`` to check it);
- 5: the memory limit (``--memory``) was reached: ``memout``, with what was proved so far
  (``feasible`` with the best plan when one was in hand);
- 130: interrupted by Ctrl-C; the result printed is what was proved so far (``feasible``
  with the best plan and the gap when a plan was in hand);
- 143: stopped by SIGTERM (a ``kill``), as by Ctrl-C: status ``interrupted``, what was proved
  so far printed, solver programs stopped and temporary files removed.
"""
from __future__ import annotations

import sys

from ..puzzle import Outcome, Result

EXIT_BAD_INPUT = 2
EXIT_CODES = {
    Outcome.ANSWER: 0,
    Outcome.NOT_SOLVED: 1,
    Outcome.CHECK_FAILED: 3,
    Outcome.UNVERIFIED: 4,
    Outcome.MEMOUT: 5,
    Outcome.INTERRUPTED: 130,      # 128 + SIGINT, as shells report a Ctrl-C
}
EXIT_NOT_SOLVED = EXIT_CODES[Outcome.NOT_SOLVED]
EXIT_CHECK_FAILED = EXIT_CODES[Outcome.CHECK_FAILED]
EXIT_INTERRUPTED = EXIT_CODES[Outcome.INTERRUPTED]
EXIT_MEMOUT = EXIT_CODES[Outcome.MEMOUT]
EXIT_TERMINATED = 143       # 128 + SIGTERM: an interrupted run stopped by SIGTERM (cli.common.leave)


def exit_code(result: Result) -> int:
    return EXIT_CODES[result.outcome]


def end_with(outcome: Outcome) -> None:
    """End the command with ``outcome``'s exit code (returns for an answer, code 0)."""
    code = EXIT_CODES[outcome]
    if code:
        sys.exit(code)
