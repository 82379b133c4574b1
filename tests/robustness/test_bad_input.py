"""Bad input of every kind gets one line ``puzzleplan: error: ...`` and exit 2 (a JSON error
object with --json): Unicode digits, huge numbers, cells off the board, nonsense option values,
missing folders, deeply nested plans, broken results files, incomplete knights targets."""
import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES
from puzzleplan.cli import main

RUSH = str(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh")
GUARINI = str(INSTANCES / "knights/guarini.knights")
MICROBAN = str(INSTANCES / "sokoban/Microban.txt")
KLOTSKI = str(INSTANCES / "seeds/klotski_seed000.slide")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(out, problem):
    assert out.exit_code == 2, out.output
    assert out.stderr.startswith("puzzleplan: error: ") and out.stderr.count("\n") == 1, out.stderr
    assert problem in out.stderr, out.stderr
    assert out.exception is None or isinstance(out.exception, SystemExit)


def json_error(out, problem):
    assert out.exit_code == 2, out.output
    doc = json.loads(out.stdout)
    assert doc["status"] == "error" and problem in doc["message"]
    assert out.exception is None or isinstance(out.exception, SystemExit)


BAD_VALUES = [
    # Unicode digits: str.isdigit() takes them, int() does not
    (("search", RUSH, "--avoid", "B:a\u00b2"), "not a square"),
    (("search", RUSH, "--moves", "A>=\u00b2"), "not a move count"),
    (("search", RUSH, "-c", "A.moves<=\u00b3"), "not a move count"),
    (("search", GUARINI, "--ends", "W:c\u00b9"), "not a square"),
    (("search", RUSH, "--moves", "A>=" + "9" * 5000), "not a move count"),
    (("search", RUSH, "--avoid", "B:a" + "9" * 5000), "not a square"),
    # cells off the board
    (("search", RUSH, "--avoid", "B:z9"), "off the 6x6 board"),
    (("search", RUSH, "--ends", "A:e3,h8"), "A.ends: cell h8 is off the board"),
    (("search", MICROBAN, "-l", "2", "--avoid", "player:z40"), "off the board"),
    (("search", MICROBAN, "-l", "2", "--ends", "player:z40"), "off the board"),
    (("search", GUARINI, "--avoid", "W:a4"), "a4 is not a square of the board"),
    (("search", GUARINI, "--ends", "W:a4"), "off the board"),
    # option values
    (("solve", RUSH, "--max-horizon", "-1"), "--max-horizon"),
    (("solve", RUSH, "--time-limit", "-5"), "--time-limit"),
    (("solve", RUSH, "--time-limit", "nan"), "--time-limit"),
    (("search", RUSH, "--time-limit", "nan"), "--time-limit"),
    (("search", RUSH, "--time-limit", "0"), "--time-limit"),
    (("seeds", "--time-limit", "-1"), "--time-limit"),
    (("solve", RUSH, "--margin", "-1"), "--margin"),
    (("search", MICROBAN, "--margin", "-1"), "--margin"),
    (("solve", RUSH, "--start-horizon", "-1"), "--start-horizon"),
    (("solve", RUSH, "--max-horizon", "\u00b2"), "--max-horizon"),
    (("bench", RUSH, "--time-limit", "0"), "--time-limit"),
    (("bench", RUSH, "--time-limit", "nan"), "--time-limit"),
    (("bench", RUSH, "--memory", "-1"), "--memory"),
    (("bench", RUSH, "--memory", "0"), "--memory"),
    (("bench", RUSH, "--jobs", "0"), "--jobs"),
    (("export", RUSH, "-t", "-1", "-o", "x.cnf"), "--horizon"),
    (("export", RUSH, "-t", "3", "-o", "nosuchdir/x.cnf"), "no folder nosuchdir"),
    (("solve",), "Missing argument"),
]


@pytest.mark.parametrize("args,problem", BAD_VALUES)
def test_bad_value_is_one_line(args, problem):
    one_line_error(run(*args), problem)


@pytest.mark.parametrize("args,problem", [a for a in BAD_VALUES if a[0][0] in ("search", "solve")])
def test_bad_value_with_json_is_an_error_object(args, problem):
    json_error(run(*args, "--json"), problem)


def test_unicode_digits_in_files(write):
    slide = ("board:\nAB\n..\ngoal:\n..\nA.\nconstraints: B.moves=\u00b2\n")
    one_line_error(run("search", write("a.slide", slide)), "not a move count")
    knights = "board:\nW..\n...\n..B\ngoal: W@c\u00b3\n"
    one_line_error(run("search", write("a.knights", knights)), "a.knights:5")
    counted = "board:\nW..\n...\n..B\ngoal: W@c3 W.moves=\u2077\n"
    one_line_error(run("search", write("b.knights", counted)), "not a move count")
    rush = "\u00b3 BBB...C...D.AAC..D.....E.....E..FFF.E 10\n"
    one_line_error(run("search", write("a.rh", rush)), "a.rh:1")


def test_deeply_nested_json_plan(tmp_path):
    plan = tmp_path / "deep.json"
    plan.write_text('{"steps": ' + "[" * 100_000 + "]" * 100_000 + "}")
    one_line_error(run("validate", RUSH, plan), "nested too deeply")
    json_error(run("validate", RUSH, plan, "--json"), "nested too deeply")


@pytest.mark.parametrize("text,problem", [
    ("instance,level,metric,method,status,length,seconds\nx,,steps,bfs,optimal,3,abc\n", "column 'seconds'"),
    ("instance,level,metric,method,status,length,seconds\nx,,steps,bfs,optimal,zz,1\n", "column 'length'"),
    ("instance,level,metric,method,status,length,seconds\nx,q,steps,bfs,optimal,3,1\n", "column 'level'"),
    ("instance,level,metric,method,status,length,seconds\nx,1.5,steps,bfs,optimal,3,1\n", "whole number"),
    ('instance,method,status,seconds,horizon_figures\nx,pysat,optimal,1,"[{""horizon"": ""a""}]"\n',
     "horizon_figures"),
])
def test_report_on_a_broken_results_file(tmp_path, text, problem):
    path = tmp_path / "r.csv"
    path.write_text(text)
    one_line_error(run("report", path), problem)


@pytest.mark.parametrize("name,data", [("e.csv", b""), ("b.csv", b"\xff\xfe\x00abc"), ("l.jsonl", b'{"x": 1}\n[1, 2]\n'),
                                       ("c.csv", b"a,b\n1,2\n")])
def test_report_on_what_is_not_a_results_file(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    one_line_error(run("report", path), "not a results file")


def test_report_without_the_optional_columns(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("instance,method,status,seconds\nx.slide,bfs,optimal,4\n")
    out = run("report", path, "--plots", tmp_path / "plots")
    assert out.exit_code == 0, out.output
    assert "| bfs | 1 | 1 | 4.0 | 4.00 |" in out.stdout


def test_report_on_json_lines_with_text_in_a_number(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"instance": 1, "method": 2, "status": 3, "seconds": "a"}) + "\n")
    one_line_error(run("report", path), "column 'seconds'")


def test_knights_target_missing_a_knight(write):
    text = "board:\nW.W\n...\nB.B\ntarget:\nB.B\n...\nW..\n"
    one_line_error(run("search", write("t.knights", text)), "t.knights:6: the target picture must place every knight")


def test_knights_goal_with_a_group_count(write):
    text = "board:\nX..\n...\nY..\ngoal: Y@a2 X.moves<=8 X+Y.moves<=15\n"
    path = write("g.knights", text)
    for command in ("search", "solve"):
        out = run(command, path, "--json")
        assert out.exit_code == 0, out.output
        doc = json.loads(out.stdout)
        assert doc["status"] == "optimal" and doc["length"] == 3, doc   # Y: a1-b3, b3-c1, c1-a2
    # a group naming a knight that is not there: an error with its line
    bad = write("h.knights", "board:\nX..\n...\nY..\n; a comment\ngoal: Y@a2 X+Z.moves<=15\n")
    one_line_error(run("search", bad), "h.knights:6: goal counts moves of 'Z', which is not on the board")


def test_explore_and_validate_labels(tmp_path):
    out = run("explore", KLOTSKI)
    assert out.exit_code == 0
    assert "states reached" in out.stderr and "in the frontier" in out.stderr
    plan = tmp_path / "plan.json"
    plan.write_text(run("search", RUSH, "--json").stdout)
    line = run("validate", RUSH, plan).stdout.strip()
    assert line == "valid: 81 steps", line
    plan.write_text(run("search", RUSH, "-m", "slides", "--json").stdout)
    line = run("validate", RUSH, plan, "-m", "slides").stdout.strip()
    assert line.startswith("valid: 51 slides, ") and line.endswith(" steps"), line
