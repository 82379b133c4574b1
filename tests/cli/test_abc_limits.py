"""ABC's time limit is wall time (killed at the deadline, not later), and a run that ends by
itself without a verdict is reported as what it is, not as a timeout."""
import os
import stat
import subprocess
import sys
import time

import pytest

from conftest import INSTANCES, ROOT

KLOTSKI = INSTANCES / "seeds/klotski_seed000.slide"


def solve(*args, env=None):
    return subprocess.run([sys.executable, "-m", "puzzleplan.cli", "solve", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env=env)


@pytest.mark.timing
def test_abc_stops_at_the_wall_clock_deadline_on_a_loaded_machine():
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]
    try:
        t0 = time.monotonic()
        proc = solve(str(KLOTSKI), "-b", "abc:pdr", "--no-enumerate", "--time-limit", "4", "-q")
        elapsed = time.monotonic() - t0
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert proc.returncode == 0 and proc.stdout.startswith(("timeout", "feasible")), proc.stdout + proc.stderr
    assert elapsed <= 4 + max(0.4, 1.0) + 1.5, elapsed       # + two interpreters' start-up, loaded


def test_an_abc_run_without_a_verdict_is_not_called_a_timeout(tmp_path):
    fake = tmp_path / "berkeley-abc"
    fake.write_text("#!/bin/sh\necho 'ABC: engine gave up'\nexit 0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    proc = solve(str(INSTANCES / "knights/guarini.knights"), "-b", "abc:pdr", "--no-enumerate", "--time-limit", "30",
                 "-q", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("error: abc:pdr") and "ended without a verdict" in proc.stdout
    assert "engine gave up" in proc.stdout and not proc.stdout.startswith("timeout")
