"""Instance series (``puzzleplan generate``): reproducible, valid, and read back by ``report``."""
import csv
import filecmp
import json
import os

import pytest
from click.testing import CliRunner

from puzzleplan import registry
from puzzleplan.bench.crossover import series_rows, verdict, winners
from puzzleplan.bench.report import report
from puzzleplan.bench.results import FIELDS, read_results
from puzzleplan.cli import main
from puzzleplan.formats.load import load
from puzzleplan.methods import run as run_method
from puzzleplan.puzzle import PuzzleError, Status
from puzzleplan.series import files_of, generate, point_of, series_of

SERIES = [(f, s) for f in registry.all_families() for s in series_of(f).values()]
IDS = [f"{f.name}/{s.name}" for f, s in SERIES]
# the series whose first points a search proves within a minute (a series with no reference
# says why in its definition: no method proves them in minutes)
CHECKED = [(f, s) for f, s in SERIES if s.reference]
CHECKED_IDS = [f"{f.name}/{s.name}" for f, s in CHECKED]


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_every_series_but_the_one_nobody_proves_is_checked_against_search():
    assert [f"{f.name}/{s.name}" for f, s in SERIES if not s.reference] == ["sliding/dense"]


def test_the_families_offer_series_of_every_regime():
    assert {f.name for f, _ in SERIES} >= {"knights", "sliding", "sokoban", "strips"}
    assert {s.regime for _, s in SERIES} == {"wide", "deep", "conditions"}


@pytest.mark.parametrize("family,series", SERIES, ids=IDS)
def test_same_seed_same_files_other_seed_other_files(tmp_path, family, series):
    a = generate(family, series.name, tmp_path / "a", seeds=range(2))
    b = generate(family, series.name, tmp_path / "b", seeds=range(2))
    assert [p.name for p in a] == [p.name for p in b] and len(a) == 2 * len(series.values)
    names = sorted(os.listdir(tmp_path / "a"))
    assert names == sorted(os.listdir(tmp_path / "b"))
    assert all(filecmp.cmp(tmp_path / "a" / n, tmp_path / "b" / n, shallow=False) for n in names)
    if series.name != "gripper":        # gripper's n balls start in one room: nothing to draw
        v = series.values[-1]
        assert files_of(family, series, v, 0) != files_of(family, series, v, 1)


@pytest.mark.parametrize("family,series", SERIES, ids=IDS)
def test_every_point_loads_and_says_where_it_comes_from(tmp_path, family, series):
    for path in generate(family, series.name, tmp_path):
        text = path.read_text()
        point = point_of(path.stem)
        assert point == {"family": family.name, "series": series.name, "parameter": series.parameter,
                         "value": point["value"], "seed": 0} and point["value"] in series.values
        assert text.startswith(f"; series {family.name}/{series.name} {series.parameter}={point['value']} seed=0")
        inst = load(str(path))      # the family's reader and rules accept it (they refuse an invalid start)
        assert inst.family.name == family.name
        assert inst.rules.initial is not None and len(inst.rules.replay([]).history) == 1


@pytest.mark.heavy
@pytest.mark.parametrize("family,series", CHECKED, ids=CHECKED_IDS)
def test_the_smallest_points_sat_equals_search(tmp_path, family, series):
    """SAT and search (A*: BFS takes a minute on six pieces of the crowd) agree, each plan
    replayed by the rules, on the first two points of every series that has a reference."""
    for path in generate(family, series.name, tmp_path, values=list(series.values[:2])):
        domain = load(str(path)).problem
        metric = series.metric or family.metrics[0]
        bfs = run_method(series.reference, domain, metric, 60)
        sat = run_method("pysat-de", domain, metric, 60)
        assert bfs.status is sat.status and bfs.status in (Status.OPTIMAL, Status.UNSOLVABLE), (path.name, bfs, sat)
        assert bfs.length == sat.length
        if sat.status is Status.OPTIMAL:
            assert domain.rules.replay(sat.steps).solved and domain.rules.count(sat.steps, metric) == sat.length


def test_generate_cli_lists_writes_and_refuses(tmp_path):
    listed = cli("generate", "--json")
    assert listed.exit_code == 0
    rows = json.loads(listed.output)
    assert {"family": "knights", "series": "wide"} in [{k: r[k] for k in ("family", "series")} for r in rows]
    got = cli("generate", "knights", "deep", "-o", tmp_path / "out", "--values", "1-3", "--seeds", "2")
    assert got.exit_code == 0 and "6 puzzles written" in got.output
    assert len(os.listdir(tmp_path / "out")) == 6
    before = (tmp_path / "out" / "knights-deep-d01-s0.knights").read_text()
    again = cli("generate", "knights", "deep", "-o", tmp_path / "out", "--values", "1")
    assert again.exit_code != 0 and "use --force" in again.output
    assert (tmp_path / "out" / "knights-deep-d01-s0.knights").read_text() == before
    for args, says in ((("nosuch",), "unknown puzzle family"), (("knights", "nosuch", "-o", tmp_path), "no series"),
                       (("knights", "wide"), "--out"), (("knights", "wide", "-o", tmp_path / "a" / "b"), "no folder"),
                       (("knights", "wide", "-o", tmp_path / "x", "--values", "two"), "--values"),
                       (("knights", "wide", "-o", tmp_path / "y", "--values", "40"), "no point n=40"),
                       (("pegsol",), "no series")):
        got = cli("generate", *args)
        assert got.exit_code != 0 and says in got.output and "Traceback" not in got.output, (args, got.output)
    assert not (tmp_path / "a").exists() and not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_a_pddl_point_has_its_domain_beside_it(tmp_path):
    (path,) = generate(registry.get("strips"), "ferry", tmp_path, values=[2])
    assert (tmp_path / f"{path.stem}-domain.pddl").is_file()
    assert load(str(path)).rules.initial is not None


def rows_for(label, value_rows):
    return [{"instance": f"/x/{label}.knights", "level": "", "metric": "steps", "method": m, "constraints": "",
             "status": st, "length": n, "seconds": s, "expanded": e, "time_limit": 30}
            for m, st, n, s, e in value_rows]


@pytest.mark.heavy
def test_report_reads_series_from_the_results_file_alone(tmp_path):
    out = tmp_path / "r.csv"
    rows = (rows_for("knights-wide-n01-s0", [("bfs", "optimal", 2, 0.1, 50), ("pysat-de", "optimal", 2, 0.5, None)])
            + rows_for("knights-wide-n02-s0", [("bfs", "optimal", 4, 2.0, 4000), ("astar", "optimal", 4, 1.0, 900),
                                               ("pysat-de", "optimal", 4, 0.5, None)])
            + rows_for("knights-wide-n03-s0", [("bfs", "timeout", None, 30.0, 90000), ("astar", "timeout", None, 30, 1),
                                               ("pysat-de", "optimal", 6, 0.6, None), ("cpsat", "optimal", 6, 3, None)])
            + rows_for("guarini", [("bfs", "optimal", 16, 0.2, 10), ("pysat-de", "optimal", 16, 0.4, None)]))
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    got = winners(series_rows(read_results(out)))
    assert list(got["label"]) == ["knights-wide-n01-s0", "knights-wide-n02-s0", "knights-wide-n03-s0"]
    assert list(got["sat_method"]) == ["pysat-de"] * 3 and list(got["search_method"]) == ["bfs", "astar", ""]
    assert got["ratio"].round(3).tolist() == [5.0, 0.5, 0.02] and list(got["censored"]) == ["", "", "sat"]
    assert list(got["states_complete"]) == [True, True, False]
    text, made = report(out, tmp_path / "plots")
    assert "| knights/wide | 3 | n=3 (alone) | - | n=2 (sat) |" in text and "n=3: SAT >=50x (alone)" in text
    assert "| knights-wide-n03-s0 | 6 | 90,000+ | pysat-de 0.60 s | none | SAT >=50x (alone) |" in text
    assert {p.name for p in made} >= {"crossover.png", "who_wins.png"}
    assert text == report(out)[0]          # the same file, the same tables


def test_point_of_reads_only_generated_names():
    assert point_of("sokoban-boxes-k04-s3") == {"family": "sokoban", "series": "boxes", "parameter": "k",
                                                "value": 4, "seed": 3}
    assert point_of("/a/b/strips-ferry-n10-s0.pddl")["value"] == 10
    for other in ("klotski_seed000", "guarini", "strips-ferry-n10-s0-domain", "a-b-c"):
        assert point_of(other) is None


def test_a_series_with_no_such_family_part_is_empty():
    assert series_of(registry.get("pegsol")) == {}
    with pytest.raises(PuzzleError, match="no series 'nope'"):
        generate(registry.get("knights"), "nope", "/nonexistent")


def test_a_point_only_one_side_proved_is_that_sides_however_near_the_limit():
    # SAT proved it in 13 s of 20 and no search method did: not a "tie", though the bound is 1.5x
    assert verdict({"censored": "sat", "ratio": 13.0 / 20}) == "SAT >=1.5x (alone)"
    assert verdict({"censored": "search", "ratio": 20 / 0.5}) == "search >=40x (alone)"
    assert verdict({"censored": "", "ratio": 13.0 / 20}) == "tie"
    assert verdict({"censored": "", "ratio": 0.05}) == "SAT 20x"
    assert verdict({"censored": "none", "ratio": float("nan")}) == "neither"
    # SAT alone, its proof 0.15 s after the 20 s limit (the ratio just above 1): still SAT's
    assert verdict({"censored": "sat", "ratio": 20.15 / 20}) == "SAT >=1.0x (alone)"


def test_the_map_names_the_winner_and_how_many_times_faster():
    from puzzleplan.bench.crossover import WINNERS, ratio_label, winner_class
    assert [WINNERS[winner_class(r)][0].split()[0] for r in (0.02, 0.5, 1.0, 1.4, 5.0)] == \
        ["SAT", "SAT", "within", "within", "search"]
    assert [ratio_label(r) for r in (0.02, 0.5, 1.0, 5.0, 1234.0)] == ["50x", "2x", "1x", "5x", "1,234x"]
