"""The bench's results files as report and a rerun of the bench read them back: a broken
number, an empty, binary or unrelated file, JSON lines with text for a number are refused in one
line; optional columns may be missing; the latest row of each run counts and the old rows stay;
a failed run says why and is made again on the next run; the cactus plot counts only proven
answers."""
import json
import shutil

import pytest

from _helpers import GUARINI, one_line_error, rows, run_unchecked
from puzzleplan.bench.run import Task, bench, read_results


# --- report on broken and partial results files -----------------------------------------------

def test_instances_that_share_a_file_name_keep_their_own_rows(tmp_path):
    """Exports in several folders are all problem.pddl, and x.pddl may stand beside x.slide:
    each is its own row (a different optimum is no disagreement), named by the shortest end
    of its path that tells it apart; a name no other shares stays its stem."""
    from puzzleplan.bench.report import report
    path = tmp_path / "r.csv"
    path.write_text("instance,level,metric,method,status,length,seconds\n"
                    "e/card40-steps/problem.pddl,,steps,bfs,optimal,81,1\n"
                    "e/card40-slides/problem.pddl,,steps,bfs,optimal,51,1\n"
                    "p/eight01x.pddl,,steps,bfs,optimal,31,1\n"
                    "p/eight01x.slide,,steps,pysat-de,optimal,31,1\n"
                    "p/ferry/problem1.pddl,,steps,bfs,optimal,18,1\n")
    labels = list(read_results(path)["label"])
    assert labels == ["card40-steps/problem.pddl", "card40-slides/problem.pddl", "eight01x.pddl", "eight01x.slide",
                      "problem1"]
    text = report(path)[0]
    assert "DISAGREEMENT" not in text and "every optimal length (5 instances)" in text


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
    one_line_error(run_unchecked("report", path), problem)


@pytest.mark.parametrize("name,data", [("e.csv", b""), ("b.csv", b"\xff\xfe\x00abc"), ("l.jsonl", b'{"x": 1}\n[1, 2]\n'),
                                       ("c.csv", b"a,b\n1,2\n")])
def test_report_on_what_is_not_a_results_file(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    one_line_error(run_unchecked("report", path), "not a results file")


def test_report_without_the_optional_columns(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("instance,method,status,seconds\nx.slide,bfs,optimal,4\n")
    out = run_unchecked("report", path, "--plots", tmp_path / "plots")
    assert out.exit_code == 0, out.output
    assert "| bfs | 1 | 1 | 4.0 | 4.00 |" in out.stdout


def test_report_on_json_lines_with_text_in_a_number(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"instance": 1, "method": 2, "status": 3, "seconds": "a"}) + "\n")
    one_line_error(run_unchecked("report", path), "column 'seconds'")


# --- history: failed runs, reruns, latest rows ------------------------------------------------

def test_a_failed_run_says_why_and_is_retried_on_rerun(tmp_path):
    puzzle = tmp_path / "guarini.knights"
    out = tmp_path / "r.csv"
    lines = []
    task = Task(str(puzzle), None, "steps", "bfs")
    assert bench([task], out, 30, echo=lines.append) == 1       # the file is not there yet
    assert rows(out)[0]["status"] == "error"
    assert "no such file" in rows(out)[0]["message"]
    assert any("no such file" in line for line in lines), lines  # shown, not only in the file
    shutil.copy(GUARINI, puzzle)
    assert bench([task], out, 30, echo=lines.append) == 1       # retried
    assert bench([task], out, 30, echo=lines.append) == 0       # now done
    history = rows(out)
    assert [r["status"] for r in history] == ["error", "optimal"]   # the old row stays
    latest = read_results(out)
    assert list(latest["status"]) == ["optimal"] and len(read_results(out, history=True)) == 2


def test_report_takes_the_latest_row_of_each_run(tmp_path):
    from click.testing import CliRunner
    from puzzleplan.cli import main
    out = tmp_path / "r.csv"
    out.write_text("instance,level,metric,method,constraints,status,length,seconds\n"
                   "x.slide,,steps,bfs,,error,,0.1\n"
                   "x.slide,,steps,bfs,,optimal,7,0.2\n"
                   "x.slide,,steps,pysat,,optimal,7,0.3\n")
    table = CliRunner().invoke(main, ["report", str(out)]).stdout.split("## Time ratios")[0].splitlines()
    assert table[2] == "| method | runs | optimal | total s | median s (optimal) |"      # no error column
    assert table[4] == "| bfs | 1 | 1 | 0.2 | 0.20 |"


def test_the_cactus_plot_counts_only_proven_answers(tmp_path):
    from puzzleplan.bench.report import cactus, plots
    out = tmp_path / "r.csv"
    out.write_text("instance,level,metric,method,constraints,status,length,seconds\n"
                   "a.slide,,steps,cpsat,,optimal,7,2.0\n"
                   "b.slide,,steps,cpsat,,feasible,9,1.0\n"
                   "c.slide,,steps,cpsat,,unsolvable,,3.0\n"
                   "d.slide,,steps,cpsat,,timeout,,9.0\n")
    df = read_results(out)
    assert cactus(df) == {"cpsat": (4, [2.0, 3.0], [1.0, 2.0, 3.0])}
    assert [p.name for p in plots(df, tmp_path / "plots")] == ["cactus.png", "time_vs_length.png"]
