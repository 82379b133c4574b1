"""Outside planners on our PDDL: Fast Downward (A* with LM-cut, blind A*) and SymK.

Each is the planner's own driver script (``fast-downward.py``) from the PyPI
wheels that ship the binaries (``up-fast-downward``, ``up-symk``: the optional
extra ``puzzleplan[planners]``), run as a child process in a fresh folder, with
the time limit passed to the driver and enforced by killing its process group.
The plan it writes is read back into our steps and replayed by our rules
(:func:`puzzleplan.validate.check_plan`) before anything is reported.

Statuses: the three configurations are optimal searches (A* with an admissible
heuristic, symbolic bidirectional uniform-cost search), so a plan they finish
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
from dataclasses import dataclass
from pathlib import Path

from .. import limits
from ..plugins import Runner
from ..puzzle import PuzzleError, Result, Status
from ..validate import check_plan
from . import files
from .task import build


@dataclass(frozen=True)
class Planner(Runner):
    """One planner configuration, a method of the registry (``fd-lmcut``...)."""

    package: str        # the wheel's import name
    folder: str         # where fast-downward.py sits inside it
    search: str         # the --search configuration
    what: str

    @classmethod
    def unavailable(cls, name: str, option: str) -> str | None:
        try:
            driver(name)
        except PuzzleError as err:
            return str(err)
        return None

    def solve(self, problem, metric, name: str, option: str, options) -> Result:
        return plan(problem, metric, name, options.time_limit)


PLANNERS = {
    "fd-lmcut": Planner("up_fast_downward", "downward", "astar(lmcut())", "Fast Downward, A* with LM-cut"),
    "fd-blind": Planner("up_fast_downward", "downward", "astar(blind())", "Fast Downward, blind A*"),
    "symk": Planner("up_symk", "symk", "sym_bd()", "SymK, symbolic bidirectional search"),
}
FD_LMCUT, FD_BLIND, SYMK = PLANNERS["fd-lmcut"], PLANNERS["fd-blind"], PLANNERS["symk"]
UNSOLVABLE_CODES = (10, 11)
# SymK's searches are complete: when one stops without a plan (exit code 12), it has
# exhausted the states; its log says so in these words
EXHAUSTED = "Search stopped without finding a solution"
OUT_OF_TIME = (21, 23, 24, 256 - signal.SIGXCPU)    # the last: the translator stopped by its CPU limit
OUT_OF_MEMORY = (20, 22)


def driver(method: str) -> Path:
    """The driver script of ``method``; PuzzleError naming the extra when it is missing."""
    if method not in PLANNERS:
        raise PuzzleError(f"unknown planner {method!r}; choose from " + ", ".join(PLANNERS))
    planner = PLANNERS[method]
    spec = importlib.util.find_spec(planner.package)
    script = Path(spec.submodule_search_locations[0]) / planner.folder / "fast-downward.py" if spec else None
    if script is None or not script.exists():
        wheel = planner.package.replace("_", "-")
        raise PuzzleError(f"{method} needs the {wheel} wheel: pip install 'puzzleplan[planners]' "
                          "(or sh setup.sh test)")
    return script


def available(method: str) -> bool:
    try:
        driver(method)
    except PuzzleError:
        return False
    return True


def figures(log: str) -> dict:
    """The planner's own figures from its log (the last of each)."""
    out = {}
    for key, pattern in (("expanded", r"Expanded (\d+) state"), ("generated", r"Generated (\d+) state"),
                         ("planner_cost", r"Plan cost: (\d+)"),
                         ("search_seconds", r"(?:Actual search|Search) time: ([\d.]+)s")):
        found = re.findall(pattern, log)
        if found:
            out[key] = float(found[-1]) if "." in found[-1] else int(found[-1])
    return out


def run_driver(method: str, domain_file: Path, problem_file: Path, plan_file: Path,
               time_limit: float | None) -> tuple[int | None, str]:
    """Run the driver; ``(exit code or None when killed, log)``."""
    cmd = [sys.executable, str(driver(method)), "--plan-file", str(plan_file)]
    if time_limit is not None:
        cmd += ["--overall-time-limit", f"{max(1, math.ceil(time_limit))}s"]
    cmd += [str(domain_file), str(problem_file), "--search", PLANNERS[method].search]
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


def plan(problem, metric: str | None, method: str, time_limit: float | None = None) -> Result:
    """Export ``problem`` (a :class:`~puzzleplan.contract.Problem`, a loaded instance or a bare
    rules object), run planner ``method`` on it, replay its plan under our rules.  The
    time limit covers it all: the export is built within it, the planner gets what is left and
    is killed at the deadline in wall-clock time."""
    from .. import registry
    problem = registry.problem(problem)
    base = problem.rules
    t0 = time.perf_counter()
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
                code, log = run_driver(method, folder / "domain.pddl", folder / "problem.pddl", folder / "sas_plan",
                                       limits.left())
            plan_file = folder / "sas_plan"
            text = plan_file.read_text() if plan_file.exists() else None
    stats = {"seconds": round(time.perf_counter() - t0, 4), "exit_code": code, **figures(log)}
    board = base.board()
    if code == 0 and text is not None:
        steps = files.decode(task, problem, text, f"{method} plan")
        report = check_plan(problem, steps, metric)
        if not report["solved"]:
            raise PuzzleError(f"{method}'s plan does not solve the puzzle under our rules: {report['problem']}")
        cost = stats.get("planner_cost")
        agree = cost is None or cost == report["length"]
        return Result(Status.OPTIMAL if agree else Status.FEASIBLE, metric, method, report["length"], steps,
                      proof=f"{PLANNERS[method].what} (optimal configuration)" if agree else None,
                      stats=stats, board=board,
                      message=None if agree else f"the planner's cost {cost} differs from our length")
    if code in UNSOLVABLE_CODES or (method == "symk" and code == 12 and EXHAUSTED in log):
        return Result(Status.UNSOLVABLE, metric, method, stats=stats, board=board,
                      message=f"{method} proved that no plan exists")
    if code is None or code in OUT_OF_TIME:
        return Result(Status.TIMEOUT, metric, method, stats=stats, board=board,
                      message=f"{method} stopped at the time limit")
    tail = " | ".join(line for line in log.strip().splitlines()[-3:])
    kind = "out of memory" if code in OUT_OF_MEMORY else f"exit code {code}"
    return Result(Status.ERROR, metric, method, stats=stats, board=board, message=f"{method}: {kind}: {tail[-300:]}")
