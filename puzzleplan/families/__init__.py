"""The built-in puzzle families, one sub-package each: plug-ins of :mod:`puzzleplan.contract`,
found by :mod:`puzzleplan.registry` (which also finds the families of other installed
packages).  Nothing outside this folder imports into it."""
