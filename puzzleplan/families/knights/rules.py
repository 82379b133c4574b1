"""Knights jumping on an arbitrary set of squares (seed 003, Guarini's problem).

Representation
--------------
square  ``(x, y)``: file from the left (a = 0), rank from the bottom (1 = 0);
        written in algebraic notation, ``b1``
kind    knights that are interchangeable: those drawn with the same letter
state   ``tuple`` over kinds of the sorted tuple of that kind's squares
move    one knight jumps (an ordinary knight move) to an empty allowed square;
        ``Move.mover`` is the kind, ``Move.data`` is ``(from, to)``
step    ``"b1-c3"``
goal    one or more alternatives; each puts knights of given kinds on given
        squares and may ask how many moves a kind made (``B.moves=8``); the
        counts are kept by :mod:`puzzleplan.constraints`
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ...limits import checkpoint
from ...puzzle import Contradiction, IllegalStep, Move, MoveCount, PuzzleError
from ...cells import cell_name as name, parse_cell as square
from ...contract import Rules, SideConditions

Square = tuple[int, int]
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
METRICS = ("steps",)


@dataclass(frozen=True)
class Alternative:
    placements: tuple[tuple[str, Square], ...]
    counts: tuple[MoveCount, ...] = ()


@dataclass(frozen=True)
class KnightsSpec:
    width: int
    height: int
    squares: frozenset[Square]
    knights: tuple[tuple[str, Square], ...]      # letter, square; same letter = same kind
    goals: tuple[Alternative, ...]
    name: str = ""

    def rows(self, placement: Sequence[tuple[str, Square]] | None = None) -> list[str]:
        placement = self.knights if placement is None else placement
        at = {sq: letter for letter, sq in placement}
        return ["".join(at.get((x, y), "." if (x, y) in self.squares else "#") for x in range(self.width))
                for y in reversed(range(self.height))]


class Knights(SideConditions, Rules):
    metrics = METRICS

    def __init__(self, spec: KnightsSpec, avoid: dict | None = None):
        """``avoid``: knight letter (or ``"*"``) -> squares it may never land on."""
        self.spec = spec
        self.avoid = {lb: frozenset(sq) for lb, sq in (avoid or {}).items()}
        for lb, squares in self.avoid.items():
            for sq in sorted(squares - spec.squares):
                raise PuzzleError(f"{lb}.avoid: {name(sq)} is not a square of the board")
        for lb, sq in spec.knights:
            if sq in self.avoid.get(lb, ()) or sq in self.avoid.get("*", ()):
                raise Contradiction(f"knight {lb} starts on a square it must avoid")
        self.kinds = sorted({letter for letter, _ in spec.knights}, key=lambda c: [lb for lb, _ in spec.knights].index(c))
        self.kind_of = {lb: i for i, lb in enumerate(self.kinds)}
        self.initial = tuple(tuple(sorted(sq for lb, sq in spec.knights if lb == k)) for k in self.kinds)
        self.jumps = {}
        for sq in spec.squares:         # the time limit holds while a huge board is set up
            checkpoint()
            self.jumps[sq] = tuple((sq[0] + dx, sq[1] + dy) for dx, dy in JUMPS if (sq[0] + dx, sq[1] + dy) in spec.squares)
        for alt in spec.goals:
            for letter, sq in alt.placements:
                if letter not in self.kind_of:
                    raise PuzzleError(f"goal names knight {letter!r}, which is not on the board")
                if sq not in spec.squares:
                    raise PuzzleError(f"goal square {name(sq)} is not on the board")
            for req in alt.counts:
                for piece in req.pieces:     # a group count A+B names each of its knights
                    if piece not in self.kind_of:
                        raise PuzzleError(f"goal counts moves of {piece!r}, which is not on the board")
        self.alternatives = [tuple(self._need(alt)) for alt in spec.goals]
        self.banned = [self.avoid.get(k, frozenset()) | self.avoid.get("*", frozenset()) for k in self.kinds]
        self._to = None         # target distances, made on the first heuristic call

    def _need(self, alt: Alternative):
        for k, letter in enumerate(self.kinds):
            want = sorted(sq for lb, sq in alt.placements if lb == letter)
            twice = next((sq for i, sq in enumerate(want) if sq in want[:i]), None)
            if twice is not None:       # one knight there, or two on one square? (the bound counted it twice)
                raise PuzzleError(f"the goal names {letter}@{name(twice)} twice")
            if len(want) > len(self.initial[k]):
                raise PuzzleError(f"the goal puts {len(want)} knights {letter} on squares; there are {len(self.initial[k])}")
            if want:
                yield k, tuple(want)

    def on_board(self, sq: Square) -> bool:
        """An allowed square (``#`` and squares beyond the picture are not)."""
        return sq in self.spec.squares

    # -- Domain protocol --------------------------------------------------------
    def goal_alternatives(self) -> list[tuple[MoveCount, ...]]:
        return [alt.counts for alt in self.spec.goals]

    def is_goal_alt(self, state, i: int) -> bool:
        return all(all(sq in state[k] for sq in want) for k, want in self.alternatives[i])

    def is_goal(self, state) -> bool:
        return any(self.is_goal_alt(state, i) for i in range(len(self.alternatives)))

    def successors(self, state, metric: str = "steps") -> Iterator[tuple[Move, tuple]]:
        taken = {sq for group in state for sq in group}
        for k, group in enumerate(state):
            for i, sq in enumerate(group):
                for to in self.jumps[sq]:
                    if to not in taken and to not in self.banned[k]:
                        new = tuple(sorted(group[:i] + (to,) + group[i + 1:]))
                        yield Move(k, (sq, to)), state[:k] + (new,) + state[k + 1:]

    def heuristic(self, state, metric: str = "steps") -> int:
        """An admissible bound: per goal alternative, the sum over its target squares of the
        fewest jumps any knight of that kind needs to reach it on the board with no other
        knight on it (distinct targets need distinct knights, and a move moves one knight);
        the least over the alternatives.  A target no knight of its kind can reach adds
        nothing (no plan exists then: any bound would do, this one stays small)."""
        return min((sum(self.mover_bounds(state, metric, i).values()) for i in range(len(self.alternatives))),
                   default=0)

    def mover_bounds(self, state, metric: str, i: int) -> dict:
        """The heuristic's terms of alternative ``i`` per kind (a mover): the fewest jumps of the
        kind's nearest knight to each of its targets, added up."""
        to = self.target_distances()
        out: dict = {}
        for k, want in self.alternatives[i]:
            out[k] = out.get(k, 0) + sum(min((to[k, w][sq] for sq in state[k] if sq in to[k, w]), default=0)
                                         for w in want)
        return out

    def target_distances(self) -> dict:
        """(kind, target) -> {square: jumps from it to the target} (see :meth:`_distances`),
        made on the first call."""
        if self._to is None:
            self._to = self._distances()
        return self._to

    def _distances(self) -> dict:
        """(kind, target) -> {square: jumps from it to the target, over squares the kind may use}."""
        out = {}
        for alt in self.alternatives:
            for k, want in alt:
                for w in want:
                    if (k, w) not in out:
                        out[k, w] = self.jump_distances(k, [w])     # jumps are symmetric
        return out

    def jump_distances(self, k: int, sources) -> dict:
        """{square: fewest jumps between it and the nearest of ``sources``} over the squares a
        knight of kind ``k`` may use, on the board with no other knight."""
        dist = {sq: 0 for sq in sources}
        frontier = list(dist)
        while frontier:
            checkpoint(1 + len(frontier) // 64)        # a huge board: the time limit holds
            nxt = []
            for sq in frontier:
                for to in self.jumps[sq]:
                    if to not in dist and to not in self.banned[k]:
                        dist[to] = dist[sq] + 1
                        nxt.append(to)
            frontier = nxt
        return dist

    def render_steps(self, moves: Sequence[Move]) -> list[str]:
        return [f"{name(m.data[0])}-{name(m.data[1])}" for m in moves]

    def replay(self, steps: Sequence[str]) -> "KnightsReplay":
        at = dict((sq, letter) for letter, sq in self.spec.knights)
        history = [dict(at)]
        moved = [dict.fromkeys(self.kinds, 0)]
        for i, step in enumerate(steps, 1):
            src, sep, dst = step.partition("-")
            try:
                a, b = square(src), square(dst)
            except PuzzleError as err:
                raise IllegalStep(i, step, err.problem) from None
            if not sep:
                raise IllegalStep(i, step, "a step is written from-to, like b1-c3")
            if a not in at:
                raise IllegalStep(i, step, f"no knight on {name(a)}")
            if (b[0] - a[0], b[1] - a[1]) not in JUMPS:
                raise IllegalStep(i, step, "not a knight's move")
            if b not in self.spec.squares:
                raise IllegalStep(i, step, f"{name(b)} is not an allowed square")
            if b in at:
                raise IllegalStep(i, step, f"{name(b)} is occupied")
            if b in self.avoid.get(at[a], ()) or b in self.avoid.get("*", ()):
                raise IllegalStep(i, step, f"knight {at[a]} may not land on {name(b)}")
            at[b] = at.pop(a)
            counts = dict(moved[-1])
            counts[at[b]] += 1
            history.append(dict(at))
            moved.append(counts)
        return KnightsReplay(self, history, moved)

    def moves_of(self, steps: Sequence[str], metric: str = "steps") -> list[tuple[str, tuple[str, ...]]]:
        """Every jump is a move of the knight letter standing on its square
        (``?`` when none does: :meth:`replay` rejects such a step)."""
        at = {sq: letter for letter, sq in self.spec.knights}
        out = []
        for step in steps:
            src, _, dst = step.partition("-")
            try:
                a, b = square(src), square(dst)
            except PuzzleError:
                out.append(("?", (step,)))
                continue
            letter = at.pop(a, "?")
            at[b] = letter
            out.append((letter, (step,)))
        return out

    def board(self) -> list[str]:
        return self.spec.rows()

    def piece_names(self) -> list[str]:
        return list(self.kinds)

    def mover_of(self, piece: str) -> int:
        if piece not in self.kind_of:
            raise PuzzleError(f"no knight {piece!r}; knights are " + ", ".join(self.kinds))
        if len(self.initial[self.kind_of[piece]]) != 1:
            raise PuzzleError(f"knight letter {piece!r} names several interchangeable knights; "
                              "give each its own letter to count its moves")
        return self.kind_of[piece]

    def end_places(self, piece: str, cells) -> tuple[int, frozenset]:
        """For ``piece.ends=squares``: its kind and the allowed final squares."""
        k = self.mover_of(piece)
        ok = frozenset(cells) & frozenset(self.spec.squares) - self.banned[k]
        if not ok:
            raise Contradiction(f"knight {piece!r} cannot end on the squares given")
        return k, ok

    def piece_cells(self, entry, piece: str) -> frozenset:
        return frozenset(sq for sq, letter in entry.items() if letter == piece)

    def position(self, entry) -> dict:
        return {name(sq): letter for sq, letter in entry.items()}

    def placed(self, replay, i: int) -> bool:
        return replay.placed(i)

    def place_of(self, state, k: int):
        return state[k][0]


@dataclass
class KnightsReplay:
    puzzle: Knights
    history: list[dict[Square, str]]
    moved: list[dict[str, int]] = field(default_factory=list)

    def placed(self, i: int) -> bool:
        """Goal alternative ``i``'s knights stand on their squares at the end."""
        at = self.history[-1]
        return all(at.get(sq) == lb for lb, sq in self.puzzle.spec.goals[i].placements)

    @property
    def solved(self) -> bool:
        counts = self.moved[-1]
        return any(self.placed(i) and all(r.holds(r.total(counts)) for r in alt.counts)
                   for i, alt in enumerate(self.puzzle.spec.goals))

    def frames(self) -> list[list[str]]:
        return [self.puzzle.spec.rows([(lb, sq) for sq, lb in at.items()]) for at in self.history]


def build(spec: KnightsSpec, *, distinct: Sequence[str] = (), avoid: dict | None = None,
          margin: int = 2) -> Knights:
    """The rules of a parsed board (knights of one letter are interchangeable)."""
    return Knights(spec, avoid)
