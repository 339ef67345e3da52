"""MkDocs hooks: run every page's examples, draw the gallery, list each module's ``__all__``.

Each page is one doctest: its ``>>>`` lines run in order in a fresh namespace, from the
repository root (the pages read ``data/``), and a line whose output differs from what the
page shows fails the build. That is what keeps an example from going stale: ``make docs``
and ``tests/test_docs.py`` (in ``make test``) both build the site.
"""

from __future__ import annotations

import doctest
import importlib
import io
import os
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
_MEMBERS = re.compile(r"^<!-- members of ([\w.]+) -->$", re.MULTILINE)
_GALLERY = "gallery.md"


def _run(markdown: str, name: str, root: Path, extra: dict[str, Any] | None = None) -> None:
    """Run a page's examples from the repository root; raise if one fails."""
    import matplotlib.pyplot as plt

    test = doctest.DocTestParser().get_doctest(markdown, dict(extra or {}), name, name, 0)
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    report = io.StringIO()
    here = os.getcwd()
    os.chdir(root)
    try:
        result = runner.run(test, out=report.write, clear_globs=True)
    finally:
        os.chdir(here)
        plt.close("all")
    if result.failed:
        raise PluginError(
            f"{name}: {result.failed} of {result.attempted} examples give another output than "
            f"the page shows\n{report.getvalue()}"
        )


def on_config(config: Any) -> Any:
    """Draw off screen: the build runs where there is no display."""
    import matplotlib

    matplotlib.use("Agg")
    return config


def on_files(files: Files, config: Any) -> Files:
    """Run the gallery's examples; each ``save(name)`` adds ``gallery/name.png`` to the site."""
    import matplotlib.pyplot as plt

    images: dict[str, bytes] = {}

    def save(name: str) -> None:
        buffer = io.BytesIO()
        plt.gcf().savefig(buffer, format="png", dpi=90, bbox_inches="tight")
        plt.close("all")
        images[name] = buffer.getvalue()

    page = Path(config["docs_dir"]) / _GALLERY
    root = Path(config["config_file_path"]).parent
    _run(page.read_text(encoding="utf-8"), _GALLERY, root, {"save": save})
    for name, content in images.items():
        files.append(File.generated(config, f"gallery/{name}.png", content=content))
    return files


def _members(module: str) -> str:
    """One mkdocstrings block per public name, from the module's ``__all__`` (new names too)."""
    imported = importlib.import_module(module)
    blocks = []
    for name in imported.__all__:
        if name.startswith("__"):
            continue
        obj = getattr(imported, name)
        # where the object is defined: a name that concord loads lazily (ThresholdClassifier)
        # is not visible to static analysis in the module that re-exports it
        blocks.append(
            f"::: {obj.__module__}.{obj.__qualname__}\n"
            f"    options:\n      heading: {module}.{name}\n      toc_label: {name}"
        )
    return "\n\n".join(blocks)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Run the page's examples (the gallery ran in ``on_files``); expand member lists."""
    name = page.file.src_uri
    if name != _GALLERY:
        _run(markdown, name, Path(config["config_file_path"]).parent)
    return _MEMBERS.sub(lambda m: _members(m.group(1)), markdown)
