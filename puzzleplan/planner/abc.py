"""ABC's model checkers as planners: ``abc:pdr``, ``abc:bmc3`` (and ``abc:pdr-back``,
``abc:bmc3-back``: backward, from the goal set to the start position).

The puzzle's transition system (:mod:`puzzleplan.encodings.transition`) is written as a
folded, zero-initialised AIGER file (:mod:`puzzleplan.encodings.aiger`) and Debian's
``berkeley-abc`` runs one engine on it, under the time limit (killed when it passes)
and Ctrl-C.  What comes back is checked here, never taken on trust:

- a counterexample (ABC's ``write_cex -a``) is simulated on our AIG, decoded by the
  encoder into a plan and replayed by the rules: ``feasible``;
- ``pdr``'s proof is the inductive invariant it writes (``pdr -d``), checked by our own
  SAT calls (:mod:`.invariant`).  With a move counter bounded by L-1 in the system, a
  checked invariant proves that no plan of fewer than L moves exists: the plan of L
  moves is ``optimal (invariant checked)``; without a bound, ``unsolvable``.  A proof
  whose invariant does not check is ``unverified``.

``pdr`` first runs without a bound (its plan need not be shortest), then bisects: the
bound halfway between what is refuted (the admissible lower bound at first) and its best
plan, until "no plan within best-1" is proven.
``bmc3`` deepens frame by frame (its first plan is shortest) but writes no invariant:
its plans are ``feasible`` and its "no shorter" is not a proof here.
"""
from __future__ import annotations

import enum
import re
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .. import limits
from ..encodings.aiger import check_trace, read_witness, to_aig, write_aig
from ..encodings.transition import build_system, plan_moves
from ..plugins import Program, Runner
from ..constraints import state_space
from ..puzzle import Check, PuzzleError, Result, Status
from ..validate import check_plan
from .invariant import check_invariant, read_cubes

PROGRAM = "berkeley-abc"
ENGINES = ("pdr", "bmc3")
FRAME = re.compile(r"^\s*(\d+)\s*:.*$")


ABC_PROGRAM = Program(PROGRAM, "Debian package berkeley-abc: apt-get install berkeley-abc", ("abc",),
                      "the model checker")


def program() -> str:
    why = ABC_PROGRAM.missing()
    if why:
        raise PuzzleError(why)
    return ABC_PROGRAM.path()


def parse_engine(option: str) -> tuple[str, bool]:
    engine, backward = option, False
    if option.endswith("-back"):
        engine, backward = option[:-len("-back")], True
    if engine not in ENGINES:
        raise PuzzleError(f"abc:{option}: use abc:pdr, abc:bmc3, abc:pdr-back or abc:bmc3-back")
    return engine, backward


class ModelChecker(Runner):
    """The registry's ``abc:ENGINE``: one transition system, not horizons (see the module doc).
    It takes the encodings whose goal is a property of one state and whose steps link two
    layers (:attr:`~puzzleplan.encodings.base.Encoder.no_system`), and of the side conditions
    frozen pieces and avoided cells, not move counts."""

    requires = (ABC_PROGRAM,)

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        parse_engine(option)

    def supports(self, family, metric: str, conditions=()) -> str | None:
        if metric not in family.encoders:
            return f"no SAT encoding for {family.name} under the metric {metric!r}"
        from ..encodings import encoder_class
        why = encoder_class(family, metric).no_system
        if why:
            return f"the {family.name} {metric} encoding is no transition system for the AIGER export: {why}"
        counted = sorted({str(r) for r in conditions if not (r.op in ("<=", "==") and r.k == 0)})
        if counted:
            return (f"move counts in the goal ({', '.join(counted)}) are not supported by the AIGER export; "
                    "frozen pieces and avoided cells are")
        return None

    def solve(self, problem, metric: str, options) -> Result:
        from .deepening import DEFAULT_MAX_HORIZON
        bound = options.max_horizon if options.max_horizon != DEFAULT_MAX_HORIZON else None
        return solve(problem, metric, self.option, options.counts, bound, options.say)


class RunOutcome(str, enum.Enum):
    """How one ABC run ended."""

    CEX = "cex"                 # a counterexample: a plan, still to be checked
    PROVED = "proved"           # a proof, with the invariant it wrote (still to be checked)
    TIMEOUT = "timeout"         # killed at the deadline (wall clock)
    UNDECIDED = "undecided"     # it ended by itself without a verdict


class Run:
    """One ABC run on one system; ``outcome`` says how it ended (:class:`RunOutcome`)."""

    def __init__(self, s, engine: str, say):
        self.s, self.engine, self.say = s, engine, say
        self.aig = to_aig(s, fold=True)
        self.outcome, self.cubes, self.frames, self.seconds, self.lines = RunOutcome.TIMEOUT, None, None, 0.0, []
        self.killed = False

    def go(self) -> "Run":
        left = limits.left()
        if left is not None and left <= 0:
            self.outcome = RunOutcome.TIMEOUT
            return self
        with tempfile.TemporaryDirectory(prefix="puzzleplan-abc-") as tmp:
            model, cex, inv = (Path(tmp) / name for name in ("system.aig", "cex.txt", "inv.pla"))
            write_aig(self.aig, model)
            seconds = "" if left is None else f" -T {max(1, int(left) + 1)}"
            command = {"pdr": f"pdr -v -d -e -I {inv}{seconds}", "bmc3": f"bmc3 -v{seconds}"}[self.engine]
            script = f"read_aiger {model}; {command}; write_cex -a {cex}"
            self._run([program(), "-c", script], limits.left())      # what writing the AIG left
            if cex.exists() and cex.stat().st_size:
                self.outcome = RunOutcome.CEX
                self.frames = cex.read_text()
            elif inv.exists() and any("Property proved" in line for line in self.lines):
                self.outcome = RunOutcome.PROVED
                self.cubes = read_cubes(inv.read_text(), self.aig.nlatches, "ABC's invariant")
            else:
                self.outcome = RunOutcome.TIMEOUT if self.killed or limits.expired() else RunOutcome.UNDECIDED
        return self

    def _run(self, argv, left) -> None:
        t0 = time.perf_counter()
        limits.raise_if_interrupted()       # a Ctrl-C Python dropped (see limits.interrupts_recorded)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)

        def read():
            for line in proc.stdout:
                self.lines.append(line.rstrip("\n"))
                if FRAME.match(line) or "Property" in line or "asserted" in line:
                    self.say(f"{PROGRAM} {self.engine}: {line.strip()}")
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:        # ABC's -T counts CPU seconds: the wall-clock deadline is kept here
            proc.wait(timeout=None if left is None else left)
        except subprocess.TimeoutExpired:
            self.killed = True
            proc.kill()
            proc.wait()
        except KeyboardInterrupt:
            proc.kill()
            proc.wait()
            raise
        finally:
            reader.join(1)
            self.seconds = round(time.perf_counter() - t0, 3)
        if proc.returncode not in (0, -9):
            tail = self.lines[-1:] or [""]
            raise PuzzleError(f"{PROGRAM} failed (exit code {proc.returncode}): {tail[0][:200]}")

    def plan(self, problem, metric, counts):
        """The counterexample as a replayed plan: (steps, length); PuzzleError if it fails a check."""
        init, frames = read_witness(self.frames, self.aig.ninputs, self.aig.nlatches, f"{PROGRAM}'s counterexample")
        frames = check_trace(self.aig, init, frames, f"{PROGRAM}'s counterexample")
        steps = problem.rules.render_steps(plan_moves(self.s, frames))
        report = check_plan(problem, steps, metric, counts)
        if not report["solved"]:
            raise PuzzleError(f"{PROGRAM}'s counterexample does not replay: {report['problem']}")
        return steps, report["length"]


def solve(problem, metric: str, option: str, counts=(), max_horizon: int | None = None, say=None) -> Result:
    """Plan for ``problem`` (a :class:`~puzzleplan.contract.Problem`) with ABC engine ``option``
    (see the module doc)."""
    engine, backward = parse_engine(option)
    program()
    say = say or (lambda text: None)
    space = state_space(problem)
    lower = space.heuristic(space.initial, metric)
    result = Result(Status.TIMEOUT, metric, f"abc:{option}", lower_bound=lower, board=problem.rules.board())
    search = Bisection(problem, metric, counts, engine, backward, say, result, lower)
    bound = max_horizon
    try:
        while not search.final:
            bound = search.ask(bound)
    except limits.TimeUp:
        result.message = "time limit reached"
    except KeyboardInterrupt:
        result.status, result.message = Status.INTERRUPTED, "interrupted"
    if result.status in (Status.TIMEOUT, Status.INTERRUPTED, Status.FEASIBLE):
        result.bound = search.refuted if search.refuted >= 0 else None
        if result.status is Status.TIMEOUT and result.steps is not None:
            result.status = Status.FEASIBLE
    result.stats.update(runs=len(result.horizons), invariant_check_seconds=round(search.checked_seconds, 3))
    return result


class Bisection:
    """The runs of one engine on one puzzle: ``refuted``, no plan within this many moves (the
    admissible lower bound, then checked invariants); ``result`` the answer so far."""

    def __init__(self, problem, metric, counts, engine, backward, say, result: Result, lower: int):
        self.problem, self.metric, self.counts = problem, metric, counts
        self.engine, self.backward, self.say = engine, backward, say
        self.result, self.lower = result, lower
        self.refuted = lower - 1
        self.checked_seconds = 0.0
        self.final = False          # the answer is final: no run more

    def ask(self, bound: int | None) -> int | None:
        """One run under ``bound`` (None: none); the next bound to ask, unless the answer is
        now :attr:`final`.  Raises TimeUp when the run was killed at the deadline."""
        with limits.preemptive():       # the family's encoder, as a system and an AIG
            s = build_system(self.problem, self.metric, self.counts, backward=self.backward, bound=bound)
            run = Run(s, self.engine, self.say)
        run.go()
        row = self.row(run, bound)
        if run.outcome is RunOutcome.TIMEOUT:
            raise limits.TimeUp()
        if not self.settled(run, row, bound):
            self.final = True
            return None
        result = self.result
        if result.steps is not None and result.length <= self.refuted + 1:
            result.status = Status.OPTIMAL
            result.proof = (f"invariant checked: no plan within {self.refuted}" if self.refuted >= self.lower
                            else f"admissible lower bound {self.lower}")
            self.final = True
            return None
        # bisect between what is refuted and the best plan: a proof or a shorter plan either way
        return (self.refuted + 1 + result.length - 1) // 2

    def row(self, run: Run, bound: int | None) -> dict:
        """The run's row of figures (with its plan, kept if the shortest), said on one line."""
        result = self.result
        row = {"horizon": bound, "engine": self.engine, "backward": self.backward, "outcome": run.outcome.value,
               "latches": run.aig.nlatches, "inputs": run.aig.ninputs, "gates": len(run.aig.gates),
               "frames": frames_reached(run.lines), "seconds": run.seconds}
        result.horizons.append(row)
        if run.outcome is RunOutcome.CEX:
            steps, length = run.plan(self.problem, self.metric, self.counts)
            row["plan"] = length
            if result.length is None or length < result.length:
                result.steps, result.length = steps, length
        self.say(f"{PROGRAM} {self.engine}{' backward' if self.backward else ''}: "
                 + (f"a plan within {bound}? " if bound is not None else "goal reachable? ")
                 + f"{run.outcome.value}{' of ' + str(row['plan']) + ' ' + self.metric if 'plan' in row else ''} "
                   f"after {run.seconds:.2f}s ({row['latches']} latches, {row['inputs']} inputs, "
                   f"{row['gates']} gates)")
        return row

    def settled(self, run: Run, row: dict, bound: int | None) -> bool:
        """What the run's outcome says of the answer; False when it is final."""
        result = self.result
        if run.outcome is RunOutcome.UNDECIDED:
            last = next((line.strip() for line in reversed(run.lines) if line.strip()), "no output")
            result.status = Status.FEASIBLE if result.steps is not None else Status.ERROR
            result.message = (f"{PROGRAM} {self.engine} ended without a verdict after {run.seconds:.2f}s, "
                              f"before the time limit: {last[:200]}")
            return False
        if run.outcome is RunOutcome.CEX:
            result.status = Status.FEASIBLE
            if self.engine != "pdr":
                result.message = f"{self.engine} writes no invariant: optimality not proven"
                return False
            return True
        checked = check_invariant(run.aig, run.cubes)
        self.checked_seconds += checked["seconds"]
        row.update(invariant_cubes=checked["cubes"], invariant_checked=checked["ok"])
        result.stats["invariant_checked"] = checked["ok"]
        result.check = Check.PASSED if checked["ok"] else Check.FAILED
        if not checked["ok"]:
            result.status = Status.UNVERIFIED if result.steps is None else Status.FEASIBLE
            result.message = f"{PROGRAM} claims a proof, but its invariant does not check: {checked['why']}"
            return False
        if bound is None:
            result.status = Status.UNSOLVABLE
            result.proof = f"invariant checked: the goal is unreachable ({checked['cubes']} clauses)"
            return False
        self.refuted = bound
        if result.steps is None:
            result.status, result.bound = Status.NO_PLAN_WITHIN, bound
            result.proof = f"invariant checked ({checked['cubes']} clauses)"
            return False
        return True


def frames_reached(lines: list[str]) -> int | None:
    """The last frame number in the engine's per-frame lines."""
    found = [int(m.group(1)) for m in map(FRAME.match, lines) if m]
    return max(found) if found else None
