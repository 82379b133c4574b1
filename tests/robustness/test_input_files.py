"""Puzzle, plan, formula, model, witness and PDDL files that are malformed, contradictory,
oversized, compressed or not files at all: a section given twice, a target that misses a
knight, Unicode digits, a comma between constraints, a gzip bomb, /dev/zero (as a puzzle, a
model, an AIGER file, a witness), an endless line, a plan nested too deeply, a bomb of
parentheses, a model or a witness of millions of lines.  Each is refused in one line
``puzzleplan: error: ...`` (a JSON error object with --json), at its cap and at once, never a
traceback; and files that are merely unusual (Windows line ends, alternative goal lines, an
open Sokoban level) still read as they should."""
import json
import time

import pytest

from _helpers import GUARINI, RUSH, TWO, json_error, one_error, one_line_error, run, run_unchecked
from conftest import INSTANCES
from puzzleplan.formats.load import load


# --- sections given twice, goals, targets, odd characters -------------------------------------

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
    assert len(load(INSTANCES / "seeds/knights_seed003.knights").rules.spec.goals) == 2


def test_knights_target_missing_a_knight(write):
    text = "board:\nW.W\n...\nB.B\ntarget:\nB.B\n...\nW..\n"
    one_line_error(run_unchecked("search", write("t.knights", text)), "t.knights:6: the target picture must place every knight")


def test_knights_goal_naming_one_square_twice(write):
    """Two W knights, goal "W@c3 W@c3": one knight there solves it (1 jump), but the bound counted
    the square twice (2) and --max-horizon 1 answered "no plan within 1"; now bad input."""
    text = "board:\n.....\n.....\n.....\nW....\n....W\ngoal: W@c3 W@c3\n"
    for command in ("search", "solve"):
        one_line_error(run_unchecked(command, write("d.knights", text)), "the goal names W@c3 twice")


def test_knights_goal_with_a_group_count(write):
    text = "board:\nX..\n...\nY..\ngoal: Y@a2 X.moves<=8 X+Y.moves<=15\n"
    path = write("g.knights", text)
    for command in ("search", "solve"):
        out = run_unchecked(command, path, "--json")
        assert out.exit_code == 0, out.output
        doc = json.loads(out.stdout)
        assert doc["status"] == "optimal" and doc["length"] == 3, doc   # Y: a1-b3, b3-c1, c1-a2
    # a group naming a knight that is not there: an error with its line
    bad = write("h.knights", "board:\nX..\n...\nY..\n; a comment\ngoal: Y@a2 X+Z.moves<=15\n")
    one_line_error(run_unchecked("search", bad), "h.knights:6: goal counts moves of 'Z', which is not on the board")


def test_unicode_digits_in_files(write):
    slide = ("board:\nAB\n..\ngoal:\n..\nA.\nconstraints: B.moves=\u00b2\n")
    one_line_error(run_unchecked("search", write("a.slide", slide)), "not a move count")
    knights = "board:\nW..\n...\n..B\ngoal: W@c\u00b3\n"
    one_line_error(run_unchecked("search", write("a.knights", knights)), "a.knights:5")
    counted = "board:\nW..\n...\n..B\ngoal: W@c3 W.moves=\u2077\n"
    one_line_error(run_unchecked("search", write("b.knights", counted)), "not a move count")
    rush = "\u00b3 BBB...C...D.AAC..D.....E.....E..FFF.E 10\n"
    one_line_error(run_unchecked("search", write("a.rh", rush)), "a.rh:1")


@pytest.mark.parametrize("line", ["A.moves>=1, B.frozen", "A.moves>=1,B.frozen", "A.frozen, B.moves>=1",
                                  "B.avoid=a2, c1", "A.moves>=1 B.avoid=a2,B.frozen"])
def test_a_comma_between_constraints_says_how_to_part_them(write, line):
    """Spaces part a constraints: line's items, commas the cells of one; a comma between items
    (or one that ends an item) was "not a move count": it now says so, in the file and in -c
    (where 'B.avoid=a2, c1' is one item, its cells a2 and c1)."""
    path = write("c.slide", TWO + f"constraints: {line}\n")
    one_line_error(run_unchecked("search", path), "a comma parts the cells of a constraint")
    if line != "B.avoid=a2, c1":
        one_line_error(run_unchecked("search", write("t.slide", TWO), "-c", line), "part them by spaces in a file, "
                                                                                   "one -c each")
    ok = write("ok.slide", TWO + "constraints: A.moves>=1 B.avoid=a2,b2\n")
    assert run("search", ok).exit_code == 0 and run("search", write("t.slide", TWO), "-c", "B.avoid=a2, b2").exit_code == 0


def test_windows_line_ends_still_read(write):
    path = write("crlf.slide", TWO.replace("\n", "\r\n"))
    assert run("search", path).exit_code == 0


def test_open_level_results_say_the_cut_grid(write):
    path = write("open.xsb", "#\n@$\n .\n")
    for args in (["search", path, "--margin", "0", "--json"], ["solve", path, "--margin", "0", "--json"],
                 ["solve", path, "--margin", "1", "--json"]):
        got = json.loads(run_unchecked(*args).output)
        assert "cut" in got["scope"] and "margin" in got["scope"], args
    closed = json.loads(run_unchecked("solve", str(INSTANCES / "sokoban/Microban.txt"), "-l", "1", "--json").output)
    assert "scope" not in closed


# --- bounded reads: size caps, compressed bombs, special files, endless lines, deep nesting ---

@pytest.mark.timing
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


def test_deeply_nested_json_plan(tmp_path):
    plan = tmp_path / "deep.json"
    plan.write_text('{"steps": ' + "[" * 100_000 + "]" * 100_000 + "}")
    one_line_error(run_unchecked("validate", RUSH, plan), "nested too deeply")
    json_error(run_unchecked("validate", RUSH, plan, "--json"), "nested too deeply")


@pytest.mark.timing
def test_a_bomb_of_parentheses_is_refused_at_the_depth_cap_at_once(tmp_path):
    """60 MiB of '(' on one line (a 61 KB .pddl.gz): refused at the nesting cap as it is read,
    not first copied and split whole (seconds of C code past the limit, 750 MB)."""
    from puzzleplan.strips import parse as source
    from puzzleplan.puzzle import PuzzleError
    text = "(" * (60 << 20)
    t0 = time.monotonic()
    with pytest.raises(PuzzleError, match="nested deeper"):
        source.parse(text, "bomb.pddl")
    assert time.monotonic() - t0 < 1.5


@pytest.mark.timing
def test_a_model_file_is_capped_by_the_formula_and_the_time_limit(tmp_path):
    """300 MB of '0' lines as a solver's model (under the 1 GiB answer cap): refused at once by
    the formula's size, not read into gigabytes past a 5 s limit."""
    from click.testing import CliRunner
    from puzzleplan.cli import main
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    runner = CliRunner()
    done = runner.invoke(main, ["export", str(puzzle), "-t", "3", "-o", str(tmp_path / "x.cnf")])
    assert done.exit_code == 0, done.output
    model = tmp_path / "model"
    with open(model, "wb") as fh:
        for _ in range(40):
            fh.write(b"0\n" * (2 ** 19))
    t0 = time.monotonic()
    done = runner.invoke(main, ["decode", str(puzzle), "--cnf", str(tmp_path / "x.cnf"), "--model", str(model),
                                "--time-limit", "5"])
    assert time.monotonic() - t0 < 5
    assert done.exit_code == 2 and "too big" in done.output, done.output
    values = tmp_path / "values"
    values.write_text("s SATISFIABLE\nv " + "1 " * 100000 + "0\n")
    done = runner.invoke(main, ["decode", str(puzzle), "--cnf", str(tmp_path / "x.cnf"), "--model", str(values)])
    assert done.exit_code == 2 and "more values than the formula has variables" in done.output, done.output


@pytest.mark.timing
def test_a_witness_of_millions_of_lines_is_refused_at_its_first_bad_step(tmp_path):
    """A witness of 20 million short lines (80 MB, under the answer cap): refused at its first
    step, not listed whole first (seconds past a 5 s limit, gigabytes, under load)."""
    from click.testing import CliRunner
    from puzzleplan.cli import main
    puzzle = tmp_path / "tiny.slide"
    puzzle.write_text("board:\nAA.\nb..\n\ngoal:\n...\n.AA\n")
    runner = CliRunner()
    assert runner.invoke(main, ["export", str(puzzle), "-o", str(tmp_path / "x.aag")]).exit_code == 0
    witness = tmp_path / "w"
    with open(witness, "wb") as fh:
        fh.write(b"1\nb0\n")
        fh.write(b"000\n" * (20 * 2 ** 20))
    t0 = time.monotonic()
    done = runner.invoke(main, ["decode", str(puzzle), "--aiger", str(tmp_path / "x.aag"), "--witness", str(witness),
                                "--time-limit", "5"])
    assert time.monotonic() - t0 < 5
    assert done.exit_code == 3 and "refused" in done.output, done.output


def bytes_read() -> int:
    """What this process has read so far (Linux: /proc/self/io's rchar)."""
    with open("/proc/self/io") as fh:
        return int(next(line for line in fh if line.startswith("rchar")).split()[1])


def test_an_aiger_file_that_does_not_start_as_one_is_refused_at_its_first_line(tmp_path):
    """8 MiB of zeros, or /dev/zero, given as the AIGER file: refused at its first line, not read
    for 256 MiB first (and copied twice: 532 MB for /dev/zero)."""
    zeros = tmp_path / "zeros.aag"
    zeros.write_bytes(bytes(8 << 20))
    witness = tmp_path / "w"
    witness.write_text("1\nb0\n")
    run("decode", GUARINI, "--aiger", tmp_path / "none.aag", "--witness", witness)     # the command's modules imported
    for aiger, problem in ((zeros, "no 'aag'/'aig' header"), ("/dev/zero", "is a device")):
        before = bytes_read()
        one_error(run("decode", GUARINI, "--aiger", aiger, "--witness", witness), problem)
        assert bytes_read() - before < 1 << 20


def test_a_witness_is_read_no_further_than_its_first_refusal(tmp_path):
    """A witness is read a line at a time, each step checked as it comes: zeros are refused at
    their first line (binary data), a text that is no witness at its first line, a witness at the
    first step that breaks the model's step; before, each was read whole, and every step
    simulated before the first was judged (a 94 MB witness gave no answer in 200 s)."""
    aag = tmp_path / "g.aag"
    assert run("export", GUARINI, "-o", aag).exit_code == 0
    steps = b"0" * 84 + b"\n"        # guarini's AIG: 84 inputs, 52 latches
    files = {"zeros": bytes(4 << 20), "text": b"hello\n" + steps * 30_000,
             "steps": b"1\nb0\n" + b"0" * 52 + b"\n" + steps * 30_000 + b".\n"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    run("decode", GUARINI, "--aiger", aag, "--witness", tmp_path / "text")     # the command's modules imported
    for name, code, problem in (("zeros", 2, "NUL byte"), ("text", 3, "first line is neither"),
                                ("steps", 3, "step constraint at step 0")):
        before = bytes_read()
        result = run("decode", GUARINI, "--aiger", aag, "--witness", tmp_path / name)
        assert result.exit_code == code and problem in result.stderr and result.stderr.count("\n") == 1, result.stderr
        assert bytes_read() - before < 1 << 20, name


@pytest.mark.timing
def test_a_witness_is_read_within_the_time_limit(tmp_path):
    """Every line read is a checkpoint: a limit that passes while a long witness is read ends the
    reading there (a 940 MB witness was read whole past a 5 s limit)."""
    from puzzleplan import limits
    from puzzleplan.formats.common import read_lines
    path = tmp_path / "w"
    path.write_bytes(b"c a comment\n" * 100_000)
    lines = read_lines(path)
    with pytest.raises(limits.TimeUp), limits.time_limit(0.01):
        time.sleep(0.05)
        for _ in lines:
            pass
    assert next(lines, None) is None            # the reading ended there, its file closed
