"""The HTML report in a real browser: headless Chromium driven by Selenium.

It checks that the page loads with no console errors and no network
request, shows the expected numbers, runs no script planted in a label, and
keeps a full-page screenshot as a test artifact (``build/artifacts/``, or
``$CONCORD_ARTIFACTS``). ``make test`` installs Debian's chromium and
chromium-driver when they are missing and sets CONCORD_REQUIRE_BROWSER=1, so
there a missing browser fails the test instead of skipping it.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pandas as pd

import concord
from concord._render import records as rec
from concord.report import to_html

EVIL = "<script>document.title='pwned'</script>"
ARTIFACTS = Path(os.environ.get("CONCORD_ARTIFACTS", "build/artifacts"))


def _screenshot(driver, name: str) -> Path:
    """Save a full-page PNG (Chrome DevTools' captureBeyondViewport)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
    )
    path = ARTIFACTS / name
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def test_report_renders_in_chromium(browser, tmp_path):
    frame = pd.read_csv("data/essays.csv")[["rater1", "rater2", "rater3"]]
    results = [concord.fleiss_kappa(frame), concord.gwet_ac(frame, weights="quadratic")]
    page = tmp_path / "report.html"
    page.write_text(to_html(results, data=frame, title="Essay raters"), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == "Essay raters"
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    summary = browser.find_element("id", "summary-table").text
    for r in results:
        row = rec.display_rows([rec.summary(r, 0.95, None, 0)])[0]
        assert row["value"] in summary and row["95% CI"] in summary
    assert browser.find_element("id", "n-items").text == "1200"
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert browser.execute_script("return document.querySelectorAll('svg').length") >= 3
    path = _screenshot(browser, "report.png")
    assert path.stat().st_size > 10_000


def test_planted_script_stays_text(browser, tmp_path):
    gold = [EVIL, "ok", "ok", EVIL, "ok", EVIL]
    model = [EVIL, "ok", EVIL, EVIL, "ok", "ok"]
    r = concord.cohen_kappa(gold, model)
    page = tmp_path / "evil.html"
    page.write_text(to_html(r, data={"gold": gold, EVIL: model}, title=EVIL), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == EVIL  # the title shows the text; the script never ran
    assert browser.execute_script("return document.scripts.length") == 0
    assert EVIL in browser.find_element("tag name", "body").text
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    _screenshot(browser, "report-escaping.png")


def test_the_many_rater_report_is_short_and_answers_first(browser, tmp_path):
    from click.testing import CliRunner

    from concord._cli.main import main

    page = tmp_path / "essays.html"
    args = ["report", "data/essays.csv", "--raters", "rater1,rater2,rater3", "--weights",
            "quadratic", "-o", str(page)]  # fmt: skip
    assert CliRunner().invoke(main, args).exit_code == 0
    browser.get(page.as_uri())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    # seven coefficients: 11,555 px of page before the questions came first (one section
    # each, with its bootstrap plot and a weight matrix); about 5,300 px now, at 1280 px wide
    height = browser.execute_script("return document.documentElement.scrollHeight")
    assert height < 6500
    links = browser.execute_script(
        "return [...document.querySelectorAll('#contents a')].map(a => a.hash)"
    )
    assert links[:4] == ["#summary", "#data", "#coefficients", "#raters"]
    assert "rater1" in browser.find_element("id", "rater-table").text
    _screenshot(browser, "report-raters.png")


def test_span_report_shows_its_tables(browser, tmp_path):
    # issue 28: the span section's tables (per label, pairs, worst items, spans to adjudicate)
    spans = concord.read_annotations(
        "tests/data/annotations/label_studio_spans.json", format="label-studio"
    )
    spans["rater"] = spans["rater"].map({1: "ann", 2: "bob", 3: EVIL})
    results = {
        "NER": concord.span_agreement(spans, rng=0),
        "units": concord.unitizing_alpha(spans),
    }
    page = tmp_path / "spans.html"
    page.write_text(to_html(results, title="Spans"), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == "Spans"
    assert browser.execute_script("return document.scripts.length") == 0
    captions = [e.text for e in browser.find_elements("tag name", "caption")]
    assert captions == [
        "Each pair of raters (rater1 the reference)",
        "The 2 items of lowest F1 (mean over pairs)",
        "Spans to adjudicate: the first 8 of 10 unmatched spans",
    ]
    body = browser.find_element("tag name", "body").text
    assert EVIL in body and "span F1 of a label" in body
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    _screenshot(browser, "report-spans.png")
