"""A new per-horizon backend is one file and one row: ``tests/toy_method/toy_minisat.py``
and its package's entry point (``tests/toy_method/puzzleplan_toy-0.1.dist-info``, as
``pip install`` would leave it).  With that folder on the path and no other edit, the toy
appears in ``solve --help``, ``puzzleplan solvers``, ``bench --methods`` and the method
conformance matrix, and it answers as every other method does."""
import csv
import os
import subprocess
import sys

import pytest

from conftest import INSTANCES, ROOT

TOY = ROOT / "tests" / "conformance" / "toy_method"
GUARINI = INSTANCES / "knights/guarini.knights"


def run(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(TOY))
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


def puzzleplan(*args):
    return run(sys.executable, "-m", "puzzleplan.cli", *args)


@pytest.mark.heavy
def test_the_toy_is_listed_where_methods_are():
    listed = puzzleplan("solvers")
    assert listed.returncode == 0 and any(line.split()[:3] == ["toy", "sat", "runs"] for line in listed.stdout.splitlines()), listed.stdout
    helped = puzzleplan("solve", "--help")
    assert "toy: a toy:" in " ".join(helped.stdout.split())
    # and not without its package
    assert "toy" not in subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solvers"], capture_output=True,
                                       text=True, cwd=ROOT).stdout.split()


@pytest.mark.heavy
def test_the_toy_solves_and_benches_like_the_others(tmp_path):
    solved = puzzleplan("solve", GUARINI, "-b", "toy", "--json")
    assert solved.returncode == 0, solved.stderr[-800:]
    assert '"status": "optimal"' in solved.stdout and '"length": 16' in solved.stdout and '"method": "toy"' in solved.stdout
    out = tmp_path / "r.csv"
    benched = puzzleplan("bench", GUARINI, "--methods", "toy,bfs", "-o", out, "--time-limit", "60")
    assert benched.returncode == 0, benched.stderr[-800:]
    rows = {r["method"]: r for r in csv.DictReader(open(out))}
    assert rows["toy"]["status"] == rows["bfs"]["status"] == "optimal"
    assert rows["toy"]["length"] == rows["bfs"]["length"] == "16"


@pytest.mark.heavy
def test_the_toy_joins_the_conformance_matrix():
    got = run(sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
              "tests/conformance/test_method_conformance.py", "-k", "toy", timeout=600)
    assert got.returncode == 0, got.stdout[-2000:]
    passed = [line for line in got.stdout.splitlines() if " passed" in line]
    assert passed and int(passed[-1].split()[0]) >= 6, got.stdout[-500:]    # every family, and the time limit
