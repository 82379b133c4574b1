"""``python -m puzzleplan.cli``."""
from . import main

main()
