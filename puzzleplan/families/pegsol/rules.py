"""Peg solitaire on any board: a peg jumps over a neighbour into an empty hole, and the
peg jumped over is removed.

Representation
--------------
cell     ``(x, y)``: column from the left, row from the *top* of the picture, 0-based;
         written ``d4`` (column d, fourth row from the top), as sliding and Sokoban
         boards are.  Only holes are cells of the game.
hole     a cell of the board, numbered 0..H-1 in reading order (bit ``i`` of a mask)
line     the directions a peg may jump in: ``orthogonal`` (4), ``diagonal`` (8), or
         ``triangular`` (6: a triangle drawn left-aligned, so its third axis is the
         diagonal ``(1, 1)``)
kind     pegs that are interchangeable: every unnamed peg (drawn ``o``) is one kind,
         each named peg (a capital letter) a kind of its own; kinds are the letters
         ``"o", "A", ...``.  Side conditions name named pegs only.
state    ``tuple`` over kinds of the bitmask of the holes their pegs stand on (an
         ``int``: immutable, hashable, order-free); a jumped named peg has mask 0
jump     ``(a, b, c)``: the peg on hole a jumps over hole b into hole c
move     ``Move(letter, path)``: ``path`` the holes the peg stands on, first to last;
         ``steps``: one jump, ``moves``: one or more jumps of one peg in a row
step     ``"b4-d4"``: one jump, from-to (the peg jumped over is the one between)
goal     a number of pegs left, optionally on exactly the given holes, optionally
         with named pegs on given holes (``goal: one peg at d4`` or a picture)

Metrics: ``steps`` (each jump is a move) and ``moves`` (consecutive jumps by the same
peg are one move: a jump from the hole the previous jump landed on continues it).
Every jump removes a peg, so a plan never has more than pegs - 1 jumps
(:meth:`PegSolitaire.longest_plan`), and under ``steps`` every plan to a goal with n
pegs has exactly pegs - n.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from ...bitsets import bits, mask_of
from ...cells import cell_name as name, parse_cell
from ...puzzle import IllegalStep, Move, PuzzleError
from ...contract import Rules, SideConditions

Cell = tuple[int, int]
METRICS = ("steps", "moves")
UNNAMED = "o"
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIRECTIONS = {
    "orthogonal": ORTHOGONAL,
    "diagonal": ORTHOGONAL + ((1, 1), (-1, -1), (1, -1), (-1, 1)),
    "triangular": ORTHOGONAL + ((1, 1), (-1, -1)),
}
GONE = (-1, -1)     # where a jumped peg is, for end conditions: on no hole


@dataclass(frozen=True)
class Goal:
    count: int                                  # pegs left at the end
    cells: frozenset[Cell] | None = None        # exactly these holes hold them (None: any)
    named: tuple[tuple[str, Cell], ...] = ()    # named pegs that must stand on these holes


@dataclass(frozen=True)
class PegSpec:
    """A board as written in a file (peg letters kept)."""

    width: int
    height: int
    holes: tuple[Cell, ...]                     # reading order
    pegs: tuple[tuple[Cell, str], ...]          # hole, letter (``o``: unnamed)
    goal: Goal
    directions: str = "orthogonal"
    name: str = ""

    def rows(self, placement: dict[Cell, str] | None = None) -> list[str]:
        """The picture: ``#`` no hole, ``.`` an empty hole, a peg's letter."""
        placement = dict(self.pegs) if placement is None else placement
        holes = set(self.holes)
        return ["".join(placement.get((x, y), ".") if (x, y) in holes else "#" for x in range(self.width))
                for y in range(self.height)]


class PegSolitaire(SideConditions, Rules):
    """The rules of one peg-solitaire board over unlabelled kinds of pegs."""

    metrics = METRICS
    symbols = {UNNAMED: ("#b5651d", "")}      # an unnamed peg: a plain peg, no letter

    def __init__(self, spec: PegSpec, avoid: dict | None = None):
        """``avoid``: a named peg's letter (or ``"*"``: every peg) -> holes it may never land on."""
        if spec.directions not in DIRECTIONS:
            raise PuzzleError(f"unknown directions {spec.directions!r}; choose from {', '.join(DIRECTIONS)}")
        self.spec = spec
        self.holes = spec.holes
        self.index = {c: i for i, c in enumerate(spec.holes)}
        letters = [lb for _, lb in spec.pegs]
        self.kinds = ([UNNAMED] if UNNAMED in letters else []) + [lb for lb in letters if lb != UNNAMED]
        self.kind_of = {lb: k for k, lb in enumerate(self.kinds)}
        start: list[list[int]] = [[] for _ in self.kinds]
        for c, lb in spec.pegs:
            start[self.kind_of[lb]].append(self.index[c])
        self.initial = tuple(mask_of(i) for i in start)
        self.pegs = len(spec.pegs)
        self.jumps = [(self.index[a], self.index[b], self.index[c]) for a in spec.holes
                      for dx, dy in DIRECTIONS[spec.directions]
                      for b, c in [((a[0] + dx, a[1] + dy), (a[0] + 2 * dx, a[1] + 2 * dy))]
                      if b in self.index and c in self.index]
        self.by_from: list[list[tuple[int, int]]] = [[] for _ in spec.holes]
        for a, b, c in self.jumps:
            self.by_from[a].append((b, c))
        self.avoid = {lb: frozenset(cells) for lb, cells in (avoid or {}).items()}
        for lb, cells in sorted(self.avoid.items()):
            if lb != "*" and (lb not in self.kind_of or lb == UNNAMED):
                raise PuzzleError(f"{lb}.avoid: no named peg {lb!r} on the board (name pegs with capital letters)")
            for c in sorted(cells - set(spec.holes)):
                raise PuzzleError(f"{lb}.avoid: {name(c)} is not a hole of the board")
        self.banned = [self._mask(self.avoid.get(lb, frozenset()) | self.avoid.get("*", frozenset()))
                       for lb in self.kinds]
        for c, lb in spec.pegs:
            if self.banned[self.kind_of[lb]] >> self.index[c] & 1:
                raise PuzzleError(f"peg {lb if lb != UNNAMED else 'at ' + name(c)} starts on a hole it must avoid")
        self.goal = spec.goal
        self._check_goal()
        self.goal_mask = None if spec.goal.cells is None else self._mask(spec.goal.cells)
        self.goal_named = tuple((self.kind_of[lb], self.index[c]) for lb, c in spec.goal.named)
        self.regions = self._merson_regions()
        self.classes = self._position_classes()
        self.goal_classes = self._goal_classes()

    def _mask(self, cells) -> int:
        return mask_of(self.index[c] for c in cells)

    def _check_goal(self) -> None:
        goal = self.goal
        if goal.count < 0:
            raise PuzzleError("the goal asks for a negative number of pegs")
        for c in sorted(goal.cells or ()):
            if c not in self.index:
                raise PuzzleError(f"goal hole {name(c)} is not a hole of the board")
        if goal.cells is not None and len(goal.cells) != goal.count:
            raise PuzzleError(f"the goal puts {goal.count} pegs on {len(goal.cells)} holes")
        for lb, c in goal.named:
            if lb not in self.kind_of or lb == UNNAMED:
                raise PuzzleError(f"the goal names peg {lb!r}, which is not on the board")
            if c not in self.index or (goal.cells is not None and c not in goal.cells):
                raise PuzzleError(f"the goal puts peg {lb} on {name(c)}, which is not one of its holes")

    # -- geometry --------------------------------------------------------------------
    def on_board(self, cell) -> bool:
        """A hole of the board (cells of the picture without a hole are not)."""
        return cell in self.index

    def _merson_regions(self) -> list[int]:
        """Disjoint *Merson regions* (masks): sets of holes that no jump from outside
        the region crosses to land outside it.  While such a region is full, only a
        jump that starts inside it can change it, and the moves of two full regions
        start on different pegs; so every full region that the goal does not leave
        full costs a move of its own (the lower bound of :meth:`heuristic`).
        Candidates: holes never jumped over, then 2x2 squares and small triangles."""
        over: list[list[tuple[int, int]]] = [[] for _ in self.holes]     # the jumps over each hole
        for a, b, c in self.jumps:
            over[b].append((a, c))

        def merson(cells: set[int]) -> bool:     # linear in the board, not in candidates x jumps
            return not any(a not in cells and c not in cells for b in cells for a, c in over[b])

        def candidates():       # one at a time: millions of them on a huge board
            for i in range(len(self.holes)):
                yield {i}
            for x, y in self.holes:
                for shape in (((0, 0), (1, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 0), (0, 1), (1, 1))):
                    cells = [(x + dx, y + dy) for dx, dy in shape]
                    if all(c in self.index for c in cells):
                        yield {self.index[c] for c in cells}

        taken, out = set(), []
        for cells in candidates():
            if not cells & taken and merson(cells):
                taken |= cells
                out.append(sum(1 << i for i in cells))
        return out

    def _position_classes(self) -> list[tuple[int, int, int]]:
        """For each linear form f = (ax + by) mod 3 that gives the three holes of every
        jump line three different values, the masks of the holes with f = 0, 1, 2.  A
        jump flips one hole of each, so the parities of the pegs on them change
        together: their differences never change (de Bruijn 1972; Conway's "rule of
        three").  Orthogonal boards have two such forms, triangular ones one, boards
        with both diagonals none."""
        lines = DIRECTIONS[self.spec.directions]
        out = []
        for a, b in ((1, 1), (1, 2)):
            if all((a * dx + b * dy) % 3 for dx, dy in lines):
                holes: list[list[int]] = [[], [], []]
                for i, (x, y) in enumerate(self.holes):
                    holes[(a * x + b * y) % 3].append(i)
                out.append(tuple(mask_of(i) for i in holes))
        return out

    def position_class(self, occupied: int) -> tuple:
        """What no jump changes: per form, the parity differences of its three classes."""
        out = []
        for masks in self.classes:
            p0, p1, p2 = ((occupied & m).bit_count() & 1 for m in masks)
            out.append((p0 ^ p2, p1 ^ p2))
        return tuple(out)

    def _goal_classes(self) -> frozenset | None:
        """The position classes of the goal's positions (None: too many goals to list)."""
        if self.goal_mask is not None:
            return frozenset({self.position_class(self.goal_mask)})
        if self.goal.count == 1:
            return frozenset(self.position_class(1 << i) for i in range(len(self.holes)))
        return None

    # -- search ----------------------------------------------------------------------
    def is_goal(self, state) -> bool:
        occupied = 0
        for mask in state:
            occupied |= mask
        if occupied.bit_count() != self.goal.count:
            return False
        if self.goal_mask is not None and occupied != self.goal_mask:
            return False
        return all(state[k] >> i & 1 for k, i in self.goal_named)

    def _jump(self, state, k: int, a: int, b: int, c: int) -> tuple:
        new = list(state)
        new[k] ^= (1 << a) | (1 << c)
        for j, mask in enumerate(new):
            if mask >> b & 1:
                new[j] = mask ^ (1 << b)
                break
        return tuple(new)

    def _jumps_from(self, state, occupied: int, k: int, a: int) -> Iterator[tuple[int, int]]:
        banned = self.banned[k]
        for b, c in self.by_from[a]:
            if occupied >> b & 1 and not occupied >> c & 1 and not banned >> c & 1:
                yield b, c

    def successors(self, state, metric: str = "steps") -> Iterator[tuple[Move, tuple]]:
        """``steps``: every jump.  ``moves``: every chain of one or more jumps of one peg
        (each prefix of a chain is a move of its own)."""
        occupied = 0
        for mask in state:
            occupied |= mask
        for k, mask in enumerate(state):
            for a in bits(mask):
                if metric == "steps":
                    for b, c in self._jumps_from(state, occupied, k, a):
                        yield Move(self.kinds[k], (a, c)), self._jump(state, k, a, b, c)
                else:
                    yield from self._chains(state, k, a)

    def _chains(self, state, k: int, a: int) -> Iterator[tuple[Move, tuple]]:
        todo = [(state, (a,))]
        while todo:
            now, path = todo.pop()
            occupied = 0
            for mask in now:
                occupied |= mask
            for b, c in self._jumps_from(now, occupied, k, path[-1]):
                nxt, longer = self._jump(now, k, path[-1], b, c), path + (c,)
                yield Move(self.kinds[k], longer, len(longer) - 1), nxt
                todo.append((nxt, longer))

    def continuation(self, move: Move, metric: str):
        """Under ``moves``, a jump from the hole where the last move ended continues it."""
        return (move.data[0], move.data[-1]) if metric == "moves" else None

    def _dead(self, state, occupied: int) -> bool:
        """No goal can follow: too few pegs, a named peg the goal needs is gone, or the
        position is in a class no goal position is in (:meth:`position_class`)."""
        return (occupied.bit_count() < self.goal.count or any(not state[k] for k, _ in self.goal_named)
                or (self.goal_classes is not None and self.position_class(occupied) not in self.goal_classes))

    def heuristic(self, state, metric: str = "steps") -> int:
        """``steps``: pegs to remove (exact whenever the goal is reachable).  ``moves``:
        full Merson regions the goal cannot keep full (each needs a move of its own),
        and at least 1 off the goal.  A dead state (:meth:`_dead`) gets more than any
        plan's length: the planner then reports ``unsolvable`` without a SAT call."""
        occupied = 0
        for mask in state:
            occupied |= mask
        if self._dead(state, occupied):
            return self.pegs + 1
        if metric == "steps":
            return occupied.bit_count() - self.goal.count
        full = [r for r in self.regions if occupied & r == r]
        if self.goal_mask is not None:
            may_stay = sum(1 for r in full if r & self.goal_mask == r)
        else:
            may_stay, room = 0, self.goal.count
            for size in sorted(r.bit_count() for r in full):
                if size > room:
                    break
                may_stay, room = may_stay + 1, room - size
        return max(len(full) - may_stay, 0 if self.is_goal(state) else 1)

    def longest_plan(self, metric: str) -> int | None:
        """Every move removes at least one peg."""
        return max(0, self.pegs - self.goal.count)

    # -- plans -----------------------------------------------------------------------
    def render_steps(self, moves: Sequence[Move]) -> list[str]:
        return [f"{name(self.holes[a])}-{name(self.holes[c])}" for move in moves
                for a, c in zip(move.data, move.data[1:])]

    def _parse_step(self, step: str) -> tuple[Cell, Cell]:
        src, sep, dst = step.partition("-")
        if not sep:
            raise PuzzleError("a jump is written from-to, like b4-d4")
        return parse_cell(src), parse_cell(dst)

    def replay(self, steps: Sequence[str]) -> "PegReplay":
        """Apply jumps by the rules, pegs labelled by their letters; IllegalStep on a bad one."""
        at = {c: lb for c, lb in self.spec.pegs}
        history = [dict(at)]
        lines = DIRECTIONS[self.spec.directions]
        for i, step in enumerate(steps, 1):
            try:
                a, c = self._parse_step(step)
            except PuzzleError as err:
                raise IllegalStep(i, step, err.problem) from None
            d = (c[0] - a[0], c[1] - a[1])
            if a not in at:
                raise IllegalStep(i, step, f"no peg on {name(a)}")
            if c not in self.index:
                raise IllegalStep(i, step, f"{name(c)} is not a hole of the board")
            if d[0] % 2 or d[1] % 2 or (d[0] // 2, d[1] // 2) not in lines:
                raise IllegalStep(i, step, f"not a jump over one hole along the board's {self.spec.directions} lines")
            b = (a[0] + d[0] // 2, a[1] + d[1] // 2)
            if b not in at:
                raise IllegalStep(i, step, f"no peg to jump over on {name(b)}")
            if c in at:
                raise IllegalStep(i, step, f"{name(c)} is occupied")
            if c in self.avoid.get(at[a], ()) or c in self.avoid.get("*", ()):
                raise IllegalStep(i, step, f"peg {at[a]} may not land on {name(c)}")
            del at[b]
            at[c] = at.pop(a)
            history.append(dict(at))
        return PegReplay(self, history)

    def moves_of(self, steps: Sequence[str], metric: str) -> list[tuple[str, tuple[str, ...]]]:
        """Each jump is a move of the peg on its first hole (``?`` if none: :meth:`replay`
        rejects such a step); under ``moves`` a jump from the hole the previous jump
        landed on belongs to the previous move (it is the same peg)."""
        at = {c: lb for c, lb in self.spec.pegs}
        out: list[tuple[str, tuple[str, ...]]] = []
        landed = None
        for step in steps:
            try:
                a, c = self._parse_step(step)
            except PuzzleError:
                out.append(("?", (step,)))
                landed = None
                continue
            if (c[0] - a[0]) % 2 == 0 and (c[1] - a[1]) % 2 == 0:
                at.pop(((a[0] + c[0]) // 2, (a[1] + c[1]) // 2), None)
            label = at.pop(a, "?")
            at[c] = label
            if metric == "moves" and out and landed == a:
                out[-1] = (out[-1][0], out[-1][1] + (step,))
            else:
                out.append((label, (step,)))
            landed = c
        return out

    # -- pieces and side conditions -----------------------------------------------------
    def board(self) -> list[str]:
        return self.spec.rows()

    def piece_names(self) -> list[str]:
        return [lb for lb in self.kinds if lb != UNNAMED]

    def mover_of(self, piece: str) -> str:
        if piece == UNNAMED and piece in self.kind_of:
            raise PuzzleError(f"{UNNAMED!r} stands for every unnamed peg; give a peg a capital letter "
                              "to count its moves")
        if piece not in self.kind_of:
            named = self.piece_names()
            raise PuzzleError(f"no peg {piece!r}; " + ("named pegs are " + ", ".join(named) if named
                                                       else "name pegs with capital letters in the picture"))
        return piece

    def end_places(self, piece: str, cells) -> tuple[str, frozenset]:
        """For ``A.ends=cells``: peg A is still on the board at the end, on one of ``cells``."""
        letter = self.mover_of(piece)
        ok = frozenset(c for c in cells if c in self.index and not self.banned[self.kind_of[letter]] >> self.index[c] & 1)
        if not ok:
            raise PuzzleError(f"peg {piece!r} cannot end on the holes given")
        return letter, ok

    def place_of(self, state, mover: str):
        mask = state[self.kind_of[mover]]
        return self.holes[mask.bit_length() - 1] if mask else None

    def piece_cells(self, entry, piece: str) -> frozenset:
        """The hole peg ``piece`` stands on; a jumped peg stands on :data:`GONE`, no hole,
        so that an end condition on it fails (it did not end anywhere)."""
        return frozenset(c for c, lb in entry.items() if lb == piece) or frozenset({GONE})

    def position(self, entry) -> dict:
        return {name(c): lb for c, lb in entry.items()}


@dataclass
class PegReplay:
    puzzle: PegSolitaire
    history: list[dict[Cell, str]]

    @property
    def solved(self) -> bool:
        final, goal = self.history[-1], self.puzzle.goal
        return (len(final) == goal.count and (goal.cells is None or set(final) == goal.cells)
                and all(final.get(c) == lb for lb, c in goal.named))

    def frames(self) -> list[list[str]]:
        return [self.puzzle.spec.rows(at) for at in self.history]


def build(spec: PegSpec, *, distinct: Sequence[str] = (), avoid: dict | None = None,
          margin: int = 2) -> PegSolitaire:
    """The rules of a parsed board (named pegs are distinct already; unnamed ones cannot be
    named by side conditions: :meth:`PegSolitaire.mover_of` says so)."""
    return PegSolitaire(spec, avoid)
