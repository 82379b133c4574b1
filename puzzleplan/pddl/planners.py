"""Outside planners on our PDDL: Fast Downward (A* with LM-cut, blind A*) and SymK's modes
(:mod:`.abstractions`: Fast Downward with merge-and-shrink and with hill-climbing PDBs).

Each is the planner's own driver script (``fast-downward.py``) from the PyPI
wheels that ship the binaries (``up-fast-downward``, ``up-symk``: the optional
extra ``puzzleplan[planners]``), run as a child process in a fresh folder, with
the time limit passed to the driver and enforced by killing its process group.
The plan it writes is read back into our steps and replayed by our rules
(:func:`puzzleplan.validate.check_plan`) before anything is reported.

Statuses: every configuration is an optimal search (A* with an admissible heuristic,
symbolic uniform-cost search), so a plan they finish
with is ``optimal`` (when its cost equals our length in the metric; otherwise
``feasible``, with a message); exit code 10/11 (the translator or the search proved
there is no plan), or SymK's 12 with its log saying it stopped without a solution
(its searches are complete), is ``unsolvable``; a run out of time or memory is ``timeout``
or an error.
"""
from __future__ import annotations

import importlib.util
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .. import limits
from ..plugins import Package, Runner
from ..puzzle import PuzzleError, Result, Status
from ..validate import check_plan
from . import files
from .task import build


FD_WHEEL = Package("up_fast_downward", "up-fast-downward", "pip install 'puzzleplan[planners]', or sh setup.sh test",
                   "the up-fast-downward wheel")
SYMK_WHEEL = Package("up_symk", "up-symk", "pip install 'puzzleplan[planners]', or sh setup.sh test",
                     "the up-symk wheel")


class Planner(Runner):
    """An outside planner's optimal configuration on the PDDL export, a method of the registry
    (``fd-lmcut``...).  A subclass names the wheel (``requires``), the driver's folder in it,
    and the ``--search`` string; it takes every family with a PDDL export, in the metrics that
    export says, with every side condition (move counts become counters in the task)."""

    requires = (FD_WHEEL,)
    folder = "downward"         # where fast-downward.py sits inside the wheel
    search = ""                 # the --search configuration
    what = ""                   # the configuration in words, for the result's proof
    complete = False            # exit code 12 with EXHAUSTED in its log proves there is no plan

    def supports(self, family, metric: str, conditions=()) -> str | None:
        if not family.pddl:
            return f"the {family.name} family has no PDDL export"
        return family.part("pddl")().refuses(metric)

    def solve(self, problem, metric, options) -> Result:
        return plan(problem, metric, self, options.time_limit)

    def driver(self) -> Path:
        """The driver script; PuzzleError naming the extra when it is missing."""
        why = self.unavailable(self.name, self.option)
        if why:
            raise PuzzleError(f"{self.spec}: {why}")
        wheel = self.requires[0]
        script = Path(importlib.util.find_spec(wheel.module).submodule_search_locations[0]) / self.folder
        if not (script / "fast-downward.py").exists():
            raise PuzzleError(f"{self.spec}: {wheel.dist} has no fast-downward.py in {script}; reinstall it "
                              f"({wheel.install})")
        return script / "fast-downward.py"


class FdLmcut(Planner):
    search, what = "astar(lmcut())", "Fast Downward, A* with LM-cut"


class FdBlind(Planner):
    search, what = "astar(blind())", "Fast Downward, blind A*"


class Symk(Planner):
    """SymK's symbolic uniform-cost searches: ``bd`` bidirectional (the default), ``fw``
    forward, ``bw`` backward (its ``sym_bd()``, ``sym_fw()``, ``sym_bw()``)."""

    requires = (SYMK_WHEEL,)
    folder = "symk"
    complete = True
    MODES = {"bd": "bidirectional", "fw": "forward", "bw": "backward"}

    @classmethod
    def check_option(cls, name: str, option: str) -> None:
        if option and option not in cls.MODES:
            raise PuzzleError(f"{name}:{option}: use " + ", ".join(f"{name}:{m} ({w})" for m, w in cls.MODES.items()))

    @property
    def search(self) -> str:
        return f"sym_{self.option or 'bd'}()"

    @property
    def what(self) -> str:
        return f"SymK, symbolic {self.MODES[self.option or 'bd']} search"


UNSOLVABLE_CODES = (10, 11)
# SymK's searches are complete: when one stops without a plan (exit code 12), it has
# exhausted the states; its log says so in these words
EXHAUSTED = "Search stopped without finding a solution"
OUT_OF_TIME = (21, 23, 24, 256 - signal.SIGXCPU)    # the last: the translator stopped by its CPU limit
OUT_OF_MEMORY = (20, 22)


def planner(method: "str | Planner") -> Planner:
    """The planner method ``method`` (``"fd-lmcut"``, ``"symk:fw"``, or one built)."""
    from .. import plugins
    return method if isinstance(method, Planner) else plugins.build(method, plugins.PLANNER)


def driver(method: "str | Planner") -> Path:
    """The driver script of ``method``; PuzzleError naming the extra when it is missing."""
    return planner(method).driver()


def available(method: str) -> bool:
    try:
        driver(method)
    except PuzzleError:
        return False
    return True


def log_figures(log: str) -> dict:
    """The planner's own figures from its log (the last of each)."""
    out = {}
    for key, pattern in (("expanded", r"Expanded (\d+) state"), ("generated", r"Generated (\d+) state"),
                         ("planner_cost", r"Plan cost: (\d+)"),
                         ("search_seconds", r"(?:Actual search|Search) time: ([\d.]+)s")):
        found = re.findall(pattern, log)
        if found:
            out[key] = float(found[-1]) if "." in found[-1] else int(found[-1])
    return out


def run_driver(method: "str | Planner", domain_file: Path, problem_file: Path, plan_file: Path,
               time_limit: float | None) -> tuple[int | None, str]:
    """Run the driver; ``(exit code or None when killed, log)``."""
    method = planner(method)
    cmd = [sys.executable, str(method.driver()), "--plan-file", str(plan_file)]
    if time_limit is not None:
        cmd += ["--overall-time-limit", f"{max(1, math.ceil(time_limit))}s"]
    cmd += [str(domain_file), str(problem_file), "--search", method.search]
    proc = subprocess.Popen(cmd, cwd=plan_file.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        log, _ = proc.communicate(timeout=None if time_limit is None else max(time_limit, 0.01))
    except subprocess.TimeoutExpired:       # the deadline in wall-clock time (its own limit is CPU time)
        os.killpg(proc.pid, signal.SIGKILL)
        log, _ = proc.communicate()
        return None, log
    except BaseException:                   # Ctrl-C: its own session does not get it
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, log


def plan(problem, metric: str | None, method: "str | Planner", time_limit: float | None = None) -> Result:
    """Export ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded instance or a bare
    rules object), run planner ``method`` (a name like ``"symk:fw"``, or one built) on it,
    replay its plan under our rules.  The time limit covers it all: the export is built within
    it, the planner gets what is left and is killed at the deadline in wall-clock time."""
    from .. import registry
    problem = registry.problem(problem)
    base = problem.rules
    t0 = time.perf_counter()
    runner = planner(method)
    method = runner.spec
    with limits.time_limit(time_limit):
        try:
            with limits.preemptive():
                task = build(problem, metric)
        except limits.TimeUp:
            return Result(Status.TIMEOUT, metric or base.metrics[0], method, board=base.board(),
                          stats={"seconds": round(time.perf_counter() - t0, 4)},
                          message="the time limit passed while the PDDL export was built")
        metric = task.metric
        with tempfile.TemporaryDirectory(prefix="puzzleplan-pddl-") as tmp:
            folder = Path(tmp)
            try:
                with limits.preemptive():
                    files.write(task, folder / "domain.pddl", folder / "problem.pddl")
            except limits.TimeUp:
                code, log = None, ""
            else:
                code, log = run_driver(runner, folder / "domain.pddl", folder / "problem.pddl", folder / "sas_plan",
                                       limits.left())
            plan_file = folder / "sas_plan"
            text = plan_file.read_text() if plan_file.exists() else None
    stats = {"seconds": round(time.perf_counter() - t0, 4), "exit_code": code, **log_figures(log)}
    board = base.board()
    if code == 0 and text is not None:
        steps = files.decode(task, problem, text, f"{method} plan")
        report = check_plan(problem, steps, metric)
        if not report["solved"]:
            raise PuzzleError(f"{method}'s plan does not solve the puzzle under our rules: {report['problem']}")
        cost = stats.get("planner_cost")
        agree = cost is None or cost == report["length"]
        return Result(Status.OPTIMAL if agree else Status.FEASIBLE, metric, method, report["length"], steps,
                      proof=f"{runner.what} (optimal configuration)" if agree else None,
                      stats=stats, board=board,
                      message=None if agree else f"the planner's cost {cost} differs from our length")
    if code in UNSOLVABLE_CODES or (runner.complete and code == 12 and EXHAUSTED in log):
        return Result(Status.UNSOLVABLE, metric, method, stats=stats, board=board,
                      message=f"{method} proved that no plan exists")
    if code is None or code in OUT_OF_TIME:
        return Result(Status.TIMEOUT, metric, method, stats=stats, board=board,
                      message=f"{method} stopped at the time limit")
    tail = " | ".join(line for line in log.strip().splitlines()[-3:])
    kind = "out of memory" if code in OUT_OF_MEMORY else f"exit code {code}"
    return Result(Status.ERROR, metric, method, stats=stats, board=board, message=f"{method}: {kind}: {tail[-300:]}")
