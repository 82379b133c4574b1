"""Cross-check with the IPC 2008 optimal Sokoban track (sokoban-opt08-strips).

The shared datasets hold the track's domain and 30 problems, and
``ipc_to_microban_map.tsv`` maps each problem to its Microban I level and its
push optimum.  For a problem and a planner, :func:`crosscheck` runs the planner
on the IPC's own PDDL and on our export of the Microban level (``pushes``), and
replays both plans on the level under our rules: the IPC's ``move`` and
``push-to-*`` actions become LURD letters from their direction argument, so no
coordinates need matching.
"""
from __future__ import annotations

import csv
import tempfile
import time
from pathlib import Path

from ...catalogue import instances_root
from ...formats.load import load
from ...puzzle import PuzzleError
from ...validate import check_plan
from ...pddl.files import plan_actions
from ...pddl.planners import plan, run_driver

TRACK = "sokoban-opt08-strips"


def microban() -> Path:
    return instances_root() / "sokoban" / "Microban.txt"


LETTERS = {"dir-up": "u", "dir-down": "d", "dir-left": "l", "dir-right": "r"}


def mapping(datasets: Path, track: str = TRACK) -> list[dict]:
    """Rows of the map for ``track``: file, microban_level, optimum (pushes)."""
    with open(datasets / "ipc_to_microban_map.tsv") as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if r["domain_dir"] == track]
    return [{"file": r["file"], "level": int(r["microban_level"]),
             "optimum": int(r["optimal_cost_pushes_martin_t"])} for r in rows]


def ipc_steps(text: str, where: str) -> list[str]:
    """LURD letters of a plan on the IPC's Sokoban domain (upper case for pushes)."""
    out = []
    for n, name, args in plan_actions(text, where):
        letter = next((LETTERS[a] for a in args if a in LETTERS), None)
        if letter is None or name not in ("move", "push-to-goal", "push-to-nongoal"):
            raise PuzzleError(f"not an action of the IPC Sokoban domain: {name}", where, n)
        out.append(letter if name == "move" else letter.upper())
    return out


def run_ipc(problem: Path, method: str, level: int, time_limit: float | None) -> dict:
    """The planner on the IPC's files; its plan replayed on Microban level ``level``."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="puzzleplan-ipc-") as tmp:
        plan_file = Path(tmp) / "sas_plan"
        code, _ = run_driver(method, problem.parent / "domain.pddl", problem, plan_file, time_limit)
        text = plan_file.read_text() if code == 0 and plan_file.exists() else None
    seconds = round(time.perf_counter() - t0, 4)
    if text is None:
        return {"status": "timeout" if code is None or code in (21, 23, 24) else f"exit {code}", "seconds": seconds}
    puzzle = load(microban(), level).problem
    report = check_plan(puzzle, ipc_steps(text, str(problem)), "pushes")
    if not report["solved"]:
        raise PuzzleError(f"{problem.name}: the IPC plan of {method} does not solve Microban {level}")
    return {"status": "optimal", "length": report["length"], "seconds": seconds}


def crosscheck(datasets: Path, row: dict, method: str, time_limit: float | None = None) -> dict:
    """One problem, one planner: the IPC's PDDL and our export, side by side."""
    ipc = run_ipc(datasets / TRACK / row["file"], method, row["level"], time_limit)
    ours = plan(load(microban(), row["level"]).problem, "pushes", method, time_limit)
    return {"problem": row["file"], "microban_level": row["level"], "optimum": row["optimum"], "method": method,
            "ipc_status": ipc["status"], "ipc_pushes": ipc.get("length"), "ipc_seconds": ipc["seconds"],
            "ours_status": ours.status.value, "ours_pushes": ours.length, "ours_seconds": ours.stats["seconds"],
            "ours_expanded": ours.stats.get("expanded")}
