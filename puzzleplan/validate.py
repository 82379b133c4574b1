"""Independent plan checking: replay by the problem's rules, then check the goal
and every side condition by counting the moves of the plan itself (the
rules' ``moves_of``, the one definition of a move that search and SAT follow)."""
from __future__ import annotations

from typing import Sequence

from . import registry
from .constraints import counts_refused
from .puzzle import MoveCount, PuzzleError


def moves_per_piece(rules, steps: Sequence[str], metric: str) -> dict[str, int]:
    """Moves of each piece in ``metric`` units, by the rules' one definition of a
    move (``moves_of``)."""
    counts: dict[str, int] = {}
    for pieces, _ in rules.moves_of(steps, metric):
        for piece in pieces.split("+"):     # a time step of several pieces (sliding makespan)
            counts[piece] = counts.get(piece, 0) + 1
    return counts


def check_plan(problem, steps: Sequence[str], metric: str, counts: Sequence[MoveCount] = ()) -> dict:
    """Replay ``steps`` on ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded
    instance or a bare rules object); raise IllegalStep on an illegal one.  Returns a report
    with ``solved`` true only if the goal holds and every side condition too (the problem's
    conditions and ``counts``)."""
    problem = registry.problem(problem, counts)
    rules = problem.rules
    refused = counts_refused(problem, metric)
    if refused:
        raise PuzzleError(refused)
    replay = rules.replay(steps)
    report = {"status": "valid", "length": rules.count(steps, metric), "metric": metric,
              "steps": len(steps), "solved": False, "problem": None}
    if not replay.solved:
        report.update(status="not_solved", problem="the goal does not hold at the end")
        return report
    for end in problem.ends:
        where = rules.piece_cells(replay.history[-1], end.piece)
        if not where or not where <= end.cells:     # a piece that is gone ends nowhere
            report.update(status="not_solved", problem=f"piece {end.piece} does not end within the cells asked")
            return report
    per_piece = moves_per_piece(rules, steps, metric)
    # "frozen" (at most, or exactly, 0 moves) means the piece never steps, in every metric:
    # under ``moves`` a run that ends where it began counts no move, yet the piece moved
    unit = rules.metrics[0]     # the rules' unit step: steps, or Sokoban's player moves
    per_step = moves_per_piece(rules, steps, unit) if metric != unit else per_piece

    def holds(c: MoveCount) -> bool:
        return c.holds(c.total(per_step if c.k == 0 and c.op != ">=" else per_piece))

    ok_any, failing = False, []
    for i, conds in enumerate(problem.alternatives()):
        placed = rules.placed(replay, i)
        if placed and all(holds(c) for c in conds):
            ok_any = True
        elif placed:
            failing += [c for c in conds if not holds(c) and c not in failing]
    if not ok_any:
        stepped = "" if per_step is per_piece else \
            f" (in {unit}: " + ", ".join(f"{p}={n}" for p, n in sorted(per_step.items())) + ")"
        named = "; ".join(_failed(c, per_step if c.k == 0 and c.op != ">=" else per_piece) for c in failing)
        report.update(status="not_solved", problem=(named or "a move-count condition does not hold")
                      + "; moves per piece: " + ", ".join(f"{p}={n}" for p, n in sorted(per_piece.items())) + stepped)
        return report
    report.update(solved=True, moves_per_piece=per_piece)
    return report


def _failed(c: MoveCount, counts: dict) -> str:
    """What a move count that does not hold says: ``piece G is frozen but moved 3 times``."""
    made = c.total(counts)
    who = f"piece {c.piece}" if len(c.pieces) == 1 else f"pieces {c.piece}"
    if c.k == 0 and c.op != ">=":
        return f"{who} {'is' if len(c.pieces) == 1 else 'are'} frozen but moved {made} time{'s' * (made != 1)}"
    return f"{c} does not hold: {who} moved {made} time{'s' * (made != 1)}"
