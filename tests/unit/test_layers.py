"""The architecture, checked: no import cycles among puzzleplan's modules (lazy
imports inside functions included), export below the planner, and every module
importable on its own."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "puzzleplan"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Modules of puzzleplan that ``path`` imports, anywhere in it."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("puzzleplan")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("puzzleplan"):
                for a in node.names:      # "from . import x" may name a module
                    sub = f"{target}.{a.name}"
                    out.add(sub if (PACKAGE.parent / (sub.replace(".", "/") + ".py")).exists()
                            or (PACKAGE.parent / sub.replace(".", "/")).is_dir() else target)
    return out - {name}


def graph() -> dict[str, set[str]]:
    mods = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {m: {t for t in imports(p) if t in mods} for m, p in mods.items()}


def test_no_import_cycles():
    g = graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(m, path):
        state[m] = 1
        for t in sorted(g[m]):
            if state.get(t) == 1:
                cycles.append(path[path.index(t):] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m, [m])
    # a package's __init__ importing its own submodules is not a cycle of layers
    real = [c for c in cycles if not all(x == c[0] or x.startswith(c[0] + ".") or c[0].startswith(x + ".")
                                         for x in c)]
    assert not real, "import cycles: " + "; ".join(" -> ".join(c) for c in real)


def test_layers_run_one_way():
    g = graph()
    below_planner = [m for m in g if m.startswith(("puzzleplan.encodings", "puzzleplan.families", "puzzleplan.search",
                                                     "puzzleplan.formats", "puzzleplan.export"))]
    for m in below_planner:
        assert not {t for t in g[m] if t.startswith("puzzleplan.planner")}, m
    rules = [m for m in g if m.startswith("puzzleplan.families.") and m.endswith(".rules")]
    assert len(rules) >= 3
    for m in rules:      # the reference semantics stand alone: no encoding, search, planner below them
        assert not {t for t in g[m] if t.startswith(("puzzleplan.encodings", "puzzleplan.search", "puzzleplan.pddl",
                                                      "puzzleplan.animate"))}, m


def test_no_framework_module_imports_into_the_families():
    """The contract and the registry sit below the plug-ins: the registry finds a family by
    its name at run time, and no module outside ``families/`` names one in an import."""
    g = graph()
    up = {m: sorted(t for t in g[m] if t == "puzzleplan.families" or t.startswith("puzzleplan.families."))
          for m in g if not (m == "puzzleplan.families" or m.startswith("puzzleplan.families."))}
    assert not {m: ts for m, ts in up.items() if ts}
    assert {"puzzleplan.contract", "puzzleplan.registry"} <= set(g)
    below = ("puzzleplan.puzzle", "puzzleplan.contract", "puzzleplan.registry")
    for m in below:      # the vocabulary, the contract and the registry import nothing above them
        assert g[m] <= set(below[:below.index(m)]), (m, g[m])


FAMILY_DIRS = sorted(p for p in (PACKAGE / "families").iterdir() if p.is_dir() and (p / "__init__.py").exists())


def family_names() -> set[str]:
    from puzzleplan import registry
    return set(registry.names())


def test_no_family_name_is_compared_outside_its_folder():
    """Generic code asks the family; a family's name as a string, or an import of a
    family's folder, outside that folder is a switch on the name."""
    names = family_names()
    assert {"sliding", "sokoban", "knights"} <= names
    found = []
    for path in PACKAGE.rglob("*.py"):
        if any(d in path.parents for d in FAMILY_DIRS):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in names:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
        found += [f"{path.relative_to(ROOT)}: imports {t}" for t in imports(path)
                  if any(t == f"puzzleplan.families.{n}" or t.startswith(f"puzzleplan.families.{n}.") for n in names)]
    for path in PACKAGE.rglob("*.html"):
        for n in names:
            if f'"{n}"' in path.read_text() or f"'{n}'" in path.read_text():
                found.append(f"{path.relative_to(ROOT)}: {n!r}")
    assert not found, "family names outside their folders:\n" + "\n".join(found)


def test_no_metric_of_a_family_is_named_outside_its_folder():
    """Generic code asks the rules (``frame_per_step``, ``ends_refused``, ``plan_cost``...)
    rather than comparing a metric's name; ``steps``, the seeds' unit, is every family's."""
    from puzzleplan import registry
    metrics = {m for f in registry.all_families() for m in f.metrics} - {"steps"}
    assert {"pushes", "slides", "moves", "cost"} <= metrics
    found = []
    for path in PACKAGE.rglob("*.py"):
        if any(d in path.parents for d in FAMILY_DIRS):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in metrics:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, "metric names outside their families:\n" + "\n".join(found)


def test_a_family_folder_imports_no_other_family():
    for folder in FAMILY_DIRS:
        others = [d.name for d in FAMILY_DIRS if d != folder]
        for path in folder.rglob("*.py"):
            bad = [t for t in imports(path) if any(t.startswith(f"puzzleplan.families.{o}") for o in others)]
            assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_listing_the_families_imports_none_of_their_parts():
    code = ("import sys, puzzleplan.registry as f; rows = [(x.name, x.extensions(), x.features()) "
            "for x in f.all_families()]; print(len(rows)); "
            "print(sorted(m for m in sys.modules if m.startswith('puzzleplan.families.') and m.count('.') > 2 "
            "or m.split('.')[0] in ('pysat', 'ortools', 'matplotlib', 'PIL')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    count, loaded = proc.stdout.split("\n")[:2]
    assert int(count) >= 3 and loaded == "[]", proc.stdout


@pytest.mark.parametrize("module", sorted(m for m in graph() if not m.endswith("__main__")))
def test_each_module_imports_alone(module):
    proc = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-500:]


def test_import_does_not_load_the_solvers():
    code = ("import sys, puzzleplan, puzzleplan.cli, puzzleplan.encodings, puzzleplan.planner, puzzleplan.export; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pysat', 'ortools', 'pysolvers')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.strip() == "[]", proc.stdout + proc.stderr


# modules and functions short enough to read in one sitting (the STRIPS pipeline, split by stage,
# left the list of exceptions empty)
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 600, 60
ALLOWED_LONG: set[str] = set()


def allowed(path: Path) -> bool:
    return any(str(path.relative_to(ROOT)).startswith(prefix) for prefix in ALLOWED_LONG)


def too_long(text: str) -> list[str]:
    """What in a module's text is over the limits: the module, its functions (with their line)."""
    out = [f"{text.count(chr(10))} lines"] if text.count("\n") > MAX_MODULE_LINES else []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            size = node.end_lineno - node.lineno + 1
            if size > MAX_FUNCTION_LINES:
                out.append(f"line {node.lineno} {node.name}: {size} lines")
    return out


def test_no_module_over_600_lines_and_no_function_over_60():
    found = {str(path.relative_to(ROOT)): too_long(path.read_text())
             for path in sorted(PACKAGE.rglob("*.py")) if not allowed(path)}
    assert not {path: what for path, what in found.items() if what}


def test_the_size_check_finds_a_long_function_and_a_long_module():
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    assert too_long(f"def f():\n{body}\n") == ["line 1 f: 61 lines"]
    assert too_long(f"def f():\n{body[:body.rindex(chr(10))]}\n") == []
    assert too_long("x = 1\n" * 601) == ["601 lines"]


#: the STRIPS subsystem's floors, lowest first: a module imports only from its own floor and
#: those below (the task's form and the text; the grounding stages; the analyses; the encoding)
STRIPS_FLOORS = (
    ("puzzleplan.strips.sas", "puzzleplan.strips.parse", "puzzleplan.strips.names"),
    ("puzzleplan.strips.normalise", "puzzleplan.strips.instantiate", "puzzleplan.strips.invariants",
     "puzzleplan.strips.fact_groups", "puzzleplan.strips.causal_graph", "puzzleplan.strips.finite_domain",
     "puzzleplan.strips.grounder", "puzzleplan.strips.translator", "puzzleplan.strips.ground"),
    ("puzzleplan.strips.analyses",),
    ("puzzleplan.strips.encoding",),
)


def strips_floor(module: str) -> int | None:
    for i, floor in enumerate(STRIPS_FLOORS):
        if any(module == m or module.startswith(m + ".") for m in floor):
            return i
    return None


def test_the_strips_subsystem_runs_one_way_below_the_families_and_the_planner():
    """``puzzleplan.strips`` (the PDDL planner's stages, analyses and encoding) names no family,
    no planner, search, CLI or bench module, and within it no module imports a floor above its
    own (:data:`STRIPS_FLOORS`); every module of it sits on a floor."""
    g = graph()
    ours = sorted(m for m in g if m.startswith("puzzleplan.strips.") or m == "puzzleplan.strips")
    assert len(ours) > 20
    above = ("puzzleplan.families", "puzzleplan.planner", "puzzleplan.search", "puzzleplan.cli", "puzzleplan.bench",
             "puzzleplan.pddl", "puzzleplan.export")
    upward = []
    for m in ours:
        upward += [f"{m} -> {t}" for t in g[m] if t.startswith(above)]
        if m == "puzzleplan.strips":
            continue
        floor = strips_floor(m)
        assert floor is not None, f"{m} is on no floor of STRIPS_FLOORS"
        upward += [f"{m} -> {t}" for t in g[m] if (strips_floor(t) or 0) > floor]
    assert not upward, "upward imports:\n" + "\n".join(upward)

