"""The report encodes a panel's ratings once (concord._render.questions.encoded).

The raters' section (:func:`concord.rater_diagnostics`) and the categories'
(:func:`concord.specific_agreement`) then run on those label codes instead
of each encoding the frame again. The reference is the report as it was:
each section calling the public function on the frame (``encoded`` made to
return None). Every number, and the whole page, must be the same.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

import concord
from concord._render import questions
from concord.report import to_html


def _page(results: list, frame: pd.DataFrame, plots: bool = False) -> str:
    html = to_html(results, data=frame, title="t", plots=plots)
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<created>", html)


def _both(monkeypatch, results: list, frame: pd.DataFrame, plots: bool = False) -> tuple:
    shared = _page(results, frame, plots)
    with monkeypatch.context() as m:
        m.setattr(questions, "encoded", lambda *a: None)
        alone = _page(results, frame, plots)
    return shared, alone


def _panel(seed: int) -> pd.DataFrame:
    """The seeded panels of the reference generator (tests/reference/report/generate.py)."""
    return GENERATE.panel(seed)


def _diagnostics(frame: pd.DataFrame, lead) -> tuple:
    matrix = questions.encoded(frame, lead)
    assert matrix is not None
    shared = (
        questions.raters(frame, lead, 0.9, matrix),
        questions.categories(frame, lead, matrix),
    )
    alone = (questions.raters(frame, lead, 0.9), questions.categories(frame, lead))
    return shared, alone


def _same_specific(a, b) -> None:
    assert a.labels == b.labels and (a.n_items, a.n_raters) == (b.n_items, b.n_raters)
    for field in ("agreement", "standard_error"):
        x, y = getattr(a, field), getattr(b, field)
        assert np.array_equal(x, y, equal_nan=True) and x.tobytes() == y.tobytes()


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("coefficient", ["krippendorff_alpha", "fleiss_kappa", "gwet_ac"])
def test_the_shared_encoding_gives_the_same_sections(seed, coefficient):
    frame = _panel(seed)
    lead = getattr(concord, coefficient)(frame, form="wide")
    (d1, s1), (d0, s0) = _diagnostics(frame, lead)
    assert json.dumps(d1.to_dict(), default=repr) == json.dumps(d0.to_dict(), default=repr)
    _same_specific(s1, s0)


@pytest.mark.parametrize("name", ["fleiss1971_diagnoses.csv", "krippendorff2011.csv"])
def test_the_report_of_bundled_data_is_the_same_page(monkeypatch, name):
    frame = pd.read_csv(f"data/{name}")
    frame = frame.drop(columns=[c for c in frame.columns if c.lower() in ("patient", "unit")])
    frame = frame.dropna(how="all")
    results = list(concord.agree(frame, form="wide").results)
    shared, alone = _both(monkeypatch, results, frame)
    assert shared == alone and 'id="raters"' in shared and 'id="categories"' in shared


@pytest.mark.parametrize("seed", [1, 3, 5])
def test_the_report_of_seeded_data_is_the_same_page(monkeypatch, seed):
    frame = _panel(seed)
    results = list(concord.agree(frame, form="wide").results)
    shared, alone = _both(monkeypatch, results, frame)
    assert shared == alone and 'id="raters"' in shared


def test_the_report_with_plots_is_the_same_page(monkeypatch):
    pytest.importorskip("matplotlib")
    frame = _panel(4)
    results = list(concord.agree(frame, form="wide").results)
    shared, alone = _both(monkeypatch, results, frame, plots=True)
    assert shared == alone and "<svg" in shared


def test_items_nobody_rated_leave_the_raters_section_out_as_before(monkeypatch):
    frame = _panel(2)
    frame.iloc[0, :] = np.nan  # rater_diagnostics refuses it: the page has no raters section
    results = list(concord.agree(frame, form="wide").results)
    shared, alone = _both(monkeypatch, results, frame)
    assert shared == alone and 'id="raters"' not in shared and 'id="categories"' in shared


def test_the_report_encodes_the_panel_once(monkeypatch):
    from concord._data import matrix as matrices

    calls = []
    encode = matrices.rating_matrix

    def counted(*args, **kwargs):
        calls.append(args[2])
        return encode(*args, **kwargs)

    frame = _panel(7)
    results = list(concord.agree(frame, form="wide").results)
    from concord._coefficients.kappa import categories
    from concord._studies.raters import diagnostics
    from concord._tables import items

    for module in (matrices, diagnostics, items):
        monkeypatch.setattr(module, "rating_matrix", counted)
    monkeypatch.setattr(categories, "item_data", lambda *a, **k: calls.append("item_data"))
    page = _page(results, frame)
    assert calls == ["rater_diagnostics"] and 'id="categories"' in page


def _reference() -> tuple:
    import importlib.util
    from pathlib import Path

    here = Path(__file__).resolve().parent / "reference" / "report"
    spec = importlib.util.spec_from_file_location("report_generate", here / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, json.loads((here / "pages.json").read_text())


GENERATE, PAGES = _reference()


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_is_the_one_written_before_the_patterns_were_shared(name):
    """The page (no plots, time stamp blanked) of bundled data and seeded panels with missing
    ratings, as commit 04ec094 wrote it (tests/reference/report/generate.py): the pattern
    count shared by the raters' and categories' sections, the changes' SEs and the raters'
    tables from the joint patterns leave every printed value the same."""
    frame = GENERATE.frames()[name]
    assert GENERATE.digest(GENERATE.page(frame)) == PAGES[name]["page"]


@pytest.mark.parametrize("coefficient", GENERATE.COEFFICIENTS)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_sections_are_the_ones_written_before(name, coefficient):
    """The raters' (to_dict, floats as hex) and categories' results, as 04ec094 gave them."""
    import warnings

    frame = GENERATE.frames()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert GENERATE.sections(frame, coefficient) == PAGES[name][coefficient]


def test_the_report_counts_the_patterns_once(monkeypatch):
    """One count of the panel's patterns feeds the raters' and the categories' sections."""
    from concord._tables import patterns as counting

    calls = []
    count = counting.counted_patterns

    def counted(*args):
        calls.append(args[0].shape)
        return count(*args)

    monkeypatch.setattr(counting, "counted_patterns", counted)
    frame = _panel(7)
    results = list(concord.agree(frame, form="wide").results)
    page = _page(results, frame)
    assert calls == [frame.shape] and 'id="raters"' in page and 'id="categories"' in page


@pytest.mark.parametrize(
    ("n", "r", "k"), [(1, 3, 2), (50, 3, 5), (400, 6, 4), (30, 9, 12), (20, 40, 12)]
)
def test_counted_patterns_are_merges_with_its_inverse(n, r, k):
    """counted_patterns against merge of the n × k counts: patterns and each item's index."""
    from concord._data.labels import Labels
    from concord._data.matrix import RatingMatrix
    from concord._tables.patterns import counted_patterns, merge

    rng = np.random.default_rng(n + r + k)
    codes = rng.integers(-1, k, (n, r))
    codes[codes.max(axis=1) < 0, 0] = 0
    matrix = RatingMatrix(codes, Labels(tuple(range(k)), True), tuple(range(r)))
    got, inverse = counted_patterns(codes, k)
    want, want_inverse = merge(matrix.counts(), np.ones(n, dtype=np.int64))
    assert np.array_equal(got.rows, want.rows) and got.rows.dtype == want.rows.dtype
    assert np.array_equal(got.freq, want.freq) and got.freq.dtype == want.freq.dtype
    assert np.array_equal(inverse, want_inverse)


def test_pairwise_kappas_from_the_code_rows_are_the_one_hot_products(monkeypatch):
    """pairwise_kappas by one count of the code rows against its one-hot-product path."""
    from concord._data.labels import Labels
    from concord._studies.raters import diagnostics_panel as dp

    rng = np.random.default_rng(5)
    for r, k, weights in [(3, 5, None), (4, 3, "quadratic"), (5, 2, "linear")]:
        codes = rng.integers(-1, k, (3000, r))
        labels = Labels(tuple(range(k)), True)
        got = dp.pairwise_kappas(codes, labels, weights)
        with monkeypatch.context() as m:
            m.setattr(dp, "code_rows", lambda *a: None)  # the one-hot path
            want = dp.pairwise_kappas(codes, labels, weights)
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("seed", [1, 2, 4])
@pytest.mark.parametrize("coefficient", ["krippendorff_alpha", "fleiss_kappa"])
def test_joints_from_the_rows_of_codes_are_the_item_counts(monkeypatch, seed, coefficient):
    """rater_diagnostics with the joint patterns summed from the rows of codes (three raters)
    against the item-level count it skips, with clusters (each item's joint pattern looked
    up on demand) and without: every field the same (to_dict, floats as hex)."""
    from concord._studies.raters import joints

    rng = np.random.default_rng(seed)
    n = 300
    truth = rng.integers(0, 4, n)
    x = np.clip(truth[:, None] + rng.integers(-1, 2, (n, 3)), 0, 3).astype(float)
    x[rng.random((n, 3)) < 0.15] = np.nan
    x[np.isnan(x).all(axis=1), 0] = 1.0
    groups = rng.integers(0, 30, n)
    f = getattr(concord, coefficient)
    for g in (None, groups):
        rows = concord.rater_diagnostics(x, function=f, groups=g)
        with monkeypatch.context() as m:
            m.setattr(joints, "code_rows", lambda *a: None)
            items = concord.rater_diagnostics(x, function=f, groups=g)
        assert GENERATE.digest(rows.to_dict()) == GENERATE.digest(items.to_dict())
