"""The conformance suite every family passes, as shipped in the package (an outside family runs
it from an installed puzzleplan: ``python -m pytest --pyargs puzzleplan.kit.test_conformance``);
collected here with the rest of the tests."""
import pytest

from puzzleplan import registry
from puzzleplan.kit.test_conformance import *  # noqa: F401,F403
from puzzleplan.puzzle import PuzzleError

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke


def test_the_built_in_families_are_registered():
    assert {"sliding", "sokoban", "knights", "pegsol", "strips"} <= set(registry.names())


def test_an_incomplete_or_unknown_family_is_refused_naming_what_is_missing():
    family = registry.get("sliding")
    broken = registry.Family(**{**family.__dict__, "generate": "", "formats": (), "encoders": {"pushes": "x:Y"}})
    assert registry.problems(broken) == ["no generate", "no file format",
                                         "an encoder for 'pushes', which is not one of its metrics"]
    with pytest.raises(PuzzleError, match=r"unknown puzzle family 'chess'; known: .*sliding"):
        registry.get("chess")
    with pytest.raises(PuzzleError, match=r"sliding family's scene: .* has no 'nowhere'"):
        registry.Family(**{**family.__dict__, "scene": "scene:nowhere"}).part("scene")
    with pytest.raises(PuzzleError, match=r"unknown file type; use .*\.knights.*\.slide"):
        registry.for_path("puzzle.chess")
