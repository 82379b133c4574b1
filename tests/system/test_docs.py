"""The README's and the documentation's commands run as printed, in order, in a fresh folder,
and the documentation site builds.

Which blocks: every fenced ```sh and ```python block of README.md (except the README's first,
which sets everything up and runs this test suite: CI runs exactly that block, ``.ci/run``),
then of every page of the site in the order of its contents (``mkdocs.yml``).  A ```shell
block is shown, not run: it changes the checkout (copying the TEMPLATE family into the
package).  The blocks run one after the other in one fresh folder that holds what a checkout
has next to the README and nothing else: ``instances/`` and ``.venv`` (links to this
checkout's; the commands only read them), with ``.venv/bin`` first on PATH, as after
``. .venv/bin/activate``.  Each ``sh`` block runs as one ``bash -e -o pipefail`` script, so every
command must succeed as printed; files one block writes (``klotski.json``) are read by a
later one.
"""
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import yaml

from conftest import ROOT

pytestmark = pytest.mark.system     # whole-system checks: run by CI after the quick set (-m system)

README = ROOT / "README.md"
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)     # a block may carry a title: ```text title="x"


def nav_pages() -> list[Path]:
    """The site's pages in the order of its contents."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    out: list[Path] = []

    def walk(items):
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                walk(value)
            elif not value.startswith("studies/"):     # made from benchmarks/ by docs/hooks.py
                out.append(DOCS / value)
    walk(config["nav"])
    return out


def blocks(path: Path) -> list[tuple[str, str]]:
    return [(lang, body) for lang, body in BLOCK.findall(path.read_text()) if lang in ("sh", "python")]


def runnable() -> list[tuple[str, str, str]]:
    """(where, kind, code) of every block that runs, in order."""
    out = [("README.md", lang, body) for lang, body in blocks(README)[1:]]
    for page in nav_pages():
        out += [(str(page.relative_to(ROOT)), lang, body) for lang, body in blocks(page)]
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("fresh")
    (d / "instances").symlink_to(ROOT / "instances")
    (d / ".venv").symlink_to(Path(sys.prefix))
    return d


def environment() -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.prefix) / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = sys.prefix
    env.pop("PYTHONPATH", None)
    return env


def test_the_blocks_are_found():
    first = blocks(README)[0]
    assert first[0] == "sh" and "sh setup.sh" in first[1] and "sh setup.sh test" in first[1]
    assert (ROOT / ".ci/run").read_text().count(first[1].strip().splitlines()[-1]) == 1, \
        "CI runs the README's test command as printed"
    found = runnable()
    assert not any("sh setup.sh" in code for _, _, code in found)
    pages = {where for where, _, _ in found}
    assert {"README.md", "docs/index.md", "docs/guides/solving.md", "docs/guides/animations.md"} <= pages
    assert sum(kind == "python" for _, kind, _ in found) >= 2
    assert all(page.is_file() for page in nav_pages())
    listed = {p.resolve() for p in nav_pages()}
    unlisted = [p for p in DOCS.rglob("*.md") if p.resolve() not in listed]
    assert not unlisted, f"pages not in mkdocs.yml's nav: {unlisted}"


def test_the_commands_run_as_printed(folder):
    """Every block in order: README's, then the site's pages'."""
    for n, (where, kind, code) in enumerate(runnable(), 1):
        argv = ["bash", "-e", "-o", "pipefail", "-c", code] if kind == "sh" else [sys.executable, "-c", code]
        done = subprocess.run(argv, cwd=folder, env=environment(), capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (f"{where}: {kind} block {n} failed (exit {done.returncode}):\n{code}\n"
                                      f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}")
        assert "Traceback" not in done.stderr, (where, done.stderr[-2000:])
    # what the blocks promise, checked on the files they wrote
    for name in ("plan.json", "klotski.json", "card40.drat", "answer.txt", "results/rh.csv", "results/tour.csv",
                 "results/first.csv", "results/compare.csv", "results/plots/cactus.png", "card40.html",
                 "microban2.gif", "my.html", "my.gif", "klotski.mp4", "klotski.plan", "guarini.cnf"):
        assert (folder / name).is_file(), name


def broken_references(site: Path) -> list[tuple[str, str]]:
    """(page, target) of every image or link of the built site that points inside the site at
    nothing (the 404 page's links are absolute, for any address: left out)."""
    bad = []
    for page in site.rglob("*.html"):
        if page.name == "404.html":
            continue
        for target in re.findall(r'\b(?:src|href)="([^"]+)"', page.read_text(errors="replace")):
            u = urlparse(target)
            if u.scheme or u.netloc or not u.path:
                continue
            dest = (page.parent / unquote(u.path)).resolve()
            if not (dest / "index.html" if dest.is_dir() else dest).exists():
                bad.append((str(page.relative_to(site)), target))
    return bad


def test_the_site_builds_with_its_references_generated(tmp_path):
    """``mkdocs build --strict``: every page, every link between pages and every image (a link
    that resolves to nothing fails the build: ``validation`` in ``mkdocs.yml``; and the built
    pages are read again for any image or link pointing at nothing), the CLI reference made
    from the click commands with the defaults the options really have, the API reference from
    the docstrings, a page per study of ``benchmarks/`` with its plots, each in the navigation."""
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert done.returncode == 0, done.stderr[-3000:]
    from puzzleplan.cli import main
    cli = (site / "reference/cli/index.html").read_text()
    for name, command in main.commands.items():
        assert f"puzzleplan {name}" in cli, name
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert opt in cli, (name, opt)
    assert "Sentinel" not in cli and "UNSET" not in cli, "a default shown as click's sentinel"
    assert "<td><code>4096</code></td>" in cli                         # --memory's real default
    studies = sorted(p.parent.name for p in (ROOT / "benchmarks").glob("*/README.md"))
    assert studies and all((site / "studies" / name / "index.html").is_file() for name in studies)
    assert (site / "studies/sat_vs_search/cactus.png").is_file()       # a study's plots beside its page
    from puzzleplan.cli import outcomes
    statuses = (site / "concepts/statuses/index.html").read_text()
    for code in set(outcomes.EXIT_CODES.values()) | {outcomes.EXIT_NOT_SOLVED, outcomes.EXIT_BAD_INPUT}:
        assert re.search(rf">{code}</td>\s*<td>", statuses), f"exit code {code} not in the statuses page's table"
    assert re.search(rf">{outcomes.EXIT_MEMOUT}</td>\s*<td>the memory limit", statuses)
    memory = next(p for p in main.commands["solve"].params if p.name == "memory_mb")
    assert f"exit code {outcomes.EXIT_MEMOUT}" in memory.help
    home = (site / "index.html").read_text()
    assert all(f'href="studies/{name}/"' in home for name in studies), "a study outside the navigation"
    assert not broken_references(site)
    api = (site / "reference/api/index.html").read_text()
    for name in ("load", "solve", "SolveOptions", "breadth_first_search", "check_plan", "Rules", "SideConditions"):
        assert 'id="puzzleplan.' in api and name in api, name
    assert not re.search(r":(class|func|meth|mod|data):<code>", api), "a docstring's Sphinx role shown as text"
