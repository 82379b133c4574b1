"""One registry of methods (:mod:`puzzleplan.methods`): every method answers the same
question the same way, names are checked before any work, and ``solve`` takes its
options as one object."""
import pytest

from conftest import INSTANCES, ROOT, need
from puzzleplan import methods
from puzzleplan.formats.load import load
from puzzleplan.planner import SolveOptions, solve
from puzzleplan.puzzle import PuzzleError, Status

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

CARDS = INSTANCES / "rushhour/thinkfun40.rh"


# every method of the registry as it runs without more said (abc:pdr's model checker is
# checked family by family in tests/cli/test_modelcheck.py, heavy), and a python-sat solver named
EVERY = [m for m in methods.matrix(here=False) if m != "abc:pdr"] + ["pysat-plain:cadical195"]


@pytest.mark.parametrize("spec", EVERY)
def test_every_method_finds_the_same_optimum(spec):
    need(spec)
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


def test_the_use_cases_of_the_cli_are_in_the_library(tmp_path):
    """Reading plans, decoding an outside solver's answer, the seeds and planning a bench are
    library calls; the CLI only prints them."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from puzzleplan.bench.run import plan_tasks
    from puzzleplan.bench.seeds import seed_rows, solve_seed
    from puzzleplan.export import build, export
    from puzzleplan.planner.decode import decode
    from puzzleplan.plans import read_plan
    (tmp_path / "plan.json").write_text('{"status": "optimal", "steps": ["AR", "BD"]}')
    assert read_plan(tmp_path / "plan.json") == ["AR", "BD"]
    assert read_plan_text(tmp_path, "lurdLURD") == list("lurdLURD")
    formula = build(load(CARDS, 1).domain, "slides", 8, header={"instance": str(CARDS), "level": 1, "constraints": []})
    export(formula, str(tmp_path / "c.cnf"))
    with Solver(name="glucose4", bootstrap_with=CNF(from_file=str(tmp_path / "c.cnf")).clauses) as s:
        assert s.solve()
        (tmp_path / "answer.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    result = decode(CARDS, tmp_path / "c.cnf", tmp_path / "answer.txt")
    assert result.status is Status.FEASIBLE and result.length == 8
    tasks = plan_tasks([str(CARDS)], "1-2", "slides", ["bfs", "pysat"])
    assert [(t.level, t.method) for t in tasks] == [(1, "bfs"), (1, "pysat"), (2, "bfs"), (2, "pysat")]
    with pytest.raises(PuzzleError, match="unknown method 'dfs'"):
        plan_tasks([str(CARDS)], "1", "slides", ["bfs", "dfs"])
    knights = next(r for r in seed_rows() if r["file"].endswith(".knights"))
    entry = solve_seed(knights, time_limit=60)
    assert entry["bfs"] == entry["known"] == entry["sat"]["length"] and entry["sat"]["status"] == "optimal"


def read_plan_text(folder, text):
    from puzzleplan.plans import read_plan
    (folder / "p.txt").write_text(text)
    return read_plan(folder / "p.txt")


def test_backends_share_one_base_class_and_every_capability_is_read():

    from puzzleplan.encodings.model import BoolModel
    from puzzleplan.planner.backends import make_backend
    from puzzleplan.planner.backends.base import CAPABILITIES, Backend
    planner = ROOT / "puzzleplan/planner"
    loop = (planner / "deepening.py").read_text() + (planner / "unrolling.py").read_text()
    assert all(f'"{c}" in solver.capabilities' in loop for c in CAPABILITIES)
    for spec in ("pysat", "pysat-plain", "cpsat", "cpsat-horizons", "external:cadical"):
        backend = make_backend(spec, BoolModel())
        try:
            assert isinstance(backend, Backend) and backend.capabilities <= CAPABILITIES
        finally:
            backend.close()
    assert make_backend("pysat", BoolModel()).capabilities == {"lemmas"}
    assert make_backend("cpsat", BoolModel()).capabilities == {"minimise"}
