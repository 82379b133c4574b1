"""puzzleplan: SAT and CP-SAT planning for move puzzles, measured against search."""
