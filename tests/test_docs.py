"""The README's commands run as printed, in order, in a fresh folder.

Which blocks: every fenced ```sh block of README.md except the first, which sets everything up
and runs this test suite (CI runs exactly that block: ``.ci/run``), and the ```python block.
The blocks run one after the other in one fresh folder that holds what a checkout has next to
the README and nothing else: ``instances/`` and ``.venv`` (links to this checkout's; the
commands only read them), with ``.venv/bin`` first on PATH, as after ``. .venv/bin/activate``.
Each block runs as one ``bash -e -o pipefail`` script, so every command must succeed as
printed; files one block writes (``klotski.json``) are read by a later one.  The whole file runs
in about two minutes.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

README = ROOT / "README.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def blocks(kind: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README.read_text()) if lang == kind]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("fresh")
    (d / "instances").symlink_to(ROOT / "instances")
    (d / ".venv").symlink_to(Path(sys.prefix))
    return d


def environment() -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.prefix) / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = sys.prefix
    env.pop("PYTHONPATH", None)
    return env


def test_the_blocks_are_found():
    sh = blocks("sh")
    assert len(sh) >= 4 and "sh setup.sh" in sh[0]
    assert not any("sh setup.sh" in b for b in sh[1:])
    assert len(blocks("python")) == 1


def test_readme_commands_run_as_printed(folder):
    """Every sh block after the first, in order; then the Python block."""
    for n, script in enumerate(blocks("sh")[1:], 2):
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=folder, env=environment(),
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (f"README sh block {n} failed (exit {done.returncode}):\n{script}\n"
                                      f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}")
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
    # what the blocks promise, checked on the files they wrote
    for name in ("plan.json", "klotski.json", "card40.drat", "answer.txt", "results/rh.csv",
                 "results/plots/cactus.png", "card40.html", "microban2.gif", "klotski.mp4", "klotski.plan"):
        assert (folder / name).is_file(), name
    done = subprocess.run([sys.executable, "-c", blocks("python")[0]], cwd=folder, env=environment(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
