"""Puzzle + horizon -> solver-neutral Boolean model; model -> plan."""
