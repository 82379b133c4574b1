"""MkDocs hooks: the study pages made from ``benchmarks/``, links that work in the site, and the
command-line reference's defaults.

- ``benchmarks/README.md`` (the index of studies) becomes ``studies/index.md`` and each
  ``benchmarks/STUDY/README.md`` becomes ``studies/STUDY.md``, with the study's plots copied
  beside it (``studies/STUDY/NAME.png``). Every study is in the navigation, under the index.
- A link on any page is resolved where its Markdown lives (``docs/...`` or
  ``benchmarks/...``) and pointed at what the site has: a page of the docs, a study page, a
  study's plot, an image of the checkout copied into the site; a link to another file of the
  checkout (a CSV, a script) is shown as its path. What resolves to nothing is left as it is,
  so that ``mkdocs build --strict`` reports it.
- The exit codes on the statuses page (``<!-- exit codes -->``) are the table of
  :mod:`puzzleplan.cli.outcomes`, its items checked against the codes the program returns.
- The docstrings' Sphinx roles (``:class:`~puzzleplan.contract.Problem```) are shown as code
  (``Problem``): mkdocstrings renders the backticks, not the role, and the page would say
  ":class:" before the name.
- mkdocs-click prints an option's ``default`` as it is, and click (8.2 and later) marks "no
  default" with a sentinel: the table would say ``Sentinel.UNSET``. The row shows the value the
  option takes when it is not given (``False`` for a flag, ``None`` otherwise).
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BENCH = ROOT / "benchmarks"
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
IMAGES = (".png", ".gif", ".svg", ".jpg", ".jpeg")

_origins: dict[str, Path] = {}        # a generated page -> the folder its Markdown comes from


def _title(readme: Path) -> str:
    first = next((line for line in readme.read_text().splitlines() if line.startswith("# ")), None)
    return (first[2:].strip() if first else readme.parent.name).replace("_", " ")


def _studies() -> list[Path]:
    return sorted(BENCH.glob("*/README.md")) if (BENCH / "README.md").is_file() else []


def _place(nav: list) -> bool:
    """Make the nav item that is ``studies/index.md`` a section: the index, then every study."""
    for i, item in enumerate(nav):
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            if _place(value):
                return True
        elif value == "studies/index.md":
            title = next(iter(item)) if isinstance(item, dict) else "Studies"
            nav[i] = {title: [{"Index of the studies": "studies/index.md"}]
                      + [{_title(r): f"studies/{r.parent.name}.md"} for r in _studies()]}
            return True
    return False


def on_config(config):
    _patch_click_defaults()
    if config.get("nav"):
        _place(config["nav"])
    return config


def on_files(files, config):
    index = BENCH / "README.md"
    if not index.is_file():
        return files
    files.append(File.generated(config, "studies/index.md", content=index.read_text()))
    _origins["studies/index.md"] = BENCH
    for readme in _studies():
        study = readme.parent.name
        text = readme.read_text()
        shown = set(re.findall(r"\]\(plots/([^)\s]+)\)", text))
        plots = sorted(readme.parent.glob("plots/*.png"))
        rest = [p for p in plots if p.name not in shown]
        if rest:
            text += "\n**Plots:**\n\n" + "\n".join(f"![{p.stem}](plots/{p.name})" for p in rest) + "\n"
        for p in plots:
            files.append(File.generated(config, f"studies/{study}/{p.name}", abs_src_path=str(p)))
        files.append(File.generated(config, f"studies/{study}.md", content=text))
        _origins[f"studies/{study}.md"] = readme.parent
    return files


def _site_target(path: Path, files, config) -> str | None:
    """Where the checkout's file ``path`` is in the site (a ``src_uri``), or None."""
    try:
        rel = path.relative_to(ROOT)
    except ValueError:
        return None
    parts = rel.parts
    if parts[0] == "docs":
        return posixpath.join(*parts[1:])
    if parts[0] == "benchmarks":
        if parts[1:] == ("README.md",):
            return "studies/index.md"
        if len(parts) == 3 and parts[2] == "README.md":
            return f"studies/{parts[1]}.md"
        if len(parts) == 4 and parts[2] == "plots" and path.suffix == ".png":
            return f"studies/{parts[1]}/{parts[3]}"
    if path.is_file() and path.suffix.lower() in IMAGES:
        uri = posixpath.join("checkout", *parts)
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
        return uri
    return None


def exit_code_table() -> str:
    """The exit codes as a Markdown table, from :mod:`puzzleplan.cli.outcomes`: its docstring's
    items (``- N: what``), each checked against the code the program returns."""
    from puzzleplan.cli import outcomes
    items = re.findall(r"^- (\d+): (.*?)(?=^- \d+:|\Z)", outcomes.__doc__, re.M | re.S)
    said = {int(code): " ".join(text.split()).rstrip(";.") for code, text in items}
    returned = set(outcomes.EXIT_CODES.values()) | {outcomes.EXIT_NOT_SOLVED, outcomes.EXIT_BAD_INPUT,
                                                     outcomes.EXIT_TERMINATED}
    if set(said) != returned:
        raise ValueError(f"puzzleplan/cli/outcomes.py: the docstring lists exit codes {sorted(said)}, "
                         f"the program returns {sorted(returned)}")
    rows = [f"| {code} | {text.replace('``', '`').replace('|', '/')} |" for code, text in sorted(said.items())]
    return "\n".join(["| exit code | meaning |", "|---:|---|", *rows])


def on_page_markdown(markdown, page, config, files):
    if "<!-- exit codes -->" in markdown:
        markdown = markdown.replace("<!-- exit codes -->", exit_code_table())
    uri = page.file.src_uri
    origin = _origins.get(uri, (DOCS / uri).parent)
    here = posixpath.dirname(uri)

    def fix(m):
        bang, text, target = m.groups()
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return m.group(0)
        path, _, anchor = target.partition("#")
        resolved = (origin / path).resolve()
        site = _site_target(resolved, files, config)
        if site is not None:
            new = posixpath.relpath(site, here or ".") + (f"#{anchor}" if anchor else "")
            return f"{bang}[{text}]({new})"
        if resolved.exists() and not bang:              # a file of the checkout: its path
            shown = resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else path
            return text if text.strip("`") == shown else f"{text} (`{shown}`)"
        return m.group(0)
    return LINK.sub(fix, markdown)


ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj):<code>(~?)([^<]*)</code>")


def on_page_content(html, page, config, files):
    """A Sphinx role in a docstring (``:func:`x```, rendered ``:func:<code>x</code>``) shown as
    its code alone; ``~a.b.C`` as ``C``, as Sphinx shows it."""
    def show(m):
        tilde, name = m.groups()
        return f"<code>{name.rsplit('.', 1)[-1] if tilde else name}</code>"
    return ROLE.sub(show, html)


def _patch_click_defaults():
    """mkdocs-click's table rows with the default an option really has (not click's sentinel)."""
    try:
        import click
        from mkdocs_click import _docs
    except ImportError:
        return
    if getattr(_docs, "_puzzleplan_defaults", False):
        return
    original = _docs._format_table_option_row

    def row(option: click.Option) -> str:
        default = option.default
        if repr(default) == "Sentinel.UNSET" or type(default).__name__ == "Sentinel":
            # click: a flag not given is False; anything else not given is None
            default = False if option.is_flag and not option.secondary_opts else None
            option = _copy(option, default)
        return original(option)

    _docs._format_table_option_row = row
    _docs._puzzleplan_defaults = True


def _copy(option, default):
    import copy
    clone = copy.copy(option)
    clone.default = default
    return clone
