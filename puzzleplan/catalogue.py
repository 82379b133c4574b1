"""The bundled instances and their catalogue (``instances/catalogue.csv``).

``instances/`` sits at the repository's top and is installed as the package data of
``puzzleplan.instances``, so a checkout, an editable install and a wheel find the same
files.  Paths in the catalogue are relative to that folder.
"""
from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

from .puzzle import PuzzleError


def instances_root() -> Path:
    """The folder of the bundled instances."""
    try:
        root = resources.files("puzzleplan.instances")
    except ModuleNotFoundError:
        # an editable install made before the mapping existed: the checkout's folder
        root = Path(__file__).resolve().parent.parent / "instances"
    if not isinstance(root, Path) or not (root / "catalogue.csv").is_file():
        raise PuzzleError(f"the bundled instances are not on the file system ({root})")
    return root


def catalogue() -> list[dict[str, str]]:
    """The catalogue's rows: name, file (relative to :func:`instances_root`), level, metric, optimum..."""
    with open(instances_root() / "catalogue.csv", newline="") as fh:
        return list(csv.DictReader(fh))
