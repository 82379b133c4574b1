"""The random instance generators of the built-in families, under one name for the tests."""
from puzzleplan.families.knights.generate import knights
from puzzleplan.families.sliding.generate import sliding
from puzzleplan.families.sokoban.generate import sokoban

__all__ = ["knights", "sliding", "sokoban"]
