"""bland_altman with repeated measurements per subject, and on the ratio and percent scales.

Sources: Bland & Altman (2007), J Biopharm Stat 17(4), 571-582, §3 (true value varies), on
the cardiac output data (12 subjects, RV − IC, 60 pairs): bias 0.6022, SD 0.9906, 95% limits
−1.339 to 2.544. The data: R MethComp's ``cardiac`` (GPL-2; from Bland & Altman 1999, Table
4), written wide to tests/reference/ranks/methcomp_cardiac.csv (item, repl, y.RV, y.IC).
The ratio and percent scales: Bland & Altman (1999), §3: the plain method on ln x − ln y,
back-transformed, and on 100 (x − y) / mean.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import concord

pd = pytest.importorskip("pandas")
pytest.importorskip("scipy")

CARDIAC = pd.read_csv(Path(__file__).parent / "reference" / "ranks" / "methcomp_cardiac.csv")
RV, IC, ITEM = CARDIAC["y.RV"], CARDIAC["y.IC"], CARDIAC["item"]


def test_repeated_measures_cardiac_output_bland_altman_2007():
    r = concord.bland_altman(RV, IC, subject=ITEM)
    assert round(r.bias, 4) == 0.6022 and round(r.sd, 4) == 0.9906
    assert (round(r.lower_limit, 3), round(r.upper_limit, 3)) == (-1.339, 2.544)
    assert r.n == 60 and r.n_subjects == 12
    assert r.sd == pytest.approx(math.hypot(r.sd_between, r.sd_within))
    assert math.isnan(r.lower_interval.low)  # not computed, as documented
    assert "12 subjects" in r.explain() and "σ_b" in r.explain()


def test_repeated_measures_variance_components_by_hand():
    # the one-way ANOVA of d by subject, unbalanced: MS_b, MS_w and λ = (N² − Σm²)/((n − 1)N)
    d = np.array([1.0, 2.0, 0.5, 3.0, 2.5, -1.0, 0.0])
    s = np.array(["a", "a", "a", "b", "b", "c", "c"])
    r = concord.bland_altman(d, np.zeros(7), subject=s)
    groups = [d[s == g] for g in "abc"]
    m = np.array([g.size for g in groups])
    means = np.array([g.mean() for g in groups])
    msb = float(m @ (means - d.mean()) ** 2) / 2
    msw = sum(float(((g - g.mean()) ** 2).sum()) for g in groups) / 4
    lam = (49 - float(m @ m)) / (2 * 7)
    assert r.sd_within == pytest.approx(math.sqrt(msw))
    assert r.sd_between == pytest.approx(math.sqrt(max((msb - msw) / lam, 0)))
    assert r.bias == pytest.approx(d.mean())


def test_subjects_with_one_measurement():
    with pytest.raises(ValueError, match=r"'subject' parameter of bland_altman.*2 pairs or more"):
        concord.bland_altman([1.0, 2.0, 3.0], [1.5, 2.0, 2.0], subject=["a", "b", "c"])
    # one subject with a single pair among others is kept (between-subjects term only)
    r = concord.bland_altman([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.0, 4.5], subject=[1, 1, 2, 3])
    assert r.n_subjects == 3
    with pytest.raises(ValueError, match="one label per pair"):
        concord.bland_altman([1.0, 2.0], [1.0, 2.0], subject=[1])
    with pytest.raises(ValueError, match="'proportional' parameter"):
        concord.bland_altman(RV, IC, subject=ITEM, proportional=True)


def test_repeated_measures_missing_pairs():
    x = RV.to_numpy().copy()
    x[3] = np.nan
    r = concord.bland_altman(x, IC, subject=ITEM, nan_policy="omit")
    keep = np.arange(60) != 3
    want = concord.bland_altman(RV[keep], IC[keep], subject=ITEM[keep])
    assert (r.bias, r.sd, r.n) == (want.bias, want.sd, 59)
    with pytest.raises(ValueError, match="nan_policy"):
        concord.bland_altman(x, IC, subject=ITEM)


def test_ratio_scale_is_the_plain_method_on_logs():
    r = concord.bland_altman(RV, IC, scale="ratio")
    plain = concord.bland_altman(np.log(RV), np.log(IC))
    assert r.bias == pytest.approx(plain.bias, rel=1e-15) and r.sd == pytest.approx(plain.sd)
    assert r.ratio_bias == pytest.approx(math.exp(plain.bias))
    assert r.ratio_limits == pytest.approx(
        (math.exp(plain.lower_limit), math.exp(plain.upper_limit))
    )
    assert "as ratios x / y" in r.explain() and r.to_dict()["scale"] == "ratio"
    assert math.isnan(concord.bland_altman(RV, IC).ratio_bias)


def test_percent_scale_is_the_plain_method_on_percentages():
    r = concord.bland_altman(RV, IC, scale="percent")
    pct = 100 * (RV - IC) / ((RV + IC) / 2)
    plain = concord.bland_altman(pct, np.zeros(60))
    assert r.bias == pytest.approx(plain.bias, rel=1e-13) and r.sd == pytest.approx(plain.sd)
    with pytest.raises(ValueError, match="'proportional' parameter"):
        concord.bland_altman(RV, IC, scale="percent", proportional=True)


@pytest.mark.parametrize("scale", ["ratio", "percent"])
def test_zero_or_negative_values_name_the_row(scale):
    with pytest.raises(ValueError, match=r"'x' parameter .* positive numbers .* 0\.0 in row 2"):
        concord.bland_altman([1.0, 2.0, 0.0, 4.0], [1.0, 2.0, 3.0, 4.0], scale=scale)
    with pytest.raises(ValueError, match=r"'y' parameter .* -3 in row 1"):
        concord.bland_altman([1, 2, 3], [1, -3, 3], scale=scale)
    with pytest.raises(ValueError, match="Did you mean 'ratio'"):
        concord.bland_altman([1, 2], [1, 2], scale="ratios")


@pytest.mark.parametrize("scale", ["ratio", "percent"])
def test_accumulator_gives_the_one_shot_result(scale):
    acc = concord.accumulate(concord.bland_altman, scale=scale)
    for part in (slice(0, 25), slice(25, 60)):
        acc.update(RV[part], IC[part])
    got, want = acc.result(), concord.bland_altman(RV, IC, scale=scale)
    assert (got.bias, got.sd, got.lower_limit, got.scale) == (
        want.bias,
        want.sd,
        want.lower_limit,
        scale,
    )
    with pytest.raises(TypeError, match="subject"):
        concord.accumulate(concord.bland_altman, subject=ITEM)


def test_dask_takes_the_scale():
    dd = pytest.importorskip("dask.dataframe")
    import dask

    import concord.dask as cd

    ddf = dd.from_pandas(CARDIAC[["y.RV", "y.IC"]], npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        got = cd.compute(concord.bland_altman, ddf, scale="ratio")
    want = concord.bland_altman(RV, IC, scale="ratio")
    assert (got.bias, got.sd) == (want.bias, want.sd)


def test_cli_subject_and_scale(tmp_path):
    from click.testing import CliRunner

    from concord._cli.main import main

    path = Path(__file__).parent / "reference" / "ranks" / "methcomp_cardiac.csv"
    args = ["bland-altman", str(path), "--x", "y.RV", "--y", "y.IC"]
    run = CliRunner().invoke(main, [*args, "--subject", "item", "--format", "json"])
    assert run.exit_code == 0, run.output
    import json

    record = json.loads(run.output)["bland_altman"]
    assert round(record["sd"], 4) == 0.9906 and record["n_subjects"] == 12
    ratio = CliRunner().invoke(main, [*args, "--scale", "ratio"])
    assert ratio.exit_code == 0 and "as ratios x / y" in ratio.output
    chunked = CliRunner().invoke(main, [*args, "--subject", "item", "--chunk-rows", "10"])
    assert chunked.exit_code == 2 and "leave out --chunk-rows" in chunked.output


def test_repeated_measures_sums_are_correctly_rounded():
    # issue 24 item 9: the printed bias and SD come from correctly rounded sums (math.fsum),
    # the same on every CPU; numpy's float mean adds 1e16 + 1 − 1e16 to 0 here
    from fractions import Fraction

    x = np.array([1e16, 1.0, -1e16, 0.0, 2.0, 0.0])
    r = concord.bland_altman(x, np.zeros(6), subject=[0, 0, 1, 1, 2, 2])
    assert r.bias == float(Fraction(3, 6))
    d = [Fraction(v) for v in x]
    means = [(d[0] + d[1]) / 2, (d[2] + d[3]) / 2, (d[4] + d[5]) / 2]
    within = sum((v - means[i // 2]) ** 2 for i, v in enumerate(d)) / 3  # MS_w by hand
    assert r.sd_within == pytest.approx(math.sqrt(within), rel=1e-15)


# Bland & Altman (1999), §3, on their plasma volume data (Table 2: 99 subjects, Nadler's and
# Hurley's normal values, % of normal), as R MethComp's ``plvol`` (GPL >= 2) ships it:
# tests/reference/ranks/methcomp_plvol.csv. The paper back-transforms the limits of the log
# ratio to "between 6% and 15%" above (1.06 to 1.15); the digits are base R's on the same data
# (tests/reference/ranks/bland_altman_extended.R).
PLVOL = pd.read_csv(Path(__file__).parent / "reference" / "ranks" / "methcomp_plvol.csv")


def test_ratio_scale_on_the_plasma_volume_data_bland_altman_1999():
    r = concord.bland_altman(PLVOL["y.Nadler"], PLVOL["y.Hurley"], scale="ratio")
    assert r.n == 99
    assert r.bias == pytest.approx(0.098899835146, abs=1e-12)  # R: mean(log N − log H)
    assert r.sd == pytest.approx(0.021700831679, abs=1e-12)
    low, high = r.ratio_limits
    assert (round(low, 2), round(high, 2)) == (1.06, 1.15)  # the paper
    assert (low, high) == pytest.approx((1.057985879164, 1.151922958426), abs=1e-11)  # R


def test_percent_scale_on_the_plasma_volume_data_bland_altman_1999():
    r = concord.bland_altman(PLVOL["y.Nadler"], PLVOL["y.Hurley"], scale="percent")
    assert r.bias == pytest.approx(9.880821312861, abs=1e-11)  # R
    assert r.sd == pytest.approx(2.165078126451, abs=1e-11)
    assert (r.lower_limit, r.upper_limit) == pytest.approx(
        (5.637346161302, 14.124296464420), abs=1e-11
    )


# True value constant: Zou (2013), Stat Methods Med Res 22(6), 630-642, on his replicate data
# as R SimplyAgree 0.2 (GPL >= 3) ships it (``reps``: 4 subjects, 5, 4, 6, 5 replicates of x
# and 4, 3, 6, 5 of y): tests/reference/ranks/simplyagree_reps.csv. SimplyAgree's own test of
# ``agree_reps`` checks the limits −2.23 and 3.66 and the MOVER intervals (−9.76, −0.48) and
# (1.91, 11.20) of the two limits; it also lists the bias as .7125, which the data do not give
# (their mean difference of the subject means is 0.7152: two digits transposed).
REPS = pd.read_csv(Path(__file__).parent / "reference" / "ranks" / "simplyagree_reps.csv")


def test_true_value_constant_zou_2013():
    r = concord.bland_altman(
        REPS["x"], REPS["y"], subject=REPS["id"], true_value="constant", nan_policy="omit"
    )
    assert r.true_value == "constant" and r.n_subjects == 4 and r.n == 38
    assert r.bias == pytest.approx(0.715208333333, abs=1e-12)  # R (reference script)
    assert r.sd == pytest.approx(1.503570112261, abs=1e-12)
    assert (round(r.lower_limit, 2), round(r.upper_limit, 2)) == (-2.23, 3.66)  # Zou
    assert (r.lower_limit, r.upper_limit) == pytest.approx((-2.23173493493, 3.662151601597))
    assert r.lower_interval == pytest.approx((-9.768607348352, -0.477933723856), abs=1e-9)
    assert r.upper_interval == pytest.approx((1.908350390522, 11.199024015019), abs=1e-9)
    assert r.sd == pytest.approx(math.hypot(r.sd_between, r.sd_within))
    assert "true value constant" in r.explain() and "MOVER" in r.explain()


def test_true_value_constant_by_hand_with_equal_replicates():
    # two methods, three subjects, two replicates each: s² = s²_d̄ + ½ s²_xw + ½ s²_yw
    x = np.array([10.0, 12.0, 20.0, 21.0, 30.0, 33.0])
    y = np.array([9.0, 9.5, 19.0, 22.0, 27.0, 28.0])
    s = np.array([1, 1, 2, 2, 3, 3])
    r = concord.bland_altman(x, y, subject=s, true_value="constant")
    d = np.array([x[s == i].mean() - y[s == i].mean() for i in (1, 2, 3)])
    wx = sum(((x[s == i] - x[s == i].mean()) ** 2).sum() for i in (1, 2, 3)) / 3
    wy = sum(((y[s == i] - y[s == i].mean()) ** 2).sum() for i in (1, 2, 3)) / 3
    assert r.bias == pytest.approx(d.mean())
    assert r.sd**2 == pytest.approx(d.var(ddof=1) + wx / 2 + wy / 2)


def test_true_value_constant_refusals():
    with pytest.raises(ValueError, match="'true_value' parameter of bland_altman"):
        concord.bland_altman([1.0, 2.0], [1.0, 2.5], true_value="constant")
    with pytest.raises(ValueError, match="'true_value' parameter"):
        concord.bland_altman([1.0, 2.0], [1.0, 2.5], subject=[1, 1], true_value="fixed")
    x, y, s = [1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.0, 4.5], [1, 1, 2, 2]
    with pytest.raises(ValueError, match=r"'scale' parameter.*percentages need pairs"):
        concord.bland_altman(x, y, subject=s, true_value="constant", scale="percent")
    with pytest.raises(ValueError, match="2 replicates or more"):
        concord.bland_altman(x[:2], y[:2], subject=[1, 2], true_value="constant")
    with pytest.raises(ValueError, match="missing"):
        concord.bland_altman([1.0, None, 3.0, 4.0], y, subject=s, true_value="constant")
    with pytest.raises(ValueError, match=r"'y' parameter.*positive"):
        concord.bland_altman(
            x, [1.0, 0.0, 2.0, 3.0], subject=s, true_value="constant", scale="ratio"
        )


def test_true_value_constant_ratio_scale_is_the_method_on_logs():
    r = concord.bland_altman(
        REPS["x"],
        REPS["y"],
        subject=REPS["id"],
        true_value="constant",
        nan_policy="omit",
        scale="ratio",
    )
    logs = concord.bland_altman(
        np.log(REPS["x"]),
        np.log(REPS["y"]),
        subject=REPS["id"],
        true_value="constant",
        nan_policy="omit",
    )
    assert (r.bias, r.sd) == pytest.approx((logs.bias, logs.sd), rel=1e-12)
    assert r.ratio_bias == pytest.approx(math.exp(logs.bias))


def test_cli_true_value_constant():
    import json

    from click.testing import CliRunner

    from concord._cli.main import main

    path = Path(__file__).parent / "reference" / "ranks" / "simplyagree_reps.csv"
    args = ["bland-altman", str(path), "--x", "x", "--y", "y", "--nan-policy", "omit"]
    args += ["--na-values", "NA"]
    run = CliRunner().invoke(
        main, [*args, "--subject", "id", "--true-value", "constant", "--format", "json"]
    )
    assert run.exit_code == 0, run.output
    record = json.loads(run.output)["bland_altman"]
    assert round(record["lower_limit"], 2) == -2.23 and record["true_value"] == "constant"
    alone = CliRunner().invoke(main, [*args, "--true-value", "constant"])
    assert alone.exit_code == 2 and "needs --subject" in alone.output
