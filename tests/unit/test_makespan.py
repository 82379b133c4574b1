"""The sliding ``makespan`` metric: time steps of pieces moving at once (the definition in
``puzzleplan/families/sliding/makespan.py``; the oracle in tests/conformance/test_oracle.py
compares SAT and search with a search written from the definition)."""
import pytest
from click.testing import CliRunner

from puzzleplan.cli import main
from puzzleplan.families.sliding.makespan import time_steps
from puzzleplan.families.sliding.parallel import SimultaneousSteps
from puzzleplan.families.sliding.rules import SlidingSpec, build
from puzzleplan.planner import first, solve
from puzzleplan.puzzle import MoveCount, PuzzleError, Status
from puzzleplan.registry import problem as problem_of
from puzzleplan.search import astar_search, breadth_first_search

pytestmark = pytest.mark.smoke


def board(rows, goal_rows):
    cells = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                cells.setdefault(ch, set()).add((x, y))
    goal = {}
    for y, row in enumerate(goal_rows):
        for x, ch in enumerate(row):
            if ch != ".":
                goal.setdefault(ch, set()).add((x, y))
    spec = SlidingSpec(len(rows[0]), len(rows), frozenset(), {lb: frozenset(c) for lb, c in sorted(cells.items())},
                       {lb: "hv" for lb in cells}, tuple((lb, frozenset(c)) for lb, c in sorted(goal.items())))
    return problem_of(build(spec, distinct=list(cells)))


def successors(problem):
    rules = problem.rules
    return [sorted(rules.render_steps([move])) for move, _ in rules.successors(rules.initial, "makespan")]


def test_pieces_move_together_when_they_enter_empty_cells_only():
    assert sorted(successors(board(["A..", "...", "..B"], ["...", "...", "..."]))) == sorted(
        [["AR"], ["AD"], ["BL"], ["BU"], ["AR", "BL"], ["AR", "BU"], ["AD", "BL"], ["AD", "BU"]])
    # two pieces may not enter one cell, nor may one follow another into the cell it leaves
    assert sorted(successors(board(["A.B"], ["..."]))) == [["AR"], ["BL"]]
    assert successors(board(["AB."], ["..."])) == [["BR"]]


def test_a_plan_is_counted_in_time_steps_from_its_steps():
    rules = board(["A..", "...", "..B"], ["...", "...", "..."]).rules
    pieces = rules.spec.pieces
    assert time_steps(pieces, ["AR", "BL"]) == [("A+B", ("AR", "BL"))]
    assert time_steps(pieces, ["AR", "AR"]) == [("A", ("AR",)), ("A", ("AR",))]   # a piece once a time step
    # B enters the cell A left in the same time step: not allowed, a new time step
    follow = board(["AB."], ["..."]).rules
    assert time_steps(follow.spec.pieces, ["BR", "AR"]) == [("B", ("BR",)), ("A", ("AR",))]
    assert rules.count(["AR", "BL", "AR", "BU"], "makespan") == 2


def test_sat_and_search_agree_and_the_plan_moves_pieces_together():
    problem = board(["AB.", "...", ".CD"], [".BA", "...", "DC."])
    bfs = breadth_first_search(problem, "makespan")
    star = astar_search(problem, "makespan")
    for backend in ("pysat", "pysat-de", "cpsat"):
        sat = solve(problem, "makespan", backend)
        assert sat.status is Status.OPTIMAL and sat.length == bfs.length == star.length == 5, backend
        assert problem.rules.replay(sat.steps).solved
        assert problem.rules.count(sat.steps, "makespan") == 5 < len(sat.steps)


def test_the_bound_counts_the_farthest_piece_not_the_sum():
    problem = board(["A..", "...", "..B"], ["..A", "...", "B.."])
    assert problem.rules.heuristic(problem.rules.initial, "makespan") == 2
    assert problem.rules.heuristic(problem.rules.initial, "steps") == 4


def test_counts_are_refused_in_one_line():
    problem = board(["AB..", "..E.", "..CD"], ["..BA", "....", "DC.."])
    with pytest.raises(PuzzleError, match="makespan metric counts time steps"):
        SimultaneousSteps(problem, "makespan", (MoveCount("E", "<=", 0),))


def test_the_cli_refuses_a_frozen_piece_in_makespan(tmp_path):
    path = tmp_path / "b.slide"
    path.write_text("board:\nAB..\n..E.\n..CD\n\ngoal:\n..BA\n....\nDC..\n")
    run = CliRunner().invoke(main, ["solve", str(path), "-m", "makespan", "--frozen", "E"])
    assert run.exit_code == 2 and "Traceback" not in run.output
    assert run.output.strip().splitlines()[-1].startswith("puzzleplan: error: the makespan metric counts time steps")


def test_a_first_plan_walks_unit_steps_and_is_counted_in_time_steps():
    problem = board(["AB..", "..E.", "..CD"], ["..BA", "....", "DC.."])
    steps, length, row = first.greedy_first(problem, "makespan", ())
    assert problem.rules.replay(steps).solved
    assert length == problem.rules.count(steps, "makespan") <= len(steps)
    assert row["way"] == "greedy"


def test_show_draws_one_frame_per_time_step(tmp_path):
    path = tmp_path / "b.slide"
    path.write_text("board:\nA..\n...\n..B\n\ngoal:\n..A\n...\nB..\n")
    plan = tmp_path / "plan.txt"
    plan.write_text("AR BL AR BL\n")
    run = CliRunner().invoke(main, ["show", str(path), "--plan", str(plan), "-m", "makespan"])
    assert run.exit_code == 0, run.output
    assert "time step 1: AR BL" in run.output and "time step 2: AR BL" in run.output
    assert "time step 3" not in run.output
    run = CliRunner().invoke(main, ["show", str(path), "--plan", str(plan)])
    assert "step 4: BL" in run.output


def test_two_interchangeable_pieces_never_enter_one_cell_together(tmp_path):
    # A, B and D are one kind (1x1, unnamed): from (1, 1) and (0, 0) both may step into (1, 0),
    # which the cover at t + 1 counted once -- a plan of 4 time steps in which one piece vanished
    from puzzleplan.formats.load import load
    path = tmp_path / "twins.slide"
    path.write_text("board:\nB.D.\n.AE.\nC.EE\n\ngoal:\nE...\nEE..\n....\n\naxes: C=v\n")
    problem = load(path).problem
    best = breadth_first_search(problem, "makespan")
    assert best.status is Status.OPTIMAL and best.length == 6
    for backend in ("pysat", "pysat-de", "cpsat"):
        sat = solve(problem, "makespan", backend)
        assert sat.status is Status.OPTIMAL and sat.length == 6, backend
        assert problem.rules.replay(sat.steps).solved


def test_solve_refuses_counts_in_makespan_before_any_work(tmp_path):
    path = tmp_path / "b.slide"
    path.write_text("board:\nAB..\n..E.\n..CD\n\ngoal:\n..BA\n....\nDC..\n")
    for extra in (["--frozen", "E"], ["--moves", "A>=1"], ["-b", "cpsat", "--moves", "A<=4"]):
        run = CliRunner().invoke(main, ["solve", str(path), "-m", "makespan", *extra])
        assert run.exit_code == 2 and "Traceback" not in run.output, extra
        lines = run.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("puzzleplan: error: the makespan metric counts time steps"), \
            (extra, run.output)       # no enumeration nor horizon said before the refusal
    with pytest.raises(PuzzleError, match="makespan metric counts time steps"):
        solve(board(["AB..", "..E.", "..CD"], ["..BA", "....", "DC.."]), "makespan", "pysat",
              counts=(MoveCount("E", "<=", 0),))
