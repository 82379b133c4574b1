"""The deepening loop, backends, decoding and validation of SAT plans."""
from .deepening import SolveOptions, solve

__all__ = ["SolveOptions", "solve"]
