"""Model checkers as planners: the transition system and its AIGER export, ABC's pdr and
bmc3 on generated instances of every family (plans replayed, lengths = BFS optima, proofs
by checked invariants), witnesses decoded or refused, wrong invariants rejected, faults."""
import json
import subprocess

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan import methods
from puzzleplan.cli import main
from puzzleplan.constraints import state_space
from puzzleplan.planner.abc import ABC_PROGRAM
from puzzleplan.encodings.aiger import to_aig
from puzzleplan.encodings.transition import build_system
from puzzleplan.planner import solve
from puzzleplan.planner.invariant import check_invariant, read_cubes
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan
from families_gen import FAMILIES, instances

ABC = ABC_PROGRAM.path()
KNIGHTS = INSTANCES / "knights/swap_3x4.knights"
# every encoding the model checker takes (ModelChecker.supports): its goal a property of one
# state, its steps linking at most two layers; peg solitaire's moves encoding builds all jump
# layers at once, and a PDDL task's cost bound is no goal of one state (refused below)
PDR = methods.build("abc:pdr")
SYSTEMS = [(f, m) for f in FAMILIES for m in f.encoders if PDR.supports(f, m) is None]
REFUSED = {(f.name, m) for f in FAMILIES for m in f.encoders if PDR.supports(f, m) is not None}
IDS = [f"{f.name}-{m}" for f, m in SYSTEMS]


def test_berkeley_abc_is_installed():
    assert ABC, "berkeley-abc is not installed (sh setup.sh test installs it)"


@pytest.mark.parametrize("name,metric", sorted(REFUSED))
def test_what_the_model_checker_refuses_up_front_its_export_cannot_build(name, metric):
    """The refusal is declared (the encoder's ``no_system``) and agrees with the export: the
    transition system cannot be built; solve says why before any run."""
    family = next(f for f in FAMILIES if f.name == name)
    rules = instances(family, 1, seed=1)[0]
    with pytest.raises(PuzzleError):
        build_system(rules, metric)
    with pytest.raises(PuzzleError, match="no transition system for the AIGER export"):
        solve(rules, metric, "abc:pdr", 60)


@pytest.mark.heavy
@pytest.mark.parametrize("family,metric", SYSTEMS, ids=IDS)
def test_pdr_proves_the_bfs_optimum_with_a_checked_invariant(family, metric):
    seen = {"solved": 0, "unsolvable": 0}
    for problem in instances(family, 3, seed=1):
        bfs = breadth_first_search(problem, metric)
        mc = solve(problem, metric, "abc:pdr", 60)
        if bfs.status is Status.UNSOLVABLE:
            assert mc.status is Status.UNSOLVABLE and mc.stats["invariant_checked"], mc
            seen["unsolvable"] += 1
            continue
        assert mc.status is Status.OPTIMAL, mc
        assert mc.length == bfs.length
        assert check_plan(problem, mc.steps, metric)["solved"]
        seen["solved"] += 1
    assert seen["solved"] >= 1


@pytest.mark.parametrize("family,metric", SYSTEMS, ids=IDS)
def test_backward_pdr_and_bmc3_agree_with_bfs(family, metric):
    for problem in instances(family, 2, seed=3):
        bfs = breadth_first_search(problem, metric)
        back = solve(problem, metric, "abc:pdr-back", 60)
        if bfs.status is Status.UNSOLVABLE:
            assert back.status is Status.UNSOLVABLE
            continue
        assert back.status is Status.OPTIMAL and back.length == bfs.length, back
        bmc = solve(problem, metric, "abc:bmc3", 60)
        # bmc3 deepens frame by frame: its first plan is a shortest one, but it proves nothing here
        assert bmc.length == bfs.length and bmc.status in (Status.OPTIMAL, Status.FEASIBLE)
        assert bmc.status is Status.OPTIMAL or "optimality not proven" in bmc.message
        assert check_plan(problem, bmc.steps, metric)["solved"]


def test_the_sum_over_generated_instances_has_long_plans_and_unsolvable_ones():
    """The checks above are not all decided by the lower bound: some plans need a proof."""
    long, unsolvable = 0, 0
    for family, metric in SYSTEMS:
        for problem in instances(family, 3, seed=1):
            bfs = breadth_first_search(problem, metric)
            space = state_space(problem)
            if bfs.status is Status.UNSOLVABLE:
                unsolvable += 1
            elif bfs.length > space.heuristic(space.initial, metric):
                long += 1
    assert long >= 5 and unsolvable >= 3


def test_an_encoding_that_is_not_step_by_step_is_refused_clearly():
    family = next(f for f in FAMILIES if f.name == "pegsol")
    with pytest.raises(PuzzleError, match="no transition system"):
        build_system(instances(family, 1, seed=1)[0], "moves")


def knights_system(bound):
    from puzzleplan.formats.load import load
    return load(KNIGHTS).rules, build_system(load(KNIGHTS).problem, "steps", bound=bound)


def test_a_wrong_invariant_is_rejected():
    domain, s = knights_system(5)
    aig = to_aig(s, fold=True)
    n = aig.nlatches
    # nothing blocked: the output (a plan within 5? there is none) is still possible for some state
    assert not check_invariant(aig, [])["ok"]
    # blocking the initial state
    assert "initial" in check_invariant(aig, ["0" * n])["why"]
    # blocking a goal latch alone is not closed under a step
    j = next(j for j, v in enumerate(s.latches) if s.model.key(v)[0] == "at")
    cube = "-" * j + "1" + "-" * (n - j - 1)
    assert not check_invariant(aig, [cube])["ok"]
    with pytest.raises(PuzzleError, match="latches"):
        read_cubes(".i 3\n101 1\n", n)


@pytest.mark.heavy
def test_pdrs_invariant_checks_and_a_tampered_one_does_not(tmp_path):
    domain, s = knights_system(5)           # the optimum is 16: no plan within 5
    aig = to_aig(s, fold=True)
    from puzzleplan.encodings.aiger import write_aig
    write_aig(aig, tmp_path / "k.aig")
    subprocess.run([ABC, "-c", f"read_aiger {tmp_path / 'k.aig'}; pdr -d -e -I {tmp_path / 'inv.pla'}"],
                   capture_output=True, timeout=120, check=True)
    cubes = read_cubes((tmp_path / "inv.pla").read_text(), aig.nlatches)
    assert check_invariant(aig, cubes)["ok"]
    assert not check_invariant(aig, cubes[:len(cubes) // 2])["ok"]


@pytest.mark.heavy
def test_export_aag_and_aig_and_decode_an_abc_witness(tmp_path):
    runner = CliRunner()
    for suffix in (".aag", ".aig"):
        out = tmp_path / f"k{suffix}"
        r = runner.invoke(main, ["export", str(KNIGHTS), "-o", str(out)])
        assert r.exit_code == 0, r.output
        side = json.loads((tmp_path / f"k{suffix}.json").read_text())
        assert side["direction"] == "forward" and len(side["latches"]) == 82
        head = out.read_bytes().split(b"\n", 1)[0].split()
        assert head[0] == suffix[1:].encode() and head[6:8] == [b"1", b"1"]     # one bad, one constraint
    # ABC honours the constraint after its own fold; its witness decodes into a replayed plan
    wit = tmp_path / "w.txt"
    subprocess.run([ABC, "-c", f"read_aiger {tmp_path / 'k.aig'}; fold; pdr; write_cex -a {wit}"],
                   capture_output=True, timeout=120, check=True)
    r = runner.invoke(main, ["decode", str(KNIGHTS), "--aiger", str(tmp_path / "k.aig"), "--witness", str(wit)])
    assert r.exit_code == 0 and r.output.startswith("feasible"), r.output
    # a tampered witness: one input flipped on the first step
    rows = wit.read_text().splitlines()
    rows[1] = ("1" if rows[1][0] == "0" else "0") + rows[1][1:]
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(rows) + "\n")
    r = runner.invoke(main, ["decode", str(KNIGHTS), "--aiger", str(tmp_path / "k.aig"), "--witness", str(bad)])
    assert r.exit_code == 3 and "refused" in r.output and "\nplan: " not in r.output
    # the witness on another puzzle's file: the symbol table differs
    other = tmp_path / "o.aag"
    assert runner.invoke(main, ["export", str(INSTANCES / "knights/swap_4x3.knights"), "-o", str(other)]).exit_code == 0
    r = runner.invoke(main, ["decode", str(KNIGHTS), "--aiger", str(other), "--witness", str(wit)])
    assert r.exit_code == 3 and "symbol table" in r.output


def test_backward_export_and_bounded_export(tmp_path):
    r = CliRunner().invoke(main, ["export", str(KNIGHTS), "-o", str(tmp_path / "b.aag"), "--backward", "-t", "10"])
    assert r.exit_code == 0 and "backward" in r.output and "within 10" in r.output
    side = json.loads((tmp_path / "b.aag.json").read_text())
    assert side["bad"] == "start position" and side["bound"] == 10
    assert any(name == ["count", 0] for name in side["latches"])


def test_unwritable_output_and_existing_output(tmp_path):
    r = CliRunner().invoke(main, ["export", str(KNIGHTS), "-o", str(tmp_path / "no/such/dir/x.aag")])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "error" in r.output
    (tmp_path / "x.aig").write_text("mine")
    r = CliRunner().invoke(main, ["export", str(KNIGHTS), "-o", str(tmp_path / "x.aig")])
    assert r.exit_code == 2 and (tmp_path / "x.aig").read_text() == "mine"


def test_missing_binary_names_the_package(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    r = CliRunner().invoke(main, ["solve", str(KNIGHTS), "-b", "abc:pdr"])
    assert r.exit_code == 2 and "berkeley-abc" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["solve", str(KNIGHTS), "-b", "abc:nope"])
    assert r.exit_code == 2 and "abc:pdr" in r.output


@pytest.mark.timing
def test_time_limit_keeps_what_was_found():
    from puzzleplan.formats.load import load
    domain = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem
    r = solve(domain, "slides", "abc:pdr", 8)
    assert r.status in (Status.FEASIBLE, Status.TIMEOUT)
    assert r.stats["seconds"] < 8 + 5
    if r.steps is not None:
        assert check_plan(domain, r.steps, "slides")["solved"]


@pytest.mark.heavy
def test_ctrl_c_stops_abc_and_keeps_the_plan(tmp_path):
    import signal
    import sys
    import time
    from conftest import default_sigint, reaped
    proc = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", "solve",
                             str(KNIGHTS), "-b", "abc:pdr",
                             "--no-enumerate"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    with reaped(proc):
        deadline = time.time() + 60
        err = ""
        while time.time() < deadline and "cex after" not in err:
            line = proc.stderr.readline()
            err += line
        proc.send_signal(signal.SIGINT)
        out, rest = proc.communicate(timeout=30)
    assert proc.returncode == 130 and out.startswith("interrupted") and "plan:" in out
