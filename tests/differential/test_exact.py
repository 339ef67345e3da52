"""concord against exact ``Fraction`` recomputations from the papers, on seeded random data.

The reference formulas are in tests/differential/exact.py (each names its paper), the
data sets in tests/differential/cases.py. concord claims every coefficient is the
correctly rounded value of its definition, so the check is ``statistic ==
float(Fraction)``, exactly. Where concord documents otherwise the check says so (``HOW``):

* radical and circular weights are irrational (√, sin²): there is no exact value, the
  weights are floats, and the result is compared within 1e-13 (absolute);
* standard errors are square roots of variances summed in floating point, and the ICC's
  F statistics are ratios of mean squares rounded to floats (neither is claimed to be
  correctly rounded): compared within 1e-9 relative (the FCE variance cancels: its SE
  was seen 2e-11 off, relative, on random tables);
* Bland–Altman's SD is the square root of the once-rounded s² (within 1 ulp of √s²), and
  its limits d̄ ± z·s are computed in floats: within 2 ulps of the larger term.

Known defects: where a defect that issue 24 lists (or one this test found, marked "new")
makes the exact check fail today, ``DEFECTS`` names it and the cases it covers. There the
per-kind test checks only a tolerance (or nothing, for results with no correct digit),
and ``test_known_defect`` checks every covered case exactly as an
``xfail(strict=True)``: when the defect is fixed it XPASSes, which fails the run, and the
entry is deleted. ``CONCORD_FUZZ=1`` (``make fuzz``) runs thousands of data sets instead
of the quick slice.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest

import concord
from tests.differential import exact
from tests.differential.cases import FUZZ, Case, cases
from tests.differential.cases import case as data_set
from tests.differential.conftest import run_all

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
LEVELS = ("nominal", "ordinal", "interval", "ratio")
MULTI = ("percent_agreement", "fleiss_kappa", "gwet_ac", "brennan_prediger", "conger_kappa")
# Bland–Altman's default limits: concord's z is statistics.NormalDist's Φ⁻¹(0.975),
# 1.9599639845400536, 3 ulps below the correctly rounded 1.959963984540054 (R's qnorm);
# the test takes the same z
Z975 = NormalDist().inv_cdf((1 + 0.95) / 2)


@dataclass(frozen=True)
class Comparison:
    what: str
    got: float
    want: Any  # Fraction (exact) or float
    how: str = "exact"  # exact | irrational | float | sd | limit


def ulps(got: float, want: float) -> float:
    if math.isnan(got) or math.isnan(want):
        return 0.0 if math.isnan(got) and math.isnan(want) else math.inf
    return abs(got - want) / math.ulp(want) if want else abs(got) / math.ulp(1.0)


def agrees(c: Comparison) -> bool:
    """Does concord's value agree with the reference as this comparison requires (``HOW``)?"""
    if c.how == "limit":
        bias, spread = c.want  # d̄ and ±z·s
        top = max(abs(bias), abs(spread), Fraction(1, 10**300))
        return abs(c.got - float(bias + spread)) <= 2 * math.ulp(float(top))
    want = float(c.want)
    if c.how == "exact":
        return ulps(c.got, want) == 0
    if c.how == "irrational":
        return ulps(c.got, want) == 0 or abs(c.got - want) <= 1e-13
    if c.how == "float":
        return ulps(c.got, want) == 0 or math.isclose(c.got, want, rel_tol=1e-9, abs_tol=1e-15)
    return ulps(c.got, want) <= 1  # sd


def quiet(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a coefficient with its undefined-value warning silenced (nan is compared)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        return function(*args, **kwargs)


def weighted(weighting: str) -> str:
    return "irrational" if weighting in exact.IRRATIONAL else "exact"


def has_missing(case: Case) -> bool:
    return any(v is None for row in case.ratings for v in row)


def pair_input(case: Case) -> tuple[list[Any], list[Any]]:
    r1, r2 = case.pairs
    if case.numeric:  # numbers with missing ratings as nan, as a float column holds them
        return [np.nan if v is None else v for v in r1], [np.nan if v is None else v for v in r2]
    return r1, r2


def matrix(case: Case) -> Any:
    """Numbers as a float matrix with nan, text as an object matrix with None."""
    if case.numeric:
        return np.array([[np.nan if v is None else v for v in row] for row in case.ratings])
    return np.array(case.ratings, dtype=object)


# -- the checks: each returns concord's numbers beside the reference's ---------------------


def check_cohen(case: Case, weighting: str) -> list[Comparison]:
    """Cohen (1960, 1968) κ_w and the Fleiss, Cohen & Everitt (1969) standard error."""
    r1, r2 = pair_input(case)
    extra: dict[str, Any] = {"nan_policy": "omit"} if has_missing(case) else {}
    if case.sample_weight is not None:
        extra["sample_weight"] = list(case.sample_weight)
    got = quiet(concord.cohen_kappa, r1, r2, weights=weighting, labels=case.labels, **extra)
    d = exact.disagreement(case.categories(), case.numeric, weighting)
    r1, r2 = case.pairs
    table = exact.pair_table(r1, r2, case.categories(), case.sample_weight)
    out = [Comparison("κ", got.statistic, exact.cohen(table, d), weighted(weighting))]
    variances = exact.fce_variances(table, d)
    if variances is not None:
        se = exact.sqrt(max(variances[0], Fraction(0)))
        out.append(Comparison("SE", got.standard_error, se, "float"))
    return out


def check_scott(case: Case, weighting: str) -> list[Comparison]:
    """Scott (1955) π, weighted as Gwet (2014): chance from the pooled marginals."""
    if case.sample_weight is not None:
        return []  # scott_pi takes no sample_weight
    r1, r2 = pair_input(case)
    extra = {"nan_policy": "omit"} if has_missing(case) else {}
    got = quiet(concord.scott_pi, r1, r2, weights=weighting, labels=case.labels, **extra)
    d = exact.disagreement(case.categories(), case.numeric, weighting)
    table = exact.pair_table(*case.pairs, case.categories(), None)
    return [Comparison("π", got.statistic, exact.scott(table, d), weighted(weighting))]


def check_qwk(case: Case, weighting: str) -> list[Comparison]:
    """Kaggle's QWK: weights (i − j)² over the integers min..max of both raters."""
    r1, r2 = case.pairs
    table, d = exact.qwk_table(r1, r2)
    got = quiet(concord.quadratic_weighted_kappa, r1, r2)
    return [Comparison("QWK", got, exact.cohen(table, d))]


def check_multi(name: str) -> Callable[[Case, str], list[Comparison]]:
    """Fleiss (1971), Conger (1980), Brennan–Prediger (1981), Gwet (2008) AC1/AC2 and
    percent agreement, missing ratings as Gwet (2014)."""

    def check(case: Case, weighting: str) -> list[Comparison]:
        got = quiet(getattr(concord, name), matrix(case), weights=weighting, labels=case.labels)
        d = exact.disagreement(case.categories(), case.numeric, weighting)
        want = exact.multi(name, case.ratings, case.categories(), d)
        return [Comparison(name, got.statistic, want, weighted(weighting))]

    return check


def check_light(case: Case, weighting: str) -> list[Comparison]:
    """Light (1971): each pairwise Cohen κ, and their mean."""
    got = quiet(concord.light_kappa, matrix(case), weights=weighting, labels=case.labels)
    d = exact.disagreement(case.categories(), case.numeric, weighting)
    pairwise = exact.light(case.ratings, case.categories(), d)
    how = weighted(weighting)
    out = [
        Comparison(f"κ of {pair}", result.statistic, want, how)
        for (pair, result), want in zip(got.pairwise.items(), pairwise, strict=True)
    ]
    if not any(isinstance(v, float) for v in pairwise):
        out.append(Comparison("mean", got.statistic, sum(pairwise) / len(pairwise), how))
    return out


def check_alpha(case: Case, level: str) -> list[Comparison]:
    """Krippendorff (2011): the coincidence matrix and the four metrics."""
    got = quiet(concord.krippendorff_alpha, matrix(case), level=level, labels=case.labels)
    want = exact.krippendorff(case.ratings, case.categories(), case.numeric, level)
    return [Comparison(f"α {level}", got.statistic, want)]


def check_alpha_scores(case: Case, level: str) -> list[Comparison]:
    """Krippendorff (2011) on continuous scores (every value its own category)."""
    got = quiet(concord.krippendorff_alpha, case.ratings, level=level)
    return [
        Comparison(f"α {level}", got.statistic, exact.krippendorff_scores(case.ratings, level))
    ]


def as_label_sets(case: Case) -> list[list[Any]]:
    """The case's ratings as label sets: category i is the set of the bits of i + 1."""
    index = {v: i for i, v in enumerate(case.categories())}

    def bits(v: Any) -> frozenset[str] | None:
        if v is None:
            return None
        code = index[v] + 1
        return frozenset(f"b{j}" for j in range(code.bit_length()) if code >> j & 1)

    return [[bits(v) for v in row] for row in case.ratings]


def check_alpha_sets(case: Case, level: str) -> list[Comparison]:
    """Krippendorff's α on label sets with Passonneau's (2006) MASI or the Jaccard distance."""
    rows = as_label_sets(case)
    cells = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            cells[i, j] = v
    got = quiet(concord.krippendorff_alpha, cells, level=level)
    return [Comparison(f"α {level}", got.statistic, exact.krippendorff_sets(rows, level))]


ICC_FORMS = {
    "oneway/single": ("oneway", "agreement", "single"),
    "oneway/average": ("oneway", "agreement", "average"),
    "consistency/single": ("twoway", "consistency", "single"),
    "consistency/average": ("twoway", "consistency", "average"),
    "agreement/single": ("twoway", "agreement", "single"),
    "agreement/average": ("twoway", "agreement", "average"),
}


def check_icc(case: Case, form: str) -> list[Comparison]:
    """McGraw & Wong (1996): the six forms and their F statistics."""
    want = exact.icc(case.ratings)
    out = []
    for key, (model, type_, unit) in ICC_FORMS.items():
        got = quiet(concord.icc, case.ratings, model=model, type=type_, unit=unit)
        out.append(Comparison(f"ICC {key}", got.statistic, want[key]))
        f = want["F/oneway" if model == "oneway" else "F/twoway"]
        out.append(Comparison(f"F of {key}", got.f_statistic, f, "float"))
    return out


def check_ccc(case: Case, form: str) -> list[Comparison]:
    """Lin (1989) ρ_c of the first two raters."""
    x, y = case.ratings[:, 0], case.ratings[:, 1]
    got = quiet(concord.concordance_correlation, x, y)
    return [Comparison("ρ_c", got.statistic, exact.ccc(x, y))]


def check_bland_altman(case: Case, form: str) -> list[Comparison]:
    """Bland & Altman (1986): d̄ exact, s within an ulp of √s², the limits d̄ ± z·s."""
    x, y = case.ratings[:, 0], case.ratings[:, 1]
    got = quiet(concord.bland_altman, x, y)
    bias, var = exact.bland_altman(x, y)
    spread = Fraction(Z975) * Fraction(got.sd)
    return [
        Comparison("bias", got.bias, bias),
        Comparison("SD", got.sd, exact.sqrt(var), "sd"),
        Comparison("lower limit", got.lower_limit, (bias, -spread), "limit"),
        Comparison("upper limit", got.upper_limit, (bias, spread), "limit"),
    ]


Check = Callable[[Case, str], list[Comparison]]
CHECKS: dict[str, tuple[tuple[str, ...], tuple[str, ...], Check]] = {
    "cohen": (WEIGHTS, PAIRS, check_cohen),
    "scott": (WEIGHTS, PAIRS, check_scott),
    "qwk": (("quadratic",), ("pairs-int", "pairs-large"), check_qwk),
    **{name: (WEIGHTS, ITEMS, check_multi(name)) for name in MULTI},
    "light": (WEIGHTS, ITEMS, check_light),
    "alpha": (LEVELS, ITEMS, check_alpha),
    "alpha-scores": (("interval", "ratio"), SCORES, check_alpha_scores),
    "alpha-sets": (("masi", "jaccard"), ITEMS, check_alpha_sets),
    "icc": (("forms",), SCORES, check_icc),
    "ccc": (("lin",), SCORES, check_ccc),
    "bland-altman": (("limits",), SCORES, check_bland_altman),
}


# -- known defects -----------------------------------------------------------------------


@dataclass(frozen=True)
class Defect:
    """A known defect: the comparisons it covers, and what the per-kind test still checks."""

    reason: str
    covers: Callable[[str, str, Case, Comparison], bool]
    ulps: float | None  # the per-kind test's tolerance there (None: nothing checked) ...
    absolute: float = 0.0  # ... or this absolute difference
    quick: bool = True  # the quick slice holds a case it covers (else only make fuzz does)

    def tolerates(self, c: Comparison) -> bool:
        if self.ulps is None:
            return True
        want = float(c.want)
        return ulps(c.got, want) <= self.ulps or abs(c.got - want) <= self.absolute


FLOAT_KINDS = ("scores-decimal", "scores-many", "scores-far")
DEFECTS: dict[str, Defect] = {
    "non-whole-sample-weights": Defect(
        "documented (which-coefficient.md): non-whole sample weights are added into the "
        "table's cells in floating point, so Cohen's kappa can be an ulp off",
        lambda test, option, case, c: (
            case.kind == "pairs-weighted"
            and not case.notes["whole"]
            and c.what == "κ"
            and option in ("unweighted", "linear", "quadratic", "ordinal")
        ),
        16,  # more ulps near 0 (κ = 0.0035)
        1e-15,
        quick=False,
    ),
    "krippendorff-ratio": Defect(
        "documented (which-coefficient.md, 'Where a value is rounded'): Krippendorff's ratio "
        "level on non-integer values uses float distances, an ulp or so off",
        lambda test, option, case, c: (
            test.startswith("alpha") and option == "ratio" and case.kind in FLOAT_KINDS
        ),
        16,  # 5 to 8 ulps seen, more near 0 (relative 1e-14 at α = 0.0099)
        1e-15,
    ),
}


def defect_of(test: str, option: str, case: Case, c: Comparison) -> str | None:
    for name, defect in DEFECTS.items():
        if defect.covers(test, option, case, c):
            return name
    return None


@functools.cache
def compared(test: str, option: str, kind: str, index: int) -> tuple[Comparison, ...]:
    """concord beside the reference, computed once per run (the defect test reuses it)."""
    return tuple(CHECKS[test][2](data_set(kind, index), option))


def problems(test: str, option: str, case: Case, only: str | None = None) -> list[str]:
    """The comparisons that fail: outside ``only``'s defect, as ``HOW`` says (tolerating a
    known defect as its entry says); with ``only``, exactly, inside that defect."""
    out = []
    for c in compared(test, option, case.kind, case.index):
        known = defect_of(test, option, case, c)
        if only is not None:
            ok = known != only or agrees(Comparison(c.what, c.got, c.want, "exact"))
        elif known is None:
            ok = agrees(c)
        else:
            ok = DEFECTS[known].tolerates(c)
        if not ok:
            out.append(f"{test} {option}: {c.what}: concord {c.got!r}, reference {c.want!s}")
    return out


def _per_kind() -> list[Any]:
    return [
        pytest.param(test, option, kind, id=f"{test}-{option}-{kind}")
        for test, (options, kinds, _) in CHECKS.items()
        for option in options
        for kind in kinds
    ]


@pytest.mark.parametrize(("test", "option", "kind"), _per_kind())
def test_exact(test: str, option: str, kind: str) -> None:
    run_all(cases(kind), lambda case: problems(test, option, case))


def _defects() -> list[Any]:
    """A defect the quick slice does not reach is an ordinary (passing) test there."""
    return [
        pytest.param(
            name,
            marks=[pytest.mark.xfail(strict=True, reason=d.reason)] if d.quick or FUZZ else [],
        )
        for name, d in DEFECTS.items()
    ]


@pytest.mark.parametrize("name", _defects())
def test_known_defect(name: str) -> None:
    """Every case a known defect covers is checked exactly (fails until it is fixed)."""
    for test, (options, kinds, _) in CHECKS.items():
        for option in options:
            for kind in kinds:
                run_all(cases(kind), lambda case, t=test, o=option: problems(t, o, case, name))


def test_quadratic_weighted_kappa_refuses_missing() -> None:
    """A missing rating in Python lists is refused, as cohen_kappa refuses it."""
    checked = [c for c in cases("pairs-missing") if c.numeric and has_missing(c)]
    assert checked, "the slice has no numeric data set with a missing rating"
    for one in checked:
        r1, r2 = one.pairs  # Python lists with None
        with pytest.raises(ValueError, match=r"missing|None|nan"):
            concord.cohen_kappa(r1, r2)
        with pytest.raises(ValueError):
            concord.quadratic_weighted_kappa(r1, r2)
