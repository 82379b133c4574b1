"""What a new user meets in the first hour, and what hostile input does: frozen pieces,
duplicate sections, reversed ranges, overwritten files, size caps, tracebacks, contradictory
conditions.  Each test names the case it guards."""
import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan.cli import main
from puzzleplan.formats.load import load
from puzzleplan.validate import check_plan

TWO = """\
board:
AB.
...
goal:
...
..B
"""


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output + (result.stderr or ""), result.output
    return result


def one_error(result, *words):
    """Exit 2 and one line ``puzzleplan: error: ...`` naming ``words``."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzleplan: error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


# --- 15: a frozen piece never steps, in every metric -------------------------------------

@pytest.mark.parametrize("metric", ["moves", "slides", "steps"])
def test_frozen_piece_that_steps_and_returns_is_not_valid(write, metric):
    inst = load(write("two.slide", TWO), constraints=["A.frozen"])
    # A steps down and back: under `moves` a run that ends where it began counts no move
    report = check_plan(inst.domain, ["AD", "AU", "BR", "BD"], metric)
    assert not report["solved"] and "A=2" in report["problem"]
    assert check_plan(inst.domain, ["BR", "BD"], metric)["solved"]


def test_frozen_in_the_cli(write, tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("AD AU BR BD")
    path = write("two.slide", TWO)
    assert run("validate", path, plan, "-m", "moves").exit_code == 0
    for extra in (["--frozen", "A"], ["-c", "A.moves=0"]):
        result = run("validate", path, plan, "-m", "moves", *extra)
        assert result.exit_code == 1 and result.stdout.startswith("legal but not solved"), result.output


# --- 11: the wrong question is not answered -----------------------------------------------

@pytest.mark.parametrize("section", ["goal", "board", "name", "axes"])
def test_a_second_section_in_a_slide_file_is_an_error(write, section):
    extra = {"goal": "goal:\nA..\n...\n", "board": "board:\n.A.\n...\n", "name": "name: y\n", "axes": "axes: A=h\n"}
    text = "name: x\n" + TWO + "axes: B=hv\n\n" + extra[section]
    path = write("twice.slide", text)
    result = run("search", path)
    one_error(result, f"a second '{section}:' section", "twice.slide:")


def test_a_second_goal_section_does_not_replace_the_first(write):
    # before: the second goal (A where it stands) won, and the answer was "optimal, 0 steps"
    path = write("twice.slide", TWO + "\ngoal:\nA..\n...\n")
    one_error(run("solve", path, "--time-limit", "5"), "second 'goal:'", ":8:", "line 4")


def test_a_second_board_in_a_knights_file_is_an_error(write):
    text = (INSTANCES / "knights/guarini.knights").read_text() + "\nboard:\nW.W\n...\nB.B\n"
    one_error(run("search", write("g.knights", text)), "second 'board:'")


def test_knights_goal_lines_stay_alternatives():
    assert len(load(INSTANCES / "seeds/knights_seed003.knights").domain.spec.goals) == 2


@pytest.mark.parametrize("levels,words", [("5-1", ["runs backwards", "1-5"]), ("3,9-2", ["runs backwards"]),
                                          ("1-99999999", ["more than 100,000"]), ("1-x", ["1-40"])])
def test_bench_levels_that_make_no_sense_are_refused(tmp_path, levels, words):
    out = tmp_path / "r.csv"
    result = run("bench", INSTANCES / "rushhour/thinkfun40.rh", "--levels", levels, "--methods", "bfs", "-o", out)
    one_error(result, *words)
    assert not out.exists()


# --- 13: no tracebacks; outputs checked before the work ------------------------------------

GUARINI = INSTANCES / "knights/guarini.knights"
CARD40 = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"


def test_proof_into_a_missing_folder_is_refused_before_solving(tmp_path):
    result = run("solve", GUARINI, "--certify", "--proof", tmp_path / "missing/dir/p.drat")
    one_error(result, "--proof", "no folder")
    assert "horizon" not in result.stderr       # refused before any horizon was tried


def test_proof_through_a_dangling_link_is_refused(tmp_path):
    link = tmp_path / "p.drat"
    link.symlink_to(tmp_path / "elsewhere.drat")
    one_error(run("solve", GUARINI, "--certify", "--proof", link), "symbolic link")
    assert not (tmp_path / "elsewhere.drat").exists()


@pytest.mark.parametrize("backend", ['external:"unclosed', "external:kissat 'x"])
def test_an_unclosed_quote_in_a_backend(tmp_path, backend):
    one_error(run("solve", GUARINI, "--backend", backend), "no closing quotation")
    one_error(run("bench", GUARINI, "--methods", backend, "-o", tmp_path / "r.csv"), "no closing quotation")
    assert not (tmp_path / "r.csv").exists()


@pytest.mark.parametrize("address", ["not-an-address", "tcp://127.0.0.1:1"])
def test_a_dask_address_nobody_answers(tmp_path, monkeypatch, address):
    from puzzleplan.bench import run as bench_run
    monkeypatch.setattr(bench_run, "DASK_CONNECT_SECONDS", 2)
    out = tmp_path / "r.csv"
    one_error(run("bench", GUARINI, "--methods", "bfs", "--dask", address, "-o", out), "--dask", "cannot connect")
    assert not out.exists() and not (tmp_path / "r.csv.meta.jsonl").exists()


# --- 10: nothing overwritten without --force ------------------------------------------------

@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "r.csv"
    assert run("bench", GUARINI, "--methods", "bfs", "-o", out).exit_code == 0
    return out


def test_report_keeps_an_existing_markdown_file(tmp_path, results):
    md = tmp_path / "tables.md"
    md.write_text("mine\n")
    one_error(run("report", results, "--markdown", md), "--markdown", "exists", "--force")
    assert md.read_text() == "mine\n"
    assert run("report", results, "--markdown", md, "--force").exit_code == 0
    assert "Statuses" in md.read_text()


def test_report_keeps_existing_plots(tmp_path, results):
    plots = tmp_path / "plots"
    plots.mkdir()
    (plots / "cactus.png").write_bytes(b"mine")
    one_error(run("report", results, "--plots", plots), "--plots", "cactus.png", "--force")
    assert (plots / "cactus.png").read_bytes() == b"mine"
    assert not (plots / "time_vs_length.png").exists()
    assert run("report", results, "--plots", plots, "--force").exit_code == 0
    assert (plots / "cactus.png").read_bytes() != b"mine"


def test_report_makes_no_folders_anywhere(tmp_path, results):
    one_error(run("report", results, "--plots", tmp_path / "a/b/plots"), "no folder")
    assert not (tmp_path / "a").exists()
    assert run("report", results, "--plots", tmp_path / "plots").exit_code == 0     # one new level is fine


@pytest.mark.parametrize("suffix,text", [(".csv", "name,score\nann,3\n"), (".jsonl", '{"name": "ann"}\n')])
def test_bench_leaves_an_unrelated_file_untouched(tmp_path, suffix, text):
    out = tmp_path / f"unrelated{suffix}"
    out.write_text(text)
    one_error(run("bench", GUARINI, "--methods", "bfs", "-o", out), "not a results file")
    assert out.read_text() == text
    assert not (tmp_path / f"unrelated{suffix}.meta.jsonl").exists()


def test_bench_makes_no_folders_anywhere(tmp_path):
    one_error(run("bench", GUARINI, "--methods", "bfs", "-o", tmp_path / "x/y/r.csv"), "no folder")
    assert not (tmp_path / "x").exists()


def test_export_and_animations_refuse_a_dangling_link(tmp_path):
    for args, name in ((["export", GUARINI, "-t", "2", "-o"], "x.cnf"), (["search", GUARINI, "--html"], "g.html")):
        link = tmp_path / name
        link.symlink_to(tmp_path / f"elsewhere-{name}")
        one_error(run(*args, link), "symbolic link")
        assert not (tmp_path / f"elsewhere-{name}").exists()


# --- 12: bounded reads ----------------------------------------------------------------------

def test_a_gzip_bomb_is_refused_at_the_cap(tmp_path):
    import gzip
    import time
    bomb = tmp_path / "bomb.slide.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as fh:      # 200 MiB of zeros in about 200 KB
        chunk = bytes(1 << 20)
        for _ in range(200):
            fh.write(chunk)
    t0 = time.monotonic()
    one_error(run("show", bomb), "larger than 64 MiB once decompressed")
    assert time.monotonic() - t0 < 10


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_special_files_as_puzzle_plan_and_model(tmp_path, device):
    link = tmp_path / "z.slide"
    link.symlink_to(device)
    one_error(run("show", link), "is a device")
    one_error(run("validate", GUARINI, device), "is a device")
    cnf = tmp_path / "g.cnf"
    assert run("export", GUARINI, "-t", "2", "-o", cnf).exit_code == 0
    one_error(run("decode", GUARINI, "--cnf", cnf, "--model", device), "is a device")
    one_error(run("decode", GUARINI, "--cnf", device, "--model", device), "not a regular file")


def test_a_file_above_the_cap(tmp_path, monkeypatch):
    from puzzleplan.formats import common
    plan = tmp_path / "plan.txt"
    plan.write_text("b1-c3 " * 2000)
    monkeypatch.setattr(common, "MAX_BYTES", 1 << 10)
    monkeypatch.setattr(common.read_text, "__defaults__", (1 << 10,))
    one_error(run("validate", GUARINI, plan), "too big")


def test_an_endless_line_in_a_formula(tmp_path):
    cnf = tmp_path / "z.cnf"
    cnf.write_bytes(b"c" * (3 << 20))
    one_error(run("decode", GUARINI, "--cnf", cnf, "--model", cnf), "longer than 1 MiB")


def test_windows_line_ends_still_read(write):
    path = write("crlf.slide", TWO.replace("\n", "\r\n"))
    assert run("search", path).exit_code == 0


# --- 14: the HTML player takes any title ----------------------------------------------------

@pytest.mark.parametrize("title", ["<!--<script>", "</script><script>x()</script>", "__SCENE__"])
def test_the_script_element_holds_no_markup(write, tmp_path, title):
    import re
    from puzzleplan.animate import write as animate
    domain = load(write("t.slide", f"name: {title}\n" + TWO)).domain
    page = tmp_path / "t.html"
    animate(domain, ["BR", "BD"], "steps", page)
    text = page.read_text()
    scene = re.search(r'<script id="scene" type="application/json">(.*?)</script>', text, re.S).group(1)
    assert "<" not in scene and ">" not in scene
    assert json.loads(scene)["title"] == title
    assert text.count("<script") == 2 and text.count("</script>") == 2


# --- 16: well-formed, contradictory conditions: unsolvable, with the reason ------------------

CONTRADICTIONS = [
    (["-c", "C.ends=c3", "-c", "*.avoid=c3"], "starts on a cell it must avoid"),
    (["--ends", "B:a1,b1"], "cannot end within the cells given"),
    (["--ends", "B:b1,b2", "--frozen", "B"], "frozen but must end"),
    (["--ends", "B:b1,b2", "--ends", "B:b4,b5"], "nowhere to finish"),
]


@pytest.mark.parametrize("command", [["search"], ["search", "-a", "astar"], ["solve"], ["solve", "-b", "cpsat"]])
@pytest.mark.parametrize("conditions,reason", CONTRADICTIONS)
def test_contradictory_conditions_are_unsolvable(command, conditions, reason):
    result = run(*command, CARD40, *conditions, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == "unsolvable" and reason in doc["proof"] and doc["board"][0] == "KHH.F."


def test_contradictory_conditions_in_text_and_other_commands(tmp_path):
    conditions, reason = CONTRADICTIONS[0]
    result = run("search", CARD40, *conditions)
    assert result.exit_code == 0 and result.stdout.startswith("unsolvable: bfs (no plan can meet") and reason in result.stdout
    plan = tmp_path / "plan.txt"
    plan.write_text("AR")
    result = run("validate", CARD40, plan, *conditions)
    assert result.exit_code == 1 and result.stdout.startswith("not solved: no plan can meet") and reason in result.stdout
    result = run("show", CARD40, *conditions)
    assert result.exit_code == 0 and result.stdout.startswith("KHH.F.") and reason in result.stderr
    out = tmp_path / "r.csv"
    assert run("bench", CARD40, "--methods", "bfs,pysat", *conditions, "-o", out).exit_code == 0
    import csv
    rows = list(csv.DictReader(open(out)))
    assert [r["status"] for r in rows] == ["unsolvable", "unsolvable"] and reason in rows[0]["message"]


def test_knights_and_sokoban_contradictions():
    result = run("search", GUARINI, "--avoid", "W:a3", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "unsolvable"
    result = run("solve", INSTANCES / "sokoban/Microban.txt", "-l", "2", "--avoid", "player:b5,c5,d5",
                 "--ends", "player:b5", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "unsolvable", result.output


def test_a_slip_is_still_bad_input():
    one_error(run("search", CARD40, "--ends", "B:z1"), "off the board")


# --- 2: binary DRAT, as CaDiCaL and kissat write it --------------------------------------

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


# --- 4: the solvers found, and where; unknown conflicts are unknown --------------------------

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


# --- 9: --certify keeps to --time-limit; 7: the proof is the same on every run --------------

@pytest.mark.timing
def test_certify_keeps_to_the_time_limit():
    import subprocess
    import sys
    import time
    t0 = time.monotonic()
    # without a limit: planning 2 s, proof 5 s, check 8 s (card 40, slides)
    done = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", str(CARD40), "-m", "slides", "--certify",
                           "--time-limit", "4", "-q"], capture_output=True, text=True, timeout=120)
    wall = time.monotonic() - t0
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("optimal (certification timed out): ") and ", 51 slides" in done.stdout
    assert wall < 4 + 2.5, wall     # the limit, plus the start-up of a fresh process


def test_the_certificate_is_the_same_on_every_run(tmp_path, monkeypatch):
    """The proof used to differ from run to run on a byte-identical formula: the solver was stopped
    in slices sized by the clock.  Small fixed slices (many of them here) give one proof."""
    from puzzleplan.planner import certify, solve
    monkeypatch.setattr(certify, "PROOF_SLICE", 40)
    domain = load(INSTANCES / "rushhour/thinkfun40.rh", 20).domain
    proofs = []
    for n in range(2):
        got = solve(domain, "slides", certify=True, proof_file=str(tmp_path / f"p{n}.drat"))
        assert got.stats["certified"] and got.length == 10
        proofs.append((tmp_path / f"p{n}.drat").read_bytes())
    assert proofs[0] == proofs[1] and len(proofs[0]) > 1000


# --- 3: the cheap, complete answer does not depend on the limit given -----------------------

@pytest.mark.timing
def test_enumeration_finishes_under_a_time_limit():
    """Klotski with B frozen: 25,994 states, unsolvable, enumerated in about 1.5 s.  A tenth of an
    8 s limit stopped the enumeration, and the answer was a timeout after 8 s of deepening."""
    result = run("solve", INSTANCES / "seeds/klotski_seed000.slide", "--frozen", "B", "--time-limit", "8", "--json")
    doc = json.loads(result.stdout)
    assert doc["status"] == "unsolvable" and doc["method"] == "enumeration", doc.get("status")
    assert doc["reachable"] == 25994


@pytest.mark.timing
def test_a_wide_space_is_still_given_up_early(write):
    """A guard: a space that is not finishing (the 15-puzzle, a frontier far above a tenth of the
    states seen) is given up soon after a tenth of the limit, leaving the deepening its time."""
    import time
    from puzzleplan.planner.deepening import _enumerated
    text = "board:\nABCD\nEFGH\nIJKL\nMNO.\ngoal:\nABCD\nEFGH\nIJKL\nM.NO\n"
    domain = load(write("fifteen.slide", text)).domain
    t0 = time.monotonic()
    assert _enumerated(domain, "steps", 5.0, lambda text: None) is None
    assert time.monotonic() - t0 < 2.4       # half the limit would be 2.5 s


# --- 5: long work shows progress in a terminal, and only there ------------------------------

def in_a_terminal(args, timeout=120):
    """Run ``puzzleplan ARGS`` with stderr on a pseudo-terminal: (stdout, what the terminal got)."""
    import os
    import pty
    import subprocess
    import sys
    import time
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            chunk = os.read(master, 4096)
        except OSError:         # the process closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out = proc.communicate(timeout=timeout)[0].decode()
    return out, seen.decode(errors="replace")


def test_bench_shows_k_of_n_and_time_left_in_a_terminal(tmp_path):
    args = ["bench", GUARINI, INSTANCES / "knights/swap_3x4.knights", "--methods", "bfs,astar", "-o"]
    out, terminal = in_a_terminal(args + [tmp_path / "a.csv"])
    assert "bench: 0/4" in terminal and "bench: 4/4" in terminal and "elapsed" in terminal and "left" in terminal
    assert out.count(": optimal") == 4 and "bench:" not in out      # the rows on stdout, the bar apart
    out, terminal = in_a_terminal(args + [tmp_path / "b.csv", "-q"])
    assert "bench:" not in terminal and out.count(": optimal") == 4
    piped = run(*args, tmp_path / "c.csv")     # not a terminal: no bar
    assert "bench:" not in piped.stderr and piped.stdout.count(": optimal") == 4


def test_seeds_says_what_it_is_doing_in_a_terminal():
    out, terminal = in_a_terminal(["seeds", "--time-limit", "0.2"], timeout=300)
    assert "seeds: 8/8" in terminal and "klotski_seed steps: SAT" in terminal and "BFS" in terminal
    assert out.count("known") == 8 and "seeds:" not in out      # -q and pipes: the bench's test, same bar


# --- 6: Ctrl-C tests hold, and clean up, whatever the signal disposition ---------------------

def test_ctrl_c_tests_hold_where_sigint_is_ignored():
    """Run as a background job (or by a CI that ignores SIGINT), the Ctrl-C tests' solves ignored
    the signal, the tests failed and left Klotski solving for minutes: now the child takes
    SIGINT's default action, and is killed on the way out whatever happens."""
    import signal
    from test_faults import interrupted
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)     # as in `pytest &` from a script
    try:
        code, spent, out, err = interrupted(["solve", INSTANCES / "seeds/klotski_seed000.slide", "--no-enumerate",
                                             "-q"], False, 1.5)
    finally:
        signal.signal(signal.SIGINT, old)
    assert code == 130 and spent < 2 and out.startswith("interrupted: "), (code, err[-300:])


def test_a_failing_ctrl_c_test_leaves_nothing_running():
    import subprocess
    import sys
    from conftest import reaped
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    with pytest.raises(RuntimeError):
        with reaped(proc):
            raise RuntimeError("a test fails half-way")
    assert proc.poll() is not None


# --- 8: --time-limit holds on huge boards, loading included; memory estimates hold ---------

def huge(tmp_path, kind: str, n: int) -> str:
    """A huge board: an n x n knights board, an n x n Sokoban room, a 1 x n sliding strip."""
    if kind == "knights":
        text = "board:\n" + "W" + "." * (n - 1) + "\n" + ("." * n + "\n") * (n - 1) + "goal: W@b1\n"
        name = "big.knights"
    elif kind == "sokoban":
        inner = [" " * n for _ in range(n)]
        inner[0] = "@" + " " * (n - 1)
        inner[1] = " $" + " " * (n - 2)
        inner[-1] = " " * (n - 1) + "."
        text = "\n".join(["#" * (n + 2)] + ["#" + row + "#" for row in inner] + ["#" * (n + 2)]) + "\n"
        name = "room.xsb"
    else:
        text = "board:\nA" + "." * n + "\ngoal:\n" + "." * n + "A\n"
        name = "strip.slide"
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def timed(args, limit_mb=3000):
    """Wall seconds of ``puzzleplan ARGS`` in a process of its own, under an address-space limit
    (the old code's slides on a long strip grew without bound)."""
    import resource
    import subprocess
    import sys
    import time

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "puzzleplan.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120, preexec_fn=cap)
    return time.monotonic() - t0, done


@pytest.mark.parametrize("kind,n,args", [
    ("knights", 600, ["search"]), ("knights", 600, ["solve", "-q"]), ("knights", 600, ["explore"]),
    ("sokoban", 600, ["search", "-m", "pushes"]), ("sokoban", 600, ["solve", "-q"]),
    ("strip", 200_000, ["search", "-m", "slides"]), ("strip", 200_000, ["solve", "-q", "-m", "slides"]),
])
def test_the_time_limit_holds_on_huge_boards(tmp_path, kind, n, args):
    """Before: the board was read and its rules built before the clock started (about as long as
    the limit here), a successor call or a slide could run long between two clock reads, and
    full garbage collections over the huge rules ran past the limit."""
    limit = 2.0
    path = huge(tmp_path, kind, n)
    wall, done = timed([args[0], path, *args[1:], "--time-limit", limit])
    assert done.returncode == 0, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    start, _ = timed(["--version"])      # the interpreter's start on this machine, as loaded as it is now
    assert wall < limit + 1.0 + 2 * start, (wall, start, done.stdout[-300:])


def test_export_memory_estimate_is_right(tmp_path):
    """The estimate must not be far below what the export takes: the old one counted model
    items, not clauses (1,883 a step on Klotski then, not 976), and let 11.7 GB through.  2,242
    a step since commuting moves come in one order (encodings/order.py)."""
    import subprocess
    import sys
    from puzzleplan.encodings.lower import estimate_bytes
    domain = load(INSTANCES / "seeds/klotski_seed000.slide").domain
    need, per_step = estimate_bytes(domain, "steps", 600)
    assert per_step == 2242
    # the peak of this process's own memory (VmHWM; ru_maxrss would count the forking parent's)
    peak_of = "print(int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]) * 1024)"
    code = ("import sys; from puzzleplan.cli import main; sys.argv = ['puzzleplan', 'export', sys.argv[1], "
            "'-t', '600', '-o', sys.argv[2]]\ntry:\n    main()\nexcept SystemExit:\n    pass\n" + peak_of)
    base = "import puzzleplan.cli, puzzleplan.export, puzzleplan.encodings.lower\n" + peak_of
    peak = int(subprocess.run([sys.executable, "-c", code, str(INSTANCES / "seeds/klotski_seed000.slide"),
                               str(tmp_path / "k.cnf")], capture_output=True, text=True, timeout=120).stdout.split()[-1])
    idle = int(subprocess.run([sys.executable, "-c", base], capture_output=True, text=True, timeout=60).stdout.split()[-1])
    assert 0.8 * (peak - idle) <= need <= 2 * (peak - idle), (need, peak - idle)


def test_export_refuses_what_does_not_fit(tmp_path, monkeypatch):
    from puzzleplan.encodings import lower
    monkeypatch.setattr(lower, "available_bytes", lambda: 8 << 30)     # 8 GiB: horizon 50,000 needs 35
    out = tmp_path / "k.cnf"
    one_error(run("export", INSTANCES / "seeds/klotski_seed000.slide", "-t", "50000", "-o", out), "GiB", "2,242")
    assert not out.exists()


def test_the_long_at_most_one_allows_exactly_what_it_should():
    """Counting, as for every encoding: for each assignment of n literals, the clauses are
    satisfiable (auxiliaries free) exactly when at most one literal is true."""
    import itertools
    from pysat.formula import IDPool
    from pysat.solvers import Solver
    from puzzleplan.encodings.lower import sequential_amo
    for n in range(2, 9):
        lits = list(range(1, n + 1))
        clauses = sequential_amo(lits, IDPool(start_from=n + 1))
        assert len(clauses) == 3 * n - 4
        with Solver(name="minisat22", bootstrap_with=clauses) as s:
            for values in itertools.product([False, True], repeat=n):
                assumptions = [v if on else -v for v, on in zip(lits, values)]
                assert s.solve(assumptions=assumptions) == (sum(values) <= 1), (n, values)
