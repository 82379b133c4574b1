"""``python -m puzzleplan.cli``."""
from .entry import main

main()
