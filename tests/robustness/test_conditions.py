"""Conditions on the pieces (--frozen, --moves, --ends, --avoid, -c) that are well formed but
hard: a frozen piece never steps, in every metric, not even there and back; A.moves=0 is a
frozen piece; conditions that contradict each other, the board or the goal make the puzzle
unsolvable, with the reason, in every command and on every family (explore counts the puzzle's
states without them), and a small space is enumerated to say so at once; a condition with a
slip in it (a cell off the board) is still bad input."""
import json

import pytest

from _helpers import CARD40, GUARINI, TWO, one_error, run, run_unchecked
from conftest import INSTANCES
from puzzleplan.encodings import encoder_for
from puzzleplan.formats.load import load
from puzzleplan.puzzle import MoveCount
from puzzleplan.validate import check_plan


# --- a frozen piece never steps ---------------------------------------------------------------

@pytest.mark.parametrize("metric", ["moves", "slides", "steps"])
def test_frozen_piece_that_steps_and_returns_is_not_valid(write, metric):
    inst = load(write("two.slide", TWO), constraints=["A.frozen"])
    # A steps down and back: under `moves` a run that ends where it began counts no move
    report = check_plan(inst.problem, ["AD", "AU", "BR", "BD"], metric)
    assert not report["solved"] and "A=2" in report["problem"]
    assert check_plan(inst.problem, ["BR", "BD"], metric)["solved"]


def test_frozen_in_the_cli(write, tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("AD AU BR BD")
    path = write("two.slide", TWO)
    assert run("validate", path, plan, "-m", "moves").exit_code == 0
    for extra in (["--frozen", "A"], ["-c", "A.moves=0"]):
        result = run("validate", path, plan, "-m", "moves", *extra)
        assert result.exit_code == 1 and result.stdout.startswith("legal but not solved"), result.output


@pytest.mark.parametrize("count", [MoveCount("K", "==", 0), MoveCount("K", "<=", 0)])
def test_zero_moves_is_frozen(count):
    d = load(CARD40, constraints=[count]).problem
    enc = encoder_for(d, "slides")
    assert enc.still == {d.rules.mover_of("K")}


# --- contradictory conditions: unsolvable, with the reason ------------------------------------

CONTRADICTIONS = [
    (["-c", "C.ends=c3", "-c", "*.avoid=c3"], "starts on a cell it must avoid"),
    (["--ends", "B:a1,b1"], "cannot end within the cells given"),
    (["--ends", "B:b1,b2", "--frozen", "B"], "frozen but must end"),
    (["--ends", "B:b1,b2", "--ends", "B:b4,b5"], "nowhere to finish"),
    (["--avoid", "A:f3"], "the goal puts piece 'A' on a cell it must avoid"),      # A's goal: e3-f3
]


@pytest.mark.parametrize("command", [["search"], ["search", "-a", "astar"], ["solve"], ["solve", "-b", "cpsat"]])
@pytest.mark.parametrize("conditions,reason", CONTRADICTIONS)
def test_contradictory_conditions_are_unsolvable(command, conditions, reason):
    result = run(*command, CARD40, *conditions, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == "unsolvable" and reason in doc["proof"] and doc["board"][0] == "KHH.F."


def test_contradictory_conditions_in_text_and_other_commands(tmp_path):
    conditions, reason = CONTRADICTIONS[0]
    result = run("search", CARD40, *conditions)
    assert result.exit_code == 0 and result.stdout.startswith("unsolvable: bfs (no plan can meet") and reason in result.stdout
    plan = tmp_path / "plan.txt"
    plan.write_text("AR")
    result = run("validate", CARD40, plan, *conditions)
    assert result.exit_code == 1 and result.stdout.startswith("not solved: no plan can meet") and reason in result.stdout
    result = run("show", CARD40, *conditions)
    assert result.exit_code == 0 and result.stdout.startswith("KHH.F.") and reason in result.stderr
    out = tmp_path / "r.csv"
    assert run("bench", CARD40, "--methods", "bfs,pysat", *conditions, "-o", out).exit_code == 0
    import csv
    rows = list(csv.DictReader(open(out)))
    assert [r["status"] for r in rows] == ["unsolvable", "unsolvable"] and reason in rows[0]["message"]


@pytest.mark.parametrize("condition,reason", [("B.avoid=c2", "the goal puts piece 'B' on a cell it must avoid"),
                                              ("B.avoid=b1", "starts on a cell it must avoid")])
def test_contradictory_conditions_in_a_file(write, tmp_path, condition, reason):
    """A file's own conditions against its goal (B must end on c2) or its board: an answer in
    every command; explore counts the states of the puzzle without them, and says so."""
    path = write("two.slide", TWO + f"constraints: {condition}\n")
    result = run("search", path)
    assert result.exit_code == 0 and result.stdout.startswith("unsolvable: bfs (no plan can meet") and reason in result.stdout
    plan = tmp_path / "plan.txt"
    plan.write_text("BR BD")
    result = run("validate", path, plan)
    assert result.exit_code == 1 and reason in result.stdout, result.output
    result = run("explore", path)
    assert result.exit_code == 0 and "reachable=30," in result.stdout and "complete=True" in result.stdout
    assert reason in result.stderr and "the puzzle's without them" in result.stderr
    doc = json.loads(run("explore", path, "--json").stdout)
    assert doc["status"] == "explored" and doc["reachable"] == 30 and reason in doc["conditions_left_out"]


def test_knights_and_sokoban_contradictions():
    result = run("search", GUARINI, "--avoid", "W:a3", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "unsolvable"
    result = run("solve", INSTANCES / "sokoban/Microban.txt", "-l", "2", "--avoid", "player:b5,c5,d5",
                 "--ends", "player:b5", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "unsolvable", result.output


def test_a_slip_is_still_bad_input():
    one_error(run("search", CARD40, "--ends", "B:z1"), "off the board")


def test_unsolvable_small_space_is_found_before_deepening():
    # (the red car frozen is a contradiction answered at once: a car that must move may not)
    out = run_unchecked("solve", CARD40, "-m", "slides", "--frozen", "B", "--moves", "A>=3", "--json")
    got = json.loads(out.output)
    assert got["status"] == "unsolvable" and "enumeration" in got["proof"] and got["method"] == "enumeration"


@pytest.mark.parametrize("conditions, reason", [
    (["-c", "A.frozen"], "A may not move, but must to reach the goal"),
    (["-c", "D.moves<=0", "-c", "D.moves>=1"], "D must move at least once and at most 0 times"),
    (["--moves", "A+B<=1", "--moves", "A+B>=2"], "A+B must move at least twice and at most once")])
def test_conditions_no_plan_can_meet_are_unsolvable_at_once(conditions, reason):
    """A frozen 8-puzzle tile that stands off its goal, or counts that ask at least more than
    they allow at most: unsolvable before any search or SAT call, the reason named (they ran to
    the enumeration's budget and deepened to horizon 1000)."""
    eight = INSTANCES / "sliding/eight_puzzle.slide"
    for command in ("solve", "search"):
        out = run_unchecked(command, eight, *conditions, "--json")
        got = json.loads(out.output)
        assert out.exit_code == 0 and got["status"] == "unsolvable" and reason in got["proof"], out.output
