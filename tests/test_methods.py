"""One registry of methods (:mod:`puzzleplan.methods`): every method answers the same
question the same way, names are checked before any work, and ``solve`` takes its
options as one object."""
import pytest

from conftest import INSTANCES
from puzzleplan import methods
from puzzleplan.formats.load import load
from puzzleplan.planner import SolveOptions, solve
from puzzleplan.puzzle import PuzzleError, Status

CARDS = INSTANCES / "rushhour/thinkfun40.rh"


@pytest.mark.parametrize("spec", ["bfs", "astar", "pysat", "pysat-plain:cadical195", "cpsat", "cpsat-horizons",
                                  "external:cadical", "fd-lmcut", "fd-blind", "symk"])
def test_every_method_finds_the_same_optimum(spec):
    assert methods.parse(spec)[0].name in methods.names()
    domain = load(CARDS, 1).domain
    result = methods.run(spec, domain, "slides", 120)
    assert result.status is Status.OPTIMAL and result.length == 8, result


def test_the_registry_covers_each_kind_and_the_cli_uses_it():
    assert methods.names(methods.SEARCH) == ["bfs", "astar"]
    assert {"pysat", "cpsat", "external"} <= set(methods.names(methods.SAT))
    assert {"fd-lmcut", "symk"} <= set(methods.names(methods.PLANNER))
    from click.testing import CliRunner
    from puzzleplan.cli import main
    out = CliRunner().invoke(main, ["bench", "--help"]).output
    assert "pysat[:SOLVER]" in out and "external:CMD" in out and "symk" in out


@pytest.mark.parametrize("spec,problem", [("dfs", "unknown method 'dfs'"), ("bfs:2", "bfs takes no option"),
                                          ("external", "external needs a command"),
                                          ("pysat:nosuchsolver", "nosuchsolver")])
def test_a_wrong_method_is_refused_before_any_work(spec, problem):
    with pytest.raises(PuzzleError, match=problem):
        methods.check(spec)


def test_solve_takes_one_options_object():
    domain = load(CARDS, 2).domain
    plain = solve(domain, "slides", options=SolveOptions(backend="pysat-plain", max_horizon=30))
    changed = solve(domain, "slides", "pysat-plain", options=SolveOptions(max_horizon=5), max_horizon=30)
    assert plain.status is changed.status is Status.OPTIMAL and plain.length == changed.length
    assert plain.method == changed.method == "pysat-plain:glucose42"
    capped = solve(domain, "slides", options=SolveOptions(max_horizon=3))
    assert capped.status is Status.NO_PLAN_WITHIN and capped.bound == 3
    with pytest.raises(TypeError, match="max_horizn"):
        solve(domain, "slides", max_horizn=3)
