"""A grounded PDDL task (SAS+, :mod:`.ground`) as rules: search, validation and every
plan's replay run on it.

Representation
--------------
state    one value per SAS+ variable (:class:`~.ground.Grounded`): ``bytes`` when every
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

from ...puzzle import Contradiction, IllegalStep, Move, PuzzleError
from ...contract import Rules, SideConditions
from .ground import Grounded
from .counting import CountingBound
from .counts import count_invariants
from .dtg import INF, Distances
from .inverse import known
from .mutex import Mutexes, mutexes
from .names import action_parts, fact_parts
from .relaxed import DEAD_END, Relaxed
from .symmetry import Symmetry, symmetric_pairs

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


# what the strips family adds to a grounded task's search and SAT encoding (each can be
# switched off for measurements: ``rules.levers = frozenset(...)``):
#   bound      an admissible lower bound (:mod:`.relaxed`, :mod:`.counting`, :mod:`.dtg`): h^max,
#              the counting bound and the transition graphs' distances for A*, LM-cut too at the
#              start (the SAT deepening's first horizon); the distances also on the goal side of
#              the double-ended unrolling (``--bounds``: the start side's too), where a goal
#              variable's values that reach no goal value are false on every layer
#   mutex      2-literal invariants: h^2 mutex pairs and unreachable facts (:mod:`.mutex`)
#   inverse    no action followed straight by one that undoes it (:mod:`.inverse`)
#   shortcut   no action followed straight by one that a single action does together with it
#              (:mod:`.shortcut`: a slide then another along the same line).  Off by default:
#              on Rush Hour in slides it did not pay (benchmarks/pddl_levers.csv)
#   counts     sets of facts every reachable state holds exactly one of (:mod:`.counts`): "at
#              least one" on the goal side of the double-ended unrolling, sought only once a run
#              proves hard (Encoder.escalate, deepening.HARD_RUN conflicts): card 40 in steps
#              14.6 -> 9.2 s, in slides 5.6 -> 3.4 s; Ma's puzzle
#              10.5 -> 14.7 s; easy runs unchanged (benchmarks/pddl_levers.csv, git 68de85e).
#              Off by default since: with the tallies, the counts of one or two, Rush Hour's cars
#              as variables and the factored counters the sets save few conflicts, and their
#              search (up to its 5 s budget) cost more than it saved: the 19 slowest entries of
#              the round trip took 0.77x the CPU without it (geometric mean), the same conflicts
#              within 10% (pddl_sat_round_trip.csv, --levers=-counts, git e0b1619)
#   order      actions that commute kept in one order (:mod:`.order`), added once a run proves
#              hard (Encoder.escalate): card 40 in steps 6.3 -> 4.1 s, Ma's puzzle 12.9 -> 11.4 s,
#              card 40 in slides 2.2 -> 3.2 s, the 8-puzzle nothing to order
#              (benchmarks/pddl_levers.csv, git 8b92827); ranked by schema rather than by
#              action since: Pennant in slides 60.2 -> 45.8 s, the round trip's 16 slowest
#              0.92x (benchmarks/pddl_round_trip/order_ranks.csv)
#   tallies    groups of facts (a predicate, or a predicate with its first argument: a kind's
#              pieces) whose number no action changes (:mod:`.counting`), that number k > 1
#              stated on the goal side of the double-ended unrolling as "exactly k" (Ma's
#              puzzle's export: no plan in 60 s without, 8 s with; card 40 10-25% slower),
#              but for counts the one-hots or the kinds' counts say (encoding.tallies); a
#              predicate's whole count too where its facts are values of variables of more
#              than two (a Sokoban room's boxes: the crossover's k=8 room proved in 19-28 s
#              where 60 s gave no plan; benchmarks/pddl_levers.csv); a predicate's count of one
#              or two at every step, a Boolean's too (a sliding board's two empty cells: Pennant)
#   walk       under cost, a run of actions of cost 0 that follows one variable (a Sokoban
#              player's walk, :mod:`.free`) as one transition that reaches p's values
#              (CostEncoder.walk_step), not a layer per action: the 20 Microban levels in
#              pushes as PDDL from 10-104x the native file's time to 2.6-11x, Microban 16 from
#              no plan in 60 s to 34 s (pddl_sat_round_trip.csv, git 0df5ea1 against b8b68ef); a
#              round's literal per value stepped into, not per action: their median 6.35x -> 4.56x,
#              Microban 16 39 -> 24 s (4564711 against 1434b39)
#   symmetry   interchangeable objects (swapping two maps the grounded task onto itself: gripper's
#              balls) touched in one order on the start side (:mod:`.symmetry`)
#   factor     actions that are a product (a move times its counter's step, as our exports
#              count moves) said by a literal for the move and one for the counter's step
#              (:mod:`.factor`): the knights seed's export (2,722 actions, 272 jumps) from
#              85k variables and 547k clauses to 12k and 71k at its optimum
LEVERS = ("bound", "mutex", "inverse", "shortcut", "counts", "order", "tallies", "walk", "symmetry", "factor")
DEFAULT_LEVERS = ("bound", "mutex", "inverse", "tallies", "order", "walk", "symmetry", "factor")
LMCUT_WORK = 2_500_000     # LM-cut's budget at the start, in units of work (about 5 s of CPU here)


def parse_levers(text: str) -> tuple[str, ...]:
    """``--levers``: names (``bound,mutex``), changes to the defaults (``+shortcut,-mutex``),
    ``none`` or ``default``."""
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if words in (["none"], ["default"]):
        return () if words == ["none"] else DEFAULT_LEVERS
    changes = [w[0] in "+-" for w in words]
    if not words or (any(changes) and not all(changes)):
        raise PuzzleError(f"--levers {text}: give names ({', '.join(LEVERS)}), or changes to the defaults "
                          "(+shortcut,-mutex), or none")
    for w in words:
        if w.lstrip("+-") not in LEVERS:
            raise PuzzleError(f"--levers: no lever {w.lstrip('+-')!r}; the levers: {', '.join(LEVERS)} "
                              f"(default: {','.join(DEFAULT_LEVERS)})")
    if not any(changes):
        return tuple(dict.fromkeys(words))
    out = list(DEFAULT_LEVERS)
    for w in words:
        if w[0] == "+" and w[1:] not in out:
            out.append(w[1:])
        elif w[0] == "-" and w[1:] in out:
            out.remove(w[1:])
    return tuple(out)


class StripsTask(SideConditions, Rules):
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

    def relaxed(self, metric: str) -> "Relaxed":
        """The delete relaxation in ``metric``, made once."""
        key = "cost" if metric == "cost" else "steps"
        cache = self.__dict__.setdefault("_relaxed", {})
        if key not in cache:
            cache[key] = Relaxed(self, key)
        return cache[key]

    def mutexes(self) -> "Mutexes | None":
        """The h^2 mutexes (:mod:`.mutex`), computed once; None if over its budget."""
        if "_mutexes" not in self.__dict__:
            self._mutexes = mutexes(self)
        return self._mutexes

    def symmetry(self) -> "Symmetry | None":
        """The interchangeable objects (:mod:`.symmetry`), found once; None where an action name
        stands for several actions."""
        if "_symmetry" not in self.__dict__:
            self._symmetry = symmetric_pairs(self.task.values, self.ops, self.initial, self.task.alternatives())
        return self._symmetry

    def known_ops(self) -> list:
        """The operators with the preconditions reachable states imply (:func:`.inverse.known`),
        made once (with the mutexes and without: the levers may change between runs)."""
        cache = self.__dict__.setdefault("_known", {})
        use = "mutex" in self.levers
        if use not in cache:
            cache[use] = known(self.ops, self.task.values, self.mutexes() if use else None)
        return cache[use]

    def counts(self) -> list:
        """The counting invariants (:mod:`.counts`), sought once (with the mutexes and without)."""
        cache = self.__dict__.setdefault("_counts", {})
        use = "mutex" in self.levers
        if use not in cache:
            cache[use] = count_invariants(self, self.known_ops(), self.mutexes() if use else None)
        return cache[use]

    def counting(self, metric: str = "steps") -> CountingBound:
        """The counting bound (:mod:`.counting`) in the metric's costs, made once."""
        cache = self.__dict__.setdefault("_counting", {})
        key = (metric, "mutex" in self.levers)
        if key not in cache:
            costs = [op.cost if metric == "cost" else 1 for op in self.ops]
            cache[key] = CountingBound(self.task.values, self.known_ops(), costs, self.task.alternatives(),
                                        self.initial)
        return cache[key]

    def distances(self, metric: str = "steps") -> "Distances":
        """The transition graphs' distances (:mod:`.dtg`) in the metric's costs, made once: over
        the operators with what reachable states imply of them (:meth:`known_ops`), those that
        would make an avoided fact true left out."""
        cache = self.__dict__.setdefault("_distances", {})
        key = (metric == "cost", "mutex" in self.levers)
        if key not in cache:
            avoided = set(self.avoided)
            ops, costs = [], []
            for op, own in zip(self.known_ops(), self.ops):
                if not avoided.intersection(op.eff):
                    ops.append(op)
                    costs.append(own.cost if metric == "cost" else 1)
            cache[key] = Distances(self.task.values, ops, costs, self.task.alternatives(), self.initial)
        return cache[key]

    def heuristic(self, state, metric: str = "steps") -> int:
        """h^max, the counting bound (:mod:`.counting`) and the transition graphs' distances
        (:mod:`.dtg`; all three consistent: A* never reopens a state), and at the start LM-cut when it is
        more (computed once, within :data:`LMCUT_WORK`: the
        SAT deepening's first horizon; A* pops the start first, so it needs no consistency
        there)."""
        if "bound" not in self.levers:
            return 0
        relaxed = self.relaxed(metric)
        h = relaxed.hmax(state)
        if h < DEAD_END:
            apart = self.distances(metric)(state)
            h = DEAD_END if apart == INF else max(h, self.counting(metric)(state), apart)
        if state == self.initial and h < DEAD_END:
            h = max(h, self.lmcut_at_start(metric))
        return h

    def lmcut_at_start(self, metric: str = "steps") -> int:
        """LM-cut at the start, computed once (within :data:`LMCUT_WORK` units of work)."""
        cache = self.__dict__.setdefault("_start_lmcut", {})
        if metric not in cache:
            cache[metric] = self.relaxed(metric).lmcut(self.initial, LMCUT_WORK)
        return cache[metric]

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
