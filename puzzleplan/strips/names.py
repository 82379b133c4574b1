"""The names of a grounded task's actions and facts, read apart: ``push p1 c2`` and
``at(box1, pos-2-3)`` (the translator's names, as both grounders name them, :mod:`.sas`)."""
from __future__ import annotations

import re


def action_parts(name: str) -> tuple[str, list[str]]:
    """``Push P1 c2`` -> ("push", ["p1", "c2"])."""
    parts = name.lower().split()
    return parts[0], parts[1:]


def fact_parts(fact: str) -> tuple[str, list[str]] | None:
    """``at(box1, pos-2-3)`` -> ("at", ["box1", "pos-2-3"]); None for a negated or "none" value."""
    found = re.fullmatch(r"([^\s(]+)\((.*)\)", fact)
    if not found:
        return None
    args = found.group(2)
    return found.group(1), [a.strip() for a in args.split(",")] if args.strip() else []
