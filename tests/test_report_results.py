"""The report takes every result (issue 25): each renders the section it provides itself.

``to_html`` raised AttributeError or TypeError on every result but the
coefficients'. Now every public result type (built by the protocol test's
registry, tests/test_protocol.py) renders as its own compact section under
"Results"; checked as text here and in headless Chromium, with a script
planted in every name a section shows.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import concord
from concord.report import to_html
from tests.test_protocol import BUILT

EVIL = "<script>document.title='pwned'</script>"
PANEL_FRAME = pd.DataFrame(
    {"a": [1, 2, 3, 3, 2, 1], "b": [1, 2, 3, 2, 2, 1], "c": [1, 3, 3, 3, 2, 2]}
)

# the results that are not coefficients: each gets a section of its own
OTHERS = {
    name: r
    for name, r in BUILT.items()
    if not isinstance(r, concord.KappaResult | concord.AgreementResult)
}


def test_every_result_type_renders_its_section():
    page = to_html(OTHERS, plots=False)
    titles = re.findall(r'<section class="result">\s*<h3>(.*?)</h3>', page)
    assert titles == list(OTHERS)  # titled by the mapping's keys, in order
    assert page.count('<p class="sentence">') == len(OTHERS)
    assert 'href="#results"' in page and "<script" not in page
    # each section shows the result's own sentence (escaped as the template escapes)
    from markupsafe import escape

    for r in OTHERS.values():
        assert str(escape(r.summary())) in page


def test_sections_are_titled_by_the_results_names_in_a_list():
    page = to_html([BUILT["icc"], BUILT["bland_altman"]], plots=False)
    titles = re.findall(r'<section class="result">\s*<h3>(.*?)</h3>', page)
    assert titles == ["ICC(A,1)", "Bland–Altman limits of agreement"]


def test_coefficients_and_other_results_together():
    page = to_html([BUILT["fleiss_kappa"], BUILT["compare"]], plots=False)
    assert 'id="summary-table"' in page and 'id="results"' in page


def test_the_data_summary_without_a_coefficient():
    """agree's table alone with its data: the categories come from the data (IndexError before)."""
    page = to_html(concord.agree(PANEL_FRAME), data=PANEL_FRAME, plots=False)
    assert 'id="data"' in page and 'id="results"' in page


def test_a_non_result_is_refused_with_the_parameter_named():
    with pytest.raises(TypeError, match="'results' parameter of to_html"):
        to_html([0.5], plots=False)


def _evil_results():
    """Results whose names, labels and titles carry a planted script."""
    truth = np.tile(["yes", "no", "no", "yes", "maybe"], 8)
    humans = pd.DataFrame({EVIL: truth, "b": truth, "c": truth})
    humans.iloc[[0, 5, 10, 15, 20, 25], 0] = "maybe"
    humans.iloc[[1, 6, 11, 16], 1] = "yes"
    humans.iloc[[2, 7, 12, 17, 22], 2] = "yes"
    a = [EVIL, "ok", "ok", EVIL, "ok", EVIL, "ok", "ok"]
    b = [EVIL, "ok", EVIL, EVIL, "ok", "ok", "ok", EVIL]
    panel = pd.DataFrame({EVIL: a, "b": b, "c": a[::-1]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            EVIL: concord.alt_test(humans, truth),
            "gold": concord.against_gold(panel[[EVIL, "b"]], panel["c"]),
            "diagnostics": concord.rater_diagnostics(panel),
            "marginals": concord.marginal_homogeneity(pd.Series(a, name=EVIL), b),
            "specific": concord.specific_agreement(a, b),
            "agree": concord.agree(panel),
        }


def test_planted_script_in_every_section_stays_text():
    page = to_html(_evil_results(), plots=False, title="t")
    assert "<script" not in page
    assert page.count("&lt;script&gt;") >= 6


def test_every_result_renders_in_chromium(browser, tmp_path):
    page = tmp_path / "results.html"
    page.write_text(to_html(OTHERS, title="Every result"), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == "Every result"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    shown = browser.execute_script("return document.querySelectorAll('section.result').length")
    assert shown == len(OTHERS)
    text = browser.find_element("id", "results").text
    for r in OTHERS.values():
        assert r.summary().splitlines()[0] in text
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_planted_script_in_the_new_sections_stays_text_in_chromium(browser, tmp_path):
    page = tmp_path / "evil-results.html"
    page.write_text(to_html(_evil_results(), title=EVIL), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == EVIL  # shown as text; the script never ran
    assert browser.execute_script("return document.scripts.length") == 0
    assert EVIL in browser.find_element("id", "results").text
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_planted_script_stays_text_in_the_notebook_tables():
    for r in _evil_results().values():
        page = r._repr_html_()
        assert "<script" not in page, type(r).__name__
        # agree's table shows the coefficients only, no rater's name
        assert "&lt;script&gt;" in page or isinstance(r, concord.AgreementTable)
