"""Side conditions on top of any domain, for search and validation.

A domain may offer several goal alternatives (``goal_alternatives()``, each with
its own :class:`MoveCount` requirements, as seed 003 does); extra counts given by
the user apply to every alternative.  A count may name a group ``A+B``: the
total of the group's moves.  :class:`EndsOn` conditions ask a piece to finish
within given cells.  The wrapped state is ``(state, counters)`` with one counter
per counted piece, capped just above the largest bound so the state space stays
finite.
"""
from __future__ import annotations

from typing import Sequence

from .puzzle import Contradiction, EndsOn, MoveCount, PuzzleError


def alternatives(domain) -> list[tuple[MoveCount, ...]]:
    return list(domain.goal_alternatives())


def movers_of(domain, count: MoveCount) -> list:
    """The domain's movers a count (or a group count) runs over, each once."""
    return list(dict.fromkeys(domain.mover_of(p) for p in count.pieces))


def end_places(domain, ends: Sequence[EndsOn]) -> dict:
    """mover -> the places it may finish on (several conditions on one piece intersect)."""
    out: dict = {}
    for e in ends:
        mover, ok = domain.end_places(e.piece, e.cells)
        out[mover] = out.get(mover, ok) & ok
        if not out[mover]:
            raise Contradiction(f"the end conditions on {e.piece!r} leave it nowhere to finish")
    return out


def impossible(domain, i: int, alt: Sequence[MoveCount]) -> str | None:
    """Why no plan meets goal alternative ``i`` with the counts ``alt``, or None: counts on the
    same movers that ask at least more than they allow at most (``D.moves<=0 D.moves>=1``), or
    a mover that may not move where the family's per-mover bound says it must
    (:meth:`~puzzleplan.contract.Rules.mover_bounds`: a frozen 8-puzzle tile off its goal)."""
    least: dict = {}
    most: dict = {}
    named: dict = {}        # group -> the pieces as the user wrote them
    for r in alt:
        group = frozenset(movers_of(domain, r))
        named.setdefault(group, r.piece)
        if r.op in (">=", "=="):
            least[group] = max(least.get(group, 0), r.k)
        if r.op in ("<=", "=="):
            most[group] = min(most.get(group, r.k), r.k)
    for group, hi in most.items():
        if least.get(group, 0) > hi:
            return f"{named[group]} must move at least {least[group]} times and at most {hi}"
    frozen = {mover: named[group] for group, hi in most.items() if hi == 0 for mover in group}
    if frozen:
        needed = domain.mover_bounds(domain.initial, domain.metrics[0], i) or {}
        for mover, piece in frozen.items():
            if needed.get(mover, 0) > 0:
                return f"{piece} may not move, but must to reach the goal"
    return None


class Counted:
    """``domain`` with move counters in its state and end conditions on its goal;
    same protocol as a domain."""

    def __init__(self, domain, counts: Sequence[MoveCount] = (), ends: Sequence[EndsOn] = ()):
        self.base = domain
        self.extra = tuple(counts)
        self.ends = tuple(ends)
        self.metrics = domain.metrics       # (the name, like the rest, is the base's)
        self.alts = [tuple(alt) + tuple(counts) for alt in alternatives(domain)]
        movers = sorted({mv for alt in self.alts for r in alt for mv in movers_of(domain, r)}, key=str)
        self.slot = {m: i for i, m in enumerate(movers)}
        self.cap = 1 + max((r.k for alt in self.alts for r in alt), default=0)
        self.finish = end_places(domain, self.ends)
        for c in counts:
            if c.k == 0 and c.op != ">=":       # frozen: it must already stand where it ends
                for p in c.pieces:
                    mover = domain.mover_of(p)
                    if mover in self.finish and domain.place_of(domain.initial, mover) not in self.finish[mover]:
                        raise Contradiction(f"piece {p!r} is frozen but must end on cells it does not stand on")
        # a move that would merge with the previous one into one move of the metric
        # (sliding: the same piece again under ``moves``, in the same direction under
        # ``slides``) is not a move of its own: the state keeps where the last move
        # ended, whichever piece made it, so no move is ever split in two (the
        # domain's definition of a move, ``moves_of``)
        self.merges = domain.continuation if self.slot else None
        # per alternative, what the counts ask at least: (k, the counters' slots) (:meth:`heuristic`)
        self.wants = [[(r.k, tuple(self.slot[mv] for mv in movers_of(domain, r))) for r in alt if r.op != "<="]
                      for alt in self.alts]
        self.unit = {}          # metric -> whether every move costs 1
        self.initial = (domain.initial, (0,) * len(movers), None)
        reasons = [impossible(domain, i, alt) for i, alt in enumerate(self.alts)]
        if reasons and all(reasons):        # every goal alternative asks what no plan can do
            raise Contradiction(reasons[0])

    @property
    def needed(self) -> bool:
        return bool(self.slot) or bool(self.ends)

    def _holds(self, counters, alt) -> bool:
        return all(r.holds(sum(counters[self.slot[mv]] for mv in movers_of(self.base, r))) for r in alt)

    def _ends_hold(self, base) -> bool:
        return all(self.base.place_of(base, mv) in ok for mv, ok in self.finish.items())

    def is_goal(self, state) -> bool:
        base, counters, _ = state
        if not self._ends_hold(base):
            return False
        for i, alt in enumerate(self.alts):
            placed = self.base.is_goal_alt(base, i)
            if placed and self._holds(counters, alt):
                return True
        return False

    def successors(self, state, metric):
        refused = self.base.ends_refused(metric) if self.ends else None
        if refused:
            raise PuzzleError(refused)
        base, counters, last = state
        every_mover = self.base.continues_across_movers(metric)
        for move, nxt in self.base.successors(base, metric):
            ends = self.merges(move, metric) if self.merges else None
            if last is not None and ends is not None and ends[0] == last:
                continue
            slot = self.slot.get(move.mover)
            # a counted piece's last move is kept, and every piece's where the family says
            # so (:meth:`~puzzleplan.contract.Rules.continues_across_movers`)
            after = ends[1] if ends and (slot is not None or every_mover) else None
            if slot is None:
                yield move, (nxt, counters, after)
            else:
                c = list(counters)
                c[slot] = min(c[slot] + 1, self.cap)
                yield move, (nxt, tuple(c), after)

    def heuristic(self, state, metric) -> int:
        """The base's bound, or, where every move costs 1, the moves the counts still ask for
        if more: a move advances one mover's counter, so the shortfalls of different movers
        add up (per mover the largest; a group count alone), least over the alternatives.
        Where the base bounds each mover's moves (:meth:`~puzzleplan.contract.Rules.mover_bounds`),
        a mover needs the larger of its bound and its shortfall, and those add up over the
        movers: a piece three cells from its target and another that must move once need four
        moves, not three."""
        base = self.base.heuristic(state[0], metric)
        if metric not in self.unit:
            self.unit[metric] = self.base.unit_costs(metric)
        if not self.slot or not self.unit[metric]:
            return base
        counters = state[1]
        best = None
        for i, wants in enumerate(self.wants):
            single, group = {}, 0
            for k, slots in wants:
                short = k - sum(counters[s] for s in slots)
                if len(slots) == 1:
                    single[slots[0]] = max(single.get(slots[0], 0), short)
                else:
                    group = max(group, short)
            need = max(sum(v for v in single.values() if v > 0), group)
            parts = self.base.mover_bounds(state[0], metric, i)
            if parts:
                need = max(need, sum(max(parts.get(mv, 0), single.get(self.slot.get(mv), 0))
                                     for mv in set(parts) | set(self.slot)))
            best = need if best is None else min(best, need)
        return max(base, best or 0)

    def state_bound(self) -> int | None:
        """The base's, where no move is counted (end conditions alone keep its states); with
        counters a shortest plan may pass a placement twice: none known."""
        return None if self.slot else self.base.state_bound()

    def __getattr__(self, attr):
        return getattr(self.base, attr)
