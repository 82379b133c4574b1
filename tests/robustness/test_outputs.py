"""What puzzleplan writes and says.  The write rules: nothing existing is overwritten without
--force, no folder is made but the last level, no file or folder is written through a symbolic
link (dangling or not), an unrelated file given as a results file is left untouched, and all
this is checked before the work.  What is written holds hostile text safely (a title in the
HTML player), progress shows on a terminal and only there, and the lines the commands print say
what they are."""
import json
import subprocess

import pytest

from _helpers import CARDS, GUARINI, KLOTSKI, PUZZLEPLAN, RUSH, TWO, one_error, run, run_unchecked
from conftest import INSTANCES, ROOT
from puzzleplan.formats.load import load


# --- output files: checked before the work, never through a link, nothing overwritten ---------

def test_proof_into_a_missing_folder_is_refused_before_solving(tmp_path):
    result = run("solve", GUARINI, "--certify", "--proof", tmp_path / "missing/dir/p.drat")
    one_error(result, "--proof", "no folder")
    assert "horizon" not in result.stderr       # refused before any horizon was tried


def test_proof_through_a_dangling_link_is_refused(tmp_path):
    link = tmp_path / "p.drat"
    link.symlink_to(tmp_path / "elsewhere.drat")
    one_error(run("solve", GUARINI, "--certify", "--proof", link), "symbolic link")
    assert not (tmp_path / "elsewhere.drat").exists()


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


@pytest.mark.parametrize("command", ["export", "report"])
@pytest.mark.parametrize("target", ["missing", "folder"])
def test_an_output_folder_that_is_a_link_is_refused(tmp_path, command, target):
    """export --pddl DIR and report --plots DIR: a link as the folder (to nowhere: a traceback;
    to a folder: the files written through it) is refused in one line, nothing written."""
    import os
    from click.testing import CliRunner
    from puzzleplan.cli import main
    real = tmp_path / "real"
    if target == "folder":
        real.mkdir()
    os.symlink(real, tmp_path / "out")
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    if command == "export":
        args = ["export", str(puzzle), "--pddl", str(tmp_path / "out")]
    else:
        results = tmp_path / "r.csv"
        results.write_text("instance,level,method,metric,status,length,wall_s\nx,,bfs,moves,optimal,2,0.1\n")
        args = ["report", str(results), "--plots", str(tmp_path / "out")]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 2 and "symbolic link" in done.output, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert not real.exists() or not any(real.iterdir())


# --- what is written and shown ----------------------------------------------------------------

@pytest.mark.parametrize("title", ["<!--<script>", "</script><script>x()</script>", "__SCENE__"])
def test_the_script_element_holds_no_markup(write, tmp_path, title):
    import re
    from puzzleplan.animate import write as animate
    domain = load(write("t.slide", f"name: {title}\n" + TWO)).problem
    page = tmp_path / "t.html"
    animate(domain, ["BR", "BD"], "steps", page)
    text = page.read_text()
    scene = re.search(r'<script id="scene" type="application/json">(.*?)</script>', text, re.S).group(1)
    assert "<" not in scene and ">" not in scene
    assert json.loads(scene)["title"] == title
    assert text.count("<script") == 2 and text.count("</script>") == 2


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


@pytest.mark.heavy
def test_bench_shows_k_of_n_and_time_left_in_a_terminal(tmp_path):
    args = ["bench", GUARINI, INSTANCES / "knights/swap_3x4.knights", "--methods", "bfs,astar", "-o"]
    out, terminal = in_a_terminal(args + [tmp_path / "a.csv"])
    assert "bench: 0/4" in terminal and "bench: 4/4" in terminal and "elapsed" in terminal and "left" in terminal
    assert out.count(": optimal") == 4 and "bench:" not in out      # the rows on stdout, the bar apart
    out, terminal = in_a_terminal(args + [tmp_path / "b.csv", "-q"])
    assert "bench:" not in terminal and out.count(": optimal") == 4
    piped = run(*args, tmp_path / "c.csv")     # not a terminal: no bar
    assert "bench:" not in piped.stderr and piped.stdout.count(": optimal") == 4


@pytest.mark.heavy
def test_seeds_says_what_it_is_doing_in_a_terminal():
    out, terminal = in_a_terminal(["seeds", "--time-limit", "0.2"], timeout=300)
    assert "seeds: 8/8" in terminal and "klotski_seed steps: SAT" in terminal and "BFS" in terminal
    assert out.count("known") == 8 and "seeds:" not in out      # -q and pipes: the bench's test, same bar


def test_first_line_says_where_deepening_goes():
    proc = subprocess.run(PUZZLEPLAN + ["solve", CARDS, "-l", "1", "-m", "slides", "--no-enumerate"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    first = proc.stderr.splitlines()[0]
    assert first.startswith("deepening from horizon") and "to 1000" in first


@pytest.mark.heavy
def test_explore_and_validate_labels(tmp_path):
    out = run_unchecked("explore", KLOTSKI)
    assert out.exit_code == 0
    assert "states reached" in out.stderr and "in the frontier" in out.stderr
    plan = tmp_path / "plan.json"
    plan.write_text(run_unchecked("search", RUSH, "--json").stdout)
    line = run_unchecked("validate", RUSH, plan).stdout.strip()
    assert line == "valid: 81 steps", line
    plan.write_text(run_unchecked("search", RUSH, "-m", "slides", "--json").stdout)
    line = run_unchecked("validate", RUSH, plan, "-m", "slides").stdout.strip()
    assert line.startswith("valid: 51 slides, ") and line.endswith(" steps"), line


@pytest.mark.heavy
def test_solve_shows_one_status_line_in_a_terminal_and_a_table_with_verbose():
    """In a terminal the deepening is one status line rewritten in place (horizon, last refuted,
    conflicts, elapsed), cleared before the answer; ``-v`` prints the per-horizon table; ``-q``
    nothing; in a log a horizon's line at most every 10 s (and the last one at the end), so a
    run of 81 horizons is a few lines, not 81."""
    args = ["solve", RUSH, "--no-enumerate"]
    out, terminal = in_a_terminal(args)
    assert out.startswith("optimal: ") and "81 steps" in out
    assert "\r" in terminal and "no plan within 80" in terminal and "conflicts" in terminal
    assert "horizon 81 being asked: no plan within 80" in terminal     # before its row, not after
    assert "horizon   80:" not in terminal        # no table line
    out, terminal = in_a_terminal(args + ["-v"])
    asked = [h for h in range(0, 82) if f"horizon {h:>4}:" in terminal]     # from the admissible start bound
    assert asked == list(range(asked[0], 82)) and asked[0] <= 3, asked         # (3: the red car's blockers)
    out, terminal = in_a_terminal(args + ["-q"])
    assert terminal.strip() == "" and out.startswith("optimal: ")
    logged = run(*args)         # not a terminal: a log
    rows = [line for line in logged.stderr.splitlines() if line.startswith("horizon ")]
    assert 2 <= len(rows) < 20 and "sat" in rows[-1] and "horizon   81:" in rows[-1]
    assert "\r" not in logged.stderr
