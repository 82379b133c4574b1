"""What a new user meets in the first hour, and what hostile input does: frozen pieces,
duplicate sections, reversed ranges, overwritten files, size caps, tracebacks, contradictory
conditions.  Each test names the case it guards."""
import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan.cli import main
from puzzleplan.formats.load import load
from puzzleplan.validate import check_plan

TWO = """\
board:
AB.
...
goal:
...
..B
"""


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output + (result.stderr or ""), result.output
    return result


def one_error(result, *words):
    """Exit 2 and one line ``puzzleplan: error: ...`` naming ``words``."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzleplan: error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


# --- 15: a frozen piece never steps, in every metric -------------------------------------

@pytest.mark.parametrize("metric", ["moves", "slides", "steps"])
def test_frozen_piece_that_steps_and_returns_is_not_valid(write, metric):
    inst = load(write("two.slide", TWO), constraints=["A.frozen"])
    # A steps down and back: under `moves` a run that ends where it began counts no move
    report = check_plan(inst.domain, ["AD", "AU", "BR", "BD"], metric)
    assert not report["solved"] and "A=2" in report["problem"]
    assert check_plan(inst.domain, ["BR", "BD"], metric)["solved"]


def test_frozen_in_the_cli(write, tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("AD AU BR BD")
    path = write("two.slide", TWO)
    assert run("validate", path, plan, "-m", "moves").exit_code == 0
    for extra in (["--frozen", "A"], ["-c", "A.moves=0"]):
        result = run("validate", path, plan, "-m", "moves", *extra)
        assert result.exit_code == 1 and result.stdout.startswith("legal but not solved"), result.output


# --- 11: the wrong question is not answered -----------------------------------------------

@pytest.mark.parametrize("section", ["goal", "board", "name", "axes"])
def test_a_second_section_in_a_slide_file_is_an_error(write, section):
    extra = {"goal": "goal:\nA..\n...\n", "board": "board:\n.A.\n...\n", "name": "name: y\n", "axes": "axes: A=h\n"}
    text = "name: x\n" + TWO + "axes: B=hv\n\n" + extra[section]
    path = write("twice.slide", text)
    result = run("search", path)
    one_error(result, f"a second '{section}:' section", "twice.slide:")


def test_a_second_goal_section_does_not_replace_the_first(write):
    # before: the second goal (A where it stands) won, and the answer was "optimal, 0 steps"
    path = write("twice.slide", TWO + "\ngoal:\nA..\n...\n")
    one_error(run("solve", path, "--time-limit", "5"), "second 'goal:'", ":8:", "line 4")


def test_a_second_board_in_a_knights_file_is_an_error(write):
    text = (INSTANCES / "knights/guarini.knights").read_text() + "\nboard:\nW.W\n...\nB.B\n"
    one_error(run("search", write("g.knights", text)), "second 'board:'")


def test_knights_goal_lines_stay_alternatives():
    assert len(load(INSTANCES / "seeds/knights_seed003.knights").domain.spec.goals) == 2


@pytest.mark.parametrize("levels,words", [("5-1", ["runs backwards", "1-5"]), ("3,9-2", ["runs backwards"]),
                                          ("1-99999999", ["more than 100,000"]), ("1-x", ["1-40"])])
def test_bench_levels_that_make_no_sense_are_refused(tmp_path, levels, words):
    out = tmp_path / "r.csv"
    result = run("bench", INSTANCES / "rushhour/thinkfun40.rh", "--levels", levels, "--methods", "bfs", "-o", out)
    one_error(result, *words)
    assert not out.exists()
