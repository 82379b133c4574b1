"""Replay: legal plans pass, illegal steps are named with their reason."""
import pytest

from conftest import INSTANCES
from puzzleplan.formats.load import load
from puzzleplan.puzzle import IllegalStep
from puzzleplan.validate import check_plan

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke


def klotski():
    return load(INSTANCES / "seeds/klotski_seed000.slide").rules


@pytest.mark.parametrize("steps,reason", [
    (["AD"], "step 1 (AD): piece A is blocked"),
    (["gR", "gR", "gR"], "step 3 (gR): piece g is blocked"),
    (["aU"], "step 1 (aU): piece a would leave the board"),
    (["zU"], "no piece 'z'"),
    (["gX"], "direction must be"),
])
def test_sliding_illegal_steps(steps, reason):
    with pytest.raises(IllegalStep, match=reason.replace("(", r"\(").replace(")", r"\)")):
        klotski().replay(steps)


def test_rush_hour_axis_is_enforced():
    d = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").rules
    with pytest.raises(IllegalStep, match="moves only along axis h"):
        d.replay(["AU"])


def test_sokoban_push_case_and_walls():
    d = load(INSTANCES / "sokoban/Microban.txt", 2).rules
    with pytest.raises(IllegalStep, match="wall"):
        d.replay(list("uuuuuuu"))
    board = d.board()
    assert any("@" in row for row in board)


def test_metric_counts():
    d = klotski()
    steps = ["gR", "gR", "hL"]
    assert d.count(steps, "steps") == 3 and d.count(steps, "slides") == 2 and d.count(steps, "moves") == 2


def test_unsolved_plan_is_not_valid():
    report = check_plan(klotski(), ["gR"], "steps")
    assert not report["solved"] and "goal" in report["problem"]


def test_knights_counts_are_checked_independently():
    inst = load(INSTANCES / "seeds/knights_seed003.knights")
    steps = ["b1-c3", "c3-d5", "d5-f4", "f4-h3", "g1-f3", "h3-g1", "f3-g5", "g5-h3", "h3-f4", "f4-g6",
             "g6-f4", "f4-e6", "e6-d8"]
    assert check_plan(inst.problem, steps, "steps")["solved"]
    # G reaches d8 in 10 moves instead of 8: legal, but no goal alternative holds
    detour = steps[:12] + ["e6-c5", "c5-e6", "e6-d8"]
    report = check_plan(inst.problem, detour, "steps")
    assert not report["solved"]
    with pytest.raises(IllegalStep, match="f7 is not an allowed square"):
        inst.rules.replay(steps[:11] + ["f4-g6", "g6-e5", "e5-f7"])


def test_a_piece_that_is_gone_does_not_end_within_any_cells():
    """A family whose pieces can leave the board (pegs jumped) says so by an empty
    ``piece_cells``: an end condition on such a piece does not hold."""
    from puzzleplan.contract import Conditions, Problem
    from puzzleplan.families.TEMPLATE import FAMILY
    from puzzleplan.families.TEMPLATE.fileformat import read
    from puzzleplan.families.TEMPLATE.rules import Line
    from puzzleplan.puzzle import EndsOn

    class Vanishing(Line):
        def piece_cells(self, entry, piece):
            return frozenset() if piece == "B" else super().piece_cells(entry, piece)

    spec = read("board: A.B\ngoal:  .AB\n").spec
    for rules, solved in ((Line(spec), True), (Vanishing(spec), False)):
        report = check_plan(Problem(rules, FAMILY, Conditions(ends=(EndsOn("B", frozenset({(2, 0)})),))), ["A>"], "steps")
        assert report["solved"] is solved, report


@pytest.mark.parametrize("count,says", [
    ("F.moves<=0", "piece F is frozen but moved 2 times"),
    ("A.moves>=30", "A.moves>=30 does not hold: piece A moved 4 times"),
    ("A+B.moves<=1", "A+B.moves<=1 does not hold: pieces A+B moved 7 times"),
])
def test_a_move_count_that_fails_is_named(count, says):
    """A plan that breaks a move count is refused naming the count and what the piece did."""
    from puzzleplan.puzzle import MoveCount
    inst = load(INSTANCES / "sliding/eight_puzzle.slide")
    plan = "FD AD CR BR DU EL AL CD BR AU ER DD AL BL CU FU".split()      # found by pysat-de, 16 steps
    assert check_plan(inst.problem, plan, "steps")["solved"]
    report = check_plan(inst.problem, plan, "steps", [MoveCount.parse(count)])
    assert not report["solved"] and report["problem"].startswith(says), report["problem"]
    assert "moves per piece: A=4, B=3" in report["problem"]


def test_a_result_without_a_plan_is_named_by_its_status(tmp_path):
    """``search --json`` on an unsolvable puzzle writes a result with no steps: handing it to
    ``validate`` (or ``show --plan``) says so by its status, not as a malformed file."""
    from puzzleplan.plans import read_plan
    from puzzleplan.puzzle import PuzzleError
    (tmp_path / "none.json").write_text('{"status": "unsolvable", "method": "bfs"}')
    with pytest.raises(PuzzleError, match=r"a result without a plan \(status unsolvable\)"):
        read_plan(tmp_path / "none.json")
    (tmp_path / "other.json").write_text('{"plan": []}')
    with pytest.raises(PuzzleError, match="the JSON object has no 'steps' list"):
        read_plan(tmp_path / "other.json")
