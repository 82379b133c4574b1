"""The benchmark runner appends rows as runs end and resumes without repeating."""
import csv

from conftest import INSTANCES
from puzzleplan.bench.run import bench, summary

GUARINI = str(INSTANCES / "knights/guarini.knights")


def test_bench_appends_and_resumes(tmp_path):
    out = tmp_path / "r.csv"
    assert bench([(GUARINI, None, "steps")], ["bfs", "pysat"], out, 30, echo=lambda *_: None) == 2
    assert bench([(GUARINI, None, "steps")], ["bfs", "pysat", "astar"], out, 30, echo=lambda *_: None) == 1
    rows = list(csv.DictReader(open(out)))
    assert [r["method"] for r in rows] == ["bfs", "pysat", "astar"]
    assert all(r["status"] == "optimal" and r["length"] == "16" for r in rows)
    assert any("| pysat | 1 | 1 |" in line for line in summary(out))


def test_bench_records_a_timeout(tmp_path):
    out = tmp_path / "r.csv"
    bench([(str(INSTANCES / "seeds/klotski_seed000.slide"), None, "steps")], ["pysat"], out, 1.0,
          echo=lambda *_: None)
    row = next(csv.DictReader(open(out)))
    assert row["status"] == "timeout" and row["length"] == ""
