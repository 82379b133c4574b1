"""The package's structure: importing it stays light (no solver library until one is used)."""
import json
import subprocess
import sys

import pytest

HEAVY = ("pysat", "ortools")     # the solver libraries: loaded when a solver is used


@pytest.mark.xfail(strict=False, reason="the planner and export are still imported eagerly by puzzleplan/__init__.py")
def test_import_is_light():
    code = ("import sys, json, puzzleplan; "
            f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
