"""Additive pattern databases (families/sliding/pdb.py), IDA* and the blockers' bound, checked
against exact distances on every state of small boards."""
from collections import deque

import numpy as np
import pytest

from puzzleplan import plugins
from puzzleplan.families.sliding import pdb
from puzzleplan.formats.load import load
from puzzleplan.kit import goal_distances
from puzzleplan.search import astar_search, breadth_first_search, ida_star_search

from conftest import INSTANCES

BOARDS = {      # name: (board, goal); '.' empty, '#' wall, letters tiles
    "2x3": (["BCA", "ED."], ["ABC", "DE."]),
    "2x3 two blanks": (["B.A", "EC."], ["ABC", "E.."]),
    "3x3 wall": (["CAB", "#D.", "FE."], ["ABC", "#DE", "F.."]),
    "3x3 half named": (["pEB", "DAq", "rs."], ["AB.", ".DE", "..."]),     # p q r s: any four tiles
}


def slide(board, goal) -> str:
    return "board:\n" + "\n".join(board) + "\n\ngoal:\n" + "\n".join(goal) + "\n"


def space(rules, metric):
    """Every reachable state, each state's successors, and each state's distance to the goal."""
    seen, parents, edges = {rules.initial}, {}, {}
    queue = deque([rules.initial])
    while queue:
        state = queue.popleft()
        edges[state] = []
        for _, nxt in rules.successors(state, metric):
            edges[state].append(nxt)
            parents.setdefault(nxt, []).append(state)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return edges, goal_distances(rules, parents, seen)


def check_every_state(rules, metric, consistent: bool = True) -> int:
    """Admissible (and ``consistent``) on every reachable state; never below the per-tile bounds."""
    assert rules.pattern_tables(metric) is not None
    edges, dist = space(rules, metric)
    for state, nexts in edges.items():
        h = rules.heuristic(state, metric)
        assert h >= sum(rules.mover_bounds(state, metric, 0).values())
        if state in dist:
            assert h <= dist[state], (state, h, dist[state])
        for nxt in nexts if consistent else ():
            assert h <= 1 + rules.heuristic(nxt, metric), (state, nxt)
    return len(edges)


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.heavy] if n.startswith("3x3") else [])
                                  for n in sorted(BOARDS)])
@pytest.mark.parametrize("metric", ["steps", "slides"])
def test_the_tables_are_admissible_and_consistent_on_every_state(name, metric, write):
    """The tables that hold the blank (or tiles alone, with more blanks): consistent too."""
    rules = load(write("b.slide", slide(*BOARDS[name]))).rules
    rules.pattern_form = "held"
    assert check_every_state(rules, metric) > 50


@pytest.mark.parametrize("name", ["2x3", "3x3 half named"])
def test_the_tables_without_the_blank_are_admissible_on_every_state(name, write):
    """One blank: the tables project it out (the least over its cells), admissible but not
    consistent (the 2x3 board has a move that lowers the bound by 3), and the search stays
    optimal (A* opens states again, IDA* needs admissibility alone)."""
    rules = load(write("b.slide", slide(*BOARDS[name]))).rules
    assert not rules.pattern_tables("steps").blank
    assert check_every_state(rules, "steps", consistent=False) > 50
    best = breadth_first_search(rules, "steps").length
    assert astar_search(rules, "steps").length == ida_star_search(rules, "steps").length == best


@pytest.mark.heavy
@pytest.mark.parametrize("form", ["held", "projected"])
def test_the_eight_puzzle_tables_on_all_181440_states(form):
    rules = load(INSTANCES / "sliding/eight_puzzle.slide").rules
    rules.pattern_form = form
    assert check_every_state(rules, "steps", consistent=form == "held") == 181440


def test_the_tables_say_more_than_manhattan_and_search_stays_optimal():
    rules = load(INSTANCES / "sliding/eight_puzzle.slide").rules
    assert rules.heuristic(rules.initial, "steps") > sum(rules.mover_bounds(rules.initial, "steps", 0).values())
    assert rules.pattern_tables("steps").figures()["patterns"] == "4-4 and 4-4 reflected"
    assert rules.pattern_tables("steps", form="held").figures()["patterns"] == "4-4 and 4-4"
    best = breadth_first_search(rules, "steps").length
    assert astar_search(rules, "steps").length == ida_star_search(rules, "steps").length == best


def test_no_tables_for_larger_pieces_or_the_moves_metric():
    klotski = load(INSTANCES / "sliding/klotski.slide").rules
    assert klotski.pattern_tables("steps") is None
    assert load(INSTANCES / "sliding/eight_puzzle.slide").rules.pattern_tables("moves") is None


def test_no_tables_for_a_board_of_more_cells_than_the_limit(tmp_path):
    """A 300 x 300 board of two tiles: a table's build ran out of 512 MiB in slides (every cell of
    every slide of every abstract state); beyond MAX_CELLS the bound is the per-piece one."""
    n = 9
    assert n * n > pdb.MAX_CELLS
    path = tmp_path / "wide.slide"
    path.write_text(slide(["AB" + "." * (n - 2)] + ["." * n] * (n - 1), ["." * n] * (n - 1) + ["." * (n - 1) + "A"]))
    rules = load(path).rules
    assert rules.pattern_tables("slides") is None and rules.pattern_tables("steps") is None
    assert rules.heuristic(rules.initial, "slides") == 2 and rules.heuristic(rules.initial, "steps") == 2 * (n - 1)


def test_the_cache_is_written_read_and_a_corrupt_file_made_again(tmp_path, monkeypatch, write):
    monkeypatch.setenv("PUZZLEPLAN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(pdb, "CACHE_FROM", 0)
    monkeypatch.setattr(pdb, "_MADE", {})
    path = write("b.slide", slide(*BOARDS["2x3"]))
    first = load(path).rules.pattern_tables("steps")
    files = sorted((tmp_path / "cache").glob("pdb-*.npz"))
    assert files and first.figures()["cache"] == "made"
    assert not list((tmp_path / "cache").glob("*.tmp"))       # written whole, then renamed
    pdb._MADE.clear()
    again = load(path).rules.pattern_tables("steps")
    assert again.figures()["cache"] == "read"
    assert [t.values for ts in again.sets for t in ts] == [t.values for ts in first.sets for t in ts]
    files[0].write_bytes(files[0].read_bytes()[:100])           # truncated
    with np.load(files[1]) as f:                                # another table's values under this key
        np.savez(files[1], key=f["key"], values=np.full_like(f["values"], 3))
    pdb._MADE.clear()
    third = load(path).rules.pattern_tables("steps")
    assert third.figures()["cache"] == "made, read" or third.figures()["cache"] == "made"
    assert [t.values for ts in third.sets for t in ts] == [t.values for ts in first.sets for t in ts]


def test_an_unwritable_cache_keeps_the_tables_in_memory(tmp_path, monkeypatch, write):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("PUZZLEPLAN_CACHE", str(blocker / "cache"))     # under a file: cannot be made
    monkeypatch.setattr(pdb, "CACHE_FROM", 0)
    monkeypatch.setattr(pdb, "_MADE", {})
    rules = load(write("b.slide", slide(*BOARDS["2x3"]))).rules
    assert rules.pattern_tables("steps").figures()["cache"] == "made, not written"
    assert astar_search(rules, "steps").length == breadth_first_search(rules, "steps").length


def test_idastar_is_a_registered_search_and_agrees_with_bfs():
    assert plugins.table()["idastar"].kind == plugins.SEARCH
    from puzzleplan.kit import instances
    from puzzleplan.registry import get
    agreed = 0
    for rules in instances(get("sliding"), 8, seed=7, wrapped=False):
        for metric in rules.metrics:
            bfs = breadth_first_search(rules, metric)
            got = ida_star_search(rules, metric)
            assert got.status is bfs.status and got.length == bfs.length, (metric, got, bfs)
            agreed += got.length is not None
    assert agreed >= 10


def test_rush_hour_counts_the_cars_in_the_red_cars_way():
    rules = load(INSTANCES / "seeds/rushhour_card40_bmodel_v1.rh").rules
    (red, exit_), = rules.goal
    for metric in ("steps", "slides"):
        (car, need), = rules.blockers(rules.initial, metric).items()
        assert car[0] != red and need == {"steps": 2, "slides": 1}[metric]    # a car of three, two cells to clear
        assert rules.heuristic(rules.initial, metric) == 1 + need       # the red car is one step from the exit


@pytest.mark.heavy
def test_rush_hour_astar_keeps_the_known_optima():
    rules = load(INSTANCES / "seeds/rushhour_card40_bmodel_v1.rh").rules
    for metric, optimum in (("steps", 81), ("slides", 51)):
        assert astar_search(rules, metric).length == optimum


def test_ranked_tables_round_trip_and_rank_in_python():
    """A table kept by rank (n!/(n-k)! entries) spreads back to n**k; Python's rank agrees."""
    from itertools import permutations

    from puzzleplan.families.sliding import projected
    n, k = 6, 3
    dense = np.full(n ** k, projected.UNREACHED, dtype=np.uint8)
    ranks = {}
    for cells in permutations(range(n), k):
        i = sum(c * n ** j for j, c in enumerate(cells))
        dense[i] = i % 200
        ranks[projected.rank(cells, n)] = cells
    assert sorted(ranks) == list(range(len(ranks))) and len(ranks) == 120
    ranked = projected.compact(dense, n, k)
    assert ranked.size == 120 and (projected.spread(ranked, n, k) == dense).all()
    assert all(ranked[r] == sum(c * n ** j for j, c in enumerate(cells)) % 200 for r, cells in ranks.items())


def test_partition_sizes():
    from puzzleplan.families.sliding import projected
    assert projected.sizes_for(15, 16) == (4, 4, 4, 3)
    assert projected.sizes_for(15, 16, 1 << 24) == (5, 5, 5)
    assert projected.sizes_for(15, 16, projected.LARGEST) == (6, 6, 3)
    assert projected.sizes_for(8, 9) == (4, 4)
    assert projected.sizes_for(5, 6) == (3, 2)


def test_the_reflected_set_reads_the_same_tables():
    rules = load(INSTANCES / "sliding/eight_puzzle.slide").rules
    tables = rules.pattern_tables("steps")
    assert len(tables.sets) == 2 and tables.sets[1][0].values is tables.sets[0][0].values
    figures = tables.figures()
    assert figures["bytes"] == 2 * 9 * 8 * 7 * 6 and figures["memory_bytes"] == 2 * 9 ** 4


@pytest.mark.parametrize("patterns", [True, False])
def test_ida_star_in_place_is_optimal_and_replayed(patterns):
    """The in-place search (tables, or Manhattan) finds BFS's length; its plan is the rules'."""
    rules = load(INSTANCES / "sliding/eight_puzzle.slide").rules
    rules.patterns = patterns
    assert rules.tile_search("steps") is not None
    best = breadth_first_search(rules, "steps").length
    r = ida_star_search(rules, "steps")
    assert r.length == best and r.status.value == "optimal" and r.stats["expanded"] > 0


def test_ida_star_stops_at_its_expansion_budget():
    rules = load(INSTANCES / "sliding/eight_puzzle.slide").rules
    rules.patterns = False
    full = ida_star_search(rules, "steps").stats["expanded"]
    r = ida_star_search(rules, "steps", max_expanded=full // 2)
    assert r.status.value == "timeout" and r.message == "expansion budget reached"
    assert r.stats["expanded"] == full // 2 + 1 and r.bound is not None and r.bound < 16
    klotski = load(INSTANCES / "sliding/klotski.slide").rules
    assert klotski.tile_search("steps") is None



def test_ida_star_in_place_knows_an_unsolvable_board(write):
    """Two tiles swapped: the parity test says no plan, as BFS finds."""
    rules = load(write("b.slide", slide(["BA", "C."], ["AB", "C."]))).rules
    assert rules.tile_search("steps") is not None
    assert breadth_first_search(rules, "steps").status.value == "unsolvable"
    assert ida_star_search(rules, "steps").status.value == "unsolvable"


def test_patterns_option_parts_the_tables_or_says_why_not_in_one_line():
    from click.testing import CliRunner
    from puzzleplan.cli import main
    eight = str(INSTANCES / "sliding/eight_puzzle.slide")
    plain = CliRunner().invoke(main, ["search", eight, "-a", "astar"])
    parted = CliRunner().invoke(main, ["search", eight, "-a", "astar", "--patterns", "3-3-2"])
    assert parted.exit_code == 0 and parted.output.splitlines()[0] == plain.output.splitlines()[0]
    rules = load(INSTANCES / "sliding/eight_puzzle.slide").problem.rules
    rules.use_patterns((3, 3, 2), "steps")
    assert [len(t.kinds) for t in rules.pattern_tables("steps").sets[0]] == [3, 3, 2]
    for args, said in ((["--patterns", "5-5"], "the sizes add up to 10; the goal places 8 tiles"),
                       (["--patterns", "x-1"], "sizes of 1 or more joined by '-'"),
                       (["--patterns", "4-4", "-m", "moves"], "no pattern databases here")):
        run = CliRunner().invoke(main, ["search", eight, *args])
        assert run.exit_code == 2 and said in run.output and "Traceback" not in run.output, run.output
    card = str(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh")
    run = CliRunner().invoke(main, ["solve", card, "--patterns", "2-2"])
    assert run.exit_code == 2 and "no pattern databases here" in run.output
