"""The known figures of the seeds and data sets, reproduced by our own search."""
import pytest

from conftest import INSTANCES, catalogue
from puzzleplan.formats.load import load
from puzzleplan.search import astar_search, breadth_first_search, explore
from puzzleplan.puzzle import Status


@pytest.mark.parametrize("path,reachable", [
    ("seeds/klotski_seed000.slide", 25955),
    ("seeds/rushhour_card40_bmodel_v1.rh", 4780),
    ("seeds/rushhour_card40_bmodel_v2.rh", 4780),
    ("sliding/pennant.slide", 1398),
])
def test_reachable_states(path, reachable):
    assert explore(load(INSTANCES / path).problem)["reachable"] == reachable


def test_enumeration_stops_at_the_first_goal_when_asked():
    # the planner's enumeration seeks only an unsolvable answer: a goal seen rules it out
    domain = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    whole, first = explore(domain), explore(domain, stop_at_goal=True)
    assert whole["complete"] and whole["goal_states"] > 1
    assert not first["complete"] and first["stopped"] == "goal" and first["goal_states"] == 1
    assert first["nearest_goal"] == whole["nearest_goal"] == 81
    assert first["reachable"] < whole["reachable"] == 4780


def test_rush_hour_seed_transitions_match_tlc():
    # TLC: 29,889 states generated = 29,888 transitions + the initial state
    assert explore(load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem)["transitions"] == 29888


SLOW = {"swap_4x3_labelled", "century", "mas_puzzle", "klotski"}   # klotski: same as klotski_seed
BEYOND_SEARCH = {"peg_english33"}      # optima from the literature; its SAT plan: tests/unit/test_pegsol.py


@pytest.mark.parametrize("row", [
    pytest.param(r, marks=[pytest.mark.slow] if r["name"] in SLOW else [])
    for r in catalogue() if r["domain"] != "sokoban" and not r["name"].startswith("rushhour_card")
    and r["name"] not in BEYOND_SEARCH],
    ids=lambda r: f"{r['name']}-{r['metric']}")
def test_bfs_optimum_matches_catalogue(row):
    inst = load(INSTANCES / row["file"], int(row["level"]) if row["level"] else None)
    result = breadth_first_search(inst.problem, row["metric"])
    assert result.status is Status.OPTIMAL
    assert result.length == int(row["optimum"])


@pytest.mark.heavy
def test_all_40_thinkfun_cards_match_their_stated_moves():
    for card in range(1, 41):
        inst = load(INSTANCES / "rushhour/thinkfun40.rh", card)
        result = breadth_first_search(inst.problem, "slides")
        assert result.length == inst.stated_optimum, card


def test_microban_1_to_20_push_optimal():
    rows = [r for r in catalogue() if r["domain"] == "sokoban"]
    assert len(rows) == 20
    for row in rows:
        inst = load(INSTANCES / row["file"], int(row["level"]))
        result = astar_search(inst.problem, "pushes")
        assert result.length == int(row["optimum"]), row["level"]


def test_huarong_dao_first_layout_is_klotski():
    inst = load(INSTANCES / "sliding/huarongdao_simonhung.tsv", 1)
    assert breadth_first_search(inst.problem, "moves").length == inst.stated_optimum == 81


def test_astar_agrees_with_bfs_on_seeds():
    for path, metric in [("seeds/rushhour_card40_bmodel_v2.rh", "steps"), ("knights/guarini.knights", "steps"),
                         ("sliding/pennant.slide", "moves")]:
        d = load(INSTANCES / path).problem
        assert astar_search(d, metric).length == breadth_first_search(d, metric).length


def test_knights_seed_goal_needs_exactly_eight_moves_of_one_knight():
    inst = load(INSTANCES / "seeds/knights_seed003.knights")
    result = breadth_first_search(inst.problem)
    replay = inst.rules.replay(result.steps)
    assert result.length == 13 and sorted(replay.moved[-1].values()) == [5, 8]


def test_unsolvable_is_reported(write):
    path = write("stuck.slide", "board:\nAB\n\ngoal:\nBA\n")
    assert breadth_first_search(load(path).problem).status is Status.UNSOLVABLE


@pytest.mark.slow
@pytest.mark.parametrize("name", ["century", "mas_puzzle"])
def test_large_classics(name):
    rows = [r for r in catalogue() if r["name"] == name]
    for row in rows:
        d = load(INSTANCES / row["file"]).problem
        assert breadth_first_search(d, row["metric"]).length == int(row["optimum"])
        assert explore(d)["reachable"] == int(row["reachable"])
