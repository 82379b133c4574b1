"""A solver race (``pysat:A+B``): the optimum is BFS's, the rows say who won, the stats count
the wins and the CPU seconds, and wrong races are refused before any work."""
import random

import pytest

import families_gen as generate
from puzzleplan.planner import solve
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.search import breadth_first_search


@pytest.mark.parametrize("backend", ["pysat:glucose42+cadical195", "pysat-de:cadical195+glucose42"])
def test_a_race_finds_the_bfs_optimum_and_says_who_won(backend):
    rng = random.Random(11)
    checked = 0
    while checked < 3:
        domain = generate.sliding(rng, 4, 3, 3, 1)
        ref = breadth_first_search(domain, "steps")
        if ref.status is not Status.OPTIMAL:
            continue
        got = solve(domain, "steps", backend)
        assert got.status is Status.OPTIMAL and got.length == ref.length, (got, ref)
        assert got.method == backend
        wins = got.stats["race_wins"]
        assert set(wins) == {"glucose42", "cadical195"} and sum(wins.values()) >= len(got.horizons)
        assert all(row["winner"] in wins for row in got.horizons) and got.stats["cpu_seconds"] > 0
        checked += 1


@pytest.mark.parametrize("backend,says", [("pysat:glucose42+g42", "two different solvers"),
                                          ("pysat:glucose42+nosuch", "unknown python-sat solver 'nosuch'"),
                                          ("pysat:glucose42+kissat404", "not incremental"),
                                          ("pysat:glucose42+cadical195+minisat22", "two different solvers")])
def test_a_wrong_race_is_refused(backend, says):
    domain = generate.sliding(random.Random(1), 4, 3, 3, 1)
    with pytest.raises(PuzzleError, match=says):
        solve(domain, "steps", backend)
