"""The family contract is small: six required rules methods; side conditions an optional part
a family opts into; an encoder an abstract base checked when the planner first asks for it."""
import pytest

from puzzleplan import registry
from puzzleplan.contract import Rules, SideConditions, check_side_conditions, missing_methods
from puzzleplan.encodings import encoder_class
from puzzleplan.encodings.base import Encoder
from puzzleplan.puzzle import PuzzleError

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

FAMILIES = registry.all_families()


def test_six_rules_methods_are_required():
    assert sorted(Rules.__abstractmethods__) == ["board", "is_goal", "moves_of", "render_steps", "replay",
                                                 "successors"]
    assert sorted(SideConditions.__abstractmethods__) == ["end_places", "mover_of", "on_board", "piece_cells",
                                                          "place_of"]


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_every_built_in_family_takes_side_conditions_and_its_encoders_check(family):
    cls = registry.rules_class(family)
    assert issubclass(cls, SideConditions) and missing_methods(cls) == []
    check_side_conditions(cls, family.name)
    for metric in family.encoders:
        assert issubclass(encoder_class(family, metric), Encoder)


def test_a_family_without_the_side_condition_part_refuses_them_in_one_line():
    base = registry.rules_class(registry.get("sliding"))
    plain = type("Plain", (Rules,), {k: getattr(base, k) for k in Rules.__abstractmethods__})
    assert missing_methods(plain) == []
    with pytest.raises(PuzzleError, match=r"^the tiny family takes no side conditions \(--moves, --frozen, "
                                          r"--avoid, --ends\)$"):
        check_side_conditions(plain, "tiny")


@pytest.mark.parametrize("method", sorted(Encoder.__abstractmethods__) + ["decode_move"])
def test_an_encoder_without_a_required_method_is_refused_by_name(method):
    family = registry.get("knights")
    cls = encoder_class(family, "steps")
    gone = {method, "decode"} if method == "decode_move" else {method}     # either one decodes
    body = {k: v for klass in reversed(cls.__mro__) if issubclass(klass, Encoder) and klass is not Encoder
            for k, v in vars(klass).items() if k not in gone}
    stripped = type("Stripped", (Encoder,), body)
    broken = registry.Family(**{**family.__dict__, "package": __name__, "encoders": {"steps": ":Stripped"}})
    globals()["Stripped"] = stripped
    try:
        with pytest.raises(PuzzleError, match=rf"encoder for 'steps' lacks: {method}"):
            encoder_class(broken, "steps")
    finally:
        del globals()["Stripped"]


def test_an_encoder_that_is_no_encoder_is_refused():
    family = registry.get("knights")
    broken = registry.Family(**{**family.__dict__, "package": __name__, "encoders": {"steps": ":NotAnEncoder"}})
    with pytest.raises(PuzzleError, match="not a subclass of puzzleplan.encodings.base.Encoder"):
        encoder_class(broken, "steps")


class NotAnEncoder:
    pass
