"""A grounded PDDL task (SAS+, :mod:`puzzleplan.strips.sas`) as rules: search, validation and every
plan's replay run on it.

Representation
--------------
state    one value per SAS+ variable (:class:`~puzzleplan.strips.sas.Grounded`): ``bytes`` when every
         variable has at most 256 values (8 times smaller than a tuple: a large task's
         states are long), else a ``tuple``
step     a ground action as a plan file writes it: ``(move player-01 pos-1-1 pos-1-2 dir-right)``
move     ``Move(mover, operator index)``; one move per action, in every metric
metric   ``steps``: actions; ``cost``: the sum of the actions' costs (``:action-costs``;
         a task without costs counts 1 per action, as PDDL does).  The default is
         ``steps``, as for every family (the first metric): ask ``-m cost`` for costs

What the contract's piece-oriented words mean here (a PDDL task has no pieces on cells):

pattern  what side conditions name in place of a piece: an action pattern, ``push-*``
         (every action of a schema matching the glob) or ``move(?, pos-3-2, *)`` (its
         arguments too; ``?`` and ``*`` match any argument, other globs one argument)
mover    the pattern an action counts for: the one named pattern it matches (two
         named patterns matching one action are refused: count their union as
         ``P+Q`` with patterns that do not overlap), else its schema name.  So
         ``piece_names()`` are the schema names, ``--moves 'push-*>=3'`` counts the
         actions matching ``push-*``, ``--frozen move`` forbids the schema ``move``
avoid    ``--avoid '*:at(box1, pos-2-3)'``: facts (patterns, as for actions) that never
         hold, in no state of the plan, the first included
cells    none: ``--ends`` is refused (say where things end in the goal)
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from ...contract import Rules, SideConditions
from ...puzzle import Contradiction, IllegalStep, Move, PuzzleError
from ...strips.analyses import Analyses
from ...strips.analyses.dtg import INF
from ...strips.analyses.relaxed import DEAD_END
from ...strips.encoding.levers import DEFAULT_LEVERS
from ...strips.names import action_parts, fact_parts
from ...strips.sas import Grounded

NAME = re.compile(r"^\s*([^\s(),]+)\s*(?:\(([^()]*)\))?\s*$")


@dataclass(frozen=True)
class Pattern:
    """``name`` or ``name(arg, ...)``, globs; ``args`` None: any arguments."""

    text: str
    name: str
    args: tuple[str, ...] | None

    @classmethod
    def parse(cls, text: str, what: str = "action") -> "Pattern":
        found = NAME.match(text.lower())
        if not found:
            raise PuzzleError(f"{text!r} is not an {what} pattern like push-* or move(?, pos-3-2, ?)")
        name, args = found.groups()
        args = None if args is None else tuple(a.strip() for a in args.split(",")) if args.strip() else ()
        if args is not None and not all(args):
            raise PuzzleError(f"{text!r}: an empty argument (write ? for any)")
        return cls(text, name, args)

    def matches(self, name: str, args: Sequence[str]) -> bool:
        if not fnmatch.fnmatchcase(name, self.name):
            return False
        if self.args is None:
            return True
        if self.args == ("*",):
            return True
        return len(args) == len(self.args) and all(p in ("?", "*") or fnmatch.fnmatchcase(a, p)
                                                   for a, p in zip(args, self.args))


def step_key(step: str) -> str:
    """``(Move A  B)`` -> ``move a b``."""
    text = step.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return " ".join(text.lower().split())


class StripsTask(SideConditions, Rules, Analyses):
    metrics = ("steps", "cost")
    ends_refusal = "a PDDL task has no cells for --ends: say where things must end in the problem's goal"
    matches_patterns = True     # push-*, move(?, pos-3-2, *): globs over actions (the module docstring)
    levers: frozenset = frozenset(DEFAULT_LEVERS)

    def __init__(self, task: Grounded, patterns: Sequence[str] = (), avoid: dict | None = None):
        self.task = task
        if task.levers is not None:
            self.levers = frozenset(task.levers)
        self.ops = task.operators
        self.pack = bytes if all(len(v) <= 256 for v in task.values) else tuple
        self.initial = self.pack(task.init)
        # a name may stand for several operators: the translator grounds an ``exists`` in a
        # precondition as a hidden parameter, so "(move a b)" may come once per witness
        self.by_name: dict[str, list[int]] = {}
        for i, op in enumerate(self.ops):
            self.by_name.setdefault(op.name.lower(), []).append(i)
        self.schemas = sorted({action_parts(op.name)[0] for op in self.ops})
        self.patterns = {p: Pattern.parse(p) for p in dict.fromkeys(p.lower() for p in patterns)}
        self.mover = [self._mover(i) for i in range(len(self.ops))]
        unmatched = sorted(set(self.patterns) - set(self.mover))
        if unmatched:       # a typo, or actions never applicable (the grounded task has none of them)
            raise PuzzleError(f"the action pattern {unmatched[0]!r} matches no action of the grounded task "
                              f"(its schemas: {', '.join(self.schemas)}; an action never applicable is not grounded)")
        self.avoided = self._avoided(avoid or {})
        bad = [(v, x) for v, x in self.avoided if self.initial[v] == x]
        if bad:
            raise Contradiction(f"the fact {self.fact(*bad[0])} holds at the start, and must be avoided")
        # successor generator: each operator filed under its precondition on the variable with
        # the most values (the most selective: the player's cell in Sokoban), the rest checked
        ranges = [len(v) for v in task.values]
        self.index: list[list[list[int]]] = [[[] for _ in range(r)] for r in ranges]
        self.always: list[int] = []
        self.rest: list[tuple] = []
        for i, op in enumerate(self.ops):
            if op.pre:
                v, x = max(op.pre, key=lambda p: ranges[p[0]])
                self.index[v][x].append(i)
                self.rest.append(tuple(p for p in op.pre if p != (v, x)))
            else:
                self.always.append(i)
                self.rest.append(())

    # -- patterns --------------------------------------------------------------------
    def _mover(self, i: int) -> str:
        name, args = action_parts(self.ops[i].name)
        hits = [p for p, pat in self.patterns.items() if pat.matches(name, args)]
        if len(hits) > 1:
            raise PuzzleError(f"the patterns {hits[0]!r} and {hits[1]!r} both match the action ({self.ops[i].name}): "
                              "counted patterns must not overlap")
        return hits[0] if hits else name

    def _avoided(self, avoid: dict) -> frozenset:
        out = set()
        for who, items in avoid.items():
            if who != "*":
                raise PuzzleError(f"--avoid {who}:...: a PDDL task has no pieces; write --avoid '*:FACT'")
            for item in items:
                pat = Pattern.parse(item, "fact")
                hits = {(v, x) for v, names in enumerate(self.task.values) for x, f in enumerate(names)
                        if (parts := fact_parts(f)) and pat.matches(*parts)}
                if not hits:
                    raise PuzzleError(f"--avoid {item!r}: no fact of the grounded task matches it (a fact "
                                      "that never changes is not a variable of the grounded task)")
                out |= hits
        return frozenset(out)

    def fact(self, v: int, x: int) -> str:
        return self.task.values[v][x]

    # -- search ----------------------------------------------------------------------
    def is_goal(self, state) -> bool:
        return any(all(state[v] == x for v, x in alt) for alt in self.task.alternatives())

    def goal_alternatives(self):
        return [()] * len(self.task.alternatives())

    def is_goal_alt(self, state, i: int) -> bool:
        return all(state[v] == x for v, x in self.task.alternatives()[i])

    def applicable(self, state) -> Iterator[int]:
        yield from self.always
        rest = self.rest
        for v, x in enumerate(state):
            for i in self.index[v][x]:
                for w, y in rest[i]:
                    if state[w] != y:
                        break
                else:
                    yield i

    def apply(self, state, i: int):
        new = bytearray(state) if self.pack is bytes else list(state)
        for v, x in self.ops[i].eff:
            new[v] = x
        return self.pack(new)

    def successors(self, state, metric: str = "steps") -> Iterator[tuple[Move, tuple]]:
        for i in self.applicable(state):
            nxt = self.apply(state, i)
            if self.avoided and any(nxt[v] == x for v, x in self.avoided):
                continue
            yield Move(self.mover[i], i), nxt

    def heuristic(self, state, metric: str = "steps") -> int:
        """h^max, the counting bound (:mod:`puzzleplan.strips.analyses.counting`) and the transition graphs' distances
        (:mod:`puzzleplan.strips.analyses.dtg`; all three consistent: A* never reopens a state), and at the start LM-cut when it is
        more (computed once, within the analyses' LM-cut budget: the
        SAT deepening's first horizon; A* pops the start first, so it needs no consistency
        there)."""
        if "bound" not in self.levers:
            return 0
        costed = metric == "cost"
        h = self.relaxed(costed).hmax(state)
        if h < DEAD_END:
            apart = self.distances(costed)(state)
            h = DEAD_END if apart == INF else max(h, self.counting(costed)(state), apart)
        if state == self.initial and h < DEAD_END:
            h = max(h, self.lmcut_at_start(costed))
        return h

    def move_cost(self, move: Move, metric: str) -> int:
        return self.ops[move.data].cost if metric == "cost" else 1

    def unit_costs(self, metric: str) -> bool:
        return metric != "cost" or all(op.cost == 1 for op in self.ops)

    # -- plans -----------------------------------------------------------------------
    def render_steps(self, moves: Sequence[Move]) -> list[str]:
        return [f"({self.ops[m.data].name})" for m in moves]

    def op_of(self, step: str, state=None) -> int | None:
        """The operator a plan's step names (None: none); of several with that name, the first
        applicable in ``state`` (when given), else the first."""
        found = self.by_name.get(step_key(step))
        if not found:
            return None
        if state is not None:
            for i in found:
                if all(state[v] == x for v, x in self.ops[i].pre):
                    return i
        return found[0]

    def replay(self, steps: Sequence[str]) -> "TaskReplay":
        state = self.initial
        history = [state]
        for n, step in enumerate(steps, 1):
            i = self.op_of(step, state)
            if i is None:
                raise IllegalStep(n, step, "no such action in the grounded task (unknown, or never applicable)")
            missing = [(v, x) for v, x in self.ops[i].pre if state[v] != x]
            if missing:
                raise IllegalStep(n, step, f"precondition {self.fact(*missing[0])} does not hold")
            state = self.apply(state, i)
            hit = [(v, x) for v, x in self.avoided if state[v] == x]
            if hit:
                raise IllegalStep(n, step, f"it makes {self.fact(*hit[0])} true, a fact to avoid")
            history.append(state)
        return TaskReplay(self, history)

    def moves_of(self, steps: Sequence[str], metric: str = "steps") -> list[tuple[str, tuple[str, ...]]]:
        out = []
        for step in steps:
            i = self.op_of(step)
            out.append((self.mover[i] if i is not None else "?", (step,)))
        return out

    def count(self, steps: Sequence[str], metric: str) -> int:
        if metric != "cost":
            return len(steps)
        return sum(self.ops[i].cost for i in map(self.op_of, steps) if i is not None)

    def plan_cost(self, steps: Sequence[str]) -> tuple[int, bool]:
        return self.count(steps, "cost"), self.unit_costs("cost")

    # -- what stands for pieces ---------------------------------------------------------
    def rows(self, state) -> list[str]:
        """The facts that hold in ``state`` (negated and "none of those" values left out)."""
        return [f for v, x in enumerate(state) if fact_parts(f := self.fact(v, x))]

    def board(self) -> list[str]:
        t = self.task
        return [f"; {t.domain} {t.name}: {t.size()}"] + self.rows(self.initial)

    def piece_names(self) -> list[str]:
        return list(self.schemas)

    def mover_of(self, piece: str) -> str:
        key = piece.lower()
        if key in self.patterns:
            return key
        if key in self.schemas and all(self.mover[i] == key for i, op in enumerate(self.ops)
                                       if action_parts(op.name)[0] == key):
            return key
        Pattern.parse(piece)
        raise PuzzleError(f"the action pattern {piece!r} was not given when the task was loaded "
                          "(give it with --moves or --frozen)" if key not in self.schemas else
                          f"the schema {piece!r} overlaps a counted pattern")

    def on_board(self, cell) -> bool:
        return False

    def end_places(self, piece: str, cells):
        raise PuzzleError(self.ends_refusal)

    def place_of(self, state, mover):
        return None

    def piece_cells(self, entry, piece: str) -> frozenset:
        return frozenset()


@dataclass
class TaskReplay:
    puzzle: StripsTask
    history: list[tuple]

    @property
    def solved(self) -> bool:
        return self.puzzle.is_goal(self.history[-1])

    def frames(self) -> list[list[str]]:
        return [self.puzzle.rows(state) for state in self.history]


def build(spec: Grounded, *, distinct: Sequence[str] = (), avoid: dict | None = None, margin: int = 2) -> StripsTask:
    """The rules of a grounded task; ``distinct``: the action patterns side conditions name."""
    return StripsTask(spec, distinct, avoid)


def fact_patterns(text: str) -> set[str]:
    """What ``--avoid '*:TEXT'`` names: one fact pattern, like ``at(box1, pos-2-3)`` or ``at(?, pos-2-3)``."""
    Pattern.parse(text, "fact")
    return {text.strip()}
