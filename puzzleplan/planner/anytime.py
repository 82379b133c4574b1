"""Anytime planning: the best plan found so far beside the lower bound proved so far.

Glossary
--------
incumbent  the shortest replayed plan found so far; its length is the *upper* bound
lower      the proven lower bound: one more than the largest horizon refuted, or the
           admissible bound of the rules
gap        ``(upper - lower) / upper`` in per cent; 0 when the two meet (optimal)
probe      one question, on a solver of its own without lemmas (``pysat-plain`` with the
           run's SAT solver), for a plan of at most H moves with H well above the lower
           bound: a plan at once (slack makes it easy to find), or, answered ``unsat``, a
           lower bound; either way within a budget of conflicts
shortening loops (a position passed twice) and single redundant steps removed from a plan,
           each cut kept only if the rules' replay still reaches the goal

The deepening (:mod:`.deepening`) asks probes only once a run is hard (past ``PROBE_AFTER``
conflicts), so an easy run is the same as without them, conflict for conflict; each probe's
budget is the conflicts the deepening spent since the last one (counted, never timed), so
probes take at most about half of a hard run's work.  The incumbent never grows; once a plan
of U moves is known the deepening stops at horizon U-1 (then the plan is ``optimal``).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from .. import limits
from ..puzzle import PuzzleError
from ..validate import check_plan

# a probe asks this much more than the lower bound: on Rush Hour card 40 (steps, optimum 81) a
# plain solver answers horizon 130 in 135,000 conflicts (7 CPU s) with a 129-step plan, while
# horizons 160 and 250 are not answered within 200,000 (benchmarks/anytime/README.md)
SLACK = 1.5
# the first probe's budget at the least (conflicts): a probe smaller than this rarely answers
PROBE_MIN = 5_000
# the deepening's conflicts before the first probe: runs that prove their optimum sooner (Rush
# Hour card 40 in steps: 27,988) are the same as without probes, which would double their work
PROBE_AFTER = 50_000
# single steps are tried out of plans up to this long (a replay of the plan per step: 160,000
# steps replayed at most)
LONGEST_SHORTENED = 400


@dataclass
class Incumbent:
    """The best replayed plan so far; :meth:`offer` keeps a plan only if it is shorter."""

    steps: list | None = None
    length: int | None = None
    how: str | None = None
    history: list = field(default_factory=list)       # (length, how), one per improvement
    cpu: list = field(default_factory=list)           # the process's CPU seconds at each improvement

    def offer(self, steps: list, length: int, how: str) -> bool:
        if self.length is not None and length >= self.length:
            return False
        self.steps, self.length, self.how = list(steps), length, how
        self.history.append((length, how))
        self.cpu.append(time.process_time())
        return True


def gap(upper: int | None, lower: int) -> float | None:
    """The gap in per cent, one decimal (None without a plan; 0 for a plan of 0 moves)."""
    if upper is None:
        return None
    if upper <= 0:
        return 0.0
    return round(100.0 * max(upper - lower, 0) / upper, 1)


def _key(entry):
    """A hashable key of a replay entry (a dict of a piece's cells, a dict of squares...)."""
    if isinstance(entry, dict):
        return frozenset(entry.items())
    try:
        hash(entry)
        return entry
    except TypeError:
        return repr(entry)


def replayed_length(problem, steps, metric, counts=()) -> int | None:
    """The plan's length if the rules' replay of ``steps`` reaches the goal (and meets every
    side condition), None otherwise (an illegal step included)."""
    try:
        report = check_plan(problem, steps, metric, counts)
    except PuzzleError:
        return None
    return report["length"] if report["solved"] else None


def without_loops(problem, steps: list) -> list:
    """``steps`` with every stretch between two visits of the same position cut out (the
    labelled position: identical pieces swapped are not the same here)."""
    history = problem.rules.replay(steps).history
    if len(history) != len(steps) + 1:      # a family whose entries are not one per step
        return list(steps)
    out, seen, kept = [], {}, []            # kept[i]: the key of the position after out[:i]
    kept.append(_key(history[0]))
    seen[kept[0]] = 0
    for step, entry in zip(steps, history[1:]):
        key = _key(entry)
        if key in seen:                     # back where the plan was after out[:seen[key]]
            cut = seen[key]
            for gone in kept[cut + 1:]:
                seen.pop(gone, None)
            del out[cut:], kept[cut + 1:]
            continue
        out.append(step)
        kept.append(key)
        seen[key] = len(out)
    return out


def shortened(problem, steps: list, length: int, metric: str, counts=()) -> tuple[list, int]:
    """``(steps, length)`` no longer than the plan given for ``problem`` (a
    :class:`~puzzleplan.contract.Problem`): loops removed, then (on plans of at
    most :data:`LONGEST_SHORTENED` steps, a replay per step) each single step whose removal still
    solves the puzzle, every cut checked by replay; the time limit stops it where it is."""
    best, best_len = list(steps), length
    cut = without_loops(problem, best)
    if len(cut) < len(best):
        got = replayed_length(problem, cut, metric, counts)
        if got is not None and got <= best_len:
            best, best_len = cut, got
    if len(best) > LONGEST_SHORTENED:
        return best, best_len
    i = len(best) - 1
    while i >= 0 and not limits.expired():      # from the end: a cut there leaves the earlier positions
        trial = best[:i] + best[i + 1:]
        got = replayed_length(problem, trial, metric, counts)
        if got is not None and got <= best_len:
            best, best_len = trial, got
        i = min(i, len(best)) - 1
    return best, best_len


class Probes:
    """Probes with slack on a solver of their own (see the module doc); built on first use."""

    def __init__(self, problem, metric: str, counts, solver_name: str | None):
        self.problem, self.metric, self.counts = problem, metric, counts
        self.solver_name = solver_name
        self.model = self.solver = self.encoder = None
        self.asked: list[dict] = []         # one row per probe
        self.last_horizon = 0

    def horizon(self, refuted: int, upper: int | None) -> int | None:
        """The horizon the next probe asks: SLACK times the lower bound (never less than the last
        probe's), or, with a plan of U moves in hand, halfway from the lower bound to U-1;
        None when there is nothing between them."""
        lower = refuted + 1
        if upper is not None:
            if upper - 1 <= lower:
                return None
            return lower + math.ceil((upper - 1 - lower) / 2)
        return max(self.last_horizon + 1, math.ceil(SLACK * lower) + 2)

    def ask(self, horizon: int, budget: int):
        """``(answer, steps, length)``: answer True (a plan, replayed), False (no plan within
        ``horizon``), None (the budget spent)."""
        from ..encodings import encoder_for
        from ..encodings.model import BoolModel
        from .backends import make_backend
        if self.solver is None:
            self.model = BoolModel()
            spec = "pysat-plain" + (f":{self.solver_name}" if self.solver_name else "")
            self.solver = make_backend(spec, self.model, "seqcounter", self.problem.family)
            self.encoder = encoder_for(self.problem, self.metric, self.counts)
            self.encoder.start(self.model)
        self.encoder.extend(self.model, self.encoder.laid_out(horizon))
        before = self.solver.conflicts()
        asked = [self.encoder.goal(self.model, horizon)]
        if self.model.has(("act", horizon)):        # layers past the horizon (an earlier probe's): no moves there
            asked.append(-self.model.var(("act", horizon)))
        answer = self.solver.solve_budget(asked, budget)
        spent = self.solver.conflicts() - before
        self.last_horizon = max(self.last_horizon, horizon)
        row = {"probe": horizon, "budget": budget, "conflicts": spent,
               "result": {True: "sat", False: "unsat", None: "unknown"}[answer]}
        self.asked.append(row)
        if answer is not True:
            return answer, None, None
        steps, length = replayed(self.problem, self.encoder, self.model, self.solver.values(), self.metric,
                                  self.counts)
        row["length"] = length
        return True, steps, length

    def close(self) -> None:
        if self.solver is not None:
            self.solver.close()
            self.solver = None


def probe_solver(method: str) -> str | None:
    """The SAT solver of a python-sat method (``pysat-de:glucose4`` -> ``glucose4``; a race's
    first), None for the method's default; probes run only for python-sat methods."""
    _, _, option = method.partition(":")
    return option.split("+")[0] or None


class GapReached(Exception):
    """The plan in hand is within ``--gap`` per cent of the proven lower bound: the run stops."""


def replayed(problem, encoder, model, values, metric, counts) -> tuple[list, int]:
    """Decode a model and replay it by the problem's rules: (steps, length)."""
    moves = encoder.decode(model, values)
    steps = problem.rules.render_steps(moves)
    report = check_plan(problem, steps, metric, counts)
    if not report["solved"]:
        raise AssertionError(f"the decoded plan fails replay: {report['problem']}")
    return steps, report["length"]
