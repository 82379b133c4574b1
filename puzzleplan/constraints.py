"""Side conditions on top of any family's rules, for search and the encoders.

The rules may offer several goal alternatives (``goal_alternatives()``, each with
its own :class:`MoveCount` requirements, as seed 003 does); the problem's counts
(:class:`~puzzleplan.contract.Conditions`) apply to every alternative.  A count may name a
group ``A+B``: the total of the group's moves.  :class:`EndsOn` conditions ask a piece to
finish within given cells.  :class:`Counters` is the state space search runs on then: its
state is ``(state, counters, last)`` with one counter per counted mover, capped just above
the largest bound so the state space stays finite.
"""
from __future__ import annotations

from typing import Sequence

from .puzzle import Contradiction, EndsOn, MoveCount, PuzzleError


def movers_of(rules, count: MoveCount) -> list:
    """The movers a count (or a group count) runs over, each once."""
    return list(dict.fromkeys(rules.mover_of(p) for p in count.pieces))


def end_places(rules, ends: Sequence[EndsOn]) -> dict:
    """mover -> the places it may finish on (several conditions on one piece intersect)."""
    out: dict = {}
    for e in ends:
        mover, ok = rules.end_places(e.piece, e.cells)
        out[mover] = out.get(mover, ok) & ok
        if not out[mover]:
            raise Contradiction(f"the end conditions on {e.piece!r} leave it nowhere to finish")
    return out


def impossible(rules, i: int, alt: Sequence[MoveCount]) -> str | None:
    """Why no plan meets goal alternative ``i`` with the counts ``alt``, or None: counts on the
    same movers that ask at least more than they allow at most (``D.moves<=0 D.moves>=1``), or
    a mover that may not move where the family's per-mover bound says it must
    (:meth:`~puzzleplan.contract.Rules.mover_bounds`: a frozen 8-puzzle tile off its goal)."""
    least: dict = {}
    most: dict = {}
    named: dict = {}        # group -> the pieces as the user wrote them
    for r in alt:
        group = frozenset(movers_of(rules, r))
        named.setdefault(group, r.piece)
        if r.op in (">=", "=="):
            least[group] = max(least.get(group, 0), r.k)
        if r.op in ("<=", "=="):
            most[group] = min(most.get(group, r.k), r.k)
    for group, hi in most.items():
        if least.get(group, 0) > hi:
            return f"{named[group]} must move at least {_times(least[group])} and at most {_times(hi)}"
    frozen = {mover: named[group] for group, hi in most.items() if hi == 0 for mover in group}
    if frozen:
        needed = rules.mover_bounds(rules.initial, rules.metrics[0], i) or {}
        for mover, piece in frozen.items():
            if needed.get(mover, 0) > 0:
                return f"{piece} may not move, but must to reach the goal"
    return None


def counts_refused(problem, metric: str, counts: Sequence[MoveCount] = ()) -> str | None:
    """Why the move counts of ``problem`` (and ``counts``) cannot be taken in ``metric`` (one
    line: the rules' ``counts_refused``), or None: they can, or there are none."""
    refuse = getattr(problem.rules, "counts_refused", None)    # only rules that take side conditions
    return refuse(metric) if refuse is not None and (counts or any(problem.alternatives())) else None


def state_space(problem):
    """The state space search runs on for ``problem`` (a :class:`~puzzleplan.contract.Problem`):
    its rules, or :class:`Counters` when it counts moves or asks where pieces end (a
    :class:`~puzzleplan.puzzle.Contradiction` when no plan can meet them)."""
    return Counters(problem) if problem.counted else problem.rules


class Counters:
    """The state space of a :class:`~puzzleplan.contract.Problem` whose conditions count moves or
    ask where pieces end: the rules' states with move counters, end conditions on the goal.
    What search asks of a state space (``initial``, ``is_goal``, ``successors``, ``heuristic``,
    ``state_bound``); everything else is the rules' (``problem.rules``).  Raises
    :class:`~puzzleplan.puzzle.Contradiction` when no plan can meet the conditions."""

    def __init__(self, problem):
        rules = problem.rules
        self.problem = problem
        self.rules = rules
        self.alts = problem.alternatives()
        movers = sorted({mv for alt in self.alts for r in alt for mv in movers_of(rules, r)}, key=str)
        self.slot = {m: i for i, m in enumerate(movers)}
        self.cap = 1 + max((r.k for alt in self.alts for r in alt), default=0)
        self.finish = end_places(rules, problem.ends)
        for c in problem.counts:
            if c.k == 0 and c.op != ">=":       # frozen: it must already stand where it ends
                for p in c.pieces:
                    mover = rules.mover_of(p)
                    if mover in self.finish and rules.place_of(rules.initial, mover) not in self.finish[mover]:
                        raise Contradiction(f"piece {p!r} is frozen but must end on cells it does not stand on")
        # a move that would merge with the previous one into one move of the metric
        # (sliding: the same piece again under ``moves``, in the same direction under
        # ``slides``) is not a move of its own: the state keeps where the last move
        # ended, whichever piece made it, so no move is ever split in two (the
        # rules' definition of a move, ``moves_of``)
        self.merges = rules.continuation if self.slot else None
        # per alternative, what the counts ask at least: (k, the counters' slots) (:meth:`heuristic`)
        self.wants = [[(r.k, tuple(self.slot[mv] for mv in movers_of(rules, r))) for r in alt if r.op != "<="]
                      for alt in self.alts]
        self.unit = {}          # metric -> whether every move costs 1
        self.initial = (rules.initial, (0,) * len(movers), None)
        reasons = [impossible(rules, i, alt) for i, alt in enumerate(self.alts)]
        if reasons and all(reasons):        # every goal alternative asks what no plan can do
            raise Contradiction(reasons[0])

    def _holds(self, counters, alt) -> bool:
        return all(r.holds(sum(counters[self.slot[mv]] for mv in movers_of(self.rules, r))) for r in alt)

    def _ends_hold(self, inner) -> bool:
        return all(self.rules.place_of(inner, mv) in ok for mv, ok in self.finish.items())

    def is_goal(self, state) -> bool:
        inner, counters, _ = state
        if not self._ends_hold(inner):
            return False
        for i, alt in enumerate(self.alts):
            placed = self.rules.is_goal_alt(inner, i)
            if placed and self._holds(counters, alt):
                return True
        return False

    def successors(self, state, metric):
        refused = self.rules.ends_refused(metric) if self.problem.ends else None
        refused = refused or counts_refused(self.problem, metric)
        if refused:
            raise PuzzleError(refused)
        inner, counters, last = state
        every_mover = self.rules.continues_across_movers(metric)
        for move, nxt in self.rules.successors(inner, metric):
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
        """The rules' bound, or, where every move costs 1, the moves the counts still ask for
        if more: a move advances one mover's counter, so the shortfalls of different movers
        add up (per mover the largest; a group count alone), least over the alternatives.
        Where the rules bound each mover's moves (:meth:`~puzzleplan.contract.Rules.mover_bounds`),
        a mover needs the larger of its bound and its shortfall, and those add up over the
        movers: a piece three cells from its target and another that must move once need four
        moves, not three."""
        bound = self.rules.heuristic(state[0], metric)
        if metric not in self.unit:
            self.unit[metric] = self.rules.unit_costs(metric)
        if not self.slot or not self.unit[metric]:
            return bound
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
            parts = self.rules.mover_bounds(state[0], metric, i)
            if parts:
                need = max(need, sum(max(parts.get(mv, 0), single.get(self.slot.get(mv), 0))
                                     for mv in set(parts) | set(self.slot)))
            best = need if best is None else min(best, need)
        return max(bound, best or 0)

    def state_bound(self) -> int | None:
        """The rules', where no move is counted (end conditions alone keep its states); with
        counters a shortest plan may pass a placement twice: none known."""
        return None if self.slot else self.rules.state_bound()


def _times(k: int) -> str:
    """``once``, ``twice``, ``3 times``; ``0 times``."""
    return {1: "once", 2: "twice"}.get(k, f"{k} times")
