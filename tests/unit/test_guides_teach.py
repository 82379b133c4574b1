"""Tutorials teach, results pages measure: the README, the home page and the guides hold
commands, what they print and why, and no provenance of measurements (a commit a figure was
measured at, a machine, its load); those live in ``docs/results/`` and the study pages, which
the guides link to."""
import re

import pytest

from conftest import ROOT

pytestmark = pytest.mark.smoke

PAGES = [ROOT / "README.md", ROOT / "docs/index.md", ROOT / "docs/families.md",
         *sorted((ROOT / "docs/guides").glob("*.md"))]
LINK = re.compile(r"\]\([^)]*\)")
COMMIT = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
MACHINE = re.compile(r"load average|\bload \d|Intel Xeon|AMD EPYC|x86_64|CPU hogs|shared with other work|nothing else running",
                     re.I)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_provenance_in_a_tutorial(page):
    text = LINK.sub("]()", page.read_text())          # a link's target may name anything
    found = [m.group(0) for m in COMMIT.finditer(text)] + [m.group(0) for m in MACHINE.finditer(text)]
    assert not found, f"{page.name}: measurements' provenance belongs in docs/results/: {found[:5]}"


def test_the_detector_sees_provenance():
    assert COMMIT.search("one bench run at git dee83f8, AMD EPYC") and MACHINE.search("load average 5")
    assert not COMMIT.search("puzzleplan solve card40.cnf.gz --fast")
