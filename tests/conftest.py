import csv
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from puzzleplan.catalogue import instances_root
from puzzleplan.kit import need, requires  # noqa: F401  (the skip of tests that need a program or package)

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = instances_root()      # the package's bundled instances: the checkout's instances/
# the sliding tiles' pattern databases are cached in the temporary folder, not the user's cache
os.environ.setdefault("PUZZLEPLAN_CACHE", os.path.join(tempfile.gettempdir(), "puzzleplan-test-cache"))


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: as many workers as the CPUs this process may run on (``taskset``, a CI
    runner's cgroup), not the machine's (xdist counts the machine's through psutil)."""
    import os
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:      # no affinity on this system
        return os.cpu_count() or 1


def catalogue():
    with open(INSTANCES / "catalogue.csv") as f:
        return list(csv.DictReader(f))


def read_back(rules, metric: str, folder):
    """``rules`` exported as PDDL into ``folder`` (made if need be; ``task/domain.pddl``,
    ``task/problem.pddl``) and read back: the grounded task (the ``strips`` family's rules)."""
    from puzzleplan.formats.load import load
    from puzzleplan.pddl import export
    Path(folder).mkdir(parents=True, exist_ok=True)
    _, _, problem = export(rules, metric, str(Path(folder) / "task"))
    return load(problem).rules


@pytest.fixture
def write(tmp_path):
    """Write text to a file with the given name and return its path."""
    def _write(name: str, text: str) -> str:
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return _write


def default_sigint():
    """``preexec_fn`` for a child that a test stops with Ctrl-C (SIGINT): the signal's default
    action, as in a terminal's foreground job.  Where the tests run with SIGINT ignored (a
    background job, ``nohup``-like launchers, some CI), the ignored disposition is inherited
    through exec and Python then never raises KeyboardInterrupt: the child would run on."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def reaped(proc, group: bool = False):
    """The process (with ``group``, its process group) is killed on the way out if it still runs,
    whatever the test's outcome: a failed Ctrl-C test leaves no solve running."""
    import os
    import signal
    try:
        yield proc
    finally:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL) if group else proc.kill()
            except ProcessLookupError:
                pass
            proc.wait()
