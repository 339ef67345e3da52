"""SpanAlignmentDisplay draws what concord.gamma's best alignment holds."""

from __future__ import annotations

import matplotlib
import pytest

import concord
from concord.plot import SpanAlignmentDisplay

matplotlib.use("Agg")

# two items; on d1 ann and bob agree on a PER span, disagree on the label of the second,
# and bob's third span is his alone
SPANS = {
    "item": ["d1"] * 5 + ["d2"] * 2,
    "rater": ["ann", "ann", "bob", "bob", "bob", "ann", "bob"],
    "start": [0, 10, 1, 10, 40, 3, 3],
    "end": [5, 20, 5, 20, 45, 9, 9],
    "label": ["PER", "LOC", "PER", "ORG", "LOC", "PER", "PER"],
}


def test_draws_each_raters_spans_and_links_the_alignment():
    r = concord.gamma(SPANS, rng=0, precision_level=0.2)
    d = SpanAlignmentDisplay.from_result(r).plot()
    assert d.item == "d1" and d.raters == ("ann", "bob")
    assert d.spans == (
        ((0, 5, "PER"), (10, 20, "LOC")),
        ((1, 5, "PER"), (10, 20, "ORG"), (40, 45, "LOC")),
    )
    assert len(d.links) == len(r.alignment("d1")) == 3
    # two links of two spans drawn as lines: the agreeing one solid, the other dashed
    styles = sorted(line.get_linestyle() for line in d.ax_.lines)
    assert styles == ["-", "--"]
    # the lone span is marked
    assert any(t.get_text() == "✗ LOC" for t in d.ax_.texts)
    assert {t.get_text() for t in d.ax_.get_yticklabels()} == {"ann", "bob"}
    d.figure_.savefig("/dev/null", format="png")
    matplotlib.pyplot.close(d.figure_)


def test_another_item_and_refusals():
    r = concord.gamma(SPANS, rng=0, precision_level=0.2)
    d = SpanAlignmentDisplay.from_result(r, item="d2").plot()
    assert d.links == (((3, 9, "PER"), (3, 9, "PER")),)
    matplotlib.pyplot.close(d.figure_)
    with pytest.raises(ValueError, match="'item'"):
        SpanAlignmentDisplay.from_result(r, item="d9")
    with pytest.raises(TypeError, match="GammaResult"):
        SpanAlignmentDisplay.from_result(concord.fleiss_kappa([[1, 1], [2, 2], [1, 2]]))


def test_the_report_draws_the_alignment():
    import concord.report

    r = concord.gamma(SPANS, rng=0, precision_level=0.2)
    page = concord.report.to_html(r)
    assert "best alignment of the item of lowest γ" in page and "<svg" in page
