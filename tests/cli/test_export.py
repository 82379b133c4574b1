"""CNF export with a symbol table, outside SAT solvers (binaries), decoding their answers,
WCNF and CP-SAT exports, and certified optimality (checked DRAT proofs)."""
import json
import random
import subprocess

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
import families_gen as generate
from puzzleplan.cli import main
from puzzleplan.registry import problem as problem_of
from puzzleplan.export import build, decode_answer, export, read_answer, read_header
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.planner.backends.external_backend import find_solver
from puzzleplan.planner.certify import certify
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

CARD40 = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"
GUARINI = INSTANCES / "knights/guarini.knights"
SEED003 = INSTANCES / "seeds/knights_seed003.knights"
# installed by `sh setup.sh test`: Debian's binaries and the kissat wheel; none may be missing
SOLVERS = ["cadical", "kissat", "minisat", "cryptominisat5", "picosat"]


def run_solver(name: str, cnf, tmp_path) -> str:
    """Run a solver binary on a CNF file the way a user would; return its answer text."""
    path = find_solver(name)
    assert path, f"{name} is not installed (sh setup.sh test installs it)"
    if name == "minisat":
        out = tmp_path / "minisat.out"
        subprocess.run([path, str(cnf), str(out)], capture_output=True, timeout=120)
        return out.read_text()
    return subprocess.run([path, str(cnf)], capture_output=True, text=True, timeout=120).stdout


def generated():
    """A few generated instances of every domain, with optima between 3 and 12 (memoised)."""
    if not CASES:
        rng = random.Random(31)
        makers = [(lambda: generate.sliding(rng), "steps"), (lambda: generate.sliding(rng, rush=True), "slides"),
                  (lambda: generate.sokoban(rng, 4, 3, boxes=1), "pushes"),
                  (lambda: generate.sokoban(rng, 4, 3, boxes=1, closed=False), "moves"),
                  (lambda: problem_of(generate.knights(rng, 3, 4, counted=True)), "steps")]
        for make, metric in makers:
            found = 0
            while found < 2:
                domain = make()
                ref = breadth_first_search(domain, metric)
                if ref.length is not None and 3 <= ref.length <= 12:
                    CASES.append((domain, metric, ref.length))
                    found += 1
    return CASES


CASES: list = []


def test_symbol_table_round_trips_for_every_domain(tmp_path):
    cases = [(load(CARD40).rules, "slides", 6), (load(INSTANCES / "sokoban/Microban.txt", 3).rules, "pushes", 4),
             (load(SEED003).rules, "steps", 5),
             (load(CARD40, constraints=["A+B.moves<=3", "A.ends=e3,f3"]).problem, "steps", 4)]
    for i, (domain, metric, T) in enumerate(cases):
        f = build(domain, metric, T, header={"instance": "x", "constraints": ["A.moves>=1"]})
        out = tmp_path / f"f{i}.cnf.gz"
        export(f, out)
        info = read_header(out)
        assert info["symbols"] == f.symbols() and len(info["symbols"]) == f.nvars
        assert (info["metric"], info["horizon"], info["vars"], info["clauses"]) == (metric, T, f.nvars, len(f.clauses))
        side = json.loads((tmp_path / f"f{i}.cnf.gz.json").read_text())
        assert {int(k): tuple(v) if isinstance(v, list) else v for k, v in side["symbols"].items()}.keys() == f.symbols().keys()
        kinds = {k[0] for k in f.symbols().values()}
        # move variables: one per move ("mv"), or per direction of a knight alone of its kind ("jmp")
        assert {"act", "goal"} <= kinds and kinds & {"mv", "jmp"}


@pytest.mark.parametrize("solver", SOLVERS)
def test_external_binaries_agree_with_the_planner_on_generated_instances(solver, tmp_path):
    """export at the optimum -> solver -> decode -> replay; export at optimum-1 -> UNSAT."""
    for i, (domain, metric, length) in enumerate(generated()):
        assert solve(domain, metric).length == length
        f = build(domain, metric, length)
        cnf = tmp_path / f"g{i}.cnf"
        export(f, cnf)
        answer = read_answer(run_solver(solver, cnf, tmp_path))
        steps = decode_answer(f, answer)
        report = check_plan(domain, steps, metric)
        assert report["solved"] and report["length"] == length
        g = build(domain, metric, length - 1)
        export(g, tmp_path / f"u{i}.cnf")
        assert read_answer(run_solver(solver, tmp_path / f"u{i}.cnf", tmp_path)).status == "unsat"


@pytest.mark.parametrize("solver", ["cadical", "kissat -q", "minisat", "picosat"])
def test_external_backend_finds_the_optimum(solver):
    for domain, metric, length in generated()[::2] + [(load(GUARINI).rules, "steps", 16)]:
        got = solve(domain, metric, f"external:{solver}", time_limit=60)
        assert got.status is Status.OPTIMAL and got.length == length
        assert check_plan(domain, got.steps, metric)["solved"]
        assert all("vars" in h and "clauses" in h for h in got.horizons)


@pytest.mark.timing
def test_external_backend_time_limit_and_errors():
    slow = load(INSTANCES / "seeds/klotski_seed000.slide").problem
    got = solve(slow, "steps", "external:cadical", time_limit=2, first_plan=False)
    assert got.status is Status.TIMEOUT and got.stats["seconds"] < 10
    with pytest.raises(PuzzleError, match="not found"):
        solve(slow, "steps", "external:no-such-solver")


@pytest.mark.heavy
def test_cli_export_solve_elsewhere_decode(tmp_path):
    runner = CliRunner()
    cnf = tmp_path / "c40.cnf.xz"
    res = runner.invoke(main, ["export", str(CARD40), "-m", "slides", "-t", "51", "-o", str(cnf)])
    assert res.exit_code == 0, res.output
    answer = subprocess.run(["sh", "-c", f"xzcat {cnf} | {find_solver('cadical')} -q"], capture_output=True, text=True)
    (tmp_path / "answer.txt").write_text(answer.stdout)
    res = runner.invoke(main, ["decode", str(CARD40), "--cnf", str(cnf), "--model", str(tmp_path / "answer.txt"), "--json"])
    out = json.loads(res.output)
    # 51 slides is optimal; in unit steps any plan takes at least the steps optimum, 81
    assert out["status"] == "feasible" and out["length"] == 51 and len(out["steps"]) >= 81
    # the existing file is never overwritten without --force
    res = runner.invoke(main, ["export", str(CARD40), "-m", "slides", "-t", "50", "-o", str(cnf)])
    assert res.exit_code == 2 and "exists" in res.output
    # an UNSAT answer, in minisat's result-file format, on this satisfiable horizon: a claim
    # that nothing checked (exit code 4), never "no plan within 51"
    (tmp_path / "unsat.txt").write_text("UNSAT\n")
    res = runner.invoke(main, ["decode", str(CARD40), "--cnf", str(cnf), "--model", str(tmp_path / "unsat.txt")])
    assert res.exit_code == 4 and res.output.startswith("unverified") and "no_plan_within" not in res.output


def test_decode_rejects_bad_answers(tmp_path):
    runner = CliRunner()
    cnf = tmp_path / "g.cnf"
    assert runner.invoke(main, ["export", str(GUARINI), "-t", "16", "-o", str(cnf)]).exit_code == 0
    answers = {
        "garbage.txt": ("hello\n", "no 's SATISFIABLE"),
        "noend.txt": ("s SATISFIABLE\nv 1 2 3\n", "do not end with 0"),
        "letters.txt": ("s SATISFIABLE\nv 1 x 0\n", "other than integers"),
        "wrong.txt": ("s SATISFIABLE\nv 1 2 3 0\n", "violates a clause"),
        "unknown.txt": ("s UNKNOWN\n", "no answer"),
        "odd.txt": ("s MAYBE\n", "unknown solution line"),
    }
    for name, (text, message) in answers.items():
        (tmp_path / name).write_text(text)
        res = runner.invoke(main, ["decode", str(GUARINI), "--cnf", str(cnf), "--model", str(tmp_path / name)])
        assert res.exit_code == 2 and message in res.output and res.output.count("\n") == 1, (name, res.output)
    # the CNF of another puzzle: its symbol table differs
    res = runner.invoke(main, ["decode", str(INSTANCES / "knights/swap_3x4.knights"), "--cnf", str(cnf),
                               "--model", str(tmp_path / "wrong.txt")])
    assert res.exit_code == 2 and "does not match this puzzle" in res.output
    (tmp_path / "plain.cnf").write_text("p cnf 1 1\n1 0\n")
    res = runner.invoke(main, ["decode", str(GUARINI), "--cnf", str(tmp_path / "plain.cnf"), "--model", str(cnf)])
    assert res.exit_code == 2 and "not a formula exported by puzzleplan" in res.output
    res = runner.invoke(main, ["export", str(GUARINI), "-t", "3", "-o", str(tmp_path / "x.txt")])
    assert res.exit_code == 2 and "unknown export type" in res.output


def test_wcnf_minimum_cost_is_the_optimum(tmp_path):
    """A MaxSAT solver on the WCNF (horizon above the optimum) finds the fewest moves."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF
    domain = load(SEED003).problem
    f = build(domain, "steps", 14)
    export(f, tmp_path / "s.wcnf")
    w = WCNF(from_file=str(tmp_path / "s.wcnf"))
    assert len(w.soft) == 14 and len(w.hard) == len(f.clauses)
    with RC2(w) as rc2:
        model = rc2.compute()
        assert rc2.cost == 13
    steps = decode_answer(f, read_answer("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n"))
    assert check_plan(domain, steps, "steps")["length"] == 13


def test_cpsat_export_is_the_same_formula(tmp_path):
    from ortools.sat.python import cp_model
    from ortools.sat import cp_model_pb2
    domain = load(GUARINI).problem
    for T, expected, ext in ((16, cp_model.OPTIMAL, ".pb"), (15, cp_model.INFEASIBLE, ".pbtxt")):
        out = tmp_path / f"g{T}{ext}"
        export(build(domain, "steps", T), out)
        if ext == ".pb":
            proto = cp_model_pb2.CpModelProto()
            proto.ParseFromString(out.read_bytes())
            text = str(proto)
        else:
            text = out.read_text()
        model = cp_model.CpModel()
        assert model.proto.parse_text_format(text) is not False
        assert len(model.proto.variables) > 1000
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(model) == expected


def test_certified_optimality(tmp_path):
    domain = load(GUARINI).problem
    got = solve(domain, "steps", certify=True, proof_file=str(tmp_path / "g.drat"))
    assert got.status is Status.OPTIMAL and got.stats["certified"] is True
    assert "certified" in got.proof and (tmp_path / "g.drat").stat().st_size > 1000
    # a proof that is cut short does not check
    from dratify import check_proof, parse_dimacs
    f = build(domain, "steps", 15)
    dimacs = f"p cnf {f.nvars} {len(f.clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in f.clauses)
    lines = (tmp_path / "g.drat").read_text().splitlines()
    cut = check_proof(parse_dimacs(dimacs), "\n".join(lines[: len(lines) // 3]))
    assert not (cut.ok and cut.reached_empty)
    with pytest.raises(PuzzleError, match="is satisfiable"):
        certify(domain, "steps", 17)
    res = CliRunner().invoke(main, ["solve", str(GUARINI), "--certify", "-q"])
    assert res.exit_code == 0 and res.output.startswith("optimal (certified)")
    res = CliRunner().invoke(main, ["solve", str(GUARINI), "--certify", "--proof", str(tmp_path / "g.drat")])
    assert res.exit_code == 2 and "exists" in res.output


def test_a_pddl_task_with_walks_of_cost_0_exports_and_decodes_under_cost(tmp_path):
    """IPC Sokoban p02 (its walks cost 0, each laid out as one transition): the CNF of horizon 9
    (the known optimum) is satisfiable for an outside solver and its answer decodes, walks found
    again, to a plan of cost 9 that replays; horizon 8 is unsatisfiable."""
    task = INSTANCES / "pddl/p02.pddl"
    for horizon, want in ((9, "SATISFIABLE"), (8, "UNSATISFIABLE")):
        cnf = tmp_path / f"h{horizon}.cnf"
        got = CliRunner().invoke(main, ["export", str(task), "-m", "cost", "--horizon", str(horizon), "-o", str(cnf)])
        assert got.exit_code == 0, got.output
        answer = run_solver("cadical", cnf, tmp_path)
        assert f"s {want}" in answer
    (tmp_path / "h9.out").write_text(run_solver("cadical", tmp_path / "h9.cnf", tmp_path))
    got = CliRunner().invoke(main, ["decode", str(task), "--cnf", str(tmp_path / "h9.cnf"),
                                    "--model", str(tmp_path / "h9.out"), "--json"])
    assert got.exit_code == 0, got.output
    plan = json.loads(got.stdout)
    assert (plan["status"], plan["length"]) == ("feasible", 9)
    assert check_plan(load(task).problem, plan["steps"], "cost")["length"] == 9
