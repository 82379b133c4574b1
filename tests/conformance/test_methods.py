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
    domain = load(CARDS, 1).problem
    result = methods.run(spec, domain, "slides", 120)
    assert result.status is Status.OPTIMAL and result.length == 8, result


def test_the_registry_covers_each_kind_and_the_cli_uses_it():
    assert methods.names(methods.SEARCH) == ["bfs", "astar", "idastar"]
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
    domain = load(CARDS, 2).problem
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
    formula = build(load(CARDS, 1).problem, "slides", 8, header={"instance": str(CARDS), "level": 1, "constraints": []})
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


def test_every_method_has_one_shape_and_declares_what_it_needs():
    """Each row's code is a Plugin class: built from its option, with one solve, its needs
    declared as data (unavailable derived from them), supports answered before any run."""
    from puzzleplan.plugins import Package, Plugin, Program
    for spec in methods.matrix(here=False):
        method, option, cls = methods.code(spec)
        assert isinstance(cls, type) and issubclass(cls, Plugin), spec
        assert all(isinstance(r, (Program, Package)) for r in cls.needs(option)), spec
        built = methods.build(spec)
        assert callable(built.solve) and built.spec == spec
        family = __import__("puzzleplan.registry", fromlist=["get"]).get("knights")
        assert built.supports(family, "steps") is None, spec      # every method takes knights in steps


def test_a_missing_requirement_says_why_and_how_to_install_it(monkeypatch):
    from puzzleplan.plugins import Package, Program
    assert Program("puzzleplan-no-such-program", "apt-get install nothing").missing() == \
        "the program puzzleplan-no-such-program is not installed (apt-get install nothing)"
    assert Package("puzzleplan_no_such_module", "no-such-dist", "pip install no-such-dist").missing() == \
        "no-such-dist is not installed (pip install no-such-dist)"
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(PuzzleError, match="berkeley-abc is not installed"):
        methods.check("abc:pdr")
    assert "berkeley-abc" in next(r for r in methods.availability() if r["name"] == "abc")["why_not"]


def test_a_pair_a_method_does_not_take_is_refused_before_any_run(monkeypatch):
    """A planner on the PDDL export cannot take the sliding 'moves' metric; ABC's AIGER export,
    move counts in the goal: refused with the reason, the planner never started."""
    from puzzleplan.pddl import planners
    from puzzleplan.puzzle import MoveCount

    def never(*args, **kwargs):
        raise AssertionError("the planner was started")
    monkeypatch.setattr(planners, "run_driver", never)
    domain = load(CARDS, 1).problem
    for spec in methods.matrix(methods.PLANNER, here=False):
        assert "not exported to PDDL" in methods.refusal(spec, domain, "moves")
        with pytest.raises(PuzzleError, match="not exported to PDDL"):
            methods.run(spec, domain, "moves", 60)
    counted = load(CARDS, 1, constraints=["A.moves>=2"]).problem
    assert "move counts in the goal" in methods.refusal("abc:pdr", counted, "slides")
    assert "move counts in the goal" in methods.refusal("abc:pdr", domain, "slides", [MoveCount("A", ">=", 2)])
    with pytest.raises(PuzzleError, match="move counts in the goal"):
        solve(counted, "slides", "abc:pdr")
    assert methods.refusal("abc:pdr", domain, "slides") is None
    assert methods.refusal("bfs", counted, "moves") is None


def test_symk_modes_are_its_option():
    with pytest.raises(PuzzleError, match="symk:fw"):
        methods.check("symk:sideways")
    assert [methods.build(f"symk{m}").search for m in ("", ":fw", ":bw", ":bd")] == \
        ["sym_bd()", "sym_fw()", "sym_bw()", "sym_bd()"]


def test_the_bench_provenance_names_every_package_a_method_needs():
    from puzzleplan.bench.run import versions
    from puzzleplan.plugins import Package
    line = versions()
    for r in methods.requirements(methods.matrix(here=False)):
        if isinstance(r, Package) and r.version():
            assert f"{r.dist} {r.version()}" in line, (r, line)


def test_need_skips_where_a_program_is_missing_and_fails_in_ci(monkeypatch):
    from _pytest.outcomes import Failed, Skipped

    from puzzleplan.kit import need
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(Skipped, match="puzzleplan-no-such-program"):
        need("puzzleplan-no-such-program")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match="puzzleplan-no-such-program"):
        need("puzzleplan-no-such-program")
    need("bfs", "pysat")        # here: nothing happens


def test_a_backends_own_options_are_its_own():
    """lemma_budget, first_probe, goal_lemmas and bounds belong to the python-sat backends with
    lemmas (typed dataclasses on the class), not to the general SolveOptions; solve takes them by
    name, completes them with their defaults, and refuses a name no backend takes."""
    from dataclasses import fields

    from puzzleplan.planner.backends.pysat_backend import DoubleEnded, Forward, Plain
    general = {f.name for f in fields(SolveOptions)}
    assert not general & {"lemma_budget", "first_probe", "goal_lemmas", "bounds"}
    assert {f.name for f in fields(DoubleEnded.own_options)} == {"lemma_budget", "first_probe", "goal_lemmas", "bounds"}
    assert {f.name for f in fields(Forward.own_options)} == {"lemma_budget", "first_probe"} and Plain.own_options is None
    domain = load(CARDS, 2).problem
    small = solve(domain, "slides", "pysat", lemma_budget=1, first_probe=False)
    usual = solve(domain, "slides", "pysat")
    assert small.status is usual.status is Status.OPTIMAL and small.length == usual.length
    assert "first_probe" not in small.stats
    with pytest.raises(TypeError, match="goal_lemas"):
        solve(domain, "slides", "pysat-de", goal_lemas=False)
