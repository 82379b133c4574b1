"""Grounding by Fast Downward's translator (the PyPI package ``fast-downward-translate``), run as
a child process, its ``output.sas`` read back (:func:`parse_sas`): for the tasks our own grounder
(:mod:`.grounder`) does not read, or when asked (:func:`.ground.translate`).

Why a child process for the translator: the translator is a program (its ``main`` reads the command
line and writes ``output.sas``), it may run long on a large task, and a child can be
killed at the time limit (:mod:`puzzleplan.limits`) or on Ctrl-C without leaving
anything half done in ours.  It runs with ``--keep-unimportant-variables
--keep-no-ops``: every reachable action stays, also those that do not matter for the
goal, so that any valid plan (an outside planner's, the user's) replays on the
grounded task and side conditions can name every action and fact.

Representation
--------------
variable   ``v``: an index; its values ``0 .. range-1`` are named facts
           (``Atom at(box1, pos-2-3)``, ``NegatedAtom ...``, ``<none of those>``)
state      ``tuple`` of one value per variable
operator   :class:`Operator`: a ground action, its name as a plan writes it
           (``push-to-goal player-01 pos-2-3 pos-3-3 pos-4-3 dir-right stone-01``),
           preconditions ``((v, x), ...)``, effects ``((v, x), ...)``, cost
"""
from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from .. import limits
from ..puzzle import PuzzleError
from .sas import Grounded, Operator

FLAGS = ("--keep-unimportant-variables", "--keep-no-ops")
# the translator run as ``python -m fast_downward.translate``, with room for deep formulas: its
# parser and normaliser recurse once per level of nesting (a goal nested 1,000 deep is valid
# PDDL); the stack to hold those frames is set before it starts (:func:`_roomy_stack`). Once
# ``output.sas`` is written and closed (the translator's ``with`` block), the child ends at once
# (``os._exit``) rather than free, object by object, what nobody reads again: 0.012-0.016 s of
# CPU of the 0.12-0.26 s that ground a small task (Rush Hour card 3 and 40, the 8-puzzle)
LAUNCH = ("import os, runpy, sys; sys.setrecursionlimit(100000); sys.argv[0] = 'translate'; "
          "runpy.run_module('fast_downward.translate', run_name='__main__', alter_sys=True); "
          "sys.stdout.flush(); os._exit(0)")
STACK_BYTES = 1 << 30


def _roomy_stack() -> None:
    """In the translator's process, before it starts: a main thread's stack of up to 1 GiB (only
    what a deep formula touches is ever used)."""
    import resource
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    size = STACK_BYTES if hard == resource.RLIM_INFINITY else min(STACK_BYTES, hard)
    resource.setrlimit(resource.RLIMIT_STACK, (size, hard))
    _die_with_parent()


def _die_with_parent() -> None:
    """Linux: the translator is killed when the process that started it ends, however it ends.
    It runs in a session of its own (so that Ctrl-C reaches only us), so a run killed outright
    (bench's hard kill, an outside timeout) left it grounding on, holding its memory, for minutes."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9)        # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass
INPUT_ERROR = 31
OUT_OF_MEMORY = 20      # the translator's own exit codes


def run_translator(domain_text: str, problem_text: str, where: str) -> Grounded:
    """Ground a task by the translator, given the texts of its domain and problem (written to
    a fresh folder for it: a file read from ``.gz`` grounds too); PuzzleError (naming
    ``where``) if the translator refuses it, :class:`limits.TimeUp` at the time limit (the
    translator is killed)."""
    with tempfile.TemporaryDirectory(prefix="puzzleplan-ground-") as tmp:
        sas = Path(tmp) / "output.sas"
        (Path(tmp) / "domain.pddl").write_text(domain_text)
        (Path(tmp) / "problem.pddl").write_text(problem_text)
        cmd = [sys.executable, "-c", LAUNCH, *FLAGS, "--sas-file", str(sas), "domain.pddl", "problem.pddl"]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True,       # Ctrl-C reaches us, and we end it
                                preexec_fn=_roomy_stack)
        try:
            left = limits.left()
            log, _ = proc.communicate(timeout=None if left is None else max(left, 0.01))
        except subprocess.TimeoutExpired:
            _kill(proc)
            raise limits.TimeUp() from None
        except BaseException:       # Ctrl-C (KeyboardInterrupt) or anything else: no translator left behind
            _kill(proc)
            raise
        seconds = time.perf_counter() - t0
        if proc.returncode == OUT_OF_MEMORY:       # within the memory limit it inherited: an answer, memout
            raise MemoryError("the translator ran out of memory while grounding")
        if proc.returncode != 0 or not sas.exists():
            raise PuzzleError(f"the translator could not ground it: {_reason(log, proc.returncode)}", where)
        return parse_sas(sas.read_text(), where, seconds)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


def _reason(log: str, code: int) -> str:
    """The translator's own last words, on one line."""
    if "No module named" in log and "fast_downward" in log:
        return "fast-downward-translate is not installed (pip install fast-downward-translate)"
    lines = [line.strip() for line in log.strip().splitlines() if line.strip()]
    useful = [line for line in lines if not line.startswith(("Traceback", "File ", "^"))]
    text = " ".join(useful[-2:] if code == INPUT_ERROR else useful[-1:]) or f"exit code {code}"
    return text.replace("\n", " ")[:300]


class _Lines:
    """``output.sas`` read line by line, each line checked against what the format puts there."""

    def __init__(self, text: str, where: str):
        self.lines, self.where = iter(text.splitlines()), where

    def next(self) -> str:
        return next(self.lines).strip()

    def ints(self) -> list[int]:
        return [int(x) for x in self.next().split()]

    def expect(self, word: str) -> None:
        got = self.next()
        if got != word:
            raise PuzzleError(f"the translator's output is not as expected ({word!r}, found {got[:40]!r})", self.where)

    def block(self, name: str, read):
        """``begin_NAME``, what ``read()`` reads, ``end_NAME``."""
        self.expect(f"begin_{name}")
        out = read()
        self.expect(f"end_{name}")
        return out


def parse_sas(text: str, where: str, seconds: float = 0.0) -> Grounded:
    """Fast Downward's ``output.sas`` (version 3) -> :class:`Grounded`; PuzzleError for what
    the encodings cannot say (derived variables or axioms, conditional effects)."""
    f = _Lines(text, where)
    if f.block("version", f.next) != "3":
        raise PuzzleError("the translator's output is not SAS version 3", where)
    costs = f.block("metric", f.next) == "1"
    values, derived = [], set()
    for i in range(int(f.next())):
        f.expect("begin_variable")
        f.next()
        if int(f.next()) != -1:
            derived.add(i)
        values.append(tuple(_fact(f.next()) for _ in range(int(f.next()))))
        f.expect("end_variable")
    mutexes = [f.block("mutex_group", lambda: tuple(tuple(f.ints()) for _ in range(int(f.next()))))
               for _ in range(int(f.next()))]
    init = f.block("state", lambda: tuple(int(f.next()) for _ in values))
    goal = f.block("goal", lambda: tuple(tuple(f.ints()) for _ in range(int(f.next()))))
    operators = [f.block("operator", lambda: _operator(f, costs)) for _ in range(int(f.next()))]
    rules = [f.block("rule", lambda: _rule(f)) for _ in range(int(f.next() or 0))]
    task = Grounded("", "", tuple(values), init, goal, tuple(operators), tuple(mutexes), costs, round(seconds, 4))
    return goal_alternatives(task, derived, rules, where) if derived or rules else task


def _operator(f: _Lines, costs: bool) -> Operator:
    name = f.next()
    pre = [tuple(f.ints()) for _ in range(int(f.next()))]
    eff = []
    for _ in range(int(f.next())):
        row = f.ints()
        if row[0] != 0:
            raise PuzzleError(f"unsupported conditional effect in action ({name}) (requirement "
                              ":conditional-effects, or a universal effect with a condition)", f.where)
        _, var, old, new = row
        if old != -1:
            pre.append((var, old))
        eff.append((var, new))
    cost = int(f.next())
    return Operator(name, tuple(sorted(set(pre))), tuple(eff), cost if costs else 1)


def _rule(f: _Lines) -> tuple:
    body = tuple(tuple(f.ints()) for _ in range(int(f.next())))
    var, _, new = f.ints()
    return body, (var, new)


MAX_ALTERNATIVES = 256


def goal_alternatives(task: Grounded, derived: set, rules: list, where: str) -> Grounded:
    """A task whose derived variables serve only its goal (what the translator makes of an
    ``exists`` or an ``or`` in the goal: one axiom per way to meet it, over ordinary facts) as
    a task with goal alternatives, its derived variables dropped; PuzzleError for derived
    predicates the encodings cannot say (in an action, or derived from derived ones)."""
    unsupported = ("unsupported derived predicates: the grounded task has derived variables {} (requirement "
                   ":derived-predicates, or quantified or disjunctive conditions compiled into axioms); only a "
                   "goal's are supported")
    for op in task.operators:
        if any(v in derived for v, _ in op.pre + op.eff):
            raise PuzzleError(unsupported.format(f"in action ({op.name})"), where)
    for body, _ in rules:
        if any(v in derived for v, _ in body):
            raise PuzzleError(unsupported.format("derived from derived ones"), where)
    plain = tuple((v, x) for v, x in task.goal if v not in derived)
    options = [[plain]]
    for d, x in ((v, x) for v, x in task.goal if v in derived):
        if x == task.init[d]:       # the default value: a goal that no axiom may fire (a negation)
            raise PuzzleError(unsupported.format("negated in the goal"), where)
        options.append([body for body, head in rules if head == (d, x)])
    alts = []
    for choice in itertools.product(*options):
        limits.checkpoint()
        pairs = dict()
        for v, x in (p for part in choice for p in part):
            if pairs.setdefault(v, x) != x:
                break           # two values of one variable: this way is impossible
        else:
            alt = tuple(sorted(pairs.items()))
            if alt not in alts:
                alts.append(alt)
        if len(alts) > MAX_ALTERNATIVES:
            raise PuzzleError(f"the goal has more than {MAX_ALTERNATIVES} alternatives (an exists or an or "
                              "over many objects): too many to encode", where)
    keep = [v for v in range(len(task.values)) if v not in derived]
    new = {v: i for i, v in enumerate(keep)}

    def remap(pairs):
        return tuple((new[v], x) for v, x in pairs)
    if not alts:        # no way at all: a goal no state meets (one variable with two values)
        two = [v for v in keep if len(task.values[v]) > 1]
        if not two:
            raise PuzzleError("the goal can never hold: no way to meet it is consistent", where)
        alts = [((two[0], 0), (two[0], 1))]
    ops = tuple(replace(op, pre=remap(op.pre), eff=remap(op.eff)) for op in task.operators)
    groups = tuple(g for g in (tuple(p for p in group if p[0] in new) for group in task.mutexes) if g)
    goals = tuple(remap(a) for a in alts)
    return replace(task, values=tuple(task.values[v] for v in keep), init=tuple(task.init[v] for v in keep),
                   goal=goals[0] if len(goals) == 1 else (), goals=goals if len(goals) > 1 else (),
                   operators=ops, mutexes=tuple(tuple((new[v], x) for v, x in g) for g in groups))


def _fact(text: str) -> str:
    """``Atom at(box1, pos-2-3)`` -> ``at(box1, pos-2-3)``; ``NegatedAtom p(a)`` -> ``not p(a)``."""
    if text.startswith("Atom "):
        return text[5:]
    if text.startswith("NegatedAtom "):
        return "not " + text[12:]
    return text
