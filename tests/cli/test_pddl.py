"""PDDL export, planners' plans read back, Fast Downward and SymK on our export (equal to the
BFS optima on generated instances of every domain and metric PDDL can say), and the IPC 2008
optimal Sokoban track against our export of the same Microban levels."""
import dataclasses
import random
import zlib

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT, read_back
import families_gen as generate
from puzzleplan.cli import main
from puzzleplan.registry import problem as problem_of
from puzzleplan.families.knights.rules import Alternative, Knights
from puzzleplan.families.sliding.rules import DIRS, SlidingPuzzle, normalise
from puzzleplan.families.sliding.pddl import label_kind
from puzzleplan.formats.load import load
from puzzleplan.pddl import build, decode, plan, planners
from puzzleplan.pddl.task import DIR_NAMES
from puzzleplan.families.sokoban.ipc import crosscheck, ipc_steps, mapping
from puzzleplan.puzzle import EndsOn, MoveCount, PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

DATASETS = ROOT.parent / "shared" / "datasets" / "pddl"
KLOTSKI = INSTANCES / "seeds/klotski_seed000.slide"
MICROBAN = INSTANCES / "sokoban/Microban.txt"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def solvable(rng, make, metric, lo=2, hi=12, binding=False):
    """A generated instance with a BFS optimum between lo and hi, and that optimum;
    ``binding``: one whose side conditions change the optimum."""
    while True:
        try:
            domain = make(rng)
            ref = breadth_first_search(domain, metric, 20)
        except PuzzleError:
            continue
        if ref.status is not Status.OPTIMAL or not lo <= ref.length <= hi:
            continue
        if not binding or breadth_first_search(unconstrained(domain), metric, 20).length != ref.length:
            return domain, ref.length


def unconstrained(domain):
    """The same puzzle without its side conditions (knights: without the goals' move counts)."""
    problem = problem_of(domain)
    base = problem.rules
    if problem.name == "sliding":
        return SlidingPuzzle(base.spec)
    if problem.name == "knights":
        goals = tuple(Alternative(alt.placements) for alt in base.spec.goals)
        return Knights(dataclasses.replace(base.spec, goals=goals))
    return base


def first(domain):
    return sorted(domain.spec.pieces)


PLAIN = {   # every domain and metric PDDL can say, no side conditions
    "sliding steps": (lambda r: generate.sliding(r), "steps"),
    "sliding slides": (lambda r: generate.sliding(r, w=4, h=4, pieces=5), "slides"),
    "rush hour slides": (lambda r: generate.sliding(r, 5, 5, 6, 0, rush=True), "slides"),
    "sokoban moves": (lambda r: generate.sokoban(r, 4, 3, boxes=1), "moves"),
    "sokoban pushes": (lambda r: generate.sokoban(r, 5, 4, boxes=2), "pushes"),
    "sokoban open pushes": (lambda r: generate.sokoban(r, 4, 3, boxes=1, closed=False), "pushes"),
    "knights": (lambda r: generate.knights(r, 3, 4, n=4), "steps"),
}


def counted_slides(r):
    base = generate.sliding(r, 4, 3, pieces=3)
    return problem_of(base, [MoveCount(first(base)[0], ">=", 2)])


def group_and_frozen(r):
    base = generate.sliding(r, 4, 3, pieces=3)
    if len(base.spec.pieces) < 3:
        raise PuzzleError("fewer than three pieces placed")
    a, b, c = first(base)[:3]
    return problem_of(base, [MoveCount(f"{a}+{b}", ">=", 3), MoveCount(c, "<=", 0)])


def sokoban_ends(r):
    base = generate.sokoban(r, 4, 3, boxes=1)
    return problem_of(base, [], [EndsOn("player", frozenset(sorted(base.floor)[:5]))])


def sokoban_counted(r):
    return problem_of(generate.sokoban(r, 5, 4, boxes=2), [MoveCount("player", ">=", 4)])


def avoided(r):
    """An empty cell no piece may enter (PuzzleError when the goal needs it: drawn again)."""
    base = generate.sliding(r, 4, 4, pieces=4)
    free = [(x, y) for x in range(4) for y in range(4) if base.inside((x, y)) and (x, y) not in base.occupied(base.initial)]
    return SlidingPuzzle(base.spec, (), {"*": {r.choice(free)}})


SIDE = {    # side conditions: counters, groups, frozen pieces, end cells, goal alternatives, avoided cells
    "slides, A>=2": (counted_slides, "slides"),
    "steps, A+B>=3, C frozen": (group_and_frozen, "steps"),
    "sokoban moves, player ends": (sokoban_ends, "moves"),
    "sokoban pushes, player>=4": (sokoban_counted, "pushes"),
    "knights, counted alternatives": (lambda r: problem_of(generate.knights(r, 4, 3, counted=True)), "steps"),
    "sliding steps, cell avoided": (avoided, "steps"),
}


@pytest.mark.parametrize("name", list(PLAIN) + list(SIDE))
def test_fast_downward_finds_the_bfs_optimum(name):
    make, metric = {**PLAIN, **SIDE}[name]
    domain, optimum = solvable(random.Random(zlib.crc32(name.encode())), make, metric, binding=name in SIDE)
    got = plan(domain, metric, "fd-lmcut", 60)
    assert got.status is Status.OPTIMAL, got.message
    assert got.length == optimum
    assert check_plan(domain, got.steps, metric)["solved"]


@pytest.mark.parametrize("name", ["sliding slides", "sokoban pushes", "knights", "slides, A>=2"])
def test_symk_and_blind_search_agree(name):
    make, metric = {**PLAIN, **SIDE}[name]
    domain, optimum = solvable(random.Random(7), make, metric, binding=name in SIDE)
    for method in ("symk", "fd-blind"):
        got = plan(domain, metric, method, 60)
        assert (got.status, got.length) == (Status.OPTIMAL, optimum), (method, got.message)


def test_unsolvable_is_proven():
    rng = random.Random(3)
    while True:
        domain = generate.knights(rng, 3, 3, n=2)
        if breadth_first_search(domain, "steps").status is Status.UNSOLVABLE:
            break
    for method in ("fd-lmcut", "symk"):
        assert plan(domain, "steps", method, 60).status is Status.UNSOLVABLE


def test_identical_pieces_share_a_kind():
    """Klotski's four small squares are one kind: (at k c) facts, not four labelled pieces."""
    domain = load(KLOTSKI).rules
    task = build(domain, "steps")
    kinds = {a[1] for a in task.init if a[0] == "at"}
    assert len(kinds) == len(domain.kinds) < len(domain.spec.pieces)
    assert sum(1 for a in task.init if a[0] == "at") == len(domain.spec.pieces)


def test_cars_on_one_axis_are_a_kind_each_and_keep_the_optimum(tmp_path):
    """Rush Hour's cars never leave their lane nor pass each other, so the export gives each
    its own kind (two cars of a kind in one lane ranked by their place in it): as many kinds
    as cars, and the PDDL task's optimum (BFS, and SAT with every lever) is the native one,
    on generated boards whose kinds hold cars in one lane and in several."""
    from puzzleplan.planner import solve as sat_solve
    rng = random.Random("lanes")
    same_lane = several_lanes = compared = 0
    for _ in range(300):
        domain = generate.sliding(rng, 5, 5, 7, 0, rush=True)
        by_lane = {}
        for k, kind in enumerate(domain.kinds):
            for a in domain.initial[k]:
                by_lane.setdefault((k, a[1] if kind.axes == "h" else a[0]), []).append(a)
        shared = [k for k in range(len(domain.kinds)) if len(domain.initial[k]) > 1]
        if not shared:
            continue
        metric = rng.choice(["steps", "slides"])
        native = breadth_first_search(domain, metric, time_limit=20)
        if native.status is not Status.OPTIMAL or not 4 <= native.length <= 14:
            continue
        task = build(domain, metric)
        assert len(task.constants) == len(domain.spec.pieces)
        read = read_back(domain, metric, tmp_path / str(compared))
        assert breadth_first_search(read, "steps").length == native.length
        got = sat_solve(read, "steps", max_horizon=20)
        assert (got.status, got.length) == (Status.OPTIMAL, native.length)
        same_lane += any(len(v) > 1 for v in by_lane.values())
        several_lanes += any(len({ln for (g, ln) in by_lane if g == k}) > 1 for k in shared)
        compared += 1
        if compared == 6:
            break
    assert compared == 6 and same_lane >= 2 and several_lanes >= 2


def test_cli_export_and_validate_a_plan(tmp_path):
    out = tmp_path / "kl"
    r = run("export", KLOTSKI, "--pddl", out, "-m", "slides")
    assert r.exit_code == 0, r.output
    assert (out / "domain.pddl").exists() and (out / "problem.pddl").exists()
    assert run("export", KLOTSKI, "--pddl", out, "-m", "slides").exit_code == 2      # exists, no --force
    assert run("export", KLOTSKI, "--pddl", out, "-m", "slides", "--force").exit_code == 0
    r = run("export", MICROBAN, "-l", 2, "-m", "pushes", "-o", tmp_path / "mb" / "p2.pddl")
    assert r.exit_code == 0, r.output
    assert ":action-costs" in (tmp_path / "mb" / "domain.pddl").read_text()
    # a planner's plan file back through the command line, in our metric
    domain = load(MICROBAN, 2).rules
    task = build(domain, "pushes")
    code, _ = planners.run_driver("fd-lmcut", tmp_path / "mb" / "domain.pddl", tmp_path / "mb" / "p2.pddl",
                                  tmp_path / "mb" / "sas_plan", 60)
    assert code == 0
    r = run("validate", MICROBAN, "-l", 2, "-m", "pushes", tmp_path / "mb" / "sas_plan", "--pddl-plan")
    assert r.exit_code == 0 and r.output.startswith("valid: 3 pushes"), r.output
    steps = decode(task, domain, (tmp_path / "mb" / "sas_plan").read_text())
    assert domain.count(steps, "pushes") == 3 and any(s.isupper() for s in steps)


def test_plan_file_round_trip_and_errors(tmp_path):
    """Our optimal plan written as ground actions (the planners' format) reads back to the same steps."""
    domain = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").rules
    ref = breadth_first_search(domain, "slides")
    task = build(domain, "slides")
    lines = ["; a comment"] + [action_line(task, domain, move) for move in slides_of(domain, ref.steps)]
    text = "\n".join(lines) + f"\n; cost = {len(lines) - 1} (unit cost)\n"
    assert decode(task, domain, text) == ref.steps
    plan_file = tmp_path / "card40.plan"
    plan_file.write_text(text)
    r = run("validate", INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh", plan_file, "--pddl-plan", "-m", "slides")
    assert r.exit_code == 0 and r.output.startswith("valid: 51 slides"), r.output
    plan_file.write_text("(fly-k0 c-0-0 c-1-1)\n")
    r = run("validate", INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh", plan_file, "--pddl-plan", "-m", "slides")
    assert r.exit_code == 2 and "fly-k0" in r.output
    plan_file.write_text("slide-k0-left-1 c-0-0\n")
    assert run("validate", INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh", plan_file, "--pddl-plan",
               "-m", "slides").exit_code == 2


def slides_of(domain, steps):
    """(label, direction, distance, anchor before) of each slide in a plan of unit steps."""
    runs = []
    for step in steps:
        if runs and runs[-1][:2] == [step[:-1], step[-1]]:
            runs[-1][2] += 1
        else:
            runs.append([step[:-1], step[-1], 1])
    where = {label: normalise(cells)[0] for label, cells in domain.spec.pieces.items()}
    out = []
    for label, d, n in runs:
        out.append((label, d, n, where[label]))
        where[label] = (where[label][0] + n * DIRS[d][0], where[label][1] + n * DIRS[d][1])
    return out


def action_line(task, domain, move):
    """The ground action of a slide, found among its schema's legal groundings."""
    label, d, n, (x, y) = move
    j = label_kind(domain, label)
    own = task.schema(f"slide-k{j}-{DIR_NAMES[d]}-{n}")      # a kind's schema, or its domain kind's with ?k
    schema = own or task.schema(f"slide-g{domain.kind_of[label]}-{DIR_NAMES[d]}-{n}")
    head = (f"c-{x}-{y}",) if own else (f"k{j}", f"c-{x}-{y}")
    row = next(r for r in schema.rows if r[:len(head)] == head)
    return "(" + " ".join((schema.name,) + row) + ")"


def test_what_pddl_cannot_say_is_an_error(tmp_path):
    with pytest.raises(PuzzleError, match="moves"):
        build(load(KLOTSKI).problem, "moves")
    r = run("export", KLOTSKI, "-m", "moves", "--pddl", tmp_path / "x")
    assert r.exit_code == 2 and r.output.startswith("puzzleplan: error:")
    ends = load(MICROBAN, 1, constraints=["player.ends=c3"]).problem
    with pytest.raises(PuzzleError, match="pushes"):
        build(ends, "pushes")
    assert run("export", KLOTSKI).exit_code == 2        # neither a horizon and output nor --pddl


def test_a_missing_planner_names_the_extra(monkeypatch):
    monkeypatch.setattr(planners.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(PuzzleError, match=r"puzzleplan\[planners\]"):
        planners.driver("symk")
    r = run("bench", KLOTSKI, "--methods", "fd-lmcut", "-o", "unused.csv")
    assert r.exit_code == 2 and "planners" in r.output


def test_bench_row_of_a_planner(tmp_path):
    out = tmp_path / "b.csv"
    r = run("bench", MICROBAN, "--levels", "2", "-m", "pushes", "--methods", "fd-lmcut", "-o", out,
            "--time-limit", 60)
    assert r.exit_code == 0, r.output
    import csv
    row = next(csv.DictReader(open(out)))
    assert (row["status"], row["length"]) == ("optimal", "3")
    assert int(row["expanded"]) > 0 and float(row["cpu_seconds"]) > 0 and "planner_cost=3" in row["message"]


# -- the IPC 2008 optimal Sokoban track ------------------------------------------
needs_ipc = pytest.mark.skipif(not (DATASETS / "sokoban-opt08-strips").exists(),
                               reason="the shared IPC datasets are not beside the repository")


@needs_ipc
@pytest.mark.parametrize("problem,methods", [("p01.pddl", ("fd-lmcut", "symk")), ("p02.pddl", ("fd-lmcut", "symk")),
                                             ("p03.pddl", ("fd-lmcut",)), ("p21.pddl", ("fd-lmcut",))])
def test_ipc_problem_and_our_export_have_the_same_optimum(problem, methods):
    row = next(r for r in mapping(DATASETS) if r["file"] == problem)
    for method in methods:
        got = crosscheck(DATASETS, row, method, 120)
        assert got["ipc_status"] == got["ours_status"] == "optimal", got
        assert got["ipc_pushes"] == got["ours_pushes"] == row["optimum"], got


@needs_ipc
@pytest.mark.slow
def test_every_ipc_problem_with_lmcut():
    """Every optimum found (IPC files or ours, 120 s each) is the map's; ours solved 28 of 30 in 60 s."""
    ours = 0
    for row in mapping(DATASETS):
        got = crosscheck(DATASETS, row, "fd-lmcut", 120)
        assert all(v == row["optimum"] for v in (got["ipc_pushes"], got["ours_pushes"]) if v is not None), got
        ours += got["ours_pushes"] is not None
    assert ours >= 28


def test_ipc_plan_letters():
    text = "(move player-01 pos-1-2 pos-1-3 dir-down)\n(push-to-goal player-01 stone-01 p a b dir-left)\n; cost = 1\n"
    assert ipc_steps(text, "x") == ["d", "L"]
    with pytest.raises(PuzzleError):
        ipc_steps("(jump a b)\n", "x")
