"""Animations: one frame per step (or per move of the slides/moves metrics), each frame the
replay's position, GIF/HTML/MP4 from show, solve and search, and bad input refused."""
import json
import random
import re

import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import INSTANCES
import families_gen as generate
from puzzleplan.animate import build, canonical, position, write
from puzzleplan.animate.raster import Painter, images
from puzzleplan.cli import main
from puzzleplan.registry import problem as problem_of
from puzzleplan.families.sliding.rules import SlidingPuzzle
from puzzleplan.formats.load import load
from puzzleplan.puzzle import MoveCount, PuzzleError, Status
from puzzleplan.search import breadth_first_search
from puzzleplan.validate import check_plan

SMALL_SLIDE = """name: three pieces
board:
.A.
CAB
..B

goal:
...
..C
...
"""
MICROBAN = INSTANCES / "sokoban/Microban.txt"
GUARINI = INSTANCES / "knights/guarini.knights"
SEED003 = INSTANCES / "seeds/knights_seed003.knights"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def expected_frames(problem, steps, metric) -> int:
    """Frames after the start: the moves of the slides/moves metrics, else the steps."""
    grouped = problem.name == "sliding" and metric in ("slides", "moves")
    return problem.rules.count(steps, metric) if grouped else len(steps)


def one_move(steps: list[str], metric: str) -> bool:
    """Steps one sliding move may hold: one piece (moves), one piece one way (slides)."""
    if metric == "slides":
        return len({s for s in steps}) == 1
    if metric == "moves":
        return len({s[:-1] for s in steps}) == 1
    return len(steps) == 1


# -- scenes from generated instances: frames are the replay, grouped by the metric -------------------

def generated():
    rng = random.Random(5)
    for i in range(20):
        yield problem_of(generate.sliding(rng)), ("steps", "slides", "moves")
        yield problem_of(generate.sokoban(rng, boxes=1 + i % 2)), ("moves", "pushes")
        yield problem_of(generate.knights(rng, counted=True)), ("steps",)   # the goals' own counts


@pytest.mark.parametrize("kind", ["sliding", "sokoban", "knights"])
def test_scene_frames_are_the_replayed_positions(kind):
    checked = 0
    for problem, metrics in generated():
        if problem.name != kind:
            continue
        rules = problem.rules
        for metric in metrics:
            result = breadth_first_search(problem, metric)
            if result.status is not Status.OPTIMAL or not result.steps:
                continue
            steps = result.steps
            scene = build(problem, steps, metric)
            history = rules.replay(steps).history
            assert scene.family == kind
            assert len(scene.frames) - 1 == expected_frames(problem, steps, metric)
            assert scene.frames[0].step == 0 and scene.frames[-1].step == len(steps)
            assert " ".join(f.move for f in scene.frames[1:]).split() == steps
            for frame, prev in zip(scene.frames[1:], scene.frames):
                assert frame.step > prev.step
                assert frame.move.split() == steps[prev.step:frame.step]
                if kind == "sliding":
                    assert one_move(frame.move.split(), metric)
            for frame in scene.frames:
                assert canonical(frame.position) == canonical(position(rules, history[frame.step]))
            assert len(images(scene)) == len(scene.frames)
            checked += 1
    assert checked >= 5


def test_moves_metric_frames_are_whole_runs_of_one_piece():
    d = load(INSTANCES / "seeds/klotski_seed000.slide").problem
    steps = ["gR", "gR", "eD", "cD"]
    scene = build(d, steps, "moves")
    assert [f.move for f in scene.frames[1:]] == ["gR gR", "eD", "cD"]
    assert [f.step for f in scene.frames] == [0, 2, 3, 4]
    assert [f.move for f in build(d, steps, "steps").frames[1:]] == steps


@pytest.mark.heavy
def test_gif_pixels_show_each_piece_where_the_replay_puts_it():
    d = load(INSTANCES / "seeds/klotski_seed000.slide").rules
    steps = breadth_first_search(d, "steps").steps[:30]
    scene = build(d, steps, "steps")
    painter = Painter(scene)
    gif = Image.open(_gif_file(scene))
    history = d.replay(steps).history
    for k in (0, 7, 29, 30):
        gif.seek(k)
        rgb = gif.convert("RGB")
        for label, cells in history[k].items():
            want = tuple(int(scene.colours[label][i:i + 2], 16) for i in (1, 3, 5))
            for cell in cells:
                x0, y0, _, _ = painter.box(cell)
                got = rgb.getpixel((x0 + 9, y0 + 9))     # inside the piece, clear of its label
                assert max(abs(a - b) for a, b in zip(got, want)) < 24, (k, label, cell, got, want)


def _gif_file(scene):
    import io
    from puzzleplan.animate.raster import gif_bytes
    return io.BytesIO(gif_bytes(scene))


@pytest.mark.heavy
def test_counters_follow_the_side_conditions():
    d = problem_of(load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").problem, [MoveCount("A", ">=", 3)])
    result = breadth_first_search(d, "slides")
    scene = build(d, result.steps, "slides")
    assert scene.conditions == ["A.moves>=3"]
    assert scene.frames[0].counters == {"A": 0}
    assert scene.frames[-1].counters == {"A": check_plan(d, result.steps, "slides")["moves_per_piece"]["A"]}
    assert scene.frames[-1].counters["A"] >= 3
    knights = load(SEED003).rules
    plan = breadth_first_search(knights, "steps").steps
    final = build(knights, plan, "steps").frames[-1].counters
    assert final == {p: knights.replay(plan).moved[-1][p] for p in ("B", "G")} and 8 in final.values()


# -- the command line: every domain and metric, from show, solve and search ---------------------------

CASES = [("slide", "steps"), ("slide", "slides"), ("slide", "moves"),
         ("sokoban", "moves"), ("sokoban", "pushes"), ("knights", "steps")]


def instance_args(which, write):
    if which == "slide":
        return [write("small.slide", SMALL_SLIDE)], load(write("small.slide", SMALL_SLIDE)).problem
    if which == "sokoban":
        return [MICROBAN, "--level", 2], load(MICROBAN, 2).problem
    return [GUARINI], load(GUARINI).problem


def read_scene(html_path) -> dict:
    text = open(html_path).read()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), "the page must not load anything"
    data = re.search(r'<script id="scene" type="application/json">(.*?)</script>', text, re.S).group(1)
    return json.loads(data)


@pytest.mark.parametrize("command", ["show", "solve", "search"])
@pytest.mark.parametrize("which,metric", CASES)
def test_cli_writes_gif_and_html(command, which, metric, tmp_path, write):
    args, problem = instance_args(which, write)
    found = json.loads(run("search", *args, "--metric", metric, "--json").stdout)
    gif, html = tmp_path / "a.gif", tmp_path / "a.html"
    if command == "show":
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps(found))
        out = run("show", *args, "--plan", plan, "--metric", metric, "--gif", gif, "--html", html)
        steps = found["steps"]
    else:
        extra = ["-q"] if command == "solve" else []
        out = run(command, *args, "--metric", metric, "--json", *extra, "--gif", gif, "--html", html)
        steps = json.loads(out.stdout)["steps"]     # stdout stays one JSON object
        assert json.loads(out.stdout)["length"] == found["length"]
    assert out.exit_code == 0, out.output
    assert f"animation: {gif}" in out.stderr and f"animation: {html}" in out.stderr
    n = expected_frames(problem, steps, metric)
    im = Image.open(gif)
    assert im.format == "GIF" and im.n_frames == n + 1
    im.seek(n)
    im.load()
    scene = read_scene(html)
    assert scene["metric"] == metric and len(scene["frames"]) == n + 1
    history = problem.rules.replay(steps).history
    for frame in scene["frames"]:
        assert canonical(frame["position"]) == canonical(position(problem.rules, history[frame["step"]]))


def test_cli_mp4(tmp_path):
    import imageio_ffmpeg
    out = run("search", GUARINI, "--mp4", tmp_path / "g.mp4")
    assert out.exit_code == 0, out.output
    data = (tmp_path / "g.mp4").read_bytes()
    assert data[4:8] == b"ftyp"
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "g.mp4"))
    meta = next(reader)
    frames = sum(1 for _ in reader)
    hold = round(4 * 1.5)           # the first and last positions are held 1.5 s at 4 frames/s
    assert frames == 17 + 2 * (hold - 1) and meta["fps"] == 4


def test_cli_counters_in_the_page(tmp_path):
    html = tmp_path / "rh.html"
    out = run("search", INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh", "-m", "slides", "--moves", "A>=3",
              "--html", html)
    assert out.exit_code == 0, out.output
    scene = read_scene(html)
    assert scene["conditions"] == ["A.moves>=3"] and scene["frames"][-1]["counters"]["A"] >= 3


# -- bad input: one line, exit 2, nothing overwritten ----------------------------------------------

def test_plan_that_does_not_replay(tmp_path):
    plan = tmp_path / "bad.txt"
    plan.write_text("gR gR gR")
    gif = tmp_path / "k.gif"
    out = run("show", INSTANCES / "seeds/klotski_seed000.slide", "--plan", plan, "--gif", gif)
    assert out.exit_code == 2
    assert out.stderr.strip().splitlines()[-1] == "puzzleplan: error: step 3 (gR): piece g is blocked at (3, 4)"
    assert not gif.exists()


@pytest.mark.parametrize("option", ["--gif", "--html", "--mp4"])
def test_existing_file_is_kept_without_force(option, tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"keep me")
    out = run("search", GUARINI, option, target)
    assert out.exit_code == 2 and out.stderr == f"puzzleplan: error: {target} exists; use --force to overwrite it\n"
    assert out.stdout == "" and target.read_bytes() == b"keep me"      # refused before searching
    out = run("search", GUARINI, option, target, "--force")
    assert out.exit_code == 0 and target.read_bytes() != b"keep me"


def test_unwritable_output(tmp_path):
    out = run("search", GUARINI, "--gif", tmp_path / "no" / "such" / "folder.gif")
    assert out.exit_code == 2 and out.stderr.startswith("puzzleplan: error: cannot write ")
    assert len(out.stderr.splitlines()) == 1
    out = run("search", GUARINI, "--json", "--html", tmp_path / "no" / "g.html")
    assert out.exit_code == 2 and json.loads(out.stdout)["status"] == "error"


def test_write_refuses_an_existing_file(tmp_path):
    d = load(GUARINI).problem
    target = tmp_path / "g.gif"
    target.write_text("x")
    with pytest.raises(PuzzleError, match="exists"):
        write(d, ["a1-b3"], "steps", target)
    assert target.read_text() == "x"
    with pytest.raises(PuzzleError, match="unknown animation type"):
        write(d, ["a1-b3"], "steps", tmp_path / "g.png")


@pytest.mark.heavy
def test_no_plan_found_says_so_and_keeps_the_exit_code(tmp_path):
    rh = INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh"
    plain = run("search", rh, "-m", "slides", "--frozen", "A")
    out = run("search", rh, "-m", "slides", "--frozen", "A", "--gif", tmp_path / "x.gif")
    assert out.exit_code == plain.exit_code == 0
    assert out.stderr.splitlines()[-1] == "no plan found: no animation written"
    assert not (tmp_path / "x.gif").exists()


def test_mp4_without_its_writer_says_so(tmp_path, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "imageio_ffmpeg", None)     # as if not installed
    out = run("search", GUARINI, "--mp4", tmp_path / "g.mp4")
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith("puzzleplan: error: MP4 needs the imageio-ffmpeg package")
    assert len(out.stderr.splitlines()) == 1 and not (tmp_path / "g.mp4").exists()


def test_solved_only_when_the_plan_reaches_the_goal():
    d = load(GUARINI).problem
    plan = breadth_first_search(d, "steps").steps
    assert build(d, plan, "steps").solved and not build(d, plan[:-1], "steps").solved


def test_show_needs_a_plan_to_animate(tmp_path):
    out = run("show", GUARINI, "--gif", tmp_path / "g.gif")
    assert out.exit_code == 2 and out.stderr == "puzzleplan: error: --gif, --html and --mp4 need --plan\n"


def test_polyomino_piece_is_one_shape(tmp_path, write):
    spec_text = "name: L\nboard:\nAA.\nA..\n...\n\ngoal:\n...\n.AA\n.A.\n"
    d = load(write("l.slide", spec_text)).rules
    assert isinstance(d, SlidingPuzzle)
    scene = build(d, ["AR", "AD"], "steps")
    rgb = images(scene)[0]
    painter = Painter(scene)
    # the gap between the piece's two top cells is filled: they are drawn as one piece
    x0, y0, x1, _ = painter.box((0, 0))
    bridge = rgb.getpixel((x1, y0 + 10))
    want = tuple(int(scene.colours["A"][i:i + 2], 16) for i in (1, 3, 5))
    assert bridge == want
