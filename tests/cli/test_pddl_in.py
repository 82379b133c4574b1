"""PDDL in: any STRIPS task read, grounded by Fast Downward's translator, and solved by our
search, SAT and the outside planners.

- round trip: generated instances of every family with a PDDL export, exported and read
  back, have the native optimum (by uniform-cost search on the task's costs, and by SAT
  in steps where the export's actions are the metric's moves);
- the IPC 2008 optimal Sokoban track read directly (the problems bundled in
  instances/pddl): cost optima = the known push optima, steps optima = Fast Downward's
  with unit costs = SAT's;
- bad input: unsupported requirements and constructs, syntax errors with their line,
  a missing domain, options that do not apply; the time limit and Ctrl-C while grounding;
- IPC plans in and out; side conditions on action patterns and facts, the same in
  search and SAT, checked by replay.
"""
from __future__ import annotations

import csv
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT, default_sigint, reaped, requires
from puzzleplan import registry
from puzzleplan.cli import main
from puzzleplan.registry import problem as problem_of
from puzzleplan.formats.load import load
from puzzleplan.pddl import available, export, plan
from puzzleplan.planner import solve
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.search import astar_search, breadth_first_search
from puzzleplan.validate import check_plan

IPC = INSTANCES / "pddl"
ROUND_TRIP = [f for f in registry.all_families() if f.pddl]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(got, *words):
    assert got.exit_code == 2, got.output
    lines = got.output.strip().splitlines()
    assert lines[-1].startswith("puzzleplan: error: ") and "Traceback" not in got.output, got.output
    for w in words:
        assert w in lines[-1], (w, lines[-1])
    return lines[-1]


# -- round trip -------------------------------------------------------------------------
@pytest.mark.parametrize("family", ROUND_TRIP, ids=[f.name for f in ROUND_TRIP])
def test_round_trip_of_the_pddl_export_keeps_the_optimum(family, tmp_path):
    """Native BFS optimum in each metric = uniform-cost search on the exported task's costs
    (a move costs 1, a Sokoban walk under pushes 0, a finishing action 0) = SAT in steps
    when every exported action is one move."""
    rng = random.Random(f"round-trip-{family.name}")
    make = family.part("generate")
    compared = sat_compared = 0
    for n in range(6):
        rules = make(rng)
        rules = problem_of(rules)
        for metric in rules.rules.metrics:
            try:
                folder = tmp_path / f"{n}-{metric}"
                task, _, problem = export(rules, metric, str(folder))
            except PuzzleError:
                continue        # what STRIPS cannot say (sliding's moves)
            native = breadth_first_search(rules, metric, 30)
            read = load(problem).problem
            by_cost = breadth_first_search(read, "cost", 30)
            assert by_cost.status is native.status, (family.name, metric, native, by_cost)
            assert by_cost.length == native.length
            compared += 1
            unit = not task.costs
            if unit and native.length is not None and native.length <= 20:
                sat = solve(read, "steps", max_horizon=40)
                assert sat.status is Status.OPTIMAL and sat.length == native.length
                assert check_plan(read, sat.steps, "steps")["solved"]
                sat_compared += 1
    assert compared >= 3 and sat_compared >= 1


# -- the IPC 2008 optimal Sokoban track ----------------------------------------------------
def ipc_rows():
    with open(IPC / "ipc_to_microban_map.tsv") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["domain_dir"] == "sokoban-opt08-strips"]


@pytest.mark.parametrize("row", ipc_rows(), ids=lambda r: r["file"])
def test_ipc_sokoban_cost_optimum_by_search_is_the_known_push_optimum(row):
    rules = load(IPC / row["file"]).problem
    for search in (breadth_first_search, astar_search):
        got = search(rules, "cost", 60)
        assert got.status is Status.OPTIMAL and got.length == int(row["optimal_cost_pushes_martin_t"])
        assert check_plan(rules, got.steps, "cost")["solved"]


SHARED = ROOT.parent / "shared" / "datasets" / "pddl"


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "sokoban-opt08-strips").exists(), reason="the shared IPC datasets are not here")
def test_every_ipc_problem_solved_by_search_has_the_known_push_optimum():
    """The whole track (beside the repository, not in it): every cost optimum that uniform-cost
    search proves within 120 s is the known one."""
    with open(SHARED / "ipc_to_microban_map.tsv") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["domain_dir"] == "sokoban-opt08-strips"]
    proven = 0
    for row in rows:
        got = breadth_first_search(load(SHARED / "sokoban-opt08-strips" / row["file"]).problem, "cost", 120)
        if got.status is Status.OPTIMAL:
            assert got.length == int(row["optimal_cost_pushes_martin_t"]), row["file"]
            proven += 1
        else:
            assert got.status is Status.TIMEOUT
    assert proven >= 10      # bfs proved 13 within 20 s in the bench (benchmarks/pddl_in/pddl_in_ipc.csv)


@pytest.mark.parametrize("problem", ["p01.pddl", "p02.pddl", "p03.pddl"])
@requires("fd-lmcut")
def test_ipc_sokoban_steps_optimum_equals_fast_downward_with_unit_costs_and_sat(problem):
    rules = load(IPC / problem).problem
    bfs = breadth_first_search(rules, "steps", 60)
    fd = plan(rules, "steps", "fd-lmcut", 60)      # our export in steps has unit costs
    assert bfs.status is fd.status is Status.OPTIMAL and fd.length == bfs.length
    assert fd.stats.get("planner_cost") == bfs.length
    sat = solve(rules, "steps", time_limit=120)
    assert sat.status is Status.OPTIMAL and sat.length == bfs.length


def test_cli_on_the_ipc_problem_reports_the_grounded_size_first():
    got = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "search", "-m", "cost", "--json",
                          str(IPC / "p02.pddl")], capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert got.stderr.startswith("grounded p02.pddl: ") and " variables, " in got.stderr and " actions" in got.stderr
    assert json.loads(got.stdout)["length"] == 9


# -- a small task of our own -------------------------------------------------------------
DOMAIN = """(define (domain strip)
  (:requirements :strips :typing :action-costs)
  (:types cell)
  (:predicates (at ?c - cell) (next ?a ?b - cell) (painted ?c - cell))
  (:functions (total-cost) - number)
  (:action step :parameters (?a ?b - cell)
    :precondition (and (at ?a) (next ?a ?b))
    :effect (and (not (at ?a)) (at ?b) (increase (total-cost) 1)))
  (:action paint :parameters (?c - cell)
    :precondition (at ?c)
    :effect (and (painted ?c) (increase (total-cost) 3))))
"""

PROBLEM = """(define (problem five) (:domain strip)
  (:objects c1 c2 c3 c4 c5 - cell)
  (:init (at c1) (next c1 c2) (next c2 c3) (next c3 c4) (next c4 c5)
         (next c2 c1) (next c3 c2) (next c4 c3) (next c5 c4) (= (total-cost) 0))
  (:goal (and (painted c3) (at c1)))
  (:metric minimize (total-cost)))
"""


@pytest.fixture
def task(tmp_path):
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    (tmp_path / "five.pddl").write_text(PROBLEM)
    return tmp_path / "five.pddl"


def test_steps_and_cost_of_a_small_task_by_every_method(task):
    for algorithm in ("bfs", "astar"):
        got = json.loads(run("search", task, "-a", algorithm, "--json").stdout)
        assert (got["status"], got["length"]) == ("optimal", 5)       # 2 steps there, paint, 2 back
        got = json.loads(run("search", task, "-a", algorithm, "-m", "cost", "--json").stdout)
        assert (got["status"], got["length"]) == ("optimal", 7)
    for backend in ("pysat", "cpsat"):
        got = json.loads(run("solve", task, "-b", backend, "--json").stdout)
        assert (got["status"], got["length"]) == ("optimal", 5)
    for backend in ("pysat", "cpsat", "cpsat-horizons"):         # every action costs 1 or more here
        got = json.loads(run("solve", task, "-b", backend, "-m", "cost", "--json").stdout)
        assert (got["status"], got["length"]) == ("optimal", 7), backend


def test_no_transition_system_under_cost(task, tmp_path):
    """The cost bound counts every step's actions: the AIGER export refuses it rather than drop
    it; under steps the task is a transition system like any puzzle."""
    one_line_error(run("export", task, "-m", "cost", "-o", tmp_path / "c.aag"), "not a property of one state")
    assert run("export", task, "-o", tmp_path / "s.aag").exit_code == 0


def test_sat_under_cost_takes_the_walks_of_cost_0_and_refuses_runs_it_cannot_bound(tmp_path):
    """IPC Sokoban under cost: the player's walks cost 0 and follow its cell (a run of them has at
    most its cells' states): SAT proves the known push optimum.  Seven switches that actions of
    cost 0 turn on and off: a run may pass 2^7 states, too many layers: one line, exit 2."""
    got = json.loads(run("solve", IPC / "p02.pddl", "-m", "cost", "--json").stdout)
    assert (got["status"], got["length"]) == ("optimal", 9)
    assert check_plan(load(IPC / "p02.pddl").problem, got["steps"], "cost")["length"] == 9
    (tmp_path / "domain.pddl").write_text(
        "(define (domain switches) (:requirements :strips :action-costs) (:predicates (on ?x) (not-on ?x) (goal-reached))"
        " (:functions (total-cost) - number)"
        " (:action flip-on :parameters (?x) :precondition (not-on ?x) :effect (and (on ?x) (not (not-on ?x))))"
        " (:action flip-off :parameters (?x) :precondition (on ?x) :effect (and (not-on ?x) (not (on ?x))))"
        " (:action finish :parameters (?x ?y) :precondition (and (on ?x) (not-on ?y))"
        "  :effect (and (goal-reached) (increase (total-cost) 1))))")
    (tmp_path / "problem.pddl").write_text(
        "(define (problem p) (:domain switches) (:objects a b c d e f g)"
        " (:init (not-on a) (not-on b) (not-on c) (not-on d) (not-on e) (not-on f) (not-on g) (= (total-cost) 0))"
        " (:goal (goal-reached)) (:metric minimize (total-cost)))")
    got = run("solve", tmp_path / "problem.pddl", "-m", "cost")
    one_line_error(got, "SAT under cost: actions of cost 0 (flip-", "back and forth", "use search")


def test_plans_in_the_ipc_format_out_and_back(task, tmp_path):
    out = tmp_path / "plan.txt"
    got = run("search", task, "-m", "cost", "--plan-out", out)
    assert got.exit_code == 0, got.output
    text = out.read_text().splitlines()
    assert text[0] == "(step c1 c2)" and text[-1] == "; cost = 7 (general cost)" and len(text) == 6
    assert "valid: 7 cost, 5 steps" in run("validate", task, out, "-m", "cost").output
    again = run("search", task, "--plan-out", out)         # never overwritten
    one_line_error(again, "exists")
    bad = tmp_path / "bad.txt"
    bad.write_text("(step c1 c2)\n(step c1 c2)\n")
    one_line_error(run("validate", task, bad), "step 2", "precondition at(c1) does not hold")
    short = tmp_path / "short.txt"
    short.write_text("; a comment\n(step c1 c2)\n")
    got = run("validate", task, short)
    assert got.exit_code == 1 and "legal but not solved" in got.output


@requires("fd-lmcut")
def test_validate_reads_fast_downwards_own_plan(task, tmp_path):
    from puzzleplan.pddl.planners import run_driver
    code, _ = run_driver("fd-lmcut", task.parent / "domain.pddl", task, tmp_path / "sas_plan", 60)
    assert code == 0
    got = run("validate", task, tmp_path / "sas_plan", "-m", "cost")
    assert got.exit_code == 0 and "valid: 7 cost" in got.output, got.output


def test_side_conditions_on_action_patterns_and_facts_agree_in_search_and_sat(task):
    cases = [
        (["--moves", "step>=6"], 7),                 # two more steps somewhere
        (["--moves", "step(c3, ?)<=1"], 5),
        (["--moves", "step(c2, ?)<=1"], None),      # there and back leaves c2 twice
        (["--frozen", "paint(c1)"], 5),
        (["--moves", "paint(*)>=2"], 6),             # a second paint on the way
        (["--moves", "paint(c2)+paint(c4)>=1", "--moves", "paint(c3)<=1"], 6),
        (["--avoid", "*:at(c4)"], 5),
    ]
    for options, optimum in cases:
        found = []
        every = ["--levers", "bound,mutex,inverse,shortcut,counts,order,tallies"]        # those off by default too
        for cmd in (["search", "-a", "bfs"], ["search", "-a", "astar"], ["solve", "-b", "pysat"], ["solve", "-b", "cpsat"],
                    ["solve", "-b", "pysat", *every], ["solve", "-b", "pysat-de", *every],
                    ["search", "-m", "cost"], ["solve", "-m", "cost", "-b", "pysat"], ["solve", "-m", "cost", "-b", "cpsat"]):
            got = run(*cmd, task, *options, "--json")
            assert got.exit_code == 0, (cmd, options, got.output)
            result = json.loads(got.stdout)
            found.append((result["status"], result["length"]))
        want = ("optimal", optimum) if optimum is not None else ("unsolvable", None)
        assert set(found[:6]) == {want}, (options, found)
        assert len(set(found[6:])) == 1 and found[6][0] == want[0], (options, found)      # the same, by cost
    got = json.loads(run("search", task, "--avoid", "*:at(c2)", "--json").stdout)
    assert got["status"] == "unsolvable"
    got = json.loads(run("solve", task, "--frozen", "paint", "--json").stdout)
    assert got["status"] == "unsolvable"


def test_a_plan_breaking_a_side_condition_is_not_valid(task, tmp_path):
    out = tmp_path / "plan.txt"
    assert run("search", task, "--plan-out", out).exit_code == 0
    got = run("validate", task, out, "--moves", "step<=3")
    assert got.exit_code == 1 and "step.moves<=3 does not hold: piece step moved 4 times" in got.output, got.output
    got = run("validate", task, out, "--avoid", "*:at(c3)")
    one_line_error(got, "at(c3)", "avoid")


def test_patterns_that_overlap_or_match_nothing_are_refused(task):
    one_line_error(run("search", task, "--moves", "step>=1", "--moves", "step(c1, ?)<=1"), "both match")
    one_line_error(run("search", task, "--avoid", "*:at(c9)"), "no fact")
    one_line_error(run("search", task, "--avoid", "A:at(c2)"), "no pieces")
    one_line_error(run("search", task, "--ends", "A:c3"), "--ends")
    got = json.loads(run("search", task, "--avoid", "*:at(c1)", "--json").stdout)
    assert got["status"] == "unsolvable" and "holds at the start" in got["proof"]


# -- bad input ---------------------------------------------------------------------------
REFUSED = [
    (":numeric-fluents", "(:requirements :strips :numeric-fluents)", ":numeric-fluents"),
    (":durative-actions", "(:requirements :durative-actions)", ":durative-actions"),
    (":derived-predicates", "(:requirements :strips :derived-predicates)", ":derived-predicates"),
    (":conditional-effects", "(:requirements :conditional-effects)", ":conditional-effects"),
]


@pytest.mark.parametrize("name,requirements,word", REFUSED, ids=[r[0] for r in REFUSED])
def test_an_unsupported_requirement_is_refused_naming_it_and_the_file(tmp_path, name, requirements, word):
    (tmp_path / "domain.pddl").write_text(DOMAIN.replace("(:requirements :strips :typing :action-costs)",
                                                         requirements + " (:types cell)").replace("(:types cell)\n", "", 1))
    (tmp_path / "five.pddl").write_text(PROBLEM)
    line = one_line_error(run("search", tmp_path / "five.pddl"), word, "domain.pddl")
    assert "unsupported requirement" in line


USED = [
    ("when", "(and (painted ?c) (when (at ?c) (painted ?c)) (increase (total-cost) 3))", "conditional effects"),
    ("fluent", "(and (painted ?c) (increase (fuel) 3))", "numeric"),
]


@pytest.mark.parametrize("name,effect,word", USED, ids=[u[0] for u in USED])
def test_an_unsupported_construct_is_refused_with_its_line(tmp_path, name, effect, word):
    text = DOMAIN.replace("(and (painted ?c) (increase (total-cost) 3))", effect)
    (tmp_path / "domain.pddl").write_text(text)
    (tmp_path / "five.pddl").write_text(PROBLEM)
    line = one_line_error(run("solve", tmp_path / "five.pddl"), word)
    assert "domain.pddl:11: " in line


def test_derived_predicates_and_durative_actions_are_refused_where_used(tmp_path):
    derived = DOMAIN.replace("  (:action paint", "  (:derived (clean ?c - cell) (not (painted ?c)))\n  (:action paint")
    (tmp_path / "domain.pddl").write_text(derived)
    (tmp_path / "five.pddl").write_text(PROBLEM)
    one_line_error(run("search", tmp_path / "five.pddl"), "domain.pddl:9: ", ":derived", "derived predicates")
    durative = DOMAIN.replace("(:action step", "(:durative-action step")
    (tmp_path / "domain.pddl").write_text(durative)
    one_line_error(run("search", tmp_path / "five.pddl"), "domain.pddl:6: ", "durative actions")


def test_syntax_errors_name_the_file_and_line(tmp_path):
    (tmp_path / "domain.pddl").write_text(DOMAIN.replace("(:action paint :parameters", "(:action paint :parameters ("))
    (tmp_path / "five.pddl").write_text(PROBLEM)
    one_line_error(run("search", tmp_path / "five.pddl"), "domain.pddl:", "never closed")
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    (tmp_path / "five.pddl").write_text(PROBLEM.replace("(next c1 c2)", "(next c1 c2))"))
    # the ')' too many on line 3 closes (:init early; the imbalance shows at the last line
    one_line_error(run("search", tmp_path / "five.pddl"), "five.pddl:6: ", "closes nothing")
    (tmp_path / "five.pddl").write_text("(define (problem x) (:domain strip) (:init (at c1)) (:goal (at c9)))\n")
    one_line_error(run("search", tmp_path / "five.pddl"), "five.pddl", "could not ground")
    (tmp_path / "five.pddl").write_text("hello")
    one_line_error(run("search", tmp_path / "five.pddl"), "five.pddl:1: ", "not a PDDL")


def test_missing_or_mismatched_domain_and_options_that_do_not_apply(tmp_path, task):
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "five.pddl").write_text(PROBLEM)
    one_line_error(run("search", alone / "five.pddl"), "no domain file", "--domain")
    assert json.loads(run("search", alone / "five.pddl", "--domain", task.parent / "domain.pddl",
                          "--json").stdout)["length"] == 5
    one_line_error(run("search", task.parent / "domain.pddl"), "is the domain", "not a problem")
    one_line_error(run("search", alone / "five.pddl", "--domain", alone / "nothing.pddl"), "no such file")
    other = tmp_path / "other.pddl"
    other.write_text(DOMAIN.replace("(domain strip)", "(domain other)"))
    one_line_error(run("search", alone / "five.pddl", "--domain", other), "for domain 'strip'")
    one_line_error(run("search", INSTANCES / "seeds/klotski_seed000.slide", "--domain", other),
                   "--domain does not apply")


def test_a_compressed_problem_is_grounded_from_its_text(tmp_path, task):
    import gzip
    (tmp_path / "five.pddl.gz").write_bytes(gzip.compress(PROBLEM.encode()))
    got = json.loads(run("search", tmp_path / "five.pddl.gz", "--domain", task.parent / "domain.pddl", "--json").stdout)
    assert (got["status"], got["length"]) == ("optimal", 5)


def test_a_folder_given_to_bench_leaves_the_domain_out():
    from puzzleplan.bench.run import instances
    found = [Path(p).name for p, _, _ in instances(str(IPC), None, None)]
    assert "domain.pddl" not in found and "p01.pddl" in found


# -- grounding under the time limit and Ctrl-C ----------------------------------------------
def big_task(folder: Path, n: int = 70) -> Path:
    """A grid of n x n cells with a robot that moves and paints: large enough that grounding
    takes seconds."""
    cells = [f"c{x}-{y}" for x in range(n) for y in range(n)]
    nexts = [f"(next c{x}-{y} c{x + dx}-{y + dy})" for x in range(n) for y in range(n)
             for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)) if 0 <= x + dx < n and 0 <= y + dy < n]
    (folder / "domain.pddl").write_text(DOMAIN)
    p = folder / "grid.pddl"
    p.write_text(f"(define (problem grid) (:domain strip) (:objects {' '.join(cells)} - cell)\n"
                 f"(:init (at c0-0) {' '.join(nexts)})\n(:goal (and (painted c{n - 1}-{n - 1}) (painted c0-{n - 1}))))\n")
    return p


@pytest.mark.timing
@pytest.mark.parametrize("grounder", ["own", "translator"])
def test_grounding_stops_at_the_time_limit(tmp_path, grounder):
    p = big_task(tmp_path)
    t0 = time.monotonic()
    got = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", "--time-limit", "0.5", "--json", str(p),
                          "--grounder", grounder], capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    result = json.loads(got.stdout)
    assert result["status"] == "timeout" and "while the puzzle was read" in result["message"]
    assert time.monotonic() - t0 < 10


def test_ctrl_c_while_grounding_exits_130_and_leaves_no_translator(tmp_path):
    p = big_task(tmp_path, 90)
    proc = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", "search", str(p), "--grounder", "translator"],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint, start_new_session=True)
    with reaped(proc, group=True):
        t0, children = time.monotonic(), []
        while not children and proc.poll() is None and time.monotonic() - t0 < 120:    # the translator started,
            time.sleep(0.1)                                                               # however busy the machine
            children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert children, "the translator should be running"
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and "interrupted" in err
        for pid in children:
            assert subprocess.run(["kill", "-0", pid], capture_output=True).returncode != 0


def test_ctrl_c_while_our_grounder_grounds_exits_130(tmp_path):
    """Our grounder runs in this process: Ctrl-C stops it where it is (no plan, no task)."""
    p = big_task(tmp_path, 130)
    proc = subprocess.Popen([sys.executable, "-m", "puzzleplan.cli", "search", str(p)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint, start_new_session=True)
    with reaped(proc, group=True):
        time.sleep(2)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 130 and "interrupted" in err
        assert "grounded " not in err, "Ctrl-C should have come while grounding"


# -- a problem's blocks out of the translator's order --------------------------------------------
def test_a_problem_with_its_goal_before_its_init_is_reordered_with_a_note(tmp_path):
    import json
    import subprocess
    import sys
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    goal = "  (:goal (and (painted c3) (at c1)))\n"
    init_at = PROBLEM.index("  (:init")
    swapped = PROBLEM.replace(goal, "")
    swapped = swapped[:init_at] + "  (:goal (and (painted c3) (at c1))) ; the goal first\n" + swapped[init_at:]
    assert swapped.index(":goal") < swapped.index(":init")
    (tmp_path / "five.pddl").write_text(swapped)
    got = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", "--json", str(tmp_path / "five.pddl")],
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert (json.loads(got.stdout)["status"], json.loads(got.stdout)["length"]) == ("optimal", 5)
    assert "note: five.pddl: its blocks read in the order the translator takes them (:goal, :init moved)" in got.stderr
    (tmp_path / "five.pddl").write_text(PROBLEM)         # in order: no note
    got = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "search", str(tmp_path / "five.pddl")],
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 0 and "note:" not in got.stderr
    (tmp_path / "five.pddl").write_text(swapped.replace("(:goal", "(:goal (at c1)) (:goal", 1))   # two goals
    got = subprocess.run([sys.executable, "-m", "puzzleplan.cli", "search", str(tmp_path / "five.pddl")],
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 2 and "Traceback" not in got.stderr and len(got.stderr.strip().splitlines()) <= 2


GRIPPER = """(define (domain gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper) (carry ?b - ball ?g - gripper))
  (:action move :parameters (?from ?to - room) :precondition (at-robby ?from)
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?b - ball ?r - room ?g - gripper) :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop :parameters (?b - ball ?r - room ?g - gripper) :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
"""
GOALS = {   # goal -> optimum
    "(and (at-robby rooma) (exists (?b - ball) (and (at ?b roomb) (not (= ?b b2)))))": 4,
    "(or (and (at b0 roomb) (at b1 roomb)) (carry b2 left))": 2,
    "(exists (?b - ball) (exists (?g - gripper) (carry ?b ?g)))": 1,
    "(and (at b0 roomb) (or (at b1 roomb) (at-robby rooma)))": 4,
    "(and (exists (?b - ball) (carry ?b left)) (exists (?b - ball) (carry ?b right)) (at b2 rooma))": 6,
}


def gripper_problem(goal: str) -> str:
    return ("(define (problem g) (:domain gripper)\n  (:objects rooma roomb - room b0 b1 b2 - ball left right - gripper)\n"
            "  (:init (at-robby rooma) (free left) (free right) (at b0 rooma) (at b1 rooma) (at b2 roomb))\n"
            f"  (:goal {goal}))\n")


@pytest.mark.parametrize("goal", list(GOALS))
def test_an_exists_or_or_in_the_goal_becomes_goal_alternatives(tmp_path, goal):
    """The translator makes such a goal into axioms; they become the task's goal alternatives:
    search, A*, SAT (both ends), CP-SAT and the PDDL planners agree on the optimum."""
    (tmp_path / "domain.pddl").write_text(GRIPPER)
    (tmp_path / "g.pddl").write_text(gripper_problem(goal))
    domain = load(tmp_path / "g.pddl").rules
    want = GOALS[goal]
    assert breadth_first_search(domain, "steps").length == want
    assert astar_search(domain, "steps").length == want
    assert domain.heuristic(domain.initial, "steps") <= want
    for backend in ("pysat", "pysat-de", "cpsat"):
        r = solve(domain, "steps", backend, enumerate_first=False)
        assert (r.status, r.length) == (Status.OPTIMAL, want), backend
        assert check_plan(domain, r.steps, "steps")["solved"]
    if available("fd-lmcut"):
        assert plan(domain, "steps", "fd-lmcut", 60).length == want


def test_derived_goals_the_encodings_cannot_say_are_refused_in_one_line(tmp_path):
    (tmp_path / "domain.pddl").write_text(GRIPPER)
    (tmp_path / "g.pddl").write_text(gripper_problem("(not (exists (?b - ball) (at ?b roomb)))"))
    one_line_error(run("search", tmp_path / "g.pddl"), "derived variables negated in the goal")
    # a derived predicate an action reads: not a goal's
    (tmp_path / "domain.pddl").write_text(GRIPPER.replace(":precondition (at-robby ?from)",
                                                          ":precondition (and (at-robby ?from) (forall (?g - gripper) (free ?g)))"))
    (tmp_path / "g.pddl").write_text(gripper_problem("(at b0 roomb)"))
    one_line_error(run("search", tmp_path / "g.pddl"), "derived variables in action")


def test_an_exists_in_a_precondition_grounds_one_operator_per_witness_under_one_name(tmp_path):
    """The translator makes the quantified variable a hidden parameter: several operators share
    the name "(move rooma roomb)"; a plan's step is the one that applies where it stands."""
    (tmp_path / "domain.pddl").write_text(GRIPPER.replace(":precondition (at-robby ?from)",
                                                          ":precondition (and (at-robby ?from) "
                                                          "(exists (?b - ball) (at ?b ?from)))"))
    (tmp_path / "g.pddl").write_text(gripper_problem("(and (at b0 roomb) (at b1 roomb))"))
    domain = load(tmp_path / "g.pddl").problem
    bfs = breadth_first_search(domain, "steps")
    assert bfs.status is Status.OPTIMAL and check_plan(domain, bfs.steps, "steps")["solved"]
    sat = solve(domain, "steps", "pysat-de", enumerate_first=False)
    assert sat.length == bfs.length and check_plan(domain, sat.steps, "steps")["solved"]
    got = run("search", tmp_path / "g.pddl")
    assert got.exit_code == 0 and "optimal" in got.output
