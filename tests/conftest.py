import csv
from pathlib import Path

import pytest

from puzzleplan.catalogue import instances_root

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = instances_root()      # the package's bundled instances: the checkout's instances/


def catalogue():
    with open(INSTANCES / "catalogue.csv") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def write(tmp_path):
    """Write text to a file with the given name and return its path."""
    def _write(name: str, text: str) -> str:
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return _write
