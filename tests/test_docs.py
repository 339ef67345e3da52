"""The documentation site: built as ``make docs`` builds it, then read in headless Chromium.

Building runs every page's examples (docs/hooks/execute.py), so a stale example fails
here, in ``make test``. The site must make no request outside itself when viewed: no CDN
scripts, styles or fonts. The browser part serves the built site over local HTTP (the
search runs in a web worker, which ``file://`` pages may not start) and checks for console
errors, a search hit and images that load.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = re.compile(r"<(?:script|link|img|iframe|source)\b[^>]*?(?:src|href)=\"(?:https?:)?//")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    return out


def test_site_loads_nothing_from_the_network(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 15
    for page in pages:
        assert EXTERNAL.findall(page.read_text(encoding="utf-8")) == [], page
    for sheet in site.rglob("*.css"):
        assert not re.search(r"url\((?:['\"])?(?:https?:)?//", sheet.read_text("utf-8")), sheet


@pytest.mark.parametrize(
    ("module", "page"),
    [
        ("concord", "concord"),
        ("concord.plot", "plot"),
        ("concord.dask", "dask"),
        ("concord.report", "report"),
    ],
)
def test_reference_lists_every_public_name(site, module, page):
    # the reference is generated from __all__, so a new name appears without an edit
    html = (site / "reference" / page / "index.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([\w.]+)"', html))
    imported = importlib.import_module(module)
    missing = [
        n
        for n in imported.__all__
        if not n.startswith("__") and not any(i.endswith(f".{n}") for i in ids)
    ]
    assert missing == []


def test_a_stale_example_fails_the_build(tmp_path):
    pytest.importorskip("mkdocs")
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        execute = importlib.import_module("execute")
    finally:
        sys.path.remove(str(ROOT / "docs" / "hooks"))
    from mkdocs.exceptions import PluginError

    page = (
        "```python\n>>> import concord\n"
        ">>> concord.quadratic_weighted_kappa([1, 2], [1, 2])\n0.5\n\n```\n"
    )
    with pytest.raises(PluginError, match="1 of 2 examples"):
        execute._run(page, "stale.md", ROOT)
    execute._run(page.replace("0.5", "1.0"), "fresh.md", ROOT)


@pytest.fixture(scope="module")
def served(site):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _severe(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


@pytest.mark.parametrize(
    "path", ["", "guide/what-is-qwk/", "tutorials/sentiment/", "gallery/", "reference/plot/"]
)
def test_page_renders_in_chromium(browser, served, path):
    browser.get(f"{served}/{path}")
    assert browser.title
    loaded = browser.execute_script(
        "return Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)"
    )
    assert all(loaded)
    if path == "gallery/":
        assert len(loaded) >= 10
    outside = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(u => !u.startsWith(location.origin))"
    )
    assert outside == []
    assert _severe(browser) == []


def test_search_finds_a_page(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{served}/")
    box = browser.find_element(By.CSS_SELECTOR, "input.md-search__input")
    box.click()
    box.send_keys("Krippendorff")
    hits = WebDriverWait(browser, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".md-search-result__item")
    )
    assert any("Krippendorff" in hit.text for hit in hits)
    assert _severe(browser) == []
