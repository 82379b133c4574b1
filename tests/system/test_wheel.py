"""The built wheel works on its own: installed into a fresh venv (no system site-packages,
dependencies from the package index), ``puzzleplan seeds`` run from another folder finds the
bundled instances and solves every seed puzzle.  Takes a minute or two (pip, then the seeds)."""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, catalogue

pytestmark = pytest.mark.system     # whole-system checks: run by CI after the quick set (-m system)

SOURCES = ["pyproject.toml", "setup.py", "README.md", "puzzleplan", "instances"]


def run(cmd, **kwargs):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{cmd}: {done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def test_the_wheel_installed_in_a_fresh_venv_solves_the_seeds(tmp_path):
    # built from a copy, so that the checkout gets no build/ or egg-info folders
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                            if (ROOT / name).is_dir() else {}))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "wheels", source], timeout=600)
    [wheel] = (tmp_path / "wheels").glob("puzzleplan-*.whl")
    bundled = {str(p.relative_to(ROOT)) for p in (ROOT / "instances").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    packed = {name.replace("puzzleplan/", "", 1) for name in zipfile.ZipFile(wheel).namelist()}
    assert bundled <= packed, sorted(bundled - packed)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], timeout=300)
    run([venv / "bin/python", "-m", "pip", "install", "-q", wheel], timeout=900)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run([venv / "bin/puzzleplan", "seeds", "--time-limit", "5"], cwd=elsewhere, timeout=600)
    lines = done.stdout.splitlines()
    seeds = [(r["name"], r["metric"], r["optimum"]) for r in catalogue() if r["file"].startswith("seeds/")]
    assert len(lines) == len(seeds) >= 5
    for (name, metric, optimum), line in zip(seeds, lines):
        # "name metric known N | BFS N (..s) | SAT ..."
        assert line.split()[:4] == [name, metric, "known", optimum], line
        assert line.split("|")[1].split()[:2] == ["BFS", optimum], line
    # the installed package reads its own copy of the instances, not this checkout's
    where = run([venv / "bin/python", "-c", "from puzzleplan.catalogue import instances_root; print(instances_root())"],
                cwd=elsewhere).stdout.strip()
    assert Path(where).is_relative_to(venv) and (Path(where) / "seeds/klotski_seed000.slide").is_file()
