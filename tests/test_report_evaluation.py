"""The report's "Evaluation of machine scores" section: tables, flags, escaping, Chromium.

Data: RSMTool's fixture ``predictions_scaled_with_subgroups.csv`` (tests/reference/rsmtool/,
Apache-2.0); the values shown are ``concord.evaluate``'s, which tests/test_evaluate.py checks
against RSMTool's tables.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import concord
from concord._render import evaluation as ev
from concord._render import records as rec
from concord.report import to_html

from .test_report import EVIL, parse, words
from .test_report_browser import _screenshot

pytest.importorskip("jinja2")

FIXTURE = Path(__file__).parent / "reference" / "rsmtool" / "predictions_scaled_with_subgroups.csv"


@pytest.fixture(scope="module")
def result() -> concord.EvaluationResult:
    data = pd.read_csv(FIXTURE)
    return concord.evaluate(
        data["h1"], data["score"], human2=data["h2"], groups=data[["L1"]], trim=(1, 6)
    )


def test_the_section_shows_every_table(result):
    page = to_html([], evaluation={"Linear regression": result}, plots=False)
    text = words(page)
    assert "Evaluation of machine scores" in text and "Linear regression" in text
    assert result.summary() in text
    for t in ev.tables(result):
        assert f"{t['title']} {t['name']}" in text
    m = result.eval["raw_trim"]
    assert rec.number(m["wtkappa"]) in text and rec.number(m["SMD"]) in text
    assert rec.number(result.true_score["raw_trim"].prmse_true) in text
    assert "Flags" in text and "None: QWK and r at .70 or above" in text


def test_flags_are_shown():
    data = pd.read_csv(FIXTURE)
    reversed_ = concord.evaluate(data["h1"], 7 - data["score"], trim=(1, 6))
    text = words(to_html([], evaluation=reversed_, plots=False))
    for f in reversed_.flags:
        # words() joins the cells of a row without a space
        assert f"{f.metric}{f.score_type}all data{rec.number(f.value)}{f.rule}" in text


def test_titles_are_escaped(result):
    page = to_html([], evaluation={EVIL: result}, plots=False)
    assert EVIL not in page and "&lt;script&gt;" in page
    assert "script" not in parse(page).tags


def test_no_section_without_an_evaluation():
    kappa = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2])
    assert 'id="evaluation"' not in to_html(kappa, plots=False)


def test_the_section_renders_in_chromium(browser, result, tmp_path):
    page = tmp_path / "evaluation.html"
    page.write_text(to_html([], evaluation=result, title="Evaluation"), encoding="utf-8")
    browser.get(page.as_uri())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    section = browser.find_element("id", "evaluation").text
    assert rec.number(result.consistency["exact_agr"]) in section
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert _screenshot(browser, "report-evaluation.png").stat().st_size > 10_000
