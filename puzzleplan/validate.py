"""Independent plan checking: replay by the domain's rules, then check the goal
and every move-count condition by counting the moves of the plan itself (the
domain's ``moves_of``, the one definition of a move that search and SAT follow)."""
from __future__ import annotations

from typing import Sequence

from .constraints import alternatives
from .puzzle import MoveCount


def moves_per_piece(domain, steps: Sequence[str], metric: str) -> dict[str, int]:
    """Moves of each piece in ``metric`` units, by the domain's one definition of a
    move (``moves_of``)."""
    counts: dict[str, int] = {}
    for piece, _ in domain.moves_of(steps, metric):
        counts[piece] = counts.get(piece, 0) + 1
    return counts


def check_plan(domain, steps: Sequence[str], metric: str, counts: Sequence[MoveCount] = ()) -> dict:
    """Replay ``steps``; raise IllegalStep on an illegal one.  Returns a report with
    ``solved`` true only if the goal holds and every side condition too
    (``counts`` and, for a :class:`Counted` domain, the counts and end
    conditions it was built with)."""
    base = domain.base
    counts = tuple(counts) + tuple(domain.extra)
    replay = base.replay(steps)
    report = {"status": "valid", "length": base.count(steps, metric), "metric": metric,
              "steps": len(steps), "solved": False, "problem": None}
    if not replay.solved:
        report.update(status="not_solved", problem="the goal does not hold at the end")
        return report
    for end in domain.ends:
        where = base.piece_cells(replay.history[-1], end.piece)
        if not where or not where <= end.cells:     # a piece that is gone ends nowhere
            report.update(status="not_solved", problem=f"piece {end.piece} does not end within the cells asked")
            return report
    per_piece = moves_per_piece(base, steps, metric)
    # "frozen" (at most, or exactly, 0 moves) means the piece never steps, in every metric:
    # under ``moves`` a run that ends where it began counts no move, yet the piece moved
    unit = base.metrics[0]      # the domain's unit step: steps, or Sokoban's player moves
    per_step = moves_per_piece(base, steps, unit) if metric != unit else per_piece

    def holds(c: MoveCount) -> bool:
        return c.holds(c.total(per_step if c.k == 0 and c.op != ">=" else per_piece))

    ok_any, failing = False, []
    for i, alt in enumerate(alternatives(base)):
        placed = base.placed(replay, i)
        conds = tuple(alt) + tuple(counts)
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
