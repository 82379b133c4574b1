"""Well-formed conditions that no plan can meet answer ``unsolvable`` with the reason (exit 0),
whether they come from the command line or from the file's own ``constraints:`` line."""
import json
import subprocess
import sys

import pytest

from conftest import ROOT

BOARDS = {
    "frozen away from its end": ("board:\n.AA\n...\ngoal:\nAA.\n...\n", "A.frozen A.avoid=a2 A.ends=b2,c2",
                                 "frozen but must end on cells it does not stand on"),
    "nowhere to end": ("board:\n.A.\nBC.\ngoal:\n.AC\n...\n", "A.ends=a1 A.moves>=3 *.avoid=a1",
                       "cannot end within the cells given"),
}


def run(*args):
    return subprocess.run([sys.executable, "-m", "puzzleplan.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.mark.parametrize("command", [("solve", "-b", "pysat-de"), ("solve", "-b", "pysat"), ("solve", "-b", "cpsat"),
                                     ("search",), ("search", "-a", "astar")])
@pytest.mark.parametrize("where", ["file", "command line"])
@pytest.mark.parametrize("case", sorted(BOARDS))
def test_contradictory_conditions_are_unsolvable_wherever_they_are_written(tmp_path, case, where, command):
    board, conditions, why = BOARDS[case]
    path = tmp_path / "p.slide"
    path.write_text(board + (f"constraints: {conditions}\n" if where == "file" else ""))
    flags = [] if where == "file" else [x for c in conditions.split() for x in ("-c", c)]
    proc = run(*command, str(path), "--json", *flags)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] == "unsolvable" and why in out["proof"] and out["board"] == board.split("\n")[1:3]


def test_show_draws_the_board_of_a_file_whose_conditions_contradict(tmp_path):
    board, conditions, why = BOARDS["frozen away from its end"]
    path = tmp_path / "p.slide"
    path.write_text(board + f"constraints: {conditions}\n")
    proc = run("show", str(path))
    assert proc.returncode == 0 and proc.stdout.splitlines()[:2] == [".AA", "..."] and why in proc.stderr
