"""Plan files, as users hand them over: a JSON result (its ``steps``), steps separated
by spaces or commas, a LURD string (Sokoban), or a plan in the IPC format (one ground
action ``(name arg ...)`` a line, ``;`` comments, as Fast Downward writes it)."""
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
            result = json.loads(text)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"not valid JSON: {err.msg}", str(path), err.lineno) from None
        except RecursionError:      # nested deeper than the parser's stack
            raise PuzzleError("not a plan: JSON nested too deeply", str(path)) from None
        steps = result.get("steps")
        if not isinstance(steps, list):
            status = result.get("status")
            if isinstance(status, str):     # a --json answer that found no plan (unsolvable ...)
                raise PuzzleError(f"a result without a plan (status {status}): no 'steps' list", str(path))
            raise PuzzleError("the JSON object has no 'steps' list", str(path))
        return [str(s) for s in steps]
    actions = [line.split(";", 1)[0].strip() for line in text.splitlines()]
    actions = [a for a in actions if a]
    if actions and all(a.startswith("(") for a in actions):
        return ipc_steps(actions, str(path))
    tokens = text.replace(",", " ").split()
    if len(tokens) == 1 and set(tokens[0].lower()) <= set("lurd") and len(tokens[0]) > 1:
        return list(tokens[0])
    return tokens


def ipc_steps(actions: list[str], where: str) -> list[str]:
    """The lines of an IPC plan, each ``(name arg ...)``, as steps (spaces normalised)."""
    out = []
    for a in actions:
        if not a.endswith(")") or a.count("(") != 1 or a.count(")") != 1 or len(a) < 3:
            raise PuzzleError(f"not a ground action like (name arg ...): {a[:60]!r}", where)
        out.append("(" + " ".join(a[1:-1].lower().split()) + ")")
    return out


def ipc_plan(steps: list[str], cost: int, unit: bool) -> str:
    """A plan in the IPC format, as Fast Downward writes it."""
    lines = ["(" + " ".join(s.strip("()").split()) + ")" for s in steps]
    return "\n".join(lines + [f"; cost = {cost} ({'unit cost' if unit else 'general cost'})"]) + "\n"
