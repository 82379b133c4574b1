"""Every notebook in notebooks/ runs top to bottom (with ``PUZZLEPLAN_QUICK=1``: small subsets;
the full mode of sat_vs_search in the slow tests), changes no tracked file, and is stored
executed, with its figures."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system     # whole-system checks: run by CI after the quick set (-m system)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def tracked_changes() -> str:
    """``git status`` of the tracked files (empty when nothing changed; '' outside a checkout)."""
    done = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else ""


def execute(path, monkeypatch, quick: bool):
    """Run the notebook in memory (the file itself is not rewritten); returns its error outputs."""
    import nbformat
    from nbclient import NotebookClient
    if quick:
        monkeypatch.setenv("PUZZLEPLAN_QUICK", "1")
    else:
        monkeypatch.delenv("PUZZLEPLAN_QUICK", raising=False)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    before = tracked_changes()
    assert not execute(path, monkeypatch, quick=True)
    assert tracked_changes() == before      # a run writes to temporary folders or results/, never to tracked files


@pytest.mark.slow
def test_sat_vs_search_full_mode(monkeypatch):
    """The full mode reads the stored rows (copied to results/, where the bench resumes)."""
    before = tracked_changes()
    assert not execute(ROOT / "notebooks/sat_vs_search.ipynb", monkeypatch, quick=False)
    assert tracked_changes() == before


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebooks_are_stored_with_their_figures(path):
    """Stored executed, so that a reader sees the tables and plots without running them."""
    import nbformat
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code), "stored without running every cell"
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no figure stored"


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"side_constraints.ipynb", "sat_vs_search.ipynb",
                                         "export_and_external_solvers.ipynb"}


def test_execute_writes_elsewhere_unless_asked(tmp_path):
    """``notebooks/execute.py`` writes the executed notebook to the folder given, never over the
    tracked one (``--in-place`` asks for that), and refuses to write into notebooks/ without it."""
    import nbformat
    script = ROOT / "notebooks/execute.py"
    name = "export_and_external_solvers.ipynb"
    before = tracked_changes()
    stored = (ROOT / "notebooks" / name).read_bytes()
    done = subprocess.run([sys.executable, str(script), name, "--quick", "-o", str(tmp_path)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (ROOT / "notebooks" / name).read_bytes() == stored and tracked_changes() == before
    nb = nbformat.read(tmp_path / name, as_version=4)
    assert all(c.get("execution_count") for c in nb.cells if c.cell_type == "code")
    again = subprocess.run([sys.executable, str(script), name, "-o", str(tmp_path)], capture_output=True, text=True)
    assert again.returncode != 0 and "--force" in again.stderr and "Traceback" not in again.stderr
    inside = subprocess.run([sys.executable, str(script), name, "-o", str(ROOT / "notebooks")],
                            capture_output=True, text=True)
    assert inside.returncode != 0 and "--in-place" in inside.stderr
    assert (ROOT / "notebooks" / name).read_bytes() == stored
