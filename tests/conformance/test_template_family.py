"""The TEMPLATE family, copied into a package of its own and installed apart from
puzzleplan: the entry point makes it a family like the built-in ones (``puzzleplan
families`` lists it, ``solve`` and ``search`` solve its files), and the whole conformance
suite runs on it."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

TEMPLATE = ROOT / "puzzleplan" / "families" / "TEMPLATE"
PYPROJECT = """[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "puzzleplan-tinyline"
version = "0.1"

[project.entry-points."puzzleplan.families"]
tinyline = "tinyline"

[tool.setuptools]
packages = ["tinyline"]
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A package ``tinyline`` made from the template, pip-installed into a folder of its own."""
    tmp = tmp_path_factory.mktemp("tinyline")
    src = tmp / "src"
    shutil.copytree(TEMPLATE, src / "tinyline", ignore=shutil.ignore_patterns("__pycache__"))
    init = src / "tinyline" / "__init__.py"
    init.write_text(init.read_text().replace('name="line"', 'name="tinyline"'))
    (src / "pyproject.toml").write_text(PYPROJECT)
    site = tmp / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--target", str(site), str(src)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert list(site.glob("puzzleplan_tinyline-*.dist-info"))
    env = {**os.environ, "PYTHONPATH": str(site)}
    puzzle = tmp / "swap.line"
    puzzle.write_text("name: swap\nboard: A.B..\ngoal:  ..B.A\n")
    return env, puzzle


def run(env, *args, timeout=300):
    return subprocess.run([sys.executable, "-m", "puzzleplan.cli", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=timeout)


@pytest.mark.heavy
def test_the_installed_family_is_listed(installed):
    env, _ = installed
    proc = run(env, "families", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["name"]: r for r in json.loads(proc.stdout)}
    assert {"tinyline", "sliding", "sokoban", "knights"} <= set(rows)
    assert rows["tinyline"]["extensions"] == [".line"] and rows["tinyline"]["package"] == "tinyline"
    assert rows["tinyline"]["sat"] and rows["tinyline"]["pddl"] and rows["tinyline"]["animation"]
    # without the package on the path it is not there, and the template folder is never a family
    plain = run({k: v for k, v in env.items() if k != "PYTHONPATH"}, "families", "--json")
    assert "tinyline" not in {r["name"] for r in json.loads(plain.stdout)}
    assert "line" not in {r["name"] for r in json.loads(plain.stdout)}


@pytest.mark.heavy
def test_solve_and_search_agree_on_the_installed_family(installed, tmp_path):
    env, puzzle = installed
    sat = run(env, "solve", str(puzzle), "--json", "-q", "--gif", str(tmp_path / "swap.gif"))
    bfs = run(env, "search", str(puzzle), "--json")
    assert sat.returncode == 0 and bfs.returncode == 0, sat.stderr + bfs.stderr
    sat, bfs = json.loads(sat.stdout), json.loads(bfs.stdout)
    # A and B would have to pass each other on one row
    assert sat["status"] == "unsolvable" and bfs["status"] == "unsolvable"
    assert not (tmp_path / "swap.gif").exists()
    shift = tmp_path / "shift.line"
    shift.write_text("board: A.B..\ngoal:  ..A.B\nconstraints: A.moves<=2\n")
    sat = json.loads(run(env, "solve", str(shift), "--json", "-q", "--no-enumerate",
                         "--html", str(tmp_path / "shift.html")).stdout)
    bfs = json.loads(run(env, "search", str(shift), "--json").stdout)
    assert sat["status"] == bfs["status"] == "optimal" and sat["length"] == bfs["length"] == 4
    assert sat["method"].startswith("pysat") and (tmp_path / "shift.html").stat().st_size > 1000
    plan = tmp_path / "plan.txt"
    plan.write_text(" ".join(sat["steps"]))
    assert run(env, "validate", str(shift), str(plan)).returncode == 0
    plan.write_text("B> B> A> A> A> A<")       # A moves four times: legal, solved, but not within A.moves<=2
    assert run(env, "validate", str(shift), str(plan)).returncode == 1


@pytest.mark.heavy
def test_the_conformance_suite_runs_on_the_installed_family(installed, tmp_path):
    env, _ = installed
    # the suite as the package ships it, run from outside any checkout
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--pyargs", "puzzleplan.kit.test_conformance", "-k", "tinyline"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout
