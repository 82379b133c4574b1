"""One memory limit every command inherits (``--memory``, MiB of address space): a run that
reaches it ends with exit code 5 and says so in one line (``memout``, with what was proved),
whether a solver, a search or an encoder was filling the memory; inputs built to fill it (a
results file that never ends, parentheses nested without end) are refused before they do."""
import json
import subprocess
import sys

import pytest

from conftest import INSTANCES, ROOT

PUZZLEPLAN = [sys.executable, "-m", "puzzleplan.cli"]
DOMAIN = """(define (domain d) (:requirements :strips)
 (:predicates (at ?c) (adj ?a ?b))
 (:action move :parameters (?a ?b) :precondition (and (at ?a) (adj ?a ?b))
  :effect (and (at ?b) (not (at ?a)))))"""


def cli(*args, timeout=180):
    return subprocess.run(PUZZLEPLAN + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A 300 x 300 board with two one-cell pieces: its encoding and its search frontier fill
    300 MiB within seconds."""
    n = 300
    rows = ["." * n for _ in range(n)]
    rows[0] = "AB" + "." * (n - 2)
    goal = ["." * n for _ in range(n)]
    goal[n - 1] = "." * (n - 1) + "A"
    path = tmp_path_factory.mktemp("big") / "big.slide"
    path.write_text("board:\n" + "\n".join(rows) + "\n\ngoal:\n" + "\n".join(goal) + "\n")
    return path


@pytest.mark.heavy
def test_sat_reaching_the_memory_limit_says_memout_with_exit_code_5(big):
    got = cli("solve", big, "-m", "slides", "--memory", "512", "--time-limit", "120", "--json")
    assert got.returncode == 5, (got.returncode, got.stderr[-800:])
    doc = json.loads(got.stdout)
    assert doc["status"] == "memout" and "512 MiB" in doc["message"] and "--memory" in doc["message"]
    assert not doc.get("plan") and doc["bound"] is not None      # what was proved, no plan
    assert "Traceback" not in got.stderr


def test_search_reaching_the_memory_limit_reports_what_it_proved(big):
    got = cli("search", big, "-m", "slides", "--memory", "512", "--time-limit", "120")
    assert got.returncode == 5, (got.returncode, got.stderr[-800:])
    lines = got.stdout.splitlines()
    assert lines[0].startswith("memout: bfs, no plan within "), lines[0]
    assert "memory limit reached (512 MiB; more with --memory)" in got.stdout
    assert "Traceback" not in got.stderr


@pytest.mark.heavy
def test_an_export_reaching_the_memory_limit_writes_nothing(big, tmp_path):
    out = tmp_path / "big.cnf"
    got = cli("export", big, "-m", "slides", "--horizon", "3", "-o", out, "--memory", "512")
    assert got.returncode == 5, (got.returncode, got.stderr[-800:])
    assert got.stderr.strip().splitlines()[-1] == "puzzleplan: memout: memory limit reached (512 MiB; more with --memory)"
    assert "Traceback" not in got.stderr
    assert not list(tmp_path.iterdir())


def test_an_export_past_its_time_limit_writes_nothing(big, tmp_path):
    out = tmp_path / "big.cnf"
    got = cli("export", big, "-m", "slides", "--horizon", "3", "-o", out, "--time-limit", "1")
    assert got.returncode == 0 and got.stdout.startswith("timeout: "), (got.stdout, got.stderr[-800:])
    assert "nothing written" in got.stdout and not list(tmp_path.iterdir())


def test_a_memory_limit_too_small_to_start_is_refused():
    got = cli("solve", ROOT / "instances/seeds/klotski_seed000.slide", "--memory", "10")
    assert got.returncode == 2 and got.stderr.strip().splitlines()[-1].startswith("puzzleplan: error: ")
    assert "--memory" in got.stderr


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/urandom"])
def test_a_results_file_that_never_ends_is_refused(name):
    got = cli("report", name, timeout=60)
    assert got.returncode == 2 and got.stderr.strip() == f"puzzleplan: error: {name}: not a results file (not a regular file)"


def test_pddl_nested_a_thousand_deep_grounds_and_a_bomb_of_parentheses_is_refused(tmp_path):
    (tmp_path / "domain.pddl").write_text(DOMAIN)

    def problem(depth):
        goal = "(and " * depth + "(at c2)" + ")" * depth
        return f"(define (problem p) (:domain d) (:objects c1 c2) (:init (at c1) (adj c1 c2)) (:goal {goal}))"

    (tmp_path / "deep.pddl").write_text(problem(1000))
    got = cli("search", tmp_path / "deep.pddl")
    assert got.returncode == 0 and got.stdout.startswith("optimal: bfs, 1 steps"), (got.stdout, got.stderr[-800:])
    (tmp_path / "bomb.pddl").write_text(problem(20_000))
    got = cli("search", tmp_path / "bomb.pddl")
    assert got.returncode == 2 and got.stderr.strip() == \
        f"puzzleplan: error: {tmp_path / 'bomb.pddl'}:1: parentheses nested deeper than 10,000"


def test_a_command_run_in_process_leaves_no_cap_on_its_caller():
    """A test, a notebook or a script running the CLI in-process keeps its own address space
    (a browser started afterwards needs far more than a command's cap)."""
    import resource
    from click.testing import CliRunner
    from puzzleplan.cli import main
    before = resource.getrlimit(resource.RLIMIT_AS)
    got = CliRunner().invoke(main, ["solve", str(ROOT / "instances/knights/guarini.knights"), "--memory", "2000"])
    assert got.exit_code == 0, got.output
    assert resource.getrlimit(resource.RLIMIT_AS) == before


@pytest.mark.parametrize("out", ["x.cnf", "x.wcnf", "x.pb", "x.pbtxt", "x.aag", "x.aig", "x.pddl", "--pddl"])
def test_every_export_kind_keeps_its_time_limit_and_writes_nothing_past_it(big, tmp_path, out):
    target = ["--pddl", tmp_path / "pddl"] if out == "--pddl" else ["-o", tmp_path / out]
    horizon = [] if "pddl" in out else ["-t", "3"]
    got = cli("export", big, "-m", "slides", *horizon, *target, "--time-limit", "2", timeout=60)
    assert got.returncode == 0 and got.stdout.startswith("timeout: ") and "nothing written" in got.stdout, \
        (got.stdout, got.stderr[-800:])
    assert not list(tmp_path.iterdir())


@pytest.mark.heavy
def test_certify_under_the_memory_limit_keeps_the_optimum():
    """The proof's check runs in a process of its own: when it does not fit within --memory (card
    40's check needs about 520 MB) the run keeps its optimum, proved by refutation, and says the
    certification ran out of memory; its native engine's abort neither ends the run (it did:
    exit 134, nothing printed) nor leaves a child waiting (with a time limit it did)."""
    done = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", str(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"),
                           "-m", "slides", "--certify", "--memory", "512", "--time-limit", "60", "-q"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    assert done.stdout.startswith(("optimal (certification out of memory): ", "optimal (certified): ")), done.stdout
    assert ", 51 slides" in done.stdout.splitlines()[0]
    assert "backtrace" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-500:]
