"""The family is found once, at load, and travels with the instance: the planner, the searches
and any method take a loaded instance as they take rules."""
import pytest

from conftest import INSTANCES
from puzzleplan import methods, registry
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import Status


def test_solving_an_instance_asks_the_registry_nothing(monkeypatch):
    inst = load(INSTANCES / "knights/guarini.knights")
    assert inst.family is registry.get("knights") and registry.problem(inst) is inst.problem

    def lookup(rules):
        raise AssertionError("the family was looked up again")

    monkeypatch.setattr(registry, "of", lookup)
    result = solve(inst, backend="pysat-de")
    assert result.status is Status.OPTIMAL and result.length == 16
    assert result.method == "pysat-de:cadical195"       # the family's own default solver, from the instance


@pytest.mark.parametrize("spec", ["bfs", "pysat", "cpsat"])
def test_methods_take_an_instance_or_its_rules(spec):
    inst = load(INSTANCES / "rushhour/thinkfun40.rh", 1)
    a, b = methods.run(spec, inst, "slides", 60), methods.run(spec, inst.rules, "slides", 60)
    assert a.status is b.status is Status.OPTIMAL and a.length == b.length == 8
