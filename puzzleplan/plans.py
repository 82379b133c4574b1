"""Plan files, as users hand them over: a JSON result (its ``steps``), steps separated
by spaces or commas, or a LURD string (Sokoban)."""
from __future__ import annotations

import json

from .formats.common import read_text
from .puzzle import PuzzleError


def read_plan(path) -> list[str]:
    """A plan file: a JSON result (its ``steps``), or steps separated by spaces or
    commas, or a LURD string for Sokoban."""
    text = read_text(path).strip()
    if text.startswith("{"):
        try:
            steps = json.loads(text).get("steps")
        except json.JSONDecodeError as err:
            raise PuzzleError(f"not valid JSON: {err.msg}", str(path), err.lineno) from None
        except RecursionError:      # nested deeper than the parser's stack
            raise PuzzleError("not a plan: JSON nested too deeply", str(path)) from None
        if not isinstance(steps, list):
            raise PuzzleError("the JSON object has no 'steps' list", str(path))
        return [str(s) for s in steps]
    tokens = text.replace(",", " ").split()
    if len(tokens) == 1 and set(tokens[0].lower()) <= set("lurd") and len(tokens[0]) > 1:
        return list(tokens[0])
    return tokens
