"""Declared raters (issue 28): ``raters=`` adds a rater who marked nothing on any item.

A long table of spans has no row for a rater who marked nothing anywhere;
before ``raters=`` every span measure silently left that rater out. With
``raters=[...]`` the rater annotated "nothing here" on every item, as DKPro
Statistics' unitizing study takes a number of raters.
"""

from __future__ import annotations

import json
import math
import pathlib
from fractions import Fraction

import pytest

import concord

HERE = pathlib.Path(__file__).parent
SILENT = json.loads(
    (HERE / "reference" / "unitizing" / "dkpro_unitizing_silent.json").read_text("utf-8")
)

SPANS = {
    "item": ["d1", "d1", "d1", "d2"],
    "rater": ["ann", "bob", "ann", "bob"],
    "start": [0, 0, 6, 2],
    "end": [4, 4, 9, 5],
    "label": ["PER", "PER", "LOC", "PER"],
}
LENGTHS = {"d1": 10, "d2": 8}


def _table(units):
    """A long table from DKPro's (offset, length, rater, category) units on one continuum."""
    return {
        "item": ["doc"] * len(units),
        "rater": [u[2] for u in units],
        "start": [u[0] for u in units],
        "end": [u[0] + u[1] for u in units],
        "label": [u[3] for u in units],
    }


@pytest.mark.parametrize("study", SILENT, ids=[s["name"] for s in SILENT])
def test_unitizing_alpha_with_a_silent_declared_rater_matches_dkpro(study):
    # DKPro Statistics' KrippendorffAlphaUnitizingAgreement (commit f7f4f89) on a study of
    # `raters` raters, the last of whom has no unit (tests/reference/unitizing/make_reference.py)
    table = _table(study["units"])
    raters = list(range(study["raters"]))
    r = concord.unitizing_alpha(table, lengths={"doc": study["length"]}, raters=raters)
    assert r.raters == tuple(raters)
    assert r.statistic == pytest.approx(study["dkpro_overall"], rel=1e-10, abs=1e-12)
    for c, a in zip(r.labels, r.alphas, strict=True):
        assert a == pytest.approx(study["dkpro"][c][2], rel=1e-10, abs=1e-12)
    without = concord.unitizing_alpha(table, lengths={"doc": study["length"]})
    assert without.statistic != pytest.approx(r.statistic)  # the silent rater counts


def test_span_f1_of_a_silent_rater_is_zero_recall_and_undefined_precision():
    r = concord.span_agreement(SPANS, raters=["ann", "bob", "cy"])
    pairs = r.by_pair()
    assert list(pairs.index) == [("ann", "bob"), ("ann", "cy"), ("bob", "cy")]
    # ann vs bob: one exact PER match of 2 + 2 spans; cy has no span: matched 0 of ann's 2
    for other, n1 in (("ann", 2), ("bob", 2)):
        row = pairs.loc[(other, "cy")]
        assert (row["matched"], row["n1"], row["n2"]) == (0, n1, 0)
        assert row["recall"] == 0.0 and math.isnan(row["precision"])  # 0 / 0 candidates
        assert row["f1"] == 0.0  # 2·0 / (2 + 0)
    # micro F1 is the mean over the 3 pairs: (2·1/4 + 0 + 0) / 3
    assert r.statistic == pytest.approx(float(Fraction(1, 2) / 3))
    assert concord.span_agreement(SPANS).statistic == pytest.approx(0.5)


def test_token_grid_of_a_silent_rater_is_all_no_label():
    grid = concord.token_ratings(SPANS, lengths=LENGTHS, raters=["ann", "bob", "cy"])
    assert list(grid.columns) == ["ann", "bob", "cy"]
    assert set(grid["cy"]) == {"(no label)"} and len(grid) == 18
    r = concord.token_agreement(SPANS, lengths=LENGTHS, raters=["ann", "bob", "cy"])
    # the same as Krippendorff's alpha of the painted grid itself
    assert r.statistic == pytest.approx(concord.krippendorff_alpha(grid, form="wide").statistic)
    assert r.statistic != pytest.approx(concord.token_agreement(SPANS, lengths=LENGTHS).statistic)


def test_gamma_counts_a_silent_rater():
    pytest.importorskip("scipy")
    two = concord.gamma(SPANS, rng=0, precision_level=0.05)
    three = concord.gamma(SPANS, rng=0, precision_level=0.05, raters=["ann", "bob", "cy"])
    assert three.raters == ("ann", "bob", "cy")
    # every unit of ann and bob is aligned with cy's empty unit: more observed disorder
    assert three.observed_disorder > two.observed_disorder


def test_declared_raters_fix_the_order():
    r = concord.span_agreement(SPANS, raters=["bob", "ann"])
    assert r.raters == ("bob", "ann")


@pytest.mark.parametrize(
    ("raters", "says"),
    [
        (["ann"], "Rater 'bob' has spans in the table: add it to raters="),
        (["ann", "bob", "ann"], "'ann' is listed twice"),
        ("ann,bob", "a list of the raters who annotated"),
    ],
)
def test_bad_declared_raters(raters, says):
    for function in (concord.span_agreement, concord.unitizing_alpha):
        with pytest.raises(ValueError, match=says):
            function(SPANS, lengths=LENGTHS, raters=raters)


def test_two_silent_raters_make_f1_undefined_with_a_warning():
    # before: ZeroDivisionError (Fraction(0, 0)) for the pair cy-dee with no span at all
    with pytest.warns(concord.UndefinedKappaWarning, match="'cy' and 'dee' marked no span"):
        r = concord.span_agreement(SPANS, raters=["ann", "bob", "cy", "dee"], rng=0)
    assert math.isnan(r.statistic) and math.isnan(r.macro)
    assert "was undefined (micro; macro undefined)" in r.summary()
    pair = r.by_pair().loc[("cy", "dee")]
    assert pair["n1"] == pair["n2"] == 0 and math.isnan(pair["f1"])
    assert json.dumps(r.to_dict(), allow_nan=False)
