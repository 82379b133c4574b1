"""Shared vocabulary: statuses, results, errors, moves and side conditions (the rules a
family implements are in :mod:`puzzleplan.contract`).

Glossary
--------
state   an immutable, hashable position of a puzzle (the family's own)
move    one transition counted as 1 in some metric; it expands to unit steps
step    the seeds' unit: one piece one cell (sliding), one player step (Sokoban),
        one jump (knights); written as a short string (``"AU"``, ``"r"``, ``"b1-c3"``)
metric  how a plan's length is counted: ``steps`` always exists, others per family
horizon the number of moves a bounded encoding allows
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any, Hashable


class PuzzleError(ValueError):
    """Bad input: a malformed file, an impossible level, a wrong option.

    ``str(err)`` is one line meant for the user: ``file:line: problem``.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.problem, self.path, self.line = message, path, line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + message)


class Contradiction(PuzzleError):
    """Well-formed side conditions that no plan can meet: a piece starts on a cell it must
    avoid, cannot fit within its end cells, is frozen away from them.  The answer is known,
    ``unsolvable`` (exit code 0), as for any instance without a plan; not bad input."""


class IllegalStep(PuzzleError):
    """A plan step that the rules forbid; ``index`` is 1-based."""

    def __init__(self, index: int, step: str, reason: str):
        self.index, self.step, self.reason = index, step, reason
        super().__init__(f"step {index} ({step}): {reason}")


class Verdict(str, enum.Enum):
    """A SAT question's answer, inside the planner and from an outside solver's output."""
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"         # a limit was reached (time, conflicts, Ctrl-C)


class Status(str, enum.Enum):
    OPTIMAL = "optimal"            # proven: no shorter plan exists in this metric
    FEASIBLE = "feasible"          # a replayed plan, optimality not proven
    NO_PLAN_WITHIN = "no_plan_within"  # every horizon up to ``bound`` refuted
    UNSOLVABLE = "unsolvable"      # a complete search exhausted the state space
    TIMEOUT = "timeout"            # stopped by a time limit before any of the above
    MEMOUT = "memout"              # stopped by the memory limit (what was proved is kept)
    INTERRUPTED = "interrupted"    # stopped by Ctrl-C (SIGINT); what was proved is kept
    UNVERIFIED = "unverified"      # an outside solver's claim that was not checked
    ERROR = "error"


class Check(str, enum.Enum):
    """How a check of an answer ended: a DRAT certificate (``--certify``), an outside solver's
    proof (``decode --proof``), a model checker's invariant (``abc:pdr``)."""

    PASSED = "passed"
    FAILED = "failed"
    INTERRUPTED = "interrupted"     # stopped by Ctrl-C before it was done
    TIMED_OUT = "timed_out"         # stopped by the time limit before it was done
    MEMOUT = "memout"               # stopped by the memory limit (--memory) before it was done


class Outcome(str, enum.Enum):
    """What a result amounts to for whoever ran it (the CLI's exit code comes from this alone)."""

    ANSWER = "answer"               # an answer, with what was proved (timeouts included)
    CHECK_FAILED = "check_failed"   # a check of the answer failed
    UNVERIFIED = "unverified"       # an outside claim nobody checked
    INTERRUPTED = "interrupted"     # Ctrl-C: what was proved so far
    MEMOUT = "memout"               # the memory limit: what was proved so far
    NOT_SOLVED = "not_solved"       # ``validate``: a plan that does not solve the puzzle


@dataclass(frozen=True)
class Move:
    """One move in a metric: which piece group moved (or None) and its payload.

    ``mover`` is the rules' name for what moved (a piece type index, ``"player"``,
    a knight index); side constraints count moves per mover.  ``data`` is whatever
    the rules need to turn the move into unit steps later.
    """

    mover: Hashable
    data: Any
    nsteps: int = 1


@dataclass
class Result:
    """What a planner or a search reports.  ``length`` is counted in ``metric``."""

    status: Status
    metric: str
    method: str
    length: int | None = None
    steps: list[str] | None = None
    bound: int | None = None       # NO_PLAN_WITHIN / FEASIBLE / TIMEOUT / INTERRUPTED: no plan of at
                                   # most this many moves (None: nothing refuted)
    lower_bound: int | None = None
    proof: str | None = None       # how optimality was proven
    stats: dict[str, Any] = field(default_factory=dict)
    horizons: list[dict[str, Any]] = field(default_factory=list)
    board: list[str] | None = None
    message: str | None = None
    scope: str | None = None       # what a proof covers when less than the puzzle (a cut grid)
    check: Check | None = None     # how a check of the answer ended, if one was made
    stopped: Outcome | None = None  # a run that ended early with a plan in hand (``feasible``):
                                    # Ctrl-C (INTERRUPTED) or the memory limit (MEMOUT), else None

    @property
    def outcome(self) -> Outcome:
        if self.status is Status.INTERRUPTED or self.check is Check.INTERRUPTED:
            return Outcome.INTERRUPTED
        if self.stopped is not None:
            return self.stopped
        if self.check is Check.FAILED:
            return Outcome.CHECK_FAILED
        if self.status is Status.UNVERIFIED:
            return Outcome.UNVERIFIED
        if self.status is Status.MEMOUT:
            return Outcome.MEMOUT
        return Outcome.ANSWER

    def claims(self) -> bool:
        """Whether the status asserts something proven about every plan."""
        return self.status in (Status.OPTIMAL, Status.UNSOLVABLE, Status.NO_PLAN_WITHIN) or self.bound is not None

    def scoped(self, rules) -> "Result":
        """Attach what the rules say a proof covers (open Sokoban levels: the cut grid)."""
        note = rules.proof_scope()
        if note and self.claims():
            self.scope = note
        return self

    def to_json(self) -> dict[str, Any]:
        out = {
            "status": self.status.value, "metric": self.metric, "method": self.method,
            "length": self.length, "steps": self.steps, "board": self.board,
        }
        for key in ("bound", "lower_bound", "proof", "message", "scope"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.check is not None:
            out["check"] = self.check.value
        out.update(self.stats)
        if self.horizons:
            out["horizons"] = self.horizons
        return out


def check_metric(problem, metric: str | None) -> str:
    """``metric``, or the first of the problem's rules (a :class:`~puzzleplan.contract.Problem`);
    PuzzleError naming the family's metrics if the rules have no such metric."""
    metrics = problem.rules.metrics
    metric = metric or metrics[0]
    if metric not in metrics:
        raise PuzzleError(f"unknown metric {metric!r} for {problem.name}; choose from " + ", ".join(metrics))
    return metric


@dataclass(frozen=True)
class MoveCount:
    """``piece op k``: how many moves (in the metric's units) a piece made; op in ``>= <= ==``.

    ``piece`` may name a group ``A+B+C``: then the total of their moves counts.
    """

    piece: str
    op: str
    k: int

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(self.piece.split("+"))

    def total(self, per_piece: dict) -> int:
        return sum(per_piece.get(p, 0) for p in dict.fromkeys(self.pieces))

    def holds(self, count: int) -> bool:
        return {">=": count >= self.k, "<=": count <= self.k, "==": count == self.k}[self.op]

    def __str__(self) -> str:
        return f"{self.piece}.moves{'=' if self.op == '==' else self.op}{self.k}"

    @classmethod
    def parse(cls, text: str) -> "MoveCount":
        """``B.moves=8``, ``B.moves>=3``, ``B.moves<=2``, ``A+B.moves<=5`` (a group's total)."""
        piece, sep, rest = text.partition(".moves")
        for op, norm in ((">=", ">="), ("<=", "<="), ("==", "=="), ("=", "==")):
            # ASCII digits only (str.isdigit takes '²', which int refuses), and a sane size
            if sep and rest.startswith(op) and re.fullmatch(r"[0-9]{1,9}", rest[len(op):]) and all(piece.split("+")):
                return cls(piece, norm, int(rest[len(op):]))
        raise PuzzleError(f"{text!r} is not a move count like B.moves=8, B.moves>=3, B.moves<=2 or A+B.moves<=5")


@dataclass(frozen=True)
class Avoid:
    """Cells ``piece`` may never occupy (``"*"``: every piece; Sokoban: ``player``, ``boxes``)."""

    piece: str
    cells: frozenset


def frozen(piece: str) -> MoveCount:
    """A piece that never moves."""
    return MoveCount(piece, "<=", 0)


@dataclass(frozen=True)
class EndsOn:
    """``piece`` must end the plan with every cell it covers among ``cells``.

    Cells are the rules' own coordinates (``(x, y)``); for knights, squares.
    """

    piece: str
    cells: frozenset

    def __str__(self) -> str:
        return f"{self.piece}.ends=" + ",".join(cell_name(c) for c in sorted(self.cells))


def column_name(x: int) -> str:
    """``0`` -> ``a``, ``25`` -> ``z``, ``26`` -> ``aa``, ``27`` -> ``ab`` (as spreadsheets count:
    a board wider than 26 columns keeps names that read back)."""
    n, out = x + 1, ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(97 + r) + out
    return out


def cell_name(c: tuple[int, int]) -> str:
    """``(1, 0)`` -> ``b1``; ``(26, 0)`` -> ``aa1``."""
    return f"{column_name(c[0])}{c[1] + 1}"
