"""polars (eager and lazy) and pyarrow, first-class (issue 25, item 4), read through narwhals.

Before: a long polars frame failed inside pandas ("factorize requires a
Series"), ``icc(pl.DataFrame)`` failed on ``to_numpy(dtype=)``, a LazyFrame
was "Got shape ()", rater names came back as 0, 1, 2 and the order of a
``pl.Enum`` was ignored. Now every frame of these libraries is read at one
place (:mod:`concord._data.frames`) and gives what the same pandas frame
gives: the same numbers, the same names, and the declared order of a
``pl.Enum`` or an ordered pyarrow dictionary as of an ordered pandas Categorical.

Expected values: the same ratings as a pandas DataFrame or as plain lists
(the library a frame comes from changes no number), with ``labels=`` for the
order a categorical type declares; Krippendorff (2011)'s published α = 0.743
(nominal) for data/krippendorff2011.csv as an anchor.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import concord
from tests.registry import REGISTRY, VARIANTS, ids, same, sample, statistic

ROOT = Path(__file__).parents[1]
MULTI = [v for v in VARIANTS if not v.pairs]
ORDER = ["low", "mid", "high"]


def frames_of(matrix: np.ndarray, names: list[str]) -> list:
    """A ratings matrix (None where missing) as polars eager, polars lazy and pyarrow."""
    columns = {n: matrix[:, j].tolist() for j, n in enumerate(names)}
    polars = pl.DataFrame(columns)
    return [polars, polars.lazy(), pa.table(columns)]


@pytest.mark.parametrize("variant", MULTI, ids=ids(MULTI))
def test_every_multi_rater_function_reads_polars_and_pyarrow(variant):
    (x,) = sample(variant, 50, seed=2, raters=3)
    names = ["ann", "bo", "cy"]
    want = statistic(variant((pd.DataFrame(x, columns=names),)))
    for frame in frames_of(x, names):
        assert same(statistic(variant((frame,))), want)


def test_krippendorff_2011_from_polars_and_pyarrow():
    data = pd.read_csv(ROOT / "data" / "krippendorff2011.csv").drop(columns="unit")
    for frame in (pl.from_pandas(data), pl.from_pandas(data).lazy(), pa.Table.from_pandas(data)):
        # Krippendorff (2011): α = 0.743 nominal
        assert round(concord.krippendorff_alpha(frame).statistic, 3) == 0.743


def test_pyarrow_record_batches_wide_and_long():
    columns = {"a": [1, 2, 3, 1], "b": [1, 2, 2, 1], "c": [1, 2, 3, 3]}
    want = concord.fleiss_kappa(pd.DataFrame(columns)).statistic
    assert concord.fleiss_kappa(pa.record_batch(columns)).statistic == want
    rows = {"doc": [1, 1, 2, 2], "who": ["a", "b", "a", "b"], "lab": [1, 2, 2, 2]}
    got = concord.fleiss_kappa(pa.record_batch(rows), item="doc", rater="who", rating="lab")
    assert got.statistic == concord.fleiss_kappa([[1, 2], [2, 2]]).statistic


def test_long_polars_frame_was_a_pandas_error():
    rows = {"doc": [1, 1, 1, 2, 2, 2, 3, 3, 3], "who": ["a", "b", "c"] * 3}
    rows["label"] = list("nnnnyyyyy")
    want = concord.fleiss_kappa(rows, item="doc", rater="who", rating="label").statistic
    assert want == pytest.approx(0.55)  # the CategoryCounts example: (63 − 41) / 40
    for frame in (pl.DataFrame(rows), pl.DataFrame(rows).lazy(), pa.table(rows)):
        got = concord.fleiss_kappa(frame, item="doc", rater="who", rating="label")
        assert got.statistic == want


def test_icc_of_a_polars_frame_was_a_to_numpy_error():
    sf = pd.read_csv(ROOT / "data" / "shrout_fleiss1979.csv")  # Shrout & Fleiss (1979)
    want = concord.icc(sf)
    # Shrout & Fleiss (1979), Table 4: ICC(2,1) = 0.29
    assert round(want.statistic, 2) == 0.29
    for frame in (pl.from_pandas(sf), pl.from_pandas(sf).lazy(), pa.Table.from_pandas(sf)):
        assert concord.icc(frame).statistic == want.statistic


def test_rater_names_are_kept():
    x = np.array([[1, 1, 2], [2, 2, 2], [3, 3, 1], [1, 2, 1], [2, 2, 3], [3, 3, 3]])
    names = ["ann", "bo", "cy"]
    for frame in frames_of(x.astype(object), names):
        assert concord.agree(frame).raters == tuple(names)
        assert concord.rater_diagnostics(frame).raters == tuple(names)


def test_lazy_frames_are_collected_without_a_schema_warning():
    lazy = pl.DataFrame({"a": [1, 2, 3, 1], "b": [1, 2, 2, 1], "c": [1, 3, 3, 1]}).lazy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # polars' PerformanceWarning on a LazyFrame's schema
        result = concord.fleiss_kappa(lazy)
    assert result.statistic == concord.fleiss_kappa(lazy.collect().to_pandas()).statistic


def enum_frame(columns: dict[str, list]) -> pl.DataFrame:
    return pl.DataFrame({k: pl.Series(k, v, dtype=pl.Enum(ORDER)) for k, v in columns.items()})


COLUMNS = {
    "a": ["low", "mid", "high", "mid", "low", "high", "mid", None],
    "b": ["low", "high", "high", "mid", "mid", "high", "low", "mid"],
    "c": ["mid", "mid", "high", "low", "low", "high", "mid", "mid"],
}


def test_enum_order_is_honoured_as_an_ordered_categorical():
    frame = enum_frame(COLUMNS)
    matrix = np.array(list(COLUMNS.values()), dtype=object).T
    for level in ("ordinal", "interval"):
        want = concord.krippendorff_alpha(matrix, level=level, labels=ORDER).statistic
        assert concord.krippendorff_alpha(frame, level=level).statistic == want
        ordered = pd.DataFrame(
            {k: pd.Categorical(v, categories=ORDER, ordered=True) for k, v in COLUMNS.items()}
        )
        assert concord.krippendorff_alpha(ordered, level=level).statistic == want
    a, b = frame["a"], frame["b"]
    kappa = concord.cohen_kappa(a, b, weights="quadratic", nan_policy="omit")
    want = concord.cohen_kappa(
        COLUMNS["a"], COLUMNS["b"], weights="quadratic", labels=ORDER, nan_policy="omit"
    )
    assert kappa.statistic == want.statistic and kappa.labels == tuple(ORDER)


def test_ordered_pyarrow_dictionary_is_ordered_too():
    def dictionary(values: list, ordered: bool) -> pa.Array:
        codes = pa.array([None if v is None else ORDER.index(v) for v in values], pa.int8())
        return pa.DictionaryArray.from_arrays(codes, pa.array(ORDER), ordered=ordered)

    table = pa.table({k: dictionary(v, True) for k, v in COLUMNS.items()})
    assert concord.krippendorff_alpha(table, level="ordinal").statistic == (
        concord.krippendorff_alpha(enum_frame(COLUMNS), level="ordinal").statistic
    )
    unordered = pa.table({k: dictionary(v, False) for k, v in COLUMNS.items()})
    with pytest.raises(ValueError, match="labels"):  # text with no declared order
        concord.fleiss_kappa(unordered, weights="quadratic")


def test_unordered_polars_categorical_asks_for_the_order():
    frame = pl.DataFrame({k: pl.Series(k, v, dtype=pl.Categorical) for k, v in COLUMNS.items()})
    with pytest.raises(ValueError, match="labels"):
        concord.fleiss_kappa(frame, weights="quadratic")
    unweighted = concord.fleiss_kappa(frame).statistic
    assert unweighted == concord.fleiss_kappa(enum_frame(COLUMNS)).statistic


def test_integers_stay_exact_and_nulls_and_nan_are_missing():
    big = 2**53
    a = pl.Series("a", [big, big + 1, big, None], dtype=pl.Int64)
    b = pl.Series("b", [big, big + 1, big + 1, big])
    r = concord.cohen_kappa(a, b, nan_policy="omit")
    assert r.labels == (big, big + 1) and r.n == 3  # float64 would merge the two
    x = pl.Series("x", [1.0, None, float("nan"), 2.0, 2.0])
    y = pl.Series("y", [1.0, 1.0, 2.0, 2.0, 1.0])
    assert concord.cohen_kappa(x, y, nan_policy="omit").n == 3


def test_pyarrow_arrays_as_raters():
    a, b = pa.array([1, 2, 3, 1, 2]), pa.chunked_array([[1, 2], [3, 2, 2]])
    assert (
        concord.cohen_kappa(a, b).statistic
        == concord.cohen_kappa([1, 2, 3, 1, 2], [1, 2, 3, 2, 2]).statistic
    )


def test_a_frame_where_a_column_is_expected():
    frame = pl.DataFrame({"a": [1, 2], "b": [1, 2]})
    with pytest.raises(TypeError, match="'rater1' parameter of cohen_kappa must be a 1-D"):
        concord.cohen_kappa(frame, [1, 2])


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_import_concord_imports_no_frame_library():
    out = _run(
        "import sys, concord; print(sorted(m for m in ('narwhals', 'polars', 'pandas', "
        "'pyarrow') if m in sys.modules))"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_without_narwhals_one_line_names_the_extra():
    code = (
        "import sys; sys.modules['narwhals'] = None\n"
        "import polars as pl, concord\n"
        "try:\n"
        "    concord.fleiss_kappa(pl.DataFrame({'a': [1, 2], 'b': [1, 2]}))\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = _run(code)
    assert "pip install 'concord-agreement[frames]'" in out.stdout, out.stderr


@pytest.mark.parametrize("c", [c for c in REGISTRY if c.table == "sums" and c.arity == 1])
def test_continuous_panels_from_polars(c):
    x = np.array([[1.5, 2.0, 1.0], [3.0, 3.5, 2.5], [2.0, None, 2.5], [4.0, 4.5, 4.0]])
    frame = pd.DataFrame(x, columns=["a", "b", "c"], dtype=float)
    want = c.function(frame).statistic
    for other in (pl.from_pandas(frame), pa.Table.from_pandas(frame)):
        assert c.function(other).statistic == want


def test_grouped_kappa_of_a_polars_frame():
    # the docstring's example: quadratic κ 1 − 1/3 and 1 − 1/5 per set
    rows = {"set": [1, 1, 1, 2, 2, 2], "human": [1, 2, 3, 2, 3, 4], "model": [1, 2, 2, 2, 4, 4]}
    want = concord.grouped_kappa(pd.DataFrame(rows), by="set", rater1="human", rater2="model")
    for frame in (pl.DataFrame(rows), pl.DataFrame(rows).lazy(), pa.table(rows)):
        got = concord.grouped_kappa(frame, by="set", rater1="human", rater2="model")
        assert got.statistic == want.statistic
        assert [r.statistic for r in got.results.values()] == [2 / 3, 4 / 5]
