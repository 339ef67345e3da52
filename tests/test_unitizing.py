"""Krippendorff's unitizing α (concord.unitizing_alpha) against its published values and DKPro.

Sources: Krippendorff (2004, p. 254) and Krippendorff (1995, p. 57) as DKPro
Statistics' Krippendorff2004Test and Krippendorff1995Test lay them out (their
tolerances); DKPro Statistics' KrippendorffAlphaUnitizingAgreement run on
the studies of tests/reference/unitizing/dkpro_unitizing.json (made by
make_reference.py there, Java not needed here); a loop-by-loop reference
written from Krippendorff's (2004) formulas for several items.
"""

from __future__ import annotations

import json
import math
import pathlib
import warnings
from fractions import Fraction

import numpy as np
import pytest

import concord
from concord._coefficients.spans.unitizing_core import disagreements, unitizing_sums

STUDIES = json.loads(
    (
        pathlib.Path(__file__).parent / "reference" / "unitizing" / "dkpro_unitizing.json"
    ).read_text()
)

# Krippendorff (2004, p. 254), DKPro's Krippendorff2004Test: continuum [150, 450), here
# shifted to [0, 300); (offset, length, rater, category)
K2004 = [
    (225, 70, "i", "c"), (370, 30, "i", "c"), (220, 80, "j", "c"), (355, 20, "j", "c"),
    (400, 20, "j", "c"), (180, 60, "i", "k"), (300, 50, "i", "k"), (180, 60, "j", "k"),
    (300, 50, "j", "k"),
]  # fmt: skip


def table(units, item="doc", shift=0):
    """A long table from (offset, length, rater, category) units."""
    return {
        "item": [item] * len(units),
        "rater": [u[2] for u in units],
        "start": [u[0] - shift for u in units],
        "end": [u[0] + u[1] - shift for u in units],
        "label": [u[3] for u in units],
    }


def study(name):
    return next(s for s in STUDIES if s["name"] == name)


def from_study(s):
    return concord.unitizing_alpha(
        table([(o, n, r, c) for o, n, r, c in s["units"]]), lengths={"doc": s["length"]}
    )


def test_krippendorff_2004_p254():
    # Krippendorff (2004, p. 254) via DKPro's Krippendorff2004Test: α_c 0.7286 (±0.0001),
    # α_k 1.0000, D_o,c 0.0144, D_e,c 0.0532, D_e,k 0.0490, overall 0.8591 (±0.0005)
    result = concord.unitizing_alpha(table(K2004, shift=150), lengths={"doc": 300})
    assert result.alpha("c") == pytest.approx(0.7286, abs=1e-4)
    assert result.alpha("k") == 1.0
    assert result.observed.tolist() == pytest.approx([0.0144, 0.0], abs=1e-4)
    assert result.expected.tolist() == pytest.approx([0.0532, 0.0490], abs=1e-4)
    assert result.statistic == pytest.approx(0.8591, abs=5e-4)
    assert result.labels == ("c", "k") and result.raters == ("i", "j")


def test_krippendorff_1995_p57_observed_disagreements():
    # Krippendorff (1995, p. 57) examples A-D on 24 positions, DKPro's Krippendorff1995Test:
    # D_o 0.03125, 2.26736, 0.02777, 0.38715 (±0.00001)
    result = from_study(study("krippendorff1995_x1"))
    assert result.observed.tolist() == pytest.approx(
        [0.03125, 2.26736, 0.02777, 0.38715], abs=1e-5
    )


@pytest.mark.parametrize("stretch", [100, 50000])
def test_krippendorff_1995_p57_alphas_on_a_fine_continuum(stretch):
    # Krippendorff (1995, p. 57): α 0.553, -0.926, 0.679, 0.066 are limits for a finely
    # divisible continuum; DKPro's test stretches the data and allows 0.02
    base = study("krippendorff1995_x1")
    units = [(o * stretch, n * stretch, r, c) for o, n, r, c in base["units"]]
    result = concord.unitizing_alpha(table(units), lengths={"doc": 24 * stretch})
    assert result.alphas.tolist() == pytest.approx([0.553, -0.926, 0.679, 0.066], abs=0.02)


def test_stretching_keeps_the_observed_disagreement_exactly():
    # D_o is scale-free: δ² and L² both grow by s²; at ×50000 the sums leave int64
    # (Python ints) and must still give the same Fractions as at ×1
    base = study("krippendorff1995_x1")
    lengths, m = np.array([24]), 2
    units = np.array([(o, o + n, r, "ABCD".index(c)) for o, n, r, c in base["units"]])
    start, end, rater, label = units.T
    item = np.zeros(len(units), np.int64)
    small = unitizing_sums(lengths, item, rater, start, end, label, m, 4)
    big = unitizing_sums(lengths * 50000, item, rater, start * 50000, end * 50000, label, m, 4)
    for s, b in zip(small, big, strict=True):
        assert disagreements(s, m, 24)[0] == disagreements(b, m, 24 * 50000)[0]
        assert isinstance(b.expected, int)


def test_python_ints_give_what_int64_gives(monkeypatch):
    # the sums fall back to Python ints where int64 could overflow: force that path
    from concord._coefficients.spans import unitizing_core

    spans, lengths = random_spans(2)
    fast = concord.unitizing_alpha(spans, lengths=lengths)
    monkeypatch.setattr(unitizing_core, "fits_int64", lambda *bounds: False)
    slow = concord.unitizing_alpha(spans, lengths=lengths)
    assert slow.exact == fast.exact


@pytest.mark.parametrize("name", [s["name"] for s in STUDIES])
def test_matches_dkpro(name):
    # DKPro Statistics' KrippendorffAlphaUnitizingAgreement (commit f7f4f89) on the same study
    s = study(name)
    result = from_study(s)
    labels = [str(c) for c in result.labels]
    dkpro = s["dkpro"]
    assert sorted(labels) == sorted(dkpro)
    for c, o, e, a in zip(labels, result.observed, result.expected, result.alphas, strict=True):
        assert [o, e] == pytest.approx(dkpro[c][:2], rel=1e-12, abs=1e-15)
        # DKPro says 0.0 when D_o = D_e; otherwise 1 - D_o / D_e
        assert a == pytest.approx(dkpro[c][2], rel=1e-10, abs=1e-12)
    assert result.statistic == pytest.approx(s["dkpro_overall"], rel=1e-10, abs=1e-12)


def test_the_exact_value_is_a_fraction_rounded_once():
    result = concord.unitizing_alpha(table(K2004, shift=150), lengths={"doc": 300})
    assert isinstance(result.exact, Fraction)
    assert float(result.exact) == result.statistic == float(result)


# --- several items: a loop-by-loop reference from Krippendorff's (2004) formulas -------------


def observed_sum(units, raters, lengths):
    """Σ over rater pairs and items of δ², by loops over the units."""
    total = 0
    for a in range(len(raters)):
        for b in range(a + 1, len(raters)):
            for i in lengths:
                ua, ub = units[i, raters[a]], units[i, raters[b]]
                for x, y in [(ua, ub), (ub, ua)]:  # a unit in the other's gap
                    for s, e in x:
                        if not [1 for s2, e2 in y if s2 < e and s < e2]:
                            total += (e - s) ** 2
                for s, e in ua:  # two overlapping units
                    for s2, e2 in ub:
                        if s2 < e and s < e2:
                            total += (s - s2) ** 2 + (e - e2) ** 2
    return total


def expected_sum(units, lengths):
    """Krippendorff's (2004, p. 254) chance sum, by loops; and Σ l (l − 1)."""
    gaps, sizes = [], []
    for (i, _r), us in units.items():
        pos = 0
        for s, e in us:
            gaps += [s - pos] if s > pos else []
            pos = e
        gaps += [lengths[i] - pos] if lengths[i] > pos else []
        sizes += [e - s for s, e in us]
    total = Fraction(0)
    for ell in sizes:
        total += Fraction((len(sizes) - 1) * (2 * ell**3 - 3 * ell**2 + ell), 3)
        total += ell * ell * sum(h - ell + 1 for h in gaps if h >= ell)
    return total, sum(ell * (ell - 1) for ell in sizes)


def reference(spans, lengths):
    """α by loops: the items laid end to end, each rater's gaps ending at item boundaries."""
    raters = list(dict.fromkeys(spans["rater"]))
    m, big = len(raters), sum(lengths.values())
    rows = list(zip(*(spans[k] for k in ("item", "rater", "start", "end", "label")), strict=True))
    o_sum, e_sum = Fraction(0), Fraction(0)
    for c in dict.fromkeys(spans["label"]):
        units = {
            (i, r): sorted((s, e) for ii, rr, s, e, cc in rows if (ii, rr, cc) == (i, r, c))
            for i in lengths
            for r in raters
        }
        expected, squares = expected_sum(units, lengths)
        o_sum += Fraction(2 * observed_sum(units, raters, lengths), m * (m - 1) * big * big)
        e_sum += 2 * expected / (big * (m * big * (m * big - 1) - squares))
    return 1 - o_sum / e_sum


def random_spans(seed, n_items=4, n_raters=3):
    rng = np.random.default_rng(seed)
    lengths = {f"d{i}": int(rng.integers(5, 60)) for i in range(n_items)}
    rows = {k: [] for k in ("item", "rater", "start", "end", "label")}
    for i, size in lengths.items():
        for r in range(n_raters):
            for c in "xy":
                pos = int(rng.integers(0, 6))
                while pos < size - 1 and rng.random() < 0.8:
                    end = min(size, pos + int(rng.integers(1, 12)))
                    for k, v in zip(rows, (i, f"r{r}", pos, end, c), strict=True):
                        rows[k].append(v)
                    pos = end + int(rng.integers(0, 8))
    return rows, lengths


@pytest.mark.parametrize("seed", range(8))
def test_several_items_match_the_loop_reference(seed):
    spans, lengths = random_spans(seed)
    result = concord.unitizing_alpha(spans, lengths=lengths)
    assert result.exact == reference(spans, lengths)
    assert result.n_items == len(lengths) and result.length == sum(lengths.values())


def test_items_end_to_end_are_one_continuum_when_no_gap_crosses_a_boundary():
    # every rater's unit touches the boundary between the two items: DKPro's one continuum
    units = [(5, 5, "a", "x"), (10, 3, "a", "x"), (4, 6, "b", "x"), (10, 2, "b", "x"),
             (15, 3, "b", "x")]  # fmt: skip
    whole = concord.unitizing_alpha(table(units), lengths={"doc": 20})
    parts = {"item": [], "rater": [], "start": [], "end": [], "label": []}
    for o, n, r, c in units:
        item, shift = ("A", 0) if o < 10 else ("B", 10)
        for k, v in zip(parts, (item, r, o - shift, o + n - shift, c), strict=True):
            parts[k].append(v)
    split = concord.unitizing_alpha(parts, lengths={"A": 10, "B": 10})
    assert split.exact == whole.exact


def test_a_gap_ends_at_the_item_boundary():
    # rater b has nothing near the boundary: one continuum would join the two gaps
    units = [(2, 3, "a", "x"), (12, 6, "a", "x"), (3, 2, "b", "x"), (13, 5, "b", "x")]
    parts = {"item": ["A", "B", "A", "B"], "rater": ["a", "a", "b", "b"],
             "start": [2, 2, 3, 3], "end": [5, 8, 5, 8], "label": ["x"] * 4}  # fmt: skip
    split = concord.unitizing_alpha(parts, lengths={"A": 10, "B": 10})
    assert split.exact == reference(parts, {"A": 10, "B": 10})
    assert split.exact != concord.unitizing_alpha(table(units), lengths={"doc": 20}).exact


def test_an_item_no_one_annotated_is_all_gap():
    spans, lengths = random_spans(3, n_items=2)
    more = {**lengths, "empty": 40}
    result = concord.unitizing_alpha(spans, lengths=more)
    assert result.n_items == 3 and result.exact == reference(spans, more)
    assert result.exact != concord.unitizing_alpha(spans, lengths=lengths).exact


def test_a_rater_without_spans_on_an_item_said_nothing_there():
    spans = {"item": ["A", "A", "B"], "rater": ["a", "b", "a"], "start": [0, 1, 2],
             "end": [4, 4, 6], "label": ["x"] * 3}  # fmt: skip
    result = concord.unitizing_alpha(spans, lengths={"A": 8, "B": 8})
    assert result.exact == reference(spans, {"A": 8, "B": 8})


def test_the_order_of_the_rows_does_not_matter():
    spans, lengths = random_spans(5)
    order = np.random.default_rng(0).permutation(len(spans["item"]))
    shuffled = {k: [v[i] for i in order] for k, v in spans.items()}
    a = concord.unitizing_alpha(spans, lengths=lengths)
    b = concord.unitizing_alpha(shuffled, lengths=lengths)
    assert a.exact == b.exact


def test_lengths_from_a_text_column():
    spans = {"item": ["A", "A"], "rater": ["a", "b"], "start": [0, 1], "end": [3, 3],
             "label": ["x", "x"], "text": ["abcdefgh", "abcdefgh"]}  # fmt: skip
    result = concord.unitizing_alpha(spans)
    assert result.length == 8
    assert result.exact == concord.unitizing_alpha(spans, lengths={"A": 8}).exact


# --- undefined and bad input -------------------------------------------------------------------


def test_no_room_to_move_is_undefined_with_a_warning():
    # both raters mark the whole one-position continuum: D_e = 0 (every term has l - 1 = 0)
    spans = {"item": [0, 0], "rater": ["a", "b"], "start": [0, 0], "end": [1, 1],
             "label": ["x", "x"]}  # fmt: skip
    with pytest.warns(concord.UndefinedKappaWarning, match="'x' is undefined"):
        result = concord.unitizing_alpha(spans, lengths={0: 1})
    assert math.isnan(result.statistic) and result.exact is None
    assert json.dumps(result.to_dict(), allow_nan=False)


def test_an_unknown_variant():
    spans, lengths = random_spans(0)
    with pytest.raises(ValueError, match="Did you mean 'u'"):
        concord.unitizing_alpha(spans, lengths=lengths, variant="U")


def test_one_rater_is_refused():
    spans = {"item": [0], "rater": ["a"], "start": [0], "end": [2], "label": ["x"]}
    with pytest.raises(ValueError, match=r"at least two raters\. Got one rater, 'a'"):
        concord.unitizing_alpha(spans, lengths={0: 5})


def test_no_spans_at_all_is_refused():
    empty = {k: np.array([], dtype=int) for k in ("item", "start", "end")}
    empty |= {"rater": np.array([], dtype=str), "label": np.array([], dtype=str)}
    with pytest.raises(ValueError, match=r"at least two raters\. Got no spans"):
        concord.unitizing_alpha(empty, lengths={0: 5})


def test_lengths_are_needed():
    spans, _ = random_spans(0)
    with pytest.raises(ValueError, match="'lengths' parameter of unitizing_alpha"):
        concord.unitizing_alpha(spans)


def test_overlapping_units_of_one_rater_and_label_are_refused():
    spans = {"item": [0, 0, 0], "rater": ["a", "a", "b"], "start": [0, 2, 0], "end": [3, 5, 3],
             "label": ["x", "x", "x"]}  # fmt: skip
    with pytest.raises(ValueError, match="non-overlapping for one rater and one label"):
        concord.unitizing_alpha(spans, lengths={0: 9})


def test_spans_beyond_the_item_are_refused():
    spans = {"item": [0, 0], "rater": ["a", "b"], "start": [0, 2], "end": [3, 12],
             "label": ["x", "x"]}  # fmt: skip
    with pytest.raises(ValueError, match="at most the item's length"):
        concord.unitizing_alpha(spans, lengths={0: 9})


def test_overlapping_units_of_different_labels_are_fine():
    # Krippendorff's (2004) example itself has c and k units overlapping (180-240, 220-300)
    result = concord.unitizing_alpha(table(K2004, shift=150), lengths={"doc": 300})
    assert result.units.tolist() == [5, 4]


# --- the result ---------------------------------------------------------------------------------


def test_the_frame_has_one_row_overall_and_one_per_category():
    result = concord.unitizing_alpha(table(K2004, shift=150), lengths={"doc": 300})
    frame = result.to_frame()
    assert frame["label"].tolist() == ["(all)", "c", "k"]  # the spans' label column
    assert frame["statistic"].tolist() == pytest.approx([result.statistic, *result.alphas])
    data = result.to_dict()
    assert [c["label"] for c in data["categories"]] == ["c", "k"]
    assert data["statistic"] == result.statistic and data["variant"] == "u"
    assert "α = 1 − Σ D_o,c / Σ D_e,c" in result.explain()
    assert result.summary().startswith("Krippendorff's unitizing α = 0.8587 (per category")
    spans = table(K2004, shift=150)
    spans["entity"] = spans.pop("label")
    named = concord.unitizing_alpha(spans, lengths={"doc": 300}, label="entity")
    assert named.to_frame()["entity"].tolist() == ["(all)", "c", "k"]  # the user's name
    with pytest.raises(KeyError, match="'z' is not a category"):
        result.alpha("z")


def test_no_warning_on_ordinary_data():
    spans, lengths = random_spans(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        concord.unitizing_alpha(spans, lengths=lengths)
