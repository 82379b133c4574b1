"""The contract of a puzzle family: what generic code (loading, encodings, planner,
search, validation, PDDL, animation, bench) may ask of a family, and nothing else.

It sits below the families: they import it, it imports none of them; the registry
(:mod:`puzzleplan.registry`) finds them.
A family is one folder ``puzzleplan/families/<name>/`` (or a package of its own, found
through the entry-point group ``puzzleplan.families``) whose ``__init__`` defines
``FAMILY``, a :class:`Family` record.  The record names its parts as
``"module:attribute"`` strings, relative to the family's package, so that listing the
families imports nothing heavy; :meth:`Family.part` imports a part when it is used.

Glossary
--------
rules     a class derived from :class:`Rules`: the puzzle's semantics, the reference
          every plan is replayed against (search runs on it, SAT is checked against it)
spec      what a file said (the family's own record), turned into rules by ``build``
format    a reader of one file type (:class:`Format`): text (+ level) -> :class:`Parsed`
mover     what side conditions count moves of (a piece kind, the player, a knight)
place     where a mover stands, as end conditions name it (an anchor, a cell, a square)
entry     one item of ``replay.history``: the labelled position after some steps
position  an entry as JSON-ready data (:meth:`Rules.position`); the animation draws it
"""
from __future__ import annotations

import abc
import importlib
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterator, Mapping, Protocol, Sequence

from .puzzle import EndsOn, Move, MoveCount, PuzzleError

# the parts a family may declare, and whether a family without them is incomplete
REQUIRED_PARTS = ("rules", "build", "generate")     # encoders, pddl and scene are optional


class Replay(Protocol):
    """What :meth:`Rules.replay` returns."""

    history: list             # entries: the labelled position after 0, 1, ... steps

    @property
    def solved(self) -> bool: ...       # the goal holds after the last step (side conditions aside)
    def frames(self) -> list[list[str]]: ...   # each entry as text rows (``show``)


class Rules(abc.ABC):
    """The rules of one instance.  Abstract methods are required (six: ``is_goal``,
    ``successors``, ``render_steps``, ``replay``, ``moves_of``, ``board``); the others have
    the defaults written here, once.  Side conditions are an optional part
    (:class:`SideConditions`).

    States are immutable and hashable.  Steps are short strings (the family's unit
    moves); ``Move`` objects are what ``successors`` yields in a metric and
    ``render_steps`` turns back into steps.
    """

    metrics: tuple[str, ...] = ()       # the first is the default
    initial: Hashable = None

    # -- search --------------------------------------------------------------------
    @abc.abstractmethod
    def is_goal(self, state) -> bool: ...

    @abc.abstractmethod
    def successors(self, state, metric: str) -> Iterator[tuple[Move, Hashable]]:
        """Every (move, next state) in ``metric``; a move never splits one of the
        metric's moves in two (see :meth:`continuation`)."""

    def heuristic(self, state, metric: str) -> int:
        """An admissible lower bound on the moves left (0 knows nothing)."""
        return 0

    def mover_bounds(self, state, metric: str, i: int) -> dict | None:
        """Per mover, a lower bound on the moves it makes on every way from ``state`` to a state
        where goal alternative ``i``'s placement holds, or None: none known (the default).
        Different movers' moves are different moves, so the bounds add up; with move counts
        (:class:`~puzzleplan.constraints.Counters`) each mover needs the larger of its bound and
        the moves its counts still ask for, and those add up too."""
        return None

    def move_cost(self, move: Move, metric: str) -> int:
        """What ``move`` adds to a plan's length in ``metric`` (0 or more); 1 unless the
        metric weighs moves (PDDL action costs)."""
        return 1

    def unit_costs(self, metric: str) -> bool:
        """Whether every move costs 1 in ``metric`` (breadth-first search is optimal then;
        otherwise the searches go by cost)."""
        return True

    def longest_plan(self, metric: str) -> int | None:
        """An upper bound on the length of every plan in ``metric`` (a plan that removes a
        piece per move cannot be longer than the pieces), or None: no bound known.  The
        planner reports ``unsolvable`` once it has refuted this horizon."""
        return None

    def state_bound(self) -> int | None:
        """An upper bound on the number of states the rules can reach (the ways to place the
        pieces), or None: no bound known.  A shortest plan never passes a state twice, so under
        a metric where every move costs 1 none is longer than this less one: the planner's
        deepening stops there with ``unsolvable`` rather than marching on to ``--max-horizon``."""
        return None

    def use_patterns(self, sizes: tuple[int, ...], metric: str) -> None:
        """Part the heuristic's pattern databases into patterns of ``sizes`` pieces
        (``--patterns``); PuzzleError in one line where the rules have none or the sizes do not
        part them (the default: none)."""
        raise PuzzleError("--patterns: no pattern databases for this kind of puzzle")

    def walk_metric(self, metric: str) -> str:
        """A metric whose moves, one at a time, reach every state ``metric``'s moves reach (and
        only those): what an enumeration of the states and a first plan's greedy search walk
        when ``metric``'s own successors are many (moves made together).  ``metric`` itself by
        default."""
        return metric

    def continuation(self, move: Move, metric: str):
        """``(start, end)`` marks of a move that a following move of the same mover may
        continue as one move of the metric (sliding runs), or None: no merging."""
        return None

    def continues_across_movers(self, metric: str) -> bool:
        """Whether, under move counts, the last move of every mover must be remembered (not
        only a counted mover's) so that no move of ``metric`` is ever split in two (sliding
        ``moves``); False by default."""
        return False

    # -- plans ---------------------------------------------------------------------
    @abc.abstractmethod
    def render_steps(self, moves: Sequence[Move]) -> list[str]: ...

    @abc.abstractmethod
    def replay(self, steps: Sequence[str]) -> Replay:
        """Replay by the rules; raise :class:`~puzzleplan.puzzle.IllegalStep` on a bad step."""

    @abc.abstractmethod
    def moves_of(self, steps: Sequence[str], metric: str) -> list[tuple[str, tuple[str, ...]]]:
        """The plan's moves in ``metric``: (piece label, its steps) each -- the one
        definition of a move that search, SAT and validation follow."""

    def count(self, steps: Sequence[str], metric: str) -> int:
        return len(self.moves_of(steps, metric))

    def plan_cost(self, steps: Sequence[str]) -> tuple[int, bool]:
        """A plan's cost as a PDDL planner states it (``; cost = N``), and whether every
        action costs 1: its steps, unless the family's actions weigh otherwise."""
        return len(steps), True

    @abc.abstractmethod
    def board(self) -> list[str]:
        """The initial position as text rows."""

    def drawn(self, rows: list[str]) -> list[str]:
        """Text rows (:meth:`board`, a frame of a replay) as ``show`` prints them for a person: with
        what the rows alone do not say marked (a Rush Hour card's exit).  The rows themselves by
        default."""
        return rows

    # -- goals (alternatives that count moves need :class:`SideConditions`) ---------------
    def goal_alternatives(self) -> list[tuple[MoveCount, ...]]:
        """Goal alternatives, each with the move counts it requires; one by default."""
        return [()]

    def is_goal_alt(self, state, i: int) -> bool:
        """Whether alternative ``i``'s placement holds (without its counts)."""
        return self.is_goal(state)

    def placed(self, replay, i: int) -> bool:
        """Whether alternative ``i``'s placement holds at the end of a replay."""
        return replay.solved

    def proof_scope(self) -> str | None:
        """What a proof covers when less than the puzzle (e.g. a cut grid)."""
        return None

    # -- drawing ---------------------------------------------------------------------
    # characters of ``board()``/``frames()`` rows drawn their own way in pictures
    # (:mod:`puzzleplan.draw`): character -> (colour, text shown)
    symbols: dict = {}

    def position(self, entry) -> dict:
        """A replay entry as canonical JSON-ready data (animation, browser test)."""
        raise PuzzleError(f"{type(self).__name__} cannot draw its positions")

    def frame_per_step(self, metric: str) -> bool:
        """Whether an animation in ``metric`` shows every step (Sokoban's walks between
        pushes) rather than one frame per move; False by default."""
        return False



class SideConditions(abc.ABC):
    """The optional part of a family's rules that side conditions need (``--moves``,
    ``--frozen``, ``--avoid``, ``--ends``, and goals that count moves): a rules class opts in
    by deriving from it too (``class MyRules(SideConditions, Rules)``).  A family without it
    refuses side conditions with one line."""

    #: why this family takes no ``--ends`` at all (one line), checked before the rules are
    #: built; None: it takes them (:meth:`end_places` may still refuse a particular one)
    ends_refusal: str | None = None
    # whether the rules read ``*`` in a piece's name themselves (patterns: PDDL actions); if not,
    # a move count on ``*`` is one count per piece (:func:`puzzleplan.formats.load.every_piece`)
    matches_patterns: bool = False

    @abc.abstractmethod
    def mover_of(self, piece: str) -> Hashable:
        """The mover a piece label belongs to; PuzzleError naming the piece if none."""

    @abc.abstractmethod
    def on_board(self, cell) -> bool: ...

    @abc.abstractmethod
    def end_places(self, piece: str, cells) -> tuple[Hashable, frozenset]:
        """(mover, places it may finish on) for 'piece ends within cells'."""

    @abc.abstractmethod
    def place_of(self, state, mover) -> Any:
        """Where ``mover`` stands in ``state`` (a place as :meth:`end_places` names it)."""

    @abc.abstractmethod
    def piece_cells(self, entry, piece: str) -> frozenset:
        """The cells ``piece`` covers in a replay entry (checks end conditions); empty for a
        piece that is no longer on the board (it ends within no cells)."""

    def ends_refused(self, metric: str) -> str | None:
        """Why end conditions cannot be met in ``metric`` (one line), or None: they can."""
        return None

    def counts_refused(self, metric: str) -> str | None:
        """Why move counts (frozen pieces included) cannot be taken in ``metric`` (one line), or
        None: they can."""
        return None


def check_side_conditions(cls: type, family_name: str) -> None:
    """PuzzleError unless the rules class ``cls`` takes side conditions (:class:`SideConditions`)."""
    if not issubclass(cls, SideConditions):
        raise PuzzleError(f"the {family_name} family takes no side conditions (--moves, --frozen, --avoid, --ends)")


@dataclass(frozen=True)
class Parsed:
    """What a format reader returns."""

    spec: Any
    stated_optimum: int | None = None   # an optimum the file states (the format says in which metric)
    title: str = ""


@dataclass(frozen=True)
class Format:
    """A file type of a family.

    ``read``: ``"module:function"``, ``function(text, level) -> Parsed``;
    ``levels``: for collections, ``"module:function"``, ``function(text) -> int``;
    ``inline_constraints``: the file may hold ``constraints:`` lines (A.frozen...);
    ``options``: keyword options the reader takes (``("domain",)``: the CLI's
    ``--domain``); a reader with options is called ``read(text, level, path=FILE, **options)``;
    ``places``: ``"module:function"``, ``function(text) -> places``, the family's own
    reading of what follows ``avoid=`` / ``ends=`` (default: cell names, ``c3,d4``);
    ``companions``: names (globs) of files of this type that go with a puzzle and are
    not one (a PDDL domain): a folder given to ``bench`` leaves them out.
    """

    name: str
    extensions: tuple[str, ...]
    read: str
    levels: str | None = None
    inline_constraints: bool = False
    options: tuple[str, ...] = ()
    places: str | None = None
    companions: tuple[str, ...] = ()

    @property
    def collection(self) -> bool:
        return self.levels is not None


@dataclass(frozen=True)
class Family:
    """A puzzle family.  Parts are ``"module:attribute"`` strings inside ``package``.

    rules      the :class:`Rules` subclass
    build      ``build(spec, *, distinct=(), avoid=None, margin=2) -> Rules``: the rules
               of a parsed spec with the pieces the user named kept distinct and cells to
               avoid (``margin``: free cells around an open board, where that means something)
    generate   ``generate(rng, size="small") -> Rules``: a random small solvable-or-not
               instance, for the conformance suite (never invalid)
    encoders   metric -> the SAT encoder class (:class:`puzzleplan.encodings.base.Encoder`)
    pddl       the PDDL part (:class:`puzzleplan.pddl.task.FamilyPDDL`), or None
    scene      ``board(rules, replay, title) -> Scene``, or None: no animation
    series     ``{name: Series}`` (:class:`puzzleplan.series.Series`): instance series along
               a size parameter, for ``puzzleplan generate``; or None
    parallel   metric -> an encoder of parallel steps (several moves a step, linearised by the
               encoder's decode), for first plans (:mod:`puzzleplan.planner.first`); optional
    """

    name: str
    summary: str
    package: str
    metrics: tuple[str, ...]
    formats: tuple[Format, ...]
    rules: str
    build: str
    generate: str
    encoders: Mapping[str, str] = field(default_factory=dict)
    pddl: str | None = None
    scene: str | None = None
    series: str | None = None
    parallel: Mapping[str, str] = field(default_factory=dict)
    default_solver: str | None = None      # python-sat solver of ``pysat`` when none is named
    sources: str = ""                      # where the rules come from (the families table of the docs)

    def part(self, what: str) -> Any:
        """Import and return a declared part (``"rules"``, ``"pddl"``...) or an encoder
        (``"encoders.steps"``); PuzzleError if the family has no such part."""
        if what.startswith("encoders."):
            ref = self.encoders.get(what.partition(".")[2])
        else:
            ref = getattr(self, what, None)
        if not ref:
            raise PuzzleError(f"the {self.name} family has no {what}")
        return self.ref(ref, f"{self.name} family's {what}")

    def ref(self, ref: str, what: str = "") -> Any:
        """A ``"module:attribute"`` string of this family, imported."""
        return resolve(self.package, ref, what or f"{self.name} family's {ref}")

    def extensions(self) -> list[str]:
        return [ext for fmt in self.formats for ext in fmt.extensions]

    def features(self) -> dict[str, bool]:
        return {"sat": bool(self.encoders), "search": True, "pddl": bool(self.pddl), "animation": bool(self.scene)}


@dataclass(frozen=True)
class Conditions:
    """The side conditions a problem adds to its rules: move counts (``A.moves>=3``,
    ``A.frozen``: at most 0) and end conditions (``A.ends=c3,d4``).  Cells to avoid are not
    here: the family's ``build`` takes them into the rules.  Goals that count moves are the
    rules' own (:meth:`Rules.goal_alternatives`)."""

    counts: tuple[MoveCount, ...] = ()
    ends: tuple[EndsOn, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.counts or self.ends)


@dataclass(frozen=True, eq=False)
class Problem:
    """What every method works on: the rules of one instance, the family they belong to, and
    the side conditions asked on top (:class:`Conditions`).

    Search, the SAT encoders, the planner, validation, animation and the PDDL export take a
    problem; the family travels with it (its encoders, PDDL part, scene).  Search runs on its
    state space (:func:`puzzleplan.constraints.state_space`): the rules themselves, or the
    rules with move counters in the state when the problem counts moves or asks where pieces
    end (:class:`~puzzleplan.constraints.Counters`).
    """

    rules: Rules
    family: Family
    conditions: Conditions = Conditions()

    @property
    def name(self) -> str:
        """The family's name."""
        return self.family.name

    @property
    def counts(self) -> tuple[MoveCount, ...]:
        return self.conditions.counts

    @property
    def ends(self) -> tuple[EndsOn, ...]:
        return self.conditions.ends

    def alternatives(self) -> list[tuple[MoveCount, ...]]:
        """The goal alternatives, each with the move counts it asks: the rules' own and the
        problem's counts, which apply to every alternative."""
        return [tuple(alt) + self.counts for alt in self.rules.goal_alternatives()]

    @property
    def counted(self) -> bool:
        """Whether a plan's moves must be counted or its end checked: a search needs
        :class:`~puzzleplan.constraints.Counters` in its state."""
        return bool(self.ends) or any(self.alternatives())

    def with_conditions(self, counts: Sequence[MoveCount] = (), ends: Sequence[EndsOn] = ()) -> "Problem":
        """This problem with more side conditions."""
        return Problem(self.rules, self.family, Conditions(self.counts + tuple(counts), self.ends + tuple(ends)))


@dataclass
class Instance:
    """A puzzle as loaded (:func:`puzzleplan.load`): its :class:`Problem`, with what the file
    said."""

    path: str
    format: str
    problem: Problem
    spec: Any              # what the file said
    level: int | None
    stated_optimum: int | None = None   # an optimum the file itself states (its metric: see format)

    @property
    def rules(self) -> Rules:
        return self.problem.rules

    @property
    def family(self) -> Family:
        return self.problem.family

    @property
    def domain(self) -> Problem:
        """The problem, under the name earlier versions gave it (``inst.domain``)."""
        return self.problem


def resolve(package: str, ref: str, what: str) -> Any:
    """``"module:attr"`` inside ``package`` -> the object; PuzzleError naming what is missing."""
    module, _, attr = ref.partition(":")
    try:
        mod = importlib.import_module(f"{package}.{module}" if module else package)
    except ModuleNotFoundError as err:
        raise PuzzleError(f"{what}: no module {err.name!r} ({ref})") from None
    try:
        return getattr(mod, attr) if attr else mod
    except AttributeError:
        raise PuzzleError(f"{what}: {mod.__name__} has no {attr!r} ({ref})") from None


def missing_methods(cls) -> list[str]:
    """The required methods of :class:`Rules` a rules class does not define."""
    if not (isinstance(cls, type) and issubclass(cls, Rules)):
        return ["(not a subclass of puzzleplan.contract.Rules)"]
    return sorted(getattr(cls, "__abstractmethods__", ()))

