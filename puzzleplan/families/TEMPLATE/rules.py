"""Tokens on a line: the rules.

Representation
--------------
cell    ``(x, 0)``: x counts from the left, 0-based (one row, so that cell names and
        end/avoid conditions work as on any board: ``c1`` is the third cell)
token   a letter; each token is its own mover (tokens are not interchangeable here; a
        family with identical pieces keeps them unlabelled in the state)
state   ``tuple`` of each token's x, in the order of ``tokens``
move    ``Move(token index, (x, x + d))``; a step is written ``A>`` or ``A<``
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from puzzleplan.puzzle import IllegalStep, Move, PuzzleError
from puzzleplan.contract import Rules, SideConditions

Cell = tuple[int, int]
DIRS = {">": 1, "<": -1}


@dataclass(frozen=True)
class LineSpec:
    """What a ``.line`` file says."""

    width: int
    blocked: frozenset[int]                 # cells no token may enter
    start: tuple[tuple[str, int], ...]      # (token, x), in reading order
    goal: tuple[tuple[str, int], ...]
    name: str = ""

    def row(self, at: dict[str, int]) -> str:
        cells = ["#" if x in self.blocked else "." for x in range(self.width)]
        for token, x in at.items():
            cells[x] = token
        return "".join(cells)


class Line(SideConditions, Rules):
    metrics = ("steps",)

    def __init__(self, spec: LineSpec, avoid: dict | None = None):
        self.spec = spec
        self.tokens = [t for t, _ in spec.start]
        self.index = {t: i for i, t in enumerate(self.tokens)}
        self.avoid = {t: frozenset(x for x, _ in cells) for t, cells in (avoid or {}).items()}
        for t in set(self.avoid) - {"*"}:
            self.mover_of(t)
        self.banned = [self.avoid.get(t, frozenset()) | self.avoid.get("*", frozenset()) | spec.blocked
                       for t in self.tokens]
        self.initial = tuple(x for _, x in spec.start)
        for t, x in spec.start:
            if x in self.banned[self.index[t]]:
                raise PuzzleError(f"token {t} starts on a cell it must avoid")
        self.goal = {self.mover_of(t): x for t, x in spec.goal}

    # -- search ----------------------------------------------------------------------
    def is_goal(self, state) -> bool:
        return all(state[i] == x for i, x in self.goal.items())

    def successors(self, state, metric: str = "steps") -> Iterator[tuple[Move, tuple]]:
        taken = set(state)
        for i, x in enumerate(state):
            for d in (-1, 1):
                to = x + d
                if 0 <= to < self.spec.width and to not in taken and to not in self.banned[i]:
                    yield Move(i, (x, to)), state[:i] + (to,) + state[i + 1:]

    def heuristic(self, state, metric: str = "steps") -> int:
        """Each step moves one token one cell: the distances add up to a lower bound."""
        return sum(abs(state[i] - x) for i, x in self.goal.items())

    # -- plans -----------------------------------------------------------------------
    def render_steps(self, moves: Sequence[Move]) -> list[str]:
        return [f"{self.tokens[m.mover]}{'>' if m.data[1] > m.data[0] else '<'}" for m in moves]

    def replay(self, steps: Sequence[str]) -> "LineReplay":
        at = dict(self.spec.start)
        history = [dict(at)]
        for n, step in enumerate(steps, 1):
            token, d = step[:-1], DIRS.get(step[-1:])
            if token not in at or d is None:
                raise IllegalStep(n, step, "a step is a token and > or <, like A>")
            to = at[token] + d
            if not 0 <= to < self.spec.width:
                raise IllegalStep(n, step, "off the line")
            if to in at.values():
                raise IllegalStep(n, step, f"cell {to + 1} is taken")
            if to in self.banned[self.index[token]]:
                raise IllegalStep(n, step, f"token {token} may not enter cell {to + 1}")
            at[token] = to
            history.append(dict(at))
        return LineReplay(self, history)

    def moves_of(self, steps: Sequence[str], metric: str = "steps") -> list[tuple[str, tuple[str, ...]]]:
        return [(step[:-1], (step,)) for step in steps]

    # -- pieces and side conditions ------------------------------------------------------
    def board(self) -> list[str]:
        return [self.spec.row(dict(self.spec.start))]

    def piece_names(self) -> list[str]:
        return list(self.tokens)

    def mover_of(self, piece: str) -> int:
        if piece not in self.index:
            raise PuzzleError(f"no token {piece!r}; tokens are " + ", ".join(self.tokens))
        return self.index[piece]

    def on_board(self, cell: Cell) -> bool:
        return cell[1] == 0 and 0 <= cell[0] < self.spec.width

    def end_places(self, piece: str, cells) -> tuple[int, frozenset]:
        i = self.mover_of(piece)
        ok = frozenset(x for x, y in cells if y == 0) - self.banned[i]
        if not ok:
            raise PuzzleError(f"token {piece!r} cannot end on the cells given")
        return i, ok

    def place_of(self, state, mover: int) -> int:
        return state[mover]

    def piece_cells(self, entry, piece: str) -> frozenset:
        return frozenset([(entry[piece], 0)])

    def position(self, entry) -> dict:
        return {f"{chr(97 + x)}1": token for token, x in entry.items()}


@dataclass
class LineReplay:
    puzzle: Line
    history: list[dict[str, int]]

    @property
    def solved(self) -> bool:
        return all(self.history[-1][t] == x for t, x in self.puzzle.spec.goal)

    def frames(self) -> list[list[str]]:
        return [[self.puzzle.spec.row(at)] for at in self.history]


def build(spec: LineSpec, *, distinct: Sequence[str] = (), avoid: dict | None = None, margin: int = 2) -> Line:
    """The rules of a parsed file (``distinct`` needs nothing here: every token is its own)."""
    return Line(spec, avoid)
