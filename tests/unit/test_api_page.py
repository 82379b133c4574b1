"""The API reference's tables of hooks (``docs/reference/api.md``, "For family authors") name
every public method of the family contract and of the encoder base class, so that a hook added
to the code without its return contract on the page fails here."""
import inspect
import re

import pytest

from puzzleplan import registry
from puzzleplan.contract import Rules, SideConditions
from puzzleplan.encodings.base import Encoder

from conftest import ROOT

pytestmark = pytest.mark.smoke

PAGE = ROOT / "docs/reference/api.md"


def public_methods(cls) -> list[str]:
    return [n for n, v in vars(cls).items()
            if not n.startswith("_") and (inspect.isfunction(v) or isinstance(v, (staticmethod, classmethod)))]


@pytest.mark.parametrize("cls", [Rules, SideConditions, Encoder], ids=lambda c: c.__name__)
def test_every_hook_is_on_the_page(cls):
    text = PAGE.read_text()
    section = text[text.index("## For family authors"):]
    named = set(re.findall(r"`(\w+)[`(]", section))
    missing = [n for n in public_methods(cls) if n not in named]
    assert not missing, f"{cls.__name__}: hooks missing from {PAGE.name}: {missing}"


def test_the_registry_functions_are_listed():
    text = PAGE.read_text()
    listed = re.search(r"::: puzzleplan\.registry\n(?:    .*\n)*?      members: \[(.*)\]", text).group(1)
    assert {n.strip() for n in listed.split(",")} >= set(registry.__all__) - {"Family", "Format", "Parsed", "Rules"}
