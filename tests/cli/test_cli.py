"""The command line: results, JSON contract, and bad input -> one line, exit 2."""
import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan.cli import main

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

GUARINI = str(INSTANCES / "knights/guarini.knights")
RUSH = str(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_search_json_contract():
    out = run("search", RUSH, "--metric", "slides", "--json")
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert data["status"] == "optimal" and data["length"] == 51 and data["metric"] == "slides"
    assert len(data["steps"]) == 81 and data["steps"][0][-1] in "UDLR"
    assert data["board"][2] == "KBCAAL" and "expanded" in data and "seconds" in data


def test_solve_json_has_per_horizon_figures():
    data = json.loads(run("solve", GUARINI, "--json", "--no-first-plan").stdout)
    assert data["status"] == "optimal" and data["length"] == 16
    assert data["horizons"][-1]["result"] == "sat" and all(h["result"] == "unsat" for h in data["horizons"][:-1])
    assert {"vars", "clauses", "conflicts", "seconds"} <= set(data["horizons"][0])
    # with a first plan in hand (the default, once the run is hard) the deepening ends by refuting
    # the horizon below it: the same optimum, proved by the same kind of rows
    data = json.loads(run("solve", GUARINI, "--json").stdout)
    assert data["status"] == "optimal" and data["length"] == 16
    rows = [h["result"] for h in data["horizons"]]
    assert rows[-1] == "sat" or (rows[-1] == "unsat" and data["horizons"][-1]["horizon"] == 15
                                 and "first_plans" in data)
    assert all(r == "unsat" for r in rows[:-1])


def test_the_distance_bounds_are_on_where_the_family_says_and_switch_either_way():
    """Knights state them by default (both sides), Sokoban does not; --no-bounds and
    --bounds change that, the optimum never."""
    on = json.loads(run("solve", GUARINI, "--json").stdout)
    off = json.loads(run("solve", GUARINI, "--json", "--no-bounds").stdout)
    assert on["length"] == off["length"] == 16
    assert on["goal_bounds"] > 0 and on["start_bounds"] > 0
    assert off["goal_bounds"] == 0 and "start_bounds" not in off
    sokoban = str(INSTANCES / "sokoban/Microban.txt")
    plain = json.loads(run("solve", sokoban, "--level", 1, "--json").stdout)
    asked = json.loads(run("solve", sokoban, "--level", 1, "--json", "--bounds").stdout)
    assert plain["goal_bounds"] == 0 and asked["goal_bounds"] > 0 and plain["length"] == asked["length"]
    rush = json.loads(run("solve", RUSH, "--json").stdout)        # sliding blocks: the goal side's only
    assert rush["goal_bounds"] > 0 and "start_bounds" not in rush and rush["length"] == 81
    forward = run("solve", GUARINI, "-b", "pysat", "--bounds")      # asked where no unrolling states them: said
    assert forward.exit_code == 0 and "no distance bounds: only the double-ended" in forward.stderr


def test_explore_counts():
    data = json.loads(run("explore", RUSH, "--json").stdout)
    assert data["reachable"] == 4780


def test_validate_plan_file(tmp_path):
    plan = tmp_path / "plan.json"
    plan.write_text(run("search", GUARINI, "--json").stdout)
    assert run("validate", GUARINI, plan).exit_code == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("a3-c2 a3-c2\n")
    out = run("validate", GUARINI, bad)
    assert out.exit_code == 2 and "step 2 (a3-c2): no knight on a3" in out.stderr


def test_show_draws_board_and_plan(tmp_path):
    plan = tmp_path / "p.txt"
    plan.write_text("gR gR")
    out = run("show", INSTANCES / "seeds/klotski_seed000.slide", "--plan", plan)
    assert out.exit_code == 0 and "g..h" in out.stdout and "..gh" in out.stdout


def test_show_marks_a_rush_hour_exit(tmp_path):
    """The red car's row ends in ``>``, in the board and in every frame of a plan; the other rows as in
    the file."""
    plan = tmp_path / "p.txt"
    plan.write_text("HR")
    out = run("show", RUSH, "--plan", plan)
    assert out.exit_code == 0, out.output
    rows = out.stdout.splitlines()
    assert rows[:6] == ["KHH.F.", "KBC.FL", "KBCAAL>", "MMME.L", "..DEJJ", "GGDII."]
    assert rows[7] == "step 1: HR" and rows[8:14] == ["K.HHF.", "KBC.FL", "KBCAAL>", "MMME.L", "..DEJJ", "GGDII."]


@pytest.mark.parametrize("args,problem", [
    (("search", "missing.rh"), "no such file"),
    (("search", RUSH, "--metric", "pushes"), "unknown metric 'pushes'"),
    (("search", INSTANCES / "rushhour/thinkfun40.rh", "--level", "99"), "unknown level number 99"),
    (("solve", GUARINI, "--backend", "nope"), "unknown backend"),
    (("solve", GUARINI, "--backend", "pysat:nosuch"), "unknown python-sat solver"),
    (("search", GUARINI, "--moves", "Q>=2"), "no knight 'Q'"),
    (("search", GUARINI, "--moves", "W>=2"), "interchangeable"),
])
def test_bad_input_exit_2_one_line(args, problem):
    out = run(*args)
    assert out.exit_code == 2
    assert problem in out.stderr and out.stderr.count("\n") == 1 and "Traceback" not in out.output


def test_json_error_object():
    out = run("solve", "missing.slide", "--json")
    assert out.exit_code == 2 and json.loads(out.stdout)["status"] == "error"
