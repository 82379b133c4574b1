"""The worked examples of the formats page (``docs/reference/formats.md``) are true: every
fenced block with a file name (```` ```text title="tiny.slide" ````) is written to one folder,
each puzzle is loaded by its family's reader and solved by breadth-first search, and each plan
file replays on the puzzle it is shown with (``two.plan`` -> ``two.rh``)."""
import re

import pytest

import puzzleplan as pp
from puzzleplan import registry
from puzzleplan.formats.load import level_count
from puzzleplan.plans import read_plan
from puzzleplan.puzzle import Status

from conftest import ROOT

pytestmark = pytest.mark.smoke

PAGE = ROOT / "docs/reference/formats.md"
EXAMPLE = re.compile(r'^```\w* title="([^"]+)"\n(.*?)^```', re.M | re.S)
PLANS = (".plan", ".lurd")


def examples() -> dict[str, str]:
    found = EXAMPLE.findall(PAGE.read_text())
    names = [name for name, _ in found]
    assert len(names) == len(set(names)), "two examples with one file name"
    return dict(found)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("formats")
    for name, body in examples().items():
        (d / name).write_text(body)
    return d


def puzzles() -> list[str]:
    return [n for n in examples() if not n.endswith(PLANS) and n != "domain.pddl"]


def test_every_format_has_a_worked_example():
    exts = {"." + n.rsplit(".", 1)[1] for n in puzzles()}
    for family in registry.all_families():
        if family.name == "TEMPLATE":
            continue
        for fmt in family.formats:
            assert exts & set(fmt.extensions), f"no worked example of {fmt.name} ({', '.join(fmt.extensions)})"
    assert any(n.endswith(PLANS) for n in examples())


@pytest.mark.parametrize("name", puzzles())
def test_the_example_loads_and_is_solved(folder, name):
    path = folder / name
    for level in range(1, level_count(path) + 1):
        inst = pp.load(path, level=level)
        result = pp.breadth_first_search(inst.problem, inst.rules.metrics[0])
        assert result.status is Status.OPTIMAL, (name, level, result.status)
        assert pp.check_plan(inst.problem, result.steps, inst.rules.metrics[0])["solved"], (name, level)


@pytest.mark.parametrize("name", [n for n in examples() if n.endswith(PLANS)])
def test_the_plan_example_replays(folder, name):
    stem = name.rsplit(".", 1)[0]
    puzzle = next((p for p in puzzles() if p.rsplit(".", 1)[0] == stem), None)
    assert puzzle, f"{name}: no puzzle example {stem}.* on the page to replay it on"
    inst = pp.load(folder / puzzle)
    check = pp.check_plan(inst.problem, read_plan(folder / name), inst.rules.metrics[0])
    assert check["solved"], (name, check)
