"""The random instance generators of the families, under one name for the tests: the
built-in families' generators by name, and every registered family with
:func:`puzzleplan.kit.instances`."""
from puzzleplan import registry
from puzzleplan.families.knights.generate import knights
from puzzleplan.families.sliding.generate import sliding
from puzzleplan.families.sokoban.generate import sokoban
from puzzleplan.kit import instances

__all__ = ["knights", "sliding", "sokoban", "FAMILIES", "instances"]

FAMILIES = registry.all_families()
