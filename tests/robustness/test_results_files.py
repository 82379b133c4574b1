"""The bench's results files as report and a rerun of the bench read them back: a broken
number, an empty, binary or unrelated file, JSON lines with text for a number, a row longer than
the header are refused in one line; rows cut short are left out, said in a warning; the bench
appends only under its own header and after a whole row; optional columns may be missing; the latest row of each run counts and the old rows stay;
a failed run says why and is made again on the next run; the cactus plot counts only proven
answers."""
import json
import shutil

import pytest

from _helpers import GUARINI, one_line_error, rows, run_unchecked
from puzzleplan.bench.results import FIELDS, read_results
from puzzleplan.bench.run import Task, bench


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


def bench_file(path, methods=("bfs", "astar", "pysat")):
    """A results file as the bench writes it, a row per method."""
    from puzzleplan.bench.results import Sink
    sink = Sink(path)
    for m in methods:
        sink.write({"instance": "x.slide", "level": "", "metric": "steps", "method": m, "status": "optimal",
                    "length": 7, "seconds": 0.5, "machine": "m", "versions": "python 3, puzzleplan 0.1"})
    sink.close()
    return path.read_bytes()


@pytest.mark.parametrize("cut", [40, -30])      # in the key columns; inside the last, quoted, field
def test_report_says_which_rows_it_left_out_as_cut_short(tmp_path, cut):
    """A row cut short (the file cut, a bench killed while it wrote it) is no run's figures:
    the tables are made from the whole rows, and a warning line counts and names those left out."""
    path = tmp_path / "r.csv"
    data = bench_file(path)
    path.write_bytes(data[:len(data) - len(data.splitlines(True)[-1]) + cut] if cut > 0 else data[:cut])
    out = run_unchecked("report", path)
    assert out.exit_code == 0, out.output
    assert "| astar | 1 | 1 |" in out.stdout and "| bfs | 1 | 1 |" in out.stdout and "pysat" not in out.stdout
    assert out.stderr == f"puzzleplan: warning: {path}: 1 row cut short left out (line 4; a bench killed " \
                         "while it wrote one?)\n"


def test_report_on_a_row_longer_than_the_header(tmp_path):
    """Two rows glued into one (an append after a row cut short) is refused in one line."""
    path = tmp_path / "r.csv"
    data = bench_file(path, ["bfs"])
    path.write_bytes(data[:-20] + data.splitlines(True)[1])
    one_line_error(run_unchecked("report", path), "line 2 has 23 fields, its header 22")


@pytest.mark.parametrize("header", ["instance,level,metric,method,constraints,status,length,seconds,note",
                                    ",".join(reversed(FIELDS))])
def test_bench_does_not_append_under_another_header(tmp_path, header):
    """Rows written under another header would be read back under the wrong names (and the file
    refused by report and by the next bench): the file is refused, untouched."""
    out = tmp_path / "r.csv"
    out.write_text(header + "\n")
    result = run_unchecked("bench", GUARINI, "--methods", "bfs", "-o", out)
    one_line_error(result, "not this bench's header")
    assert str(out) in result.stderr and ("note" in result.stderr if "note" in header else "order" in result.stderr)
    assert out.read_text() == header + "\n" and not (tmp_path / "r.csv.meta.jsonl").exists()


def test_bench_does_not_glue_a_row_to_one_cut_short(tmp_path):
    """A last row cut short is refused, the file untouched; a whole last row without its line end
    gets one before the next row."""
    out = tmp_path / "r.csv"
    cut = bench_file(out, ["astar"])[:-30]
    out.write_bytes(cut)
    one_line_error(run_unchecked("bench", GUARINI, "--methods", "bfs", "-o", out), "line 2) is cut short")
    assert out.read_bytes() == cut
    out.unlink()
    whole = bench_file(out, ["astar"])[:-2]
    out.write_bytes(whole)
    assert run_unchecked("bench", GUARINI, "--methods", "bfs", "-o", out).exit_code == 0
    assert [r["method"] for r in rows(out)] == ["astar", "bfs"] and out.read_bytes().startswith(whole + b"\r\n")


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
