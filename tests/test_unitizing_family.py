"""uα (2016), |uα, cuα and (k)uα (concord.unitizing_alpha, variants "u2016", "|u", "cu", "(k)u").

Sources: Krippendorff, Mathet, Bouvry & Widlöcher (2016), "On the reliability
of unitizing textual continua: Further developments", Quality & Quantity 50,
2347–2364: the coincidences of intersecting lengths (eq. 1), their expected
values (eq. 4), |uα (eq. 6), cuα (eqs. 10–11) and (k)uα (eq. 13b), as the
port lindanna/unitized_alpha numbers them. The paper's text was not
reachable here; checked by hand computations from those formulas (exact
Fractions), a position-by-position reference written from them, the port's
values (tests/reference/unitizing/lindanna_2016.json, made by
make_reference_2016.py there; the port is not needed here), and the worked
example of Krippendorff's Content Analysis (4th ed., 2019, Fig. 12.11,
p. 340) with its printed values.
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

PORT = json.loads(
    (pathlib.Path(__file__).parent / "reference" / "unitizing" / "lindanna_2016.json").read_text()
)


def table(rows, item="d"):
    """A long table from (rater, label, start, end) rows on one item."""
    return {
        "item": [item] * len(rows),
        "rater": [r[0] for r in rows],
        "label": [r[1] for r in rows],
        "start": [r[2] for r in rows],
        "end": [r[3] for r in rows],
    }


# --- hand computations from the paper's formulas ----------------------------------------------


def test_binary_by_hand():
    # L = 10; a: c [0, 4); b: c [2, 6). Ordered pairs a→b and b→a (m − 1 = 1):
    # l_cc = 4, l_cφ = l_φc = 4, l_φφ = 8; l.. = 20, l_φ. = 12, l_φ¬φ = 4.
    # own: units 4² + 4², gaps 6 + 2 + 4 → Σ own = 44; e_φ¬φ = 20·12·8 / (400 − 44) = 480/89;
    # |uα = 1 − 4 / (480/89) = 31/120
    spans = table([("a", "c", 0, 4), ("b", "c", 2, 6)])
    result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="|u")
    assert result.exact == Fraction(31, 120)
    assert result.statistic == float(Fraction(31, 120)) and result.variant == "|u"


def test_cu_and_k_by_hand():
    # L = 10; a: c [0, 4), k [4, 8); b: c [0, 6), k [6, 8). Intersections of units:
    # l*_cc = 8, l*_ck = l*_kc = 2, l*_kk = 4; l*.. = 16, l*_c. = 10, l*_k. = 6.
    # met²: c 4² + 6² = 52, k 4² + 2² = 20; scale = 16 − 72/16 = 23/2;
    # e*_cc = (100 − 52)/(23/2) = 96/23, e*_kk = (36 − 20)/(23/2) = 32/23;
    # cuα = 1 − (16 − 12)/(16 − 128/23) = 37/60;
    # (k)uα_c = 1 − (e*_c./l*_c.)(l*_c. − l*_cc)/(e*_c. − e*_cc) = 1 − (216/230)·2/(120/23) = 16/25
    # (k)uα_k = 1 − (e*_k./l*_k.)(6 − 4)/(e*_k. − e*_kk) = 26/45
    spans = table([("a", "c", 0, 4), ("a", "k", 4, 8), ("b", "c", 0, 6), ("b", "k", 6, 8)])
    for variant in ("cu", "(k)u"):
        result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant=variant)
        assert result.exact == Fraction(37, 60)
        assert result.alphas.tolist() == [float(Fraction(16, 25)), float(Fraction(26, 45))]
        assert result.alpha("k") == float(Fraction(26, 45))
        assert result.coverage == 16 / 20


# --- a position-by-position reference from the paper's formulas ---------------------------------


def values(rows, raters, lengths, labels):
    """Each rater's value at every position of the laid-out items (0 gap, 1 … V labels)."""
    offset, grid = {}, {r: [] for r in raters}
    for i, n in lengths.items():
        offset[i] = sum(len(g) for g in grid.values()) // len(raters)
        for r in raters:
            grid[r] += [0] * n
    units = {r: [] for r in raters}
    for i, r, lab, s, e in rows:
        for p in range(offset[i] + s, offset[i] + e):
            grid[r][p] = labels.index(lab) + 1
        units[r].append((offset[i] + s, offset[i] + e, labels.index(lab) + 1))
    return grid, units


def reference(spans, lengths, raters=None):
    """|uα, cuα, (k)uα and uα (2016) by loops over positions, from eqs. 1, 4, 6, 10, 11, 13b."""
    rows = list(zip(*(spans[k] for k in ("item", "rater", "label", "start", "end")), strict=True))
    raters = list(dict.fromkeys(spans["rater"])) if raters is None else raters
    labels = list(dict.fromkeys(spans["label"]))
    m, size = len(raters), len(labels) + 1
    grid, units = values(rows, raters, lengths, labels)
    big = sum(lengths.values())
    obs = [[Fraction(0)] * size for _ in range(size)]
    met = [Fraction(0)] * size
    for i in raters:
        for j in raters:
            if i != j:
                for p in range(big):
                    obs[grid[i][p]][grid[j][p]] += Fraction(1, m - 1)
                for s, e, v in units[i]:
                    met[v] += Fraction(sum(grid[j][p] > 0 for p in range(s, e)) ** 2, m - 1)
    own = [0] * size
    for r in raters:
        own[0] += grid[r].count(0)
        for s, e, v in units[r]:
            own[v] += (e - s) ** 2
    total = m * big
    margin = [sum(row) for row in obs]
    chance = Fraction(total, total**2 - sum(own))
    exp = [
        [chance * (margin[c] * margin[k] - (own[c] if c == k else 0)) for k in range(size)]
        for c in range(size)
    ]
    binary = 1 - (margin[0] - obs[0][0]) / (sum(exp[0]) - exp[0][0])
    u2016 = 1 - (total - sum(obs[c][c] for c in range(size))) / (
        total - sum(exp[c][c] for c in range(size))
    )  # uα (2016), gaps a value: Krippendorff (2019, § 12.6)
    star = [row[1:] for row in obs[1:]]
    ls = [sum(row) for row in star]
    pooled = sum(ls)
    scale = pooled - sum(met) / pooled
    es = [[(ls[c] * ls[k] - (met[c + 1] if c == k else 0)) / scale for k in range(size - 1)]
          for c in range(size - 1)]  # fmt: skip
    cu = 1 - (pooled - sum(star[c][c] for c in range(size - 1))) / (
        pooled - sum(es[c][c] for c in range(size - 1))
    )
    each = [
        1 - (sum(es[k]) / ls[k]) * (ls[k] - star[k][k]) / (sum(es[k]) - es[k][k])
        for k in range(size - 1)
    ]
    return binary, cu, each, u2016


def random_spans(seed, n_items=3, n_raters=3):
    """Spans of 2-3 labels that never overlap for one rater (any labels); several items."""
    rng = np.random.default_rng(seed)
    lengths = {f"d{i}": int(rng.integers(8, 40)) for i in range(n_items)}
    rows = {k: [] for k in ("item", "rater", "label", "start", "end")}
    for i, size in lengths.items():
        for r in range(n_raters):
            pos = int(rng.integers(0, 4))
            while pos < size - 1:
                end = min(size, pos + int(rng.integers(1, 10)))
                for k, v in zip(rows, (i, f"r{r}", "xyz"[rng.integers(0, 3)], pos, end),
                                strict=True):  # fmt: skip
                    rows[k].append(v)
                pos = end + int(rng.choice([0, 1, 4]))
    return rows, lengths


@pytest.mark.parametrize("seed", range(6))
def test_matches_the_position_reference(seed):
    spans, lengths = random_spans(seed, n_raters=2 + seed % 3)
    binary, cu, each, _ = reference(spans, lengths)
    assert concord.unitizing_alpha(spans, lengths=lengths, variant="|u").exact == binary
    result = concord.unitizing_alpha(spans, lengths=lengths, variant="(k)u")
    assert result.exact == cu
    assert result.alphas.tolist() == [float(a) for a in each]


@pytest.mark.parametrize("seed", range(4))
def test_declared_silent_raters_match_the_position_reference(seed):
    # a rater silent on one item (no rows there) and a declared rater with no rows at all:
    # both all gap where silent, as the position reference lays them out
    spans, lengths = random_spans(10 + seed, n_raters=2 + seed % 2)
    keep = [
        not (r == "r0" and i == "d1") for i, r in zip(spans["item"], spans["rater"], strict=True)
    ]
    spans = {k: [v for v, kept in zip(col, keep, strict=True) if kept] for k, col in spans.items()}
    raters = [*dict.fromkeys(spans["rater"]), "silent"]
    binary, cu, each, u2016 = reference(spans, lengths, raters)
    run = {"lengths": lengths, "raters": raters}
    assert concord.unitizing_alpha(spans, **run, variant="|u").exact == binary
    assert concord.unitizing_alpha(spans, **run, variant="u2016").exact == u2016
    result = concord.unitizing_alpha(spans, **run, variant="(k)u")
    assert result.exact == cu
    assert result.alphas.tolist() == [float(a) for a in each]


# --- the port lindanna/unitized_alpha (commit 11637e7) -----------------------------------------


@pytest.mark.parametrize("study", PORT, ids=[s["name"] for s in PORT])
def test_matches_the_port(study):
    rows = [(r, lab, s, e) for r, lab, s, e in study["spans"]]
    spans, lengths = table(rows), {"d": study["length"]}
    binary = concord.unitizing_alpha(spans, lengths=lengths, variant="|u")
    assert binary.statistic == pytest.approx(study["binary"], rel=1e-9, abs=1e-9)
    nominal = concord.unitizing_alpha(spans, lengths=lengths, variant="u2016")
    assert nominal.statistic == pytest.approx(study["u2016"], rel=1e-9, abs=1e-9)
    result = concord.unitizing_alpha(spans, lengths=lengths, variant="cu")
    assert result.statistic == pytest.approx(study["cu"], rel=1e-9, abs=1e-9)
    for label, alpha in study["k"].items():
        assert result.alpha(label) == pytest.approx(alpha, rel=1e-9, abs=1e-9)


# --- items, the variant "u", bad input and the degenerate cases ---------------------------------


def test_items_laid_end_to_end_are_one_continuum():
    # a unit never crosses an item, and the gaps' term is linear: the split changes nothing
    rows = [("a", "x", 2, 5), ("a", "y", 12, 18), ("b", "x", 3, 5), ("b", "y", 13, 19)]
    whole = table(rows)
    split = table([(r, lab, s % 10, e - 10 * (s >= 10)) for r, lab, s, e in rows])
    split["item"] = ["A", "B", "A", "B"]
    for variant in ("|u", "cu"):
        one = concord.unitizing_alpha(whole, lengths={"d": 20}, variant=variant)
        two = concord.unitizing_alpha(split, lengths={"A": 10, "B": 10}, variant=variant)
        assert one.exact == two.exact and two.n_items == 2


def test_variant_u_is_unchanged_by_the_family():
    # Krippendorff (2004, p. 254) via DKPro's Krippendorff2004Test: overall 0.8591 ± 0.0005
    spans = {
        "item": ["t"] * 9,
        "rater": ["i", "i", "j", "j", "j", "i", "i", "j", "j"],
        "start": [75, 220, 70, 205, 250, 30, 150, 30, 150],
        "end": [145, 250, 150, 225, 270, 90, 200, 90, 200],
        "label": ["c", "c", "c", "c", "c", "k", "k", "k", "k"],
    }
    result = concord.unitizing_alpha(spans, lengths={"t": 300})
    assert result.variant == "u" and result.statistic == pytest.approx(0.8591, abs=5e-4)
    assert result.pooled is None and result.coverage is None
    # its c and k units overlap (60-90 inside 75-145): a partition is needed for the 2016 variants
    with pytest.raises(ValueError, match=r"do not overlap, whatever their labels.*row 0.*row 5"):
        concord.unitizing_alpha(spans, lengths={"t": 300}, variant="cu")


def test_overlap_of_two_labels_names_both_rows():
    spans = table([("a", "x", 0, 5), ("b", "x", 0, 4), ("a", "y", 3, 8)])
    with pytest.raises(ValueError, match=r"\[0, 5\) labelled 'x' at row 0 and \[3, 8\) labelled "):
        concord.unitizing_alpha(spans, lengths={"d": 9}, variant="|u")


def test_one_category_has_no_cu_alpha():
    spans = table([("a", "c", 0, 4), ("b", "c", 2, 6)])
    with pytest.warns(concord.UndefinedKappaWarning) as caught:
        result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="cu")
    assert [str(w.message).split(" is ")[0] for w in caught] == [
        "unitizing_alpha: cuα",
        "unitizing_alpha: (k)uα of 'c'",
    ]
    assert math.isnan(result.statistic) and result.exact is None
    assert math.isnan(result.alpha("c"))
    assert json.dumps(result.to_dict(), allow_nan=False)


def test_a_category_no_other_rater_meets_has_no_k_alpha():
    # y is marked by a only, where b marked nothing: its (k)uα is undefined. x meets x on
    # [1, 3) and z on [3, 4): l*_xx = 4, l*_xz = 1, l*.. = 6; z: D_o,z = 1, D_e,z = 1·5 / (6 − 1)
    spans = table([("a", "x", 0, 4), ("a", "y", 6, 9), ("b", "x", 1, 3), ("b", "z", 3, 5)])
    with pytest.warns(concord.UndefinedKappaWarning, match=r"\(k\)uα of 'y' is undefined"):
        result = concord.unitizing_alpha(spans, lengths={"d": 12}, variant="(k)u")
    assert math.isnan(result.alpha("y")) and result.alpha("z") == 0.0
    assert math.isfinite(result.alpha("x")) and math.isfinite(result.statistic)


@pytest.mark.parametrize("variant", ["u", "|u", "cu", "(k)u"])
def test_nothing_marked_is_undefined_with_a_warning(variant):
    # two declared raters who marked nothing: all irrelevant (variant "u" said nan silently)
    empty = {k: np.array([], dtype=int) for k in ("item", "start", "end")}
    empty |= {"rater": np.array([], dtype=str), "label": np.array([], dtype=str)}
    with pytest.warns(concord.UndefinedKappaWarning, match="undefined"):
        result = concord.unitizing_alpha(empty, lengths={0: 5}, raters=["a", "b"], variant=variant)
    assert math.isnan(result.statistic)


def test_everything_relevant_has_no_binary_alpha():
    spans = table([("a", "x", 0, 6), ("b", "x", 0, 3), ("b", "y", 3, 6)])
    with pytest.warns(concord.UndefinedKappaWarning, match="none or all of the continuum"):
        result = concord.unitizing_alpha(spans, lengths={"d": 6}, variant="|u")
    assert math.isnan(result.statistic)


@pytest.mark.parametrize("variant", ["|u", "cu", "(k)u"])
def test_one_rater_is_refused(variant):
    spans = table([("a", "x", 0, 2)])
    with pytest.raises(ValueError, match=r"at least two raters\. Got one rater, 'a'"):
        concord.unitizing_alpha(spans, lengths={"d": 5}, variant=variant)


def test_an_unknown_variant_lists_the_five():
    spans = table([("a", "x", 0, 2), ("b", "x", 0, 2)])
    with pytest.raises(ValueError, match=r"'u', 'u2016', '\|u', 'cu'.*'\(k\)u'"):
        concord.unitizing_alpha(spans, lengths={"d": 5}, variant="ku")


# --- the result ----------------------------------------------------------------------------------


def test_the_result_names_its_variant():
    spans = table([("a", "c", 0, 4), ("a", "k", 4, 8), ("b", "c", 0, 6), ("b", "k", 6, 8)])
    result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="(k)u")
    data = result.to_dict()
    assert data["variant"] == "(k)u" and data["coverage"] == 0.8
    assert data["coefficient"] == "Krippendorff's unitizing alpha ((k)u)"
    assert [c["label"] for c in data["categories"]] == ["c", "k"]
    assert result.summary().startswith("Krippendorff's unitizing cuα = 0.6167 ((k)uα per category")
    assert "(k)uα = 0.6400" in result.explain() and "cuα = 1 − " in result.explain()
    frame = result.to_frame()
    assert frame["label"].tolist() == ["(all)", "c", "k"]
    binary = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="|u")
    assert binary.to_frame()["label"].tolist() == ["(all)"]
    assert binary.to_dict()["categories"] == [] and "|uα = 1 − D_o / D_e" in binary.explain()
    assert binary.summary().startswith("Krippendorff's unitizing |uα = ")
    with pytest.raises(ValueError, match="pools the categories"):
        binary.alpha("c")


def test_no_warning_on_ordinary_data():
    spans, lengths = random_spans(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for variant in ("|u", "cu", "(k)u"):
            concord.unitizing_alpha(spans, lengths=lengths, variant=variant)


@pytest.mark.parametrize("variant", ["|u", "cu", "(k)u"])
def test_the_result_protocol(variant):
    # as tests/test_protocol.py asks of every result, for the 2016 variants
    spans, lengths = random_spans(2)
    r = concord.unitizing_alpha(spans, lengths=lengths, variant=variant)
    assert json.dumps(r.to_dict(), allow_nan=False).startswith("{")
    frame = r.to_frame()
    assert {"coefficient", "statistic", "ci_low", "ci_high", "n"} <= set(frame.columns)
    assert frame["statistic"].iloc[0] == r.statistic == float(r)
    page = r._repr_html_()
    assert page.startswith('<div class="concord-result">') and "<script" not in page
    section = r._report_section_()
    assert section.sentence == r.summary() and section.explanation == r.explain()
    assert section.rows and all(isinstance(v, str) for row in section.rows for v in row.values())
    assert repr(r).startswith(f"UnitizingAlphaResult(variant={variant!r}, statistic=")


def test_python_ints_give_what_int64_gives(monkeypatch):
    # the squares fall back to Python ints where int64 could overflow: force that path
    from concord._coefficients.spans import unitizing_coincidences

    spans, lengths = random_spans(4)
    fast = concord.unitizing_alpha(spans, lengths=lengths, variant="(k)u")
    monkeypatch.setattr(unitizing_coincidences, "fits_int64", lambda *bounds: False)
    slow = concord.unitizing_alpha(spans, lengths=lengths, variant="(k)u")
    assert slow.exact == fast.exact and slow.alphas.tolist() == fast.alphas.tolist()


# --- uα as revised in 2016 (variant "u2016"); Krippendorff's (2019) published example ----------


def test_u2016_by_hand():
    # L = 10; a: c [0, 4), k [4, 8); b: c [0, 6), k [6, 8); gaps [8, 10) for both.
    # a→b and b→a: l_cc = 4 + 4, l_kc = l_ck = 2, l_kk = 2 + 2, l_φφ = 2 + 2; l.. = 20;
    # margins c 10, k 6, φ 4; own: c 4² + 6² = 52, k 4² + 2² = 20, φ 2 + 2 = 4, Σ 76;
    # e_vv = 20 (margin² − own) / (400 − 76): 960, 320, 240 over 324, Σ = 380/81;
    # uα = 1 − (20 − 16) / (20 − 380/81) = 1 − 81/310 = 229/310
    spans = table([("a", "c", 0, 4), ("a", "k", 4, 8), ("b", "c", 0, 6), ("b", "k", 6, 8)])
    result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="u2016")
    assert result.exact == Fraction(229, 310)
    assert result.statistic == float(Fraction(229, 310))
    assert result.pooled == (float(Fraction(1, 5)), float(Fraction(62, 81)))  # 4/20, (1240/81)/20


def test_u2016_with_one_category_is_the_binary_alpha():
    # with one category the coincidence matrix is already "unit against gap" (hand value
    # of test_binary_by_hand, 31/120)
    spans = table([("a", "c", 0, 4), ("b", "c", 2, 6)])
    result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="u2016")
    assert result.exact == Fraction(31, 120)
    with pytest.raises(ValueError, match="pools the categories"):
        result.alpha("c")
    assert len(result.to_frame()) == 1


# Krippendorff (2019), Content Analysis, 4th ed., Fig. 12.11, p. 340: three observers on a
# continuum of 60, positions 1-based and inclusive, as transcribed by quallmer's tests
# (cran/quallmer, tests/testthat/test-alpha_u.R, commit b54c54b): here [start - 1, end).
BOOK = {
    "Alex": [(1, 7, "1"), (8, 13, "2"), (31, 32, "5"), (33, 37, "6"), (38, 44, "6"),
             (45, 60, "7")],
    "Paul": [(1, 7, "1"), (8, 13, "3"), (14, 21, "5"), (33, 44, "6")],
    "Suzan": [(1, 7, "1"), (8, 13, "4"), (14, 21, "5"), (33, 37, "6"), (38, 41, "6"),
              (42, 44, "6")],
}  # fmt: skip


def book(variant):
    rows = [(r, v, s - 1, e) for r, segments in BOOK.items() for s, e, v in segments]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)  # (k)uα of '7'
        return concord.unitizing_alpha(table(rows), lengths={"d": 60}, variant=variant)


def test_the_books_example():
    # the book prints _uα = 0.510, |_uα = 0.413 and _cuα = 0.724 (Krippendorff 2019, p. 340);
    # the ports lindanna/unitized_alpha (11637e7) and quallmer give 0.50998 and 0.41360 too
    # (recomputed here from their code); cuα: 0.72556 (lindanna's reading, followed here)
    # against quallmer's 0.72835, so the book's 0.724 sides with the reading followed
    assert round(book("u2016").statistic, 3) == 0.510
    assert book("|u").statistic == pytest.approx(0.413, abs=0.001)
    cu = book("cu")
    assert cu.statistic == pytest.approx(0.724, abs=0.002)
    assert abs(cu.statistic - 0.724) < abs(0.7283495427493105 - 0.724)
    # (k)uα per value (quallmer's test): 1 for 1, 5 and 6; 0 for 2, 3 and 4 (each used by one
    # observer only); 7 meets only gaps: undefined
    k = book("(k)u")
    assert [k.alpha(v) for v in "156"] == [1.0, 1.0, 1.0]
    assert [k.alpha(v) for v in "234"] == [0.0, 0.0, 0.0]
    assert math.isnan(k.alpha("7"))


def test_the_books_example_is_not_the_2004_alpha():
    # the 2004 uα (DKPro's, variant "u") is another coefficient: 0.153 here, not 0.510
    assert book("u").statistic == pytest.approx(0.15335817116976258, rel=1e-12)
    assert book("u").statistic != pytest.approx(book("u2016").statistic, abs=0.1)


def test_u2016_one_value_everywhere_is_undefined_with_a_warning():
    spans = table([("a", "c", 0, 10), ("b", "c", 0, 10)])
    with pytest.warns(concord.UndefinedKappaWarning, match=r"uα \(2016\) is undefined"):
        result = concord.unitizing_alpha(spans, lengths={"d": 10}, variant="u2016")
    assert math.isnan(result.statistic)
