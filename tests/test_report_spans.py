"""The report's span section (issue 28, item 5): F1 per label, pairs, worst items, adjudication.

Hand-counted example: two raters, three items. Item 1: both mark PER [0, 4)
(matched); ann marks LOC [10, 15), bob LOC [11, 15) (no exact match). Item 2:
ann PER [0, 3), bob LOC [0, 3) (labels differ). Item 3: ann alone PER [3, 5).
So 1 matched of ann's 4 and bob's 3 spans: micro F1 = 2·1 / 7 = 2/7; PER
2·1 / (3 + 1) = 1/2, LOC 0; items 1, 2, 3 have F1 1/2, 0, 0.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import concord
from concord.report import to_html

pytest.importorskip("jinja2")

SPANS = {
    "item": [1, 1, 1, 1, 2, 2, 3],
    "rater": ["ann", "ann", "bob", "bob", "ann", "bob", "ann"],
    "start": [0, 10, 0, 11, 0, 0, 3],
    "end": [4, 15, 4, 15, 3, 3, 5],
    "label": ["PER", "LOC", "PER", "LOC", "PER", "LOC", "PER"],
}


def _tables(page: str) -> dict[str, str]:
    """Return each captioned table of the page by its caption."""
    found = re.findall(r"<caption>(.*?)</caption>(.*?)</table>", page, flags=re.S)
    return {caption: body for caption, body in found}


def _cells(body: str) -> list[list[str]]:
    return [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", body)]


def test_span_section_has_f1_per_label_and_the_means():
    page = to_html({"NER": concord.span_agreement(SPANS)}, plots=False)
    section = page[page.index("<h3>NER</h3>") :]
    first = section[: section.index("</table>")]
    means = {r[0]: r[1] for r in _cells(first) if r and r[0].startswith("span F1 (")}
    assert means == {
        "span F1 (micro)": f"{float(Fraction(2, 7)):.4f}",
        "span F1 (macro)": f"{float(Fraction(1, 2) + 0) / 2:.4f}",  # PER 1/2, LOC 0
    }
    per_label = [r for r in _cells(first) if r and r[0] == "span F1 of a label"]
    assert [(r[1], "PER" in r, "LOC" in r) for r in per_label] == [
        ("0.5000", True, False),
        ("0.0000", False, True),
    ]
    assert "span F1 of a pair" not in first  # the pairs have a table of their own


def test_span_section_lists_worst_items_and_spans_to_adjudicate():
    page = to_html({"NER": concord.span_agreement(SPANS)}, plots=False)
    tables = _tables(page)
    worst = tables["The 3 items of lowest F1 (mean over pairs)"]
    assert [r[0] for r in _cells(worst) if r] == ["2", "3", "1"]  # F1 0, 0, 1/2
    adjudicate = _cells(tables["Spans to adjudicate: all 5 unmatched spans"])
    assert ["3", "ann", "[3, 5)", "PER", "bob", "none"] in adjudicate
    assert ["2", "ann", "[0, 3)", "PER", "bob", "[0, 3) LOC"] in adjudicate
    pairs = _cells(tables["Each pair of raters (rater1 the reference)"])
    assert len([r for r in pairs if r]) == 1


def test_span_section_caps_the_tables():
    # 12 items, each with an unmatched span of ann: 5 worst items, 8 of 12 spans shown
    n = 12
    spans = {
        "item": list(range(n)) * 2,
        "rater": ["ann"] * n + ["bob"] * n,
        "start": [0] * n + [1] * n,
        "end": [4] * 2 * n,
        "label": ["PER"] * 2 * n,
    }
    tables = _tables(to_html(concord.span_agreement(spans), plots=False))
    assert len(_cells(tables["The 5 items of lowest F1 (mean over pairs)"])) - 1 == 5
    shown = tables["Spans to adjudicate: the first 8 of 24 unmatched spans"]
    assert len(_cells(shown)) - 1 == 8


def test_span_section_escapes_names():
    evil = "<script>x</script>"
    spans = {**SPANS, "rater": [evil if r == "ann" else r for r in SPANS["rater"]]}
    page = to_html(concord.span_agreement(spans), plots=False)
    assert evil not in page and "&lt;script&gt;x&lt;/script&gt;" in page


def test_unitizing_section_has_overall_and_per_category_alpha():
    r = concord.unitizing_alpha(SPANS, lengths={1: 20, 2: 10, 3: 10})
    page = to_html({"units": r}, plots=False)
    section = page[page.index("<h3>units</h3>") :]
    rows = _cells(section[: section.index("</table>")])
    categories = {r[3]: r[1] for r in rows if r}
    assert categories == {
        "(all)": f"{r.statistic:.4f}",
        "PER": f"{r.alpha('PER'):.4f}",
        "LOC": f"{r.alpha('LOC'):.4f}",
    }


def test_gamma_section_draws_the_item_of_lowest_gamma():
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    # d1: both raters mark the same two spans; d2: their spans lie apart (the worse item).
    # (d1 with one span each, and one label, had no chance disorder: γ and γ_cat 0/0, nan)
    spans = {
        "item": ["d1", "d1", "d1", "d1", "d2", "d2"],
        "rater": ["ann", "ann", "bob", "bob", "ann", "bob"],
        "start": [0, 8, 0, 8, 0, 10],
        "end": [5, 12, 5, 12, 4, 14],
        "label": ["PER", "LOC", "PER", "LOC", "PER", "PER"],
    }
    r = concord.gamma(spans, rng=0, precision_level=0.1)
    assert r.item_gamma[1] < r.item_gamma[0]
    assert r._figure_options_("SpanAlignmentDisplay") == {"item": "d2"}
    page = to_html(r)
    assert "best alignment of the item of lowest γ</figcaption>" in page
    assert "item &#39;d2&#39;" in page or "item 'd2'" in page  # the display's title
