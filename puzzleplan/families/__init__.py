"""The built-in puzzle families, one sub-package each: plug-ins of :mod:`puzzleplan.contract`,
found by :mod:`puzzleplan.registry` (which also finds the families of other installed
packages).  Nothing outside this folder imports into it.

The registry's functions are named here too (``puzzleplan.families.get``, ``all_families``...),
for code written when they lived in this package.
"""
from ..registry import (GROUP, Family, Format, Parsed, Rules, all_families, for_path, formats, get,  # noqa: F401
                        is_puzzle_file, names, of, problems, rules_class)
