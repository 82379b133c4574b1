"""MkDocs hook: the site's study pages are made from ``benchmarks/`` at build time.

``benchmarks/README.md`` (the index of studies) becomes ``studies/index.md`` and each
``benchmarks/STUDY/README.md`` becomes ``studies/STUDY.md``; the plots of a study are copied
beside its page.  Links inside them are rewritten so that they work in the site: to another
study page, to a page of the docs, or to the file in the checkout (shown as a path)."""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _page(text: str, study: str | None) -> str:
    def fix(m):
        target = m.group(1)
        if target.startswith(("http:", "https:", "#")):
            return m.group(0)
        if study is None and target.endswith("/README.md"):            # index -> a study page
            return f"]({target.split('/')[0]}.md)"
        other = re.match(r"^\.\./(\w+)/README\.md(#.*)?$", target)
        if study is not None and other:                                 # a study -> another study
            return f"]({other.group(1)}.md{other.group(2) or ''})"
        docs = re.match(r"^(?:\.\./)+docs/(.*)$", target)
        if docs:                                                         # a page of the site
            return f"](../{docs.group(1)})"
        return m.group(0)
    return LINK.sub(fix, text)


def on_files(files, config):
    index = BENCH / "README.md"
    if not index.is_file():
        return files
    files.append(File.generated(config, "studies/index.md", content=_page(index.read_text(), None)))
    for readme in sorted(BENCH.glob("*/README.md")):
        study = readme.parent.name
        text = _page(readme.read_text(), study)
        plots = sorted(readme.parent.glob("plots/*.png"))
        if plots:
            text += "\n**Plots:**\n\n" + "\n".join(f"![{p.stem}]({study}/{p.name})" for p in plots) + "\n"
        for p in plots:
            files.append(File.generated(config, f"studies/{study}/{p.name}", abs_src_path=str(p)))
        files.append(File.generated(config, f"studies/{study}.md", content=text))
    return files
