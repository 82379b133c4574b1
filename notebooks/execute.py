"""Run the notebooks in their full mode and store them with their outputs (tables, plots),
so that a reader sees them without running anything:

    .venv/bin/python notebooks/execute.py [NAME.ipynb ...]

Each runs with notebooks/ as its working folder; what a run writes goes to temporary
folders or results/ (not tracked).  The tests run them again, in memory, without storing.
"""
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> None:
    for path in [HERE / n for n in names] or sorted(HERE.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        t0 = time.perf_counter()
        NotebookClient(nb, timeout=3600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
        nbformat.write(nb, path)
        print(f"{path.name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
