"""The deepening loop, backends, decoding and validation of SAT plans."""
from .deepening import solve

__all__ = ["solve"]
