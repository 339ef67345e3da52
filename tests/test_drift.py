"""concord.drift: the coefficient per time window, on accumulators, with flags."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import concord
from concord._results.protocol import COLUMNS


def _stream(seed: int = 0, n: int = 600, shift_at: int = 400) -> pd.DataFrame:
    # three raters who agree 90% of the time, then 50% after `shift_at`
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    agree = np.where(np.arange(n) < shift_at, 0.9, 0.5)
    ratings = {
        r: np.where(rng.random(n) < agree, truth, rng.integers(0, 3, n)) for r in ("a", "b", "c")
    }
    return pd.DataFrame({"t": np.arange(n), **ratings})


def test_each_window_is_the_one_shot_coefficient() -> None:
    df = _stream()
    r = concord.drift(df, time="t", window=200)
    assert len(r.windows) == 3
    for i, w in enumerate(r.windows):
        one = concord.fleiss_kappa(df.iloc[200 * i : 200 * (i + 1)][["a", "b", "c"]])
        assert w.statistic == pytest.approx(one.statistic, abs=1e-12)
        assert w.standard_error == pytest.approx(one.standard_error, abs=1e-12)
        ci = one.confidence_interval(0.95)
        assert (w.ci_low, w.ci_high) == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert r.flagged == [2]  # the shift at item 400
    assert r.statistic == r.windows[-1].statistic
    assert math.isnan(r.windows[0].pvalue) and not r.windows[0].flagged


def test_difference_is_a_z_test_with_added_variances() -> None:
    r = concord.drift(_stream(), time="t", window=200)
    ref, last = r.windows[0], r.windows[2]
    z = (last.statistic - ref.statistic) / math.hypot(last.standard_error, ref.standard_error)
    assert last.pvalue == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))


def test_reference_window_and_period_windows() -> None:
    df = _stream()
    r = concord.drift(df, time="t", window=200, reference=-1)
    assert r.reference == 2 and r.flagged == [0, 1]
    df["when"] = pd.Timestamp("2026-01-01") + pd.to_timedelta(df["t"], unit="h")
    by_day = concord.drift(df.drop(columns="t"), time="when", window="1D")
    assert [w.n for w in by_day.windows] == [24] * 25
    assert by_day.windows[0].start == pd.Timestamp("2026-01-01")


def test_two_rater_function_and_options() -> None:
    df = _stream()[["t", "a", "b"]]
    r = concord.drift(df, time="t", window=300, function=concord.cohen_kappa, weights="linear")
    one = concord.cohen_kappa(df["a"][:300], df["b"][:300], weights="linear")
    assert r.windows[0].statistic == pytest.approx(one.statistic)
    frame = r.to_frame()
    assert list(frame.columns[:8]) == [*COLUMNS, "start"] and "end" in frame.columns
    assert r.to_dict()["coefficient"] == "drift" and "<table" in r._repr_html_()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"time": "x", "window": 10}, "'time'"),
        ({"time": "t", "window": 0}, "'window'"),
        ({"time": "t", "window": "nonsense"}, "'window'"),
        ({"time": "t", "window": 100, "reference": 9}, "'reference'"),
        ({"time": "t", "window": 100, "function": concord.cohen_kappa}, "two rater columns"),
    ],
)
def test_bad_input_is_named(kwargs: dict, match: str) -> None:
    with pytest.raises((ValueError, TypeError), match=match):
        concord.drift(_stream(), **kwargs)


def test_cli_drift(tmp_path) -> None:
    from click.testing import CliRunner

    from concord._cli.main import main

    path = tmp_path / "stream.csv"
    _stream().to_csv(path, index=False)
    args = ["drift", str(path), "--time", "t", "--window", "200"]
    shown = CliRunner().invoke(main, args)
    assert shown.exit_code == 0, shown.output
    assert "differs" in shown.output and "windows that differ from window 0" in shown.output
    csv = CliRunner().invoke(main, [*args, "--format", "csv"])
    rows = pd.read_csv(__import__("io").StringIO(csv.stdout))
    expected = concord.drift(_stream(), time="t", window=200)
    np.testing.assert_allclose(rows["statistic"], [w.statistic for w in expected.windows])
    gated = CliRunner().invoke(main, [*args, "--fail-under", "0.6"])
    assert (
        gated.exit_code == 3 and "fleiss_kappa of the latest window value 0.2666" in gated.stderr
    )


def test_cli_drift_refuses_the_long_form(tmp_path) -> None:
    from click.testing import CliRunner

    from concord._cli.main import main

    path = tmp_path / "stream.csv"
    _stream().to_csv(path, index=False)
    args = ["drift", str(path), "--time", "t", "--window", "200", "--item", "t"]
    out = CliRunner().invoke(main, [*args, "--rater", "a", "--rating", "b"])
    assert out.exit_code == 2 and "reads the wide form" in out.output
