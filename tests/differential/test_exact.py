"""concord against exact ``Fraction`` recomputations from the papers, on seeded random data.

The reference formulas are in tests/differential/exact.py (each names its paper); the
data sets in tests/differential/cases.py. concord claims every coefficient is the
correctly rounded value of its definition, so the check is ``statistic ==
float(Fraction)``, exactly. Where concord documents otherwise the check says so:

* radical and circular weights are irrational (√, sin²): there is no exact value, the
  weights are floats, and the result is compared within 1e-13 (absolute);
* standard errors are square roots of sums computed in floating point (no claim of
  correct rounding): compared within 1e-12 relative, 1e-15 absolute;
* Bland–Altman's SD is documented as the square root of the once-rounded s², and its
  limits as d̄ ± z·s in floats: compared within 2 units in the last place.

A case that fails today because of a defect listed in issue 24 is an
``xfail(strict=True)`` naming the item (see ``KNOWN``): when the defect is fixed the
test passes, strict xfail reports XPASS as a failure, and the mark is removed.
``CONCORD_FUZZ=1`` (``make fuzz``) runs thousands of data sets instead of the quick slice.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import concord
from tests.differential import exact
from tests.differential.cases import Case, cases
from tests.differential.conftest import near, run_all, same

PAIRS = (
    "pairs-int",
    "pairs-text",
    "pairs-missing",
    "pairs-degenerate",
    "pairs-large",
    "pairs-weighted",
    "pairs-omit",
)
ITEMS = ("items-int", "items-missing", "items-text", "items-degenerate", "items-large")
SCORES = ("scores-int", "scores-decimal", "scores-many", "scores-far")
WEIGHTS = exact.RATIONAL + exact.IRRATIONAL
IRRATIONAL_TOLERANCE = 1e-13  # absolute: float weights from √ and sin², no exact value

# (test, weighting or level, kind) -> the issue 24 item that makes it fail today
KNOWN: dict[tuple[str, str, str], str] = {}


def params(test: str, options: tuple[str, ...], kinds: tuple[str, ...]) -> list[Any]:
    out = []
    for option in options:
        for kind in kinds:
            reason = KNOWN.get((test, option, kind))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            out.append(pytest.param(option, kind, marks=marks, id=f"{option}-{kind}"))
    return out


def quiet(function, *args, **kwargs):
    """Call a coefficient with its undefined-value warning silenced (nan is compared)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        return function(*args, **kwargs)


def compare(got: float, want: Any, weighting: str, what: str) -> list[str]:
    if weighting in exact.IRRATIONAL:
        ok = near(got, want, 0.0, IRRATIONAL_TOLERANCE)
    else:
        ok = same(got, want)
    return [] if ok else [f"{what}: concord {got!r}, exact {float(want)!r}"]


def _has_missing(case: Case) -> bool:
    return any(v is None for row in case.ratings for v in row)


def _pair_input(case: Case) -> tuple[list[Any], list[Any]]:
    r1, r2 = case.pairs
    if case.numeric:  # numbers with missing ratings as nan, as a float column holds them
        return [np.nan if v is None else v for v in r1], [np.nan if v is None else v for v in r2]
    return r1, r2


def _table(case: Case) -> list[list[Fraction]]:
    r1, r2 = case.pairs
    return exact.pair_table(r1, r2, case.categories(), case.sample_weight)


@pytest.mark.parametrize(("weighting", "kind"), params("cohen", WEIGHTS, PAIRS))
def test_cohen_kappa(weighting: str, kind: str) -> None:
    """Cohen (1960, 1968) κ_w, and the FCE (1969) standard error."""

    def check(case: Case) -> list[str]:
        r1, r2 = _pair_input(case)
        extra: dict[str, Any] = {"nan_policy": "omit"} if _has_missing(case) else {}
        if case.sample_weight is not None:
            extra["sample_weight"] = list(case.sample_weight)
        got = quiet(concord.cohen_kappa, r1, r2, weights=weighting, labels=case.labels, **extra)
        d = exact.disagreement(case.categories(), case.numeric, weighting)
        table = _table(case)
        out = compare(got.statistic, exact.cohen(table, d), weighting, "κ")
        variances = exact.fce_variances(table, d)
        if variances is not None and not out:
            want = exact.sqrt(variances[0]) if variances[0] > 0 else 0.0
            if not near(got.standard_error, want, 1e-12, 1e-15):
                out.append(f"SE: concord {got.standard_error!r}, FCE (1969) {want!r}")
        return out

    run_all(cases(kind), check)


@pytest.mark.parametrize(("weighting", "kind"), params("scott", WEIGHTS, PAIRS))
def test_scott_pi(weighting: str, kind: str) -> None:
    """Scott (1955) π, weighted as Gwet (2014)."""

    def check(case: Case) -> list[str]:
        if case.sample_weight is not None:
            return []  # scott_pi takes no sample_weight
        r1, r2 = _pair_input(case)
        extra = {"nan_policy": "omit"} if _has_missing(case) else {}
        got = quiet(concord.scott_pi, r1, r2, weights=weighting, labels=case.labels, **extra)
        d = exact.disagreement(case.categories(), case.numeric, weighting)
        return compare(got.statistic, exact.scott(_table(case), d), weighting, "π")

    run_all(cases(kind), check)


@pytest.mark.parametrize(
    ("weighting", "kind"), params("qwk", ("quadratic",), ("pairs-int", "pairs-large"))
)
def test_quadratic_weighted_kappa(weighting: str, kind: str) -> None:
    """Kaggle's QWK: weights (i − j)² over the integers min..max of both raters."""

    def check(case: Case) -> list[str]:
        r1, r2 = case.pairs
        got = concord.quadratic_weighted_kappa(r1, r2)
        table, d = exact.qwk_table(r1, r2)
        return compare(got, exact.cohen(table, d), weighting, "QWK")

    run_all(cases(kind), check)


@pytest.mark.parametrize(("weighting", "kind"), params("qwk-missing", ("none",), ("pairs-missing",)))
def test_quadratic_weighted_kappa_missing(weighting: str, kind: str) -> None:
    """A missing rating in a list is refused, as cohen_kappa refuses it (issue 24 item 1)."""

    def check(case: Case) -> list[str]:
        if not case.numeric or not _has_missing(case):
            return []
        r1, r2 = case.pairs  # Python lists with None
        try:
            got = concord.quadratic_weighted_kappa(r1, r2)
        except ValueError:
            return []
        return [f"QWK of lists with None returned {got!r} instead of an error"]

    run_all(cases(kind), check)


MULTI = ("percent_agreement", "fleiss_kappa", "gwet_ac", "brennan_prediger", "conger_kappa")


def _matrix(case: Case) -> Any:
    """Numbers as a float matrix with nan, text as an object matrix with None."""
    if case.numeric:
        return np.array([[np.nan if v is None else v for v in row] for row in case.ratings])
    return np.array(case.ratings, dtype=object)


@pytest.mark.parametrize("name", MULTI)
@pytest.mark.parametrize(("weighting", "kind"), params("multi", WEIGHTS, ITEMS))
def test_multirater(name: str, weighting: str, kind: str) -> None:
    """Fleiss (1971), Conger (1980), Brennan–Prediger (1981), Gwet (2008) AC1/AC2 and
    percent agreement, with missing ratings as Gwet (2014)."""
    reason = KNOWN.get((name, weighting, kind))
    if reason:
        pytest.xfail(reason)  # checked strictly by the KNOWN entries' own run below

    def check(case: Case) -> list[str]:
        got = quiet(getattr(concord, name), _matrix(case), weights=weighting, labels=case.labels)
        d = exact.disagreement(case.categories(), case.numeric, weighting)
        want = exact.multi(name, case.ratings, case.categories(), d)
        return compare(got.statistic, want, weighting, name)

    run_all(cases(kind), check)


@pytest.mark.parametrize(("weighting", "kind"), params("light", WEIGHTS, ITEMS))
def test_light_kappa(weighting: str, kind: str) -> None:
    """Light (1971): each pairwise Cohen κ exact, and their mean."""

    def check(case: Case) -> list[str]:
        got = quiet(concord.light_kappa, _matrix(case), weights=weighting, labels=case.labels)
        d = exact.disagreement(case.categories(), case.numeric, weighting)
        pairwise = exact.light(case.ratings, case.categories(), d)
        out = []
        for (pair, result), want in zip(got.pairwise.items(), pairwise, strict=True):
            out += compare(result.statistic, want, weighting, f"κ of {pair}")
        if any(isinstance(v, float) for v in pairwise):
            return out
        return out + compare(got.statistic, sum(pairwise) / len(pairwise), weighting, "mean")

    run_all(cases(kind), check)


LEVELS = ("nominal", "ordinal", "interval", "ratio")


@pytest.mark.parametrize(("level", "kind"), params("alpha", LEVELS, ITEMS))
def test_krippendorff_alpha(level: str, kind: str) -> None:
    """Krippendorff (2011): the coincidence matrix and the four metrics."""

    def check(case: Case) -> list[str]:
        got = quiet(concord.krippendorff_alpha, _matrix(case), level=level, labels=case.labels)
        want = exact.krippendorff(case.ratings, case.categories(), case.numeric, level)
        return compare(got.statistic, want, level, f"α {level}")

    run_all(cases(kind), check)


@pytest.mark.parametrize(("level", "kind"), params("alpha-scores", ("interval", "ratio"), SCORES))
def test_krippendorff_alpha_scores(level: str, kind: str) -> None:
    """Krippendorff (2011) on continuous scores (every value its own category)."""

    def check(case: Case) -> list[str]:
        got = quiet(concord.krippendorff_alpha, case.ratings, level=level)
        want = exact.krippendorff_scores(case.ratings, level)
        return compare(got.statistic, want, level, f"α {level}")

    run_all(cases(kind), check)


ICC_FORMS = (
    ("oneway", "agreement", "single"),
    ("oneway", "agreement", "average"),
    ("twoway", "consistency", "single"),
    ("twoway", "consistency", "average"),
    ("twoway", "agreement", "single"),
    ("twoway", "agreement", "average"),
)


@pytest.mark.parametrize(("form", "kind"), params("icc", ("all",), SCORES))
def test_icc(form: str, kind: str) -> None:
    """McGraw & Wong (1996): the six forms and their F statistics."""

    def check(case: Case) -> list[str]:
        want = exact.icc(case.ratings)
        out = []
        for model, type_, unit in ICC_FORMS:
            got = quiet(concord.icc, case.ratings, model=model, type=type_, unit=unit)
            key = f"{'oneway' if model == 'oneway' else type_}/{unit}"
            out += compare(got.statistic, want[key], "", f"ICC {key}")
            f_key = "F/oneway" if model == "oneway" else "F/twoway"
            out += compare(got.f_statistic, want[f_key], "", f"F of {key}")
        return out

    run_all(cases(kind), check)


@pytest.mark.parametrize(("form", "kind"), params("ccc", ("lin",), SCORES))
def test_concordance_correlation(form: str, kind: str) -> None:
    """Lin (1989) ρ_c of the first two raters."""

    def check(case: Case) -> list[str]:
        x, y = case.ratings[:, 0], case.ratings[:, 1]
        got = quiet(concord.concordance_correlation, x, y)
        return compare(got.statistic, exact.ccc(x, y), "", "ρ_c")

    run_all(cases(kind), check)


def _ulps(got: float, want: float) -> float:
    return abs(got - want) / math.ulp(want) if want else abs(got)


@pytest.mark.parametrize(("form", "kind"), params("bland-altman", ("limits",), SCORES))
def test_bland_altman(form: str, kind: str) -> None:
    """Bland & Altman (1986): d̄ exact, s = √s² within an ulp, the limits d̄ ± 1.96 s."""

    def check(case: Case) -> list[str]:
        x, y = case.ratings[:, 0], case.ratings[:, 1]
        got = quiet(concord.bland_altman, x, y)
        bias, var = exact.bland_altman(x, y)
        out = compare(got.bias, bias, "", "bias")
        sd = exact.sqrt(var)
        if _ulps(got.sd, sd) > 1:
            out.append(f"SD: concord {got.sd!r}, exact {sd!r}")
        z = 1.959963984540054  # Φ⁻¹(0.975)
        for name, value, sign in (("lower", got.lower_limit, -1), ("upper", got.upper_limit, 1)):
            want = float(bias + sign * Fraction(z) * Fraction(sd))
            if _ulps(value, want) > 2 and abs(value - want) > 1e-15 * abs(float(bias)):
                out.append(f"{name} limit: concord {value!r}, exact {want!r}")
        return out

    run_all(cases(kind), check)
