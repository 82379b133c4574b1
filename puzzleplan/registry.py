"""The registry of puzzle families.

Built-in families are the sub-packages of :mod:`puzzleplan.families` (each defines
``FAMILY``, a :class:`~.contract.Family`); families of other installed packages are found through
the entry-point group ``puzzleplan.families`` (the entry point names a ``Family``
record, or a module that defines ``FAMILY``).  Listing them imports only the records:
rules, encoders and the rest are imported when used (:meth:`Family.part`).

Generic code asks the family of a file (:func:`for_path`) and never compares a family's
name; a loaded puzzle carries its family in its :class:`~.contract.Problem`.  :func:`problem`
makes a problem of a bare rules object, finding its family once, at the edge of the Python
API (a script that built rules itself).
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from pathlib import Path

from .puzzle import PuzzleError
from .contract import REQUIRED_PARTS, Conditions, Family, Format, Instance, Parsed, Problem, Rules, missing_methods

__all__ = ["Family", "Format", "Parsed", "Rules", "names", "get", "all_families", "of", "problem", "for_path",
           "problems", "rules_class", "GROUP"]

GROUP = "puzzleplan.families"
BUILT_IN = "puzzleplan.families"     # the package whose sub-packages are the built-in families
SKIP = {"TEMPLATE"}          # the template folder is documentation, not a family


def _record(obj, where: str) -> Family:
    family = getattr(obj, "FAMILY", obj)
    if not isinstance(family, Family):
        raise PuzzleError(f"{where} does not define a puzzleplan Family (FAMILY = Family(...))")
    return family


@lru_cache(maxsize=1)
def _registry() -> dict[str, Family]:
    found: dict[str, Family] = {}
    for info in pkgutil.iter_modules(importlib.import_module(BUILT_IN).__path__):
        if info.ispkg and info.name not in SKIP and not info.name.startswith("_"):
            module = importlib.import_module(f"{BUILT_IN}.{info.name}")
            family = _record(module, f"{BUILT_IN}.{info.name}")
            found[family.name] = family
    from importlib.metadata import entry_points
    for ep in entry_points(group=GROUP):
        try:
            family = _record(ep.load(), f"entry point {ep.name} ({ep.value})")
        except PuzzleError:
            raise
        except Exception as err:        # a broken third-party package: say which, not a traceback
            raise PuzzleError(f"the family of entry point {ep.name} ({ep.value}) cannot be loaded: "
                              f"{type(err).__name__}: {err}") from None
        if family.name in found and found[family.name] is not family:
            raise PuzzleError(f"two families are named {family.name!r} ({found[family.name].package} and "
                              f"{family.package})")
        found[family.name] = family
    for family in found.values():
        bad = problems(family)
        if bad:
            raise PuzzleError(f"the {family.name} family is incomplete: " + "; ".join(bad))
    return found


def problems(family: Family) -> list[str]:
    """What a family record lacks (cheap: no part is imported)."""
    out = [f"no {part}" for part in REQUIRED_PARTS if not getattr(family, part, None)]
    if not family.metrics:
        out.append("no metrics")
    if not family.formats:
        out.append("no file format")
    out += [f"an encoder for {m!r}, which is not one of its metrics" for m in family.encoders if m not in family.metrics]
    return out


def names() -> list[str]:
    return sorted(_registry())


def all_families() -> list[Family]:
    return [_registry()[n] for n in names()]


def get(name: str) -> Family:
    try:
        return _registry()[name]
    except KeyError:
        raise PuzzleError(f"unknown puzzle family {name!r}; known: {', '.join(names())}") from None


def of(rules) -> Family:
    """The family of a bare rules object: the one whose package holds its class.  For a rules
    object a script built itself; a loaded puzzle's :class:`~.contract.Problem` carries its
    family."""
    module = type(rules).__module__
    for family in _registry().values():
        if module == family.package or module.startswith(family.package + "."):
            return family
    raise PuzzleError(f"{type(rules).__name__} ({module}) belongs to no registered puzzle family")


def problem(target, counts=(), ends=()) -> Problem:
    """The :class:`~.contract.Problem` of what a caller of the Python API passes: a loaded
    :class:`~.contract.Instance`, a problem, or a bare rules object (its family found here,
    by :func:`of`); ``counts`` and ``ends`` add side conditions."""
    if isinstance(target, Instance):
        target = target.problem
    if not isinstance(target, Problem):
        if not isinstance(target, Rules):
            raise TypeError(f"expected a loaded instance, a Problem or a rules object, not {type(target).__name__}")
        target = Problem(target, of(target), Conditions())
    return target.with_conditions(counts, ends) if counts or ends else target


def rules_class(family: Family) -> type:
    """The family's rules class, checked against the contract."""
    cls = family.part("rules")
    missing = missing_methods(cls)
    if missing:
        raise PuzzleError(f"the {family.name} family's rules lack: {', '.join(missing)}")
    return cls


@lru_cache(maxsize=1)
def formats() -> dict[str, tuple[Family, Format]]:
    """File extension (lower case, with the dot) -> (family, format)."""
    out: dict[str, tuple[Family, Format]] = {}
    for family in all_families():
        for fmt in family.formats:
            for ext in fmt.extensions:
                out[ext.lower()] = (family, fmt)
    return out


def _file_type(path) -> str:
    """A file's extension, lower case, under a trailing ``.gz``."""
    p = Path(path)
    return (p.suffixes[-2] if p.suffix == ".gz" and len(p.suffixes) > 1 else p.suffix).lower()


def is_puzzle_file(path) -> bool:
    """Whether some family reads files of this type (extension, ``.gz`` allowed) as puzzles
    (not a companion file such as a PDDL domain)."""
    import fnmatch
    found = formats().get(_file_type(path))
    return found is not None and not any(fnmatch.fnmatch(Path(path).name.lower(), c) for c in found[1].companions)


def for_path(path) -> tuple[Family, Format]:
    """The family and format of a file, by its extension (a trailing ``.gz`` is allowed)."""
    known = formats()
    if _file_type(path) not in known:
        raise PuzzleError("unknown file type; use " + ", ".join(sorted(known)), str(path))
    return known[_file_type(path)]
