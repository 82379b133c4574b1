"""Outside solvers and what they claim: every solver program is found and shown with its path,
kissat -q's unknown conflicts stay unknown, a solver that prints without end is stopped; an
outside solver's UNSAT is a claim until a DRAT proof (text or binary, as CaDiCaL and kissat
write it) checks, a proof cut short or bogus fails the check, and a failed certificate has an
exit code of its own; --certify says what it does and gives the same proof on every run.  A
method plug-in (another package's entry point) that does not load is said in one line by the
commands that need the methods, as a family plug-in's is, and the others run."""
import json
import time

import pytest

from _helpers import CARDS, GUARINI, one_error, run, run_unchecked
from conftest import INSTANCES
from puzzleplan.formats.load import load


# --- method plug-ins ---------------------------------------------------------------------------

def broken_plugin(folder, group: str, name: str):
    """A package's entry point, as ``pip install`` leaves it (as tests/conformance/toy_method has
    it), naming a module that is not there; the environment that puts it on the path."""
    import os
    info = folder / f"puzzleplan_{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: puzzleplan-{name}\nVersion: 0.1\n")
    value = "no_such_module_here:ROW" if group == "puzzleplan.methods" else "no_such_module_here"
    (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {value}\n")
    return {**os.environ, "PYTHONPATH": str(folder)}


@pytest.mark.parametrize("group,works", [("puzzleplan.methods", ["families", "--help"]),
                                         ("puzzleplan.families", ["solvers", "--help", "solve --help"])])
def test_a_plugin_that_does_not_load_is_one_line(tmp_path, group, works):
    import subprocess
    import sys
    env = broken_plugin(tmp_path / "site", group, "broken")
    commands = ["families", "solvers", "--help", "solve --help", f"search {GUARINI}", f"solve {GUARINI}",
                f"search {GUARINI} --json", f"bench {GUARINI} --methods bfs -o {tmp_path / 'r.csv'}"]
    for command in commands:
        got = subprocess.run([sys.executable, "-m", "puzzleplan.cli", *command.split()], capture_output=True,
                             text=True, env=env, timeout=120)
        assert "Traceback" not in got.stderr, (command, got.stderr[-800:])
        if command in works:
            assert got.returncode == 0 and got.stdout, (command, got.stderr)
        elif "--json" in command:
            assert got.returncode == 2 and "broken" in json.loads(got.stdout)["message"], (command, got.stdout)
        else:
            assert got.returncode == 2, (command, got.returncode, got.stderr)
            assert got.stderr.startswith("puzzleplan: error: the ") and got.stderr.count("\n") == 1, got.stderr
            assert "entry point broken (no_such_module_here" in got.stderr and "cannot be loaded" in got.stderr
    assert not (tmp_path / "r.csv").exists()


# --- the solver programs ----------------------------------------------------------------------

def test_solvers_lists_every_program_with_its_path():
    import os
    result = run("solvers", "--json")
    assert result.exit_code == 0
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    for name in ("cadical", "kissat", "minisat", "cryptominisat5", "picosat"):    # sh setup.sh test installs all
        assert rows[name]["found"] and os.access(rows[name]["path"], os.X_OK), rows[name]
    assert "glucose42" in rows["python-sat"]["solvers"] and rows["dratify"]["found"]
    text = run("solvers").stdout
    assert rows["kissat"]["path"] in text and "external:kissat" in text


def test_solvers_path_runs_kissat_by_hand(tmp_path):
    import subprocess
    result = run("solvers", "--path", "kissat")
    assert result.exit_code == 0
    cnf = tmp_path / "g.cnf"
    assert run("export", GUARINI, "-t", "16", "-o", cnf).exit_code == 0
    done = subprocess.run([result.stdout.strip(), str(cnf)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 10
    answer = tmp_path / "answer.txt"
    answer.write_text(done.stdout)
    decoded = run("decode", GUARINI, "--cnf", cnf, "--model", answer)
    assert decoded.exit_code == 0 and decoded.stdout.startswith("feasible"), decoded.output
    one_error(run("solvers", "--path", "no-such-solver"), "not found")


@pytest.mark.heavy
def test_quiet_kissat_reports_unknown_conflicts_not_zero():
    result = run("solve", GUARINI, "--backend", "external:kissat -q", "--max-horizon", "16")
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("horizon")]
    assert lines and all("unknown conflicts" in line for line in lines), lines
    assert "conflicts=unknown" in result.stdout
    result = run("solve", GUARINI, "--backend", "external:kissat -q", "--json", "--max-horizon", "16")
    doc = json.loads(result.stdout)
    assert doc["conflicts"] is None and all(h["conflicts"] is None for h in doc["horizons"])
    counted = json.loads(run("solve", GUARINI, "--backend", "external:kissat", "--json").stdout)
    assert counted["conflicts"] > 0


@pytest.mark.timing
def test_an_external_solver_that_prints_without_end_is_stopped(tmp_path):
    """external:yes prints 'y' lines for ever: stopped once its output passes what a model of the
    formula takes, one line, not a gigabyte gathered in memory past the time limit."""
    from click.testing import CliRunner
    from conftest import need
    from puzzleplan.cli import main
    need("external:yes")
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    t0 = time.monotonic()
    done = CliRunner().invoke(main, ["solve", str(puzzle), "-b", "external:yes", "--time-limit", "20", "-q"])
    assert time.monotonic() - t0 < 10
    assert done.exit_code == 2 and "printed more than" in done.output, done.output


# --- an outside UNSAT is a claim; DRAT proofs, text and binary --------------------------------

def test_decode_unsat_is_unverified_unless_a_proof_checks(tmp_path):
    cnf = tmp_path / "card1.cnf"
    assert run_unchecked("export", CARDS, "-l", "1", "-m", "slides", "-t", "7", "-o", cnf).exit_code == 0
    claim = tmp_path / "unsat.txt"
    claim.write_text("UNSAT\n")
    out = run_unchecked("decode", CARDS, "--cnf", cnf, "--model", claim, "--json")
    assert out.exit_code == 4 and json.loads(out.output)["status"] == "unverified"
    # a satisfiable horizon said to be UNSAT is just as unverified
    cnf8 = tmp_path / "card1_8.cnf"
    run_unchecked("export", CARDS, "-l", "1", "-m", "slides", "-t", "8", "-o", cnf8)
    out = run_unchecked("decode", CARDS, "--cnf", cnf8, "--model", claim)
    assert out.exit_code == 4 and out.output.startswith("unverified")
    # a real DRAT proof of horizon 7 checks
    from pysat.formula import CNF
    from pysat.solvers import Solver
    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses, with_proof=True) as s:
        assert s.solve() is False
        proof = tmp_path / "p.drat"
        proof.write_text("\n".join(s.get_proof()) + "\n")
    out = run_unchecked("decode", CARDS, "--cnf", cnf, "--model", claim, "--proof", proof, "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["status"] == "no_plan_within" and json.loads(out.output)["bound"] == 7
    # a proof that does not check is a failed check
    bogus = tmp_path / "bogus.drat"
    bogus.write_text("1 0\n0\n")
    out = run_unchecked("decode", CARDS, "--cnf", cnf, "--model", claim, "--proof", bogus)
    assert out.exit_code == 3 and "does NOT check" in out.output


def binary_drat(text: str) -> bytes:
    """Text DRAT to binary DRAT, written independently of the reader: a/d, LEB128 of 2v+sign, 0."""
    out = bytearray()
    for line in text.splitlines():
        words = line.split()
        if not words or words[0] == "c":
            continue
        kind = b"d" if words[0] == "d" else b"a"
        out += kind
        for w in words[1:] if kind == b"d" else words:
            lit = int(w)
            if lit == 0:
                break
            n = 2 * abs(lit) + (lit < 0)
            while n >= 0x80:
                out.append(n & 0x7F | 0x80)
                n >>= 7
            out.append(n)
        out.append(0)
    return bytes(out)


def test_binary_drat_reads_as_the_text_proof():
    from dratify import parse_proof
    from puzzleplan.planner.certify import read_proof
    text = "1 -2 0\nd 1 -2 0\n-70000 3 0\n200 -1 16 0\n0\n"
    assert read_proof(binary_drat(text)) == parse_proof(text)
    assert read_proof(text.encode()) == text
    for broken in (binary_drat(text)[:-1], b"x\x02\x00", b"a\x01\x00", b"a\x82"):
        with pytest.raises(Exception, match="binary DRAT"):
            read_proof(broken)


@pytest.fixture(scope="module")
def unsat7(tmp_path_factory):
    """Card 1 (slides) at horizon 7, one below its optimum: an UNSAT formula and a claim."""
    d = tmp_path_factory.mktemp("drat")
    cnf = d / "c7.cnf"
    assert run("export", INSTANCES / "rushhour/thinkfun40.rh", "-l", "1", "-m", "slides", "-t", "7", "-o", cnf).exit_code == 0
    (d / "claim.txt").write_text("s UNSATISFIABLE\n")
    return cnf, d / "claim.txt"


@pytest.mark.parametrize("solver", ["cadical", "kissat"])
def test_decode_checks_the_proof_a_solver_writes_by_default(tmp_path, unsat7, solver):
    import subprocess
    from puzzleplan.planner.backends.external_backend import find_solver
    program = find_solver(solver)
    assert program, f"{solver} is not installed: sh setup.sh test installs it"
    cnf, claim = unsat7
    proof = tmp_path / "p.drat"
    done = subprocess.run([program, str(cnf), str(proof)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 20, done.stdout[-500:]
    assert b"\x00" in proof.read_bytes()          # binary: the solvers' default when writing to a file
    result = run("decode", INSTANCES / "rushhour/thinkfun40.rh", "--cnf", cnf, "--model", claim, "--proof", proof,
                 "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["status"] == "no_plan_within" and json.loads(result.stdout)["bound"] == 7
    cut = tmp_path / "cut.drat"
    cut.write_bytes(proof.read_bytes()[: proof.stat().st_size // 2])
    result = run("decode", INSTANCES / "rushhour/thinkfun40.rh", "--cnf", cnf, "--model", claim, "--proof", cut)
    assert result.exit_code == 3 and "does NOT check" in result.stdout


# --- certificates -----------------------------------------------------------------------------

def test_failed_certificate_is_reported_with_its_own_exit_code(monkeypatch):
    import puzzleplan.planner.certify as certify
    monkeypatch.setattr(certify, "check_drat", lambda f, text: {"ok": False, "engine": "x", "check_seconds": 0})
    out = run_unchecked("solve", CARDS, "-l", "1", "-m", "slides", "--certify", "-q")
    assert out.exit_code == 3
    assert "CERTIFICATE FAILED" in out.output.splitlines()[0]
    out = run_unchecked("solve", CARDS, "-l", "1", "-m", "slides", "--certify", "--json")
    assert out.exit_code == 3 and json.loads(out.output)["certified"] is False


def test_certify_says_what_it_does():
    out = run_unchecked("solve", CARDS, "-l", "1", "-m", "slides", "--certify")
    assert out.exit_code == 0 and "certify: proving horizon 7" in out.output
    assert "certify: checking the proof" in out.output


def test_the_certificate_is_the_same_on_every_run(tmp_path, monkeypatch):
    """The proof used to differ from run to run on a byte-identical formula: the solver was stopped
    in slices sized by the clock.  Small fixed slices (many of them here) give one proof."""
    from puzzleplan.planner import certify, solve
    monkeypatch.setattr(certify, "PROOF_SLICE", 40)
    domain = load(INSTANCES / "rushhour/thinkfun40.rh", 20).problem
    proofs = []
    for n in range(2):
        got = solve(domain, "slides", certify=True, proof_file=str(tmp_path / f"p{n}.drat"))
        assert got.stats["certified"] and got.length == 10
        proofs.append((tmp_path / f"p{n}.drat").read_bytes())
    assert proofs[0] == proofs[1] and len(proofs[0]) > 1000
