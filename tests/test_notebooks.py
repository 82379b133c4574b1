"""Every notebook in notebooks/ runs top to bottom (with ``PUZZLEPLAN_QUICK=1``: small subsets)."""
import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient
    monkeypatch.setenv("PUZZLEPLAN_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"side_constraints.ipynb", "sat_vs_search.ipynb",
                                         "export_and_external_solvers.ipynb"}
