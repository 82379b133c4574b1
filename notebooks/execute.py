"""Run the notebooks top to bottom and write each, with its outputs (tables, plots), to a folder
of your own: the notebooks in notebooks/ are left as they are unless you ask for ``--in-place``.

    .venv/bin/python notebooks/execute.py                       # all, into results/notebooks/
    .venv/bin/python notebooks/execute.py side_constraints.ipynb -o /tmp/nb
    .venv/bin/python notebooks/execute.py --quick               # small subsets (PUZZLEPLAN_QUICK=1)
    .venv/bin/python notebooks/execute.py --in-place            # store them executed, in notebooks/

Each runs with notebooks/ as its working folder; what a run writes goes to temporary folders
or results/ (not tracked).  An existing output is replaced only with ``--force``.  The tests
run them in memory, without writing them anywhere.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "results" / "notebooks"


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="notebooks/execute.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME.ipynb", help="the notebooks to run (default: every one)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("-o", "--out", type=Path, default=None,
                       help=f"the folder the executed notebooks go to (default: {DEFAULT_OUT.relative_to(HERE.parent)}/)")
    where.add_argument("--in-place", action="store_true",
                       help="rewrite the notebooks in notebooks/ with their outputs (the tracked files)")
    ap.add_argument("--quick", action="store_true", help="small subsets (PUZZLEPLAN_QUICK=1), as the tests run them")
    ap.add_argument("--force", action="store_true", help="replace an executed notebook already in the output folder")
    return ap.parse_args(argv)


def targets(args: argparse.Namespace) -> list[tuple[Path, Path]]:
    """(notebook, where its executed copy goes) for each notebook asked for; a mistake is one line."""
    paths = [HERE / Path(n).name for n in args.names] or sorted(HERE.glob("*.ipynb"))
    for p in paths:
        if p.suffix != ".ipynb" or not p.is_file():
            sys.exit(f"execute.py: error: no notebook {p.name} in {HERE}")
    out = HERE if args.in_place else (args.out or DEFAULT_OUT)
    pairs = [(p, out / p.name) for p in paths]
    if not args.in_place:
        if out.resolve() == HERE:
            sys.exit("execute.py: error: that is notebooks/ itself: say --in-place to rewrite the notebooks")
        kept = [dest for _, dest in pairs if dest.exists()]
        if kept and not args.force:
            sys.exit(f"execute.py: error: {kept[0]} exists (--force replaces it)")
    return pairs


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    pairs = targets(args)
    import nbformat
    from nbclient import NotebookClient
    if args.quick:
        os.environ["PUZZLEPLAN_QUICK"] = "1"
    os.environ.setdefault("MPLBACKEND", "Agg")
    for path, dest in pairs:
        nb = nbformat.read(path, as_version=4)
        t0 = time.perf_counter()
        NotebookClient(nb, timeout=3600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
        dest.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, dest)
        print(f"{path.name}: {time.perf_counter() - t0:.0f} s -> {dest}", file=sys.stderr)


if __name__ == "__main__":
    main()
