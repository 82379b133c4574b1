"""One benchmark run in a process of its own: ``python -m puzzleplan.bench.worker TASK_JSON``.

It limits its own address space (``RLIMIT_AS``, ``memory_mb``, or the limit it was
started with if that is lower, e.g. a shell's ``ulimit -v``) before anything else is loaded; the parent kills it when its wall-clock limit passes; the planner and the searches also get the time
limit, so they usually stop on their own and report what they proved.  Prints one
JSON line: the run's figures.
"""
from __future__ import annotations

import json
import os
import resource
import sys
import time


def run_task(task: dict) -> dict:
    """One bench run of ``task`` (a :class:`~puzzleplan.bench.run.Task` as a dict): its row's figures."""
    from .. import methods
    from ..formats.load import load
    from ..puzzle import Contradiction
    from .run import located
    try:
        problem = load(located(task["instance"]), task.get("level"), constraints=task.get("constraints", ())).problem
        import gc
        gc.freeze()     # the puzzle lives as long as the run, a process of its own (see the CLI's load_instance)
    except Contradiction as err:    # conditions no plan can meet: the answer, not an error
        return {"status": "unsolvable", "message": f"no plan can meet the conditions: {err.problem}"}
    result = methods.run(task["method"], problem, task["metric"], task.get("time_limit"))
    s = result.stats
    if methods.parse(task["method"])[0].kind == methods.PLANNER:      # the planner's own figures, beside ours
        note = ", ".join(f"{k}={s[k]}" for k in ("planner_cost", "generated", "search_seconds", "exit_code") if k in s)
        result.message = "; ".join(filter(None, [note, result.message]))
    return {"message": result.message, "status": result.status.value, "length": result.length, "bound": result.bound,
            "horizons": s.get("horizons_tried"), "vars": s.get("vars"), "clauses": s.get("clauses"),
            "conflicts": s.get("conflicts"), "expanded": s.get("expanded"),
            "horizon_figures": [{k: h.get(k) for k in ("horizon", "vars", "clauses", "conflicts", "seconds", "result")}
                                for h in result.horizons]}


def die_with_parent() -> None:
    """Linux: be killed when the bench dies, even by SIGKILL (the run has a process group of its
    own, so a signal to the bench's group does not reach it)."""
    try:
        import ctypes
        import signal
        libc = ctypes.CDLL(None, use_errno=True)
        parent = os.getppid()
        libc.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
        if os.getppid() != parent:      # the bench died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def main(argv: list[str]) -> int:
    die_with_parent()
    task = json.loads(argv[0])
    limits = {}
    if task.get("memory_mb"):
        from ..limits import limit_memory
        in_force = limit_memory(int(task["memory_mb"]))
        if in_force < int(task["memory_mb"]):
            limits["memory_mb"] = in_force      # the row says which limit the run had
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        out = run_task(task)
    except MemoryError:
        out = {"status": "memout"}
    except Exception as err:    # reported as a row, never a traceback in the results
        from ..limits import out_of_memory
        from ..puzzle import PuzzleError
        out = {"status": "memout"} if out_of_memory(err) else \
            {"status": "error", "message": str(err) if isinstance(err, PuzzleError) else f"{type(err).__name__}: {err}"}
    out.update(limits)
    # child processes (an outside planner or solver) count too: their CPU time and their peak
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    out.update(seconds=round(time.perf_counter() - t0, 4),
               cpu_seconds=round(time.process_time() - c0 + kids.ru_utime + kids.ru_stime, 4),
               peak_rss_mb=round(max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, kids.ru_maxrss) / 1024, 1))
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
