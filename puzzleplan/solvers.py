"""What can solve on this machine, and where it is: ``puzzleplan solvers``.

Every method of the registry (:mod:`puzzleplan.methods`) with whether it runs here, then
the tools behind them.

Solver programs for ``--backend external:NAME`` and for the export -> solve -> decode job
by hand (kissat sits inside the ``passagemath-kissat`` wheel, not on PATH: its path is
printed here), python-sat's solvers for ``pysat:NAME``, OR-Tools for ``cpsat``, the PDDL
planners the bench runs, and the DRAT checker.  Each row: ``kind``, ``name``, ``use``
(how to ask for it), ``found``, ``path`` or ``version``, ``install`` (how to get it).
"""
from __future__ import annotations

from importlib import metadata

# solver programs the tests run, and where each comes from
PROGRAMS = {
    "cadical": "Debian package cadical (sh setup.sh test)",
    "kissat": "the PyPI wheel passagemath-kissat: pip install 'puzzleplan[solvers]' (sh setup.sh test)",
    "minisat": "Debian package minisat (sh setup.sh test)",
    "cryptominisat5": "Debian package cryptominisat (sh setup.sh test)",
    "picosat": "Debian package picosat (sh setup.sh test)",
}


def version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def programs() -> list[dict]:
    from .planner.backends.external_backend import find_solver
    return [{"kind": "program", "name": name, "use": f"--backend external:{name}", "path": find_solver(name),
             "found": find_solver(name) is not None, "install": how} for name, how in PROGRAMS.items()]


def users(dist: str) -> str:
    """The methods of the registry that need package ``dist`` (their ``requires``), as written."""
    from .plugins import Package, table
    out = []
    for m in table().values():
        try:
            needs = m.load().needs("")
        except Exception:       # a method whose code does not load is listed as such above
            continue
        if any(isinstance(r, Package) and r.dist == dist for r in needs):
            out.append(m.usage())
    return ", ".join(out)


def libraries() -> list[dict]:
    """python-sat's solvers, OR-Tools, the PDDL planners and the DRAT checker."""
    rows = []
    pysat = version("python-sat")
    if pysat:
        from .planner.backends.pysat_solvers import DEFAULT_SOLVER, solver_names
        names = solver_names()
        rows.append({"kind": "library", "name": "python-sat", "use": "--backend " + users("python-sat"),
                     "found": True, "version": pysat, "solvers": names, "default": DEFAULT_SOLVER})
    rows.append({"kind": "library", "name": "ortools", "use": "--backend " + users("ortools"),
                 "found": bool(version("ortools")), "version": version("ortools"), "install": "pip install ortools"})
    from .plugins import PLANNER, code, names
    for method in names(PLANNER):       # every planner of the registry, with its driver script
        row, _, impl = code(method)
        built = impl.build(method)
        wheel = next(iter(impl.requires), None)
        found = not impl.unavailable(method)
        rows.append({"kind": "planner", "name": method, "use": f"bench --methods {row.usage()}",
                     "found": found, "path": str(built.driver()) if found and hasattr(built, "driver") else None,
                     "install": wheel.install if wheel else ""})
    engine = None
    if version("dratify"):
        from .planner.certify import checker_engine
        engine = checker_engine()
    rows.append({"kind": "checker", "name": "dratify", "use": "--certify, decode --proof", "found": engine is not None,
                 "version": version("dratify"), "engine": engine, "install": "pip install dratify cdclkit-native"})
    return rows


def methods() -> list[dict]:
    from .methods import availability
    return [{**row, "kind": "method", "group": row["kind"], "found": row["runs_here"]} for row in availability()]


def table() -> list[dict]:
    return methods() + programs() + libraries()


def lines(rows: list[dict]) -> list[str]:
    out = []
    methods = [r for r in rows if r["kind"] == "method"]
    if methods:
        out.append("methods (search -a, solve -b, bench --methods):")
        out += [f"  {r['use']:<24} {r['group']:<8} {'runs here' if r['found'] else 'cannot run here: ' + r['why_not']}"
                for r in methods]
        out.append("tools:")
    for r in rows:
        if r["kind"] == "method":
            continue
        if not r["found"]:
            where = f"not found: {r['install']}"
        elif r["name"] == "python-sat":
            where = f"{r['version']}: " + ", ".join(n + (" (default)" if n == r["default"] else "")
                                                    for n in r["solvers"])
        elif r["kind"] == "checker":
            where = f"{r['version']} ({r['engine']} engine)"
        else:
            where = r.get("path") or r.get("version")
        out.append(f"{r['name']:<15} {where}")
        out.append(f"{'':<15} use: {r['use']}")
    return out
