"""Option values that make no sense are refused in one line ``puzzleplan: error: ...`` with
exit 2 (a JSON error object with --json) before any work: Unicode digits and huge numbers in
--moves, --avoid, --ends and -c, cells off the board, negative or NaN limits, horizons, margins,
memory and jobs, time limits past what the system's timers hold, missing folders, level ranges
that run backwards or are huge, a series point its series cannot make, a backend with an unclosed
quote, a Dask address nobody answers.  And the options that are right do what they
say: --max-horizon with the fast schedule, the solver named or chosen per domain."""
import pytest

from _helpers import CARDS, GUARINI, MICROBAN, RUSH, json_error, one_error, one_line_error, run, run_unchecked
from conftest import INSTANCES
from puzzleplan.formats.load import load
from puzzleplan.planner import solve
from puzzleplan.puzzle import Status


# --- values: one line, or one JSON error object -----------------------------------------------

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
    (("solve", RUSH, "--gap", "-1"), "--gap"),
    (("solve", RUSH, "--gap", "101"), "--gap"),
    (("solve", RUSH, "--gap", "nan"), "--gap"),
    (("solve", RUSH, "--max-horizon", "\u00b2"), "--max-horizon"),
    (("bench", RUSH, "--time-limit", "0"), "--time-limit"),
    # past the system's timers (an interval timer, a pipe waited for): an overflow, not a limit
    (("solve", RUSH, "--time-limit", "1e10"), "at most 1,000,000"),
    (("search", RUSH, "--time-limit", "1e10"), "at most 1,000,000"),
    (("solve", RUSH, "--time-limit", "3e6"), "at most 1,000,000"),
    (("explore", RUSH, "--time-limit", "1e10"), "at most 1,000,000"),
    (("export", RUSH, "-t", "3", "-o", "x.cnf", "--time-limit", "1e10"), "at most 1,000,000"),
    (("decode", RUSH, "--cnf", "x.cnf", "--model", "x.txt", "--time-limit", "1e10"), "at most 1,000,000"),
    (("bench", RUSH, "--time-limit", "1e10"), "at most 1,000,000"),
    (("seeds", "--time-limit", "1e300"), "at most 1,000,000"),
    (("bench", RUSH, "--time-limit", "nan"), "--time-limit"),
    (("bench", RUSH, "--memory", "-1"), "--memory"),
    (("bench", RUSH, "--memory", "0"), "--memory"),
    (("bench", RUSH, "--memory", "1"), "x>=512"),     # the least --memory, as solve's
    (("bench", RUSH, "--memory", "511"), "x>=512"),
    (("solve", RUSH, "--memory", "64"), "x>=512"),    # the least before: a memout on every command
    (("search", RUSH, "--memory", "511"), "x>=512"),
    (("bench", RUSH, "--jobs", "0"), "--jobs"),
    (("export", RUSH, "-t", "-1", "-o", "x.cnf"), "--horizon"),
    (("export", RUSH, "-t", "3", "-o", "nosuchdir/x.cnf"), "no folder nosuchdir"),
    (("solve",), "Missing argument"),
]


@pytest.mark.parametrize("args,problem", BAD_VALUES)
def test_bad_value_is_one_line(args, problem):
    one_line_error(run_unchecked(*args), problem)


@pytest.mark.parametrize("args,problem", [a for a in BAD_VALUES if a[0][0] in ("search", "solve")])
def test_bad_value_with_json_is_an_error_object(args, problem):
    json_error(run_unchecked(*args, "--json"), problem)


def test_the_longest_time_limit_works_on_every_command(tmp_path):
    """The largest accepted limit reaches the interval timer, the solver programs and the
    translator (waited for with a timeout) and the bench's runs without an overflow."""
    top = "1000000"
    for args in (("solve", GUARINI), ("solve", GUARINI, "-b", "external:cadical"), ("search", GUARINI),
                 ("explore", GUARINI), ("export", GUARINI, "-t", "3", "-o", tmp_path / "g.cnf"),
                 ("solve", INSTANCES / "pddl/pddlgym/gripper/prob01.pddl", "--grounder", "translator"),
                 ("bench", GUARINI, "--methods", "bfs", "-o", tmp_path / "r.csv")):
        result = run(*args, "--time-limit", top)
        assert result.exit_code == 0, (args, result.output)


def test_the_python_api_refuses_a_time_limit_past_the_timers(tmp_path):
    from puzzleplan.bench.run import Task, bench
    from puzzleplan.search import breadth_first_search
    from puzzleplan.puzzle import PuzzleError
    domain = load(GUARINI).problem
    for call in (lambda: solve(domain, "steps", time_limit=1e10), lambda: breadth_first_search(domain, time_limit=1e10),
                 lambda: bench([Task(GUARINI, None, "steps", "bfs")], tmp_path / "r.csv", 1e10)):
        with pytest.raises(PuzzleError, match="up to 1,000,000"):
            call()
    assert not (tmp_path / "r.csv").exists()


@pytest.mark.parametrize("levels,words", [("5-1", ["runs backwards", "1-5"]), ("3,9-2", ["runs backwards"]),
                                          ("1-99999999", ["more than 100,000"]), ("1-x", ["1-40"])])
def test_bench_levels_that_make_no_sense_are_refused(tmp_path, levels, words):
    out = tmp_path / "r.csv"
    result = run("bench", INSTANCES / "rushhour/thinkfun40.rh", "--levels", levels, "--methods", "bfs", "-o", out)
    one_error(result, *words)
    assert not out.exists()


@pytest.mark.parametrize("family,series,values,words", [
    ("knights", "wide", "0", ["no point n=0", "from 1 to 26"]),            # a board with no knights
    ("knights", "wide", "2,27", ["no point n=27", "from 1 to 26"]),        # more knights than letters
    ("knights", "deep", "7", ["no point d=7", "from 0 to 6"]),             # no squares 7 moves apart on 8 x 8
    ("sliding", "crowd", "2", ["no point n=2", "from 3 to 35"]),
    ("sokoban", "boxes", "0", ["no point k=0", "from 1 to 20"]),
    ("sokoban", "boxes", "21", ["no point k=21", "from 1 to 20"]),         # a room tiled exactly: a minute of tries
    ("strips", "ferry", "0", ["no point n=0", "from 1 to 99"]),
])
def test_generate_refuses_a_point_its_series_cannot_make(tmp_path, family, series, values, words):
    """A value outside what a series makes (a board the solver then refuses, or one the
    generator tries for a minute to place) is refused in one line naming the series' range,
    before anything is written; a value between its listed points and its range is made."""
    one_error(run("generate", family, series, "--values", values, "-o", tmp_path / "out"), *words)
    assert not (tmp_path / "out").exists()
    assert run("generate", "knights", "wide", "--values", "9", "-o", tmp_path / "out").exit_code == 0


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


# --- horizons and solvers: as asked, or chosen per domain -------------------------------------

def test_fast_schedule_tries_the_maximum_horizon():
    d = load(CARDS, 1).problem                                  # 8 slides
    r = solve(d, "slides", optimal=False, max_horizon=6)
    tried = [h["horizon"] for h in r.horizons]
    assert tried[-1] == 6 and tried == sorted(tried)
    assert r.status is Status.NO_PLAN_WITHIN and r.bound == 6


def test_default_solver_is_chosen_per_domain():
    knights = solve(load(INSTANCES / "knights/guarini.knights").problem, "steps")
    card = solve(load(CARDS, 1).problem, "slides")
    assert knights.method == "pysat-de:cadical195" and knights.length == 16
    assert card.method == "pysat-de:glucose42" and card.length == 8
    assert solve(load(INSTANCES / "knights/guarini.knights").problem, "steps", "pysat:glucose42").method \
        == "pysat:glucose42"
