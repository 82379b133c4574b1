"""What tiles in each other's way add to their distances (families/sliding/conflicts.py), checked
against exact distances on every state of small boards, and SAT's optima with and without it."""
import pytest

from puzzleplan import registry
from puzzleplan.families.sliding import conflicts
from puzzleplan.families.sliding.encoding import SlidingEncoder
from puzzleplan.families.sliding.rules import apart
from puzzleplan.formats.load import load
from puzzleplan.planner import solve

from test_pdb import BOARDS, slide, space

BOARDS = {**BOARDS, "2x4 reversed row": (["CBA.", "DE.F"], ["ABC.", "DEF."])}
HEAVY = {"3x3 wall", "3x3 half named", "2x4 reversed row"}      # 5-20 s each


def bound(rules, state, metric, patterns) -> tuple[int, int]:
    """(the tiles' distances, those plus every pattern's excess) in ``state``."""
    at = {k: state[k][0] for k, _ in rules.goal}
    far = sum(apart(at[k], g, metric) for k, g in rules.goal)
    extra = sum(max((d for cells, d in placements if all(at[k] == a for k, a in cells)), default=0)
                for _, placements in patterns)
    return far, far + extra


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.heavy] if n in HEAVY else []) for n in sorted(BOARDS)])
@pytest.mark.parametrize("metric", ["steps", "slides"])
def test_distances_plus_excess_never_pass_the_exact_distance(name, metric, write):
    rules = load(write("b.slide", slide(*BOARDS[name]))).rules
    patterns = conflicts.excess_clauses(rules, metric)
    assert patterns, "every board here has two tiles in one goal row"
    edges, dist = space(rules, metric)
    above = 0
    for state in edges:
        far, total = bound(rules, state, metric, patterns)
        if state in dist:
            assert total <= dist[state], (state, total, dist[state])
        above += total > far
    assert above > 0, "the excess adds something somewhere"


def test_two_tiles_reversed_in_their_goal_row_cost_two_more():
    rules = load_text(["BA.", "CDE"], ["AB.", "CDE"])
    patterns = conflicts.excess_clauses(rules, "steps")
    kind = {rules.kinds[k].labels[0]: k for k, _ in rules.goal}
    pair = ((kind["A"], (1, 0)), (kind["B"], (0, 0)))
    assert any(sorted(cells) == sorted(pair) and d == 2 for _, ps in patterns for cells, d in ps)


def load_text(board, goal):
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "b.slide"
        path.write_text(slide(board, goal))
        return load(path).rules


def test_no_excess_for_larger_pieces_or_the_moves_metric():
    klotski = load("instances/sliding/klotski.slide").rules
    assert conflicts.excess_clauses(klotski, "steps") == []
    rules = load_text(["BA.", "CDE"], ["AB.", "CDE"])
    assert conflicts.excess_clauses(rules, "moves") == []


@pytest.mark.parametrize("name", ["2x3 two blanks", "2x4 reversed row"])   # solvable (two blanks: no parity)
def test_sat_finds_the_same_optimum_with_and_without_the_excess(name, write, monkeypatch):
    path = write("b.slide", slide(*BOARDS[name]))
    answers = []
    for on in (True, False):
        monkeypatch.setattr(SlidingEncoder, "conflicts_bound", on)
        problem = registry.problem(load(path).rules, (), ())
        result = solve(problem, "steps", backend="pysat-de")
        answers.append((result.status, result.length))
    assert answers[0] == answers[1] and answers[0][0] == "optimal"


def test_the_encoder_states_the_excess_only_when_asked(write, monkeypatch):
    from puzzleplan.encodings import encoder_for
    problem = registry.problem(load(write("b.slide", slide(*BOARDS["2x4 reversed row"]))).rules, (), ())
    for on in (True, False):
        monkeypatch.setattr(SlidingEncoder, "conflicts_bound", on)
        assert bool(encoder_for(problem, "steps").conflicts()) is on
