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
        if not where <= end.cells:
            report.update(status="not_solved", problem=f"piece {end.piece} does not end within the cells asked")
            return report
    per_piece = moves_per_piece(base, steps, metric)
    ok_any = False
    for i, alt in enumerate(alternatives(base)):
        placed = base.placed(replay, i)
        conds = tuple(alt) + tuple(counts)
        if placed and all(c.holds(c.total(per_piece)) for c in conds):
            ok_any = True
    if not ok_any:
        report.update(status="not_solved", problem="a move-count condition does not hold: "
                      + ", ".join(f"{p}={n}" for p, n in sorted(per_piece.items())))
        return report
    report.update(solved=True, moves_per_piece=per_piece)
    return report
