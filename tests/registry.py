"""The tests' one coefficient registry: the library's ``REGISTRY`` and, per table kind,
how to make valid data for a coefficient.

A coefficient added to ``concord._coefficients.registry.REGISTRY`` gets, with no
list to edit here, the invariance tests (tests/test_invariance.py), the
accumulator tests (tests/test_accumulate.py) and the bootstrap-vs-exact tests
(tests/test_bootstrap_vs_exact.py). Its variants (the ways it is called) follow
from its keyword-only options: one per scale value of ``weights`` or ``level``,
one with declared labels, one with ``nan_policy="omit"``, one with rating bounds.
The few facts a signature cannot tell are listed below by name, each with its
source: the two-rater counterparts and the coefficient defined on one category.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import assume
from hypothesis import strategies as st

import concord
from concord._coefficients.registry import REGISTRY, Coefficient

WORDS = ["no", "maybe", "yes", "n/a"]  # nominal ratings: strings, no order
INTS = [1, 2, 3, 4, 5]  # ordered ratings: the scale weights read the values

# Public names that are not agreement coefficients, each for what it is.
NOT_COEFFICIENTS = {
    "Accumulator": "class: the state of accumulate()",
    "AgreementResult": "result class",
    "AgreementTable": "result class of agree: several coefficients of one panel",
    "AltTestResult": "result class of alt_test",
    "BangdiwalaResult": "result class of bangdiwala_b",
    "BenchmarkLevel": "result class: one level of interpret(probabilistic=True)",
    "BenchmarkProbabilities": "result class of interpret(probabilistic=True)",
    "BlandAltmanResult": "result class of bland_altman",
    "CategoryCounts": "input: an items x categories count table",
    "CccResult": "result class of concordance_correlation",
    "CochranQResult": "result class of cochran_q",
    "ComparisonResult": "result class of compare",
    "ConsensusResult": "result class of consensus",
    "ConfidenceInterval": "result class",
    "CronbachResult": "result class of cronbach_alpha",
    "CrossValidatedKappa": "result class of cross_validated_kappa",
    "DiagnosticResult": "result class of diagnostic_accuracy",
    "DriftResult": "result class of drift",
    "EvaluationResult": "result class of evaluate",
    "FleissResult": "result class",
    "GammaResult": "result class of gamma",
    "GoldResult": "result class of against_gold",
    "GroupedKappaResult": "result class of grouped_kappa",
    "HomogeneityResult": "result class of homogeneity",
    "IccResult": "result class of icc",
    "IntraRaterResult": "result class of intra_rater",
    "LabelAgreementResult": "result class of label_agreement",
    "ItemAgreementResult": "result class of item_agreement",
    "KappaResult": "result class",
    "KendallResult": "result class of kendall_w",
    "KrippendorffResult": "result class",
    "LightResult": "result class",
    "MarginalHomogeneityResult": "result class of marginal_homogeneity",
    "MeanCorrelationResult": "result class of mean_correlation",
    "OverallConcordanceResult": "result class of overall_concordance",
    "MeanKappaResult": "result class of mean_kappa",
    "PlanResult": "result class of plan",
    "RaterDiagnostics": "result class of rater_diagnostics",
    "SpanAgreementResult": "result class of span_agreement",
    "SpecificAgreementResult": "result class of specific_agreement",
    "SymmetryResult": "result class of symmetry_test",
    "ThresholdClassifier": "scikit-learn estimator for cut points",
    "ThresholdResult": "result class of optimize_thresholds",
    "UndefinedKappaWarning": "warning class",
    "UnitizingAlphaResult": "result class of unitizing_alpha",
    "__version__": "version string",
    "accumulate": "takes a coefficient and returns its accumulator",
    "against_gold": "each rater against gold labels, with a coefficient of two raters",
    "agree": "runs the coefficients of many raters on one panel (an AgreementTable)",
    "alt_test": "a test of a candidate annotator against humans, not a coefficient",
    "bangdiwala_b": "the agreement chart's statistic, not chance-corrected; no accumulator",
    "cochran_q": "a test of equal proportions across raters, not a coefficient",
    "consensus": "one label per item from many raters (majority, Dawid-Skene), not a coefficient",
    "compare": "takes a coefficient and compares it on two sets of ratings",
    "cronbach_alpha": "reliability of a sum of scores; no accumulator yet",
    "diagnostic_accuracy": "sensitivity, specificity and the rest against gold labels",
    "cross_validated_kappa": "cut points: cross-validated κ of optimize_thresholds",
    "drift": "takes a coefficient and runs it per time window",
    "evaluate": "many metrics of a scoring model against humans (RSMTool's rsmeval)",
    "gamma": "γ of spans on items (Mathet et al. 2015): reads spans, not ratings",
    "grouped_kappa": "combines κ of several groups",
    "homogeneity": "tests that several coefficients are equal",
    "intra_rater": "a coefficient across each rater's repeated trials",
    "label_agreement": "a coefficient per label of label-set ratings",
    "item_agreement": "per-item agreement and majority labels, not a coefficient",
    "kendall_w": "a rank statistic; no accumulator yet",
    "marginal_homogeneity": "a test of the raters' marginals, not an agreement coefficient",
    "mean_correlation": "mean of pairwise correlations; no accumulator yet",
    "mean_kappa": "averages κ values (Fisher z)",
    "optimize_thresholds": "cut points for a continuous score",
    "overall_concordance": "OCCC of many raters; no accumulator yet",
    "plan": "sample sizes for a planned study; reads no ratings",
    "rater_diagnostics": "leaves each rater out of a coefficient of many raters",
    "read_annotations": "reads an annotation tool's export into a long DataFrame",
    "span_agreement": "span F1 of annotated spans (item, rater, start, end, label), not ratings",
    "specific_agreement": "per-category agreement, one value per category",
    "symmetry_test": "a test of a square table, not a coefficient",
    "token_agreement": "takes a coefficient and runs it on spans painted on a grid",
    "token_ratings": "spans painted on a grid: ratings, not a coefficient",
    "unitizing_alpha": "spans on continua, not ratings of items (Krippendorff's uα)",
    "weight_matrix": "the disagreement weights of a scale",
}

# The values of each scale option tried, and the relabelling of ordered ratings each
# value is invariant under: nominal ones under any bijection; ordinal weights and
# levels read positions only (Gwet 2014, §3.3; Krippendorff 2011, ordinal metric);
# linear, quadratic and interval read differences of values, so an increasing affine
# map keeps every weight once they are scaled to a maximum of 1 (weight_matrix's
# docstring; Krippendorff 2011, interval metric); ratio reads (x - y) / (x + y), kept
# only by scaling (Krippendorff 2011, ratio metric).
SCALES = {"weights": ("quadratic", "ordinal"), "level": ("ordinal", "interval", "ratio")}
INVARIANCE = {
    "ordinal": "increasing",
    "linear": "affine",
    "quadratic": "affine",
    "interval": "affine",
    "ratio": "scaling",
}
RELABEL: dict[str, Callable[[Any], Any]] = {
    "increasing": lambda v: v * v + 3,
    "affine": lambda v: 3 * v - 7,
    "scaling": lambda v: 3 * v,
}

# Two raters, complete data: the multi-rater coefficient equals a field of its two-rater
# counterpart, at every weighting. Fleiss (1971) generalises Scott's (1955) π; Conger
# (1980) and Light (1971) generalise Cohen's (1960) κ; percent agreement is Cohen's
# observed agreement p_a (Gwet 2014, §2.2, §2.4, §5.2). Gwet's AC and Brennan-Prediger
# have no public two-rater function; α has its own small-sample correction.
TWO_RATER_COUNTERPART = {
    "percent_agreement": ("cohen_kappa", "observed_agreement"),
    "fleiss_kappa": ("scott_pi", "statistic"),
    "conger_kappa": ("cohen_kappa", "statistic"),
    "light_kappa": ("cohen_kappa", "statistic"),
}
# No chance correction: one category used by everyone is agreement 1, not undefined.
DEFINED_ON_ONE_CATEGORY = {"percent_agreement"}
# Expected disagreement over the n(n - 1) pairable values (Krippendorff 2011, eq. for
# D_e), so the value moves when every item is counted twice; the others depend on the
# proportions only.
SAMPLE_SIZE_CORRECTED = {"krippendorff_alpha"}
# Not an index of agreement on [-1, 1] but a difference in the ratings' units (Bland &
# Altman 1986): the bias d = x - y changes sign when the raters swap, scales with the
# ratings and is 0, not 1, for identical raters. test_continuous.py tests those facts.
IN_RATING_UNITS = {"bland_altman"}


def scale_option(c: Coefficient) -> str | None:
    """The option that names the scale ("weights" or "level"), if the coefficient has one."""
    return next((o for o in c.options if o in SCALES), None)


@dataclass(frozen=True)
class Variant:
    """One way of calling a coefficient: its options, its ratings and its invariance."""

    coefficient: Coefficient
    options: dict[str, Any] = field(default_factory=dict)
    pool: Sequence[Any] = tuple(WORDS)
    relabel: str = "any"  # the relabelling of ratings that keeps the statistic
    missing: bool = False  # may ratings be missing (None)?

    @property
    def id(self) -> str:
        shown = (f"{k}={_show(v)}" for k, v in self.options.items())
        return "-".join([self.coefficient.name, *shown])

    @property
    def pairs(self) -> bool:
        return self.coefficient.arity == 2

    def __call__(self, data: tuple[Any, ...], **options: Any) -> Any:
        return self.coefficient.function(*data, **{**self.options, **options})

    def accumulate(self) -> concord.Accumulator:
        return concord.accumulate(self.coefficient.function, **self.options)

    def batches(self, data: tuple[Any, ...], parts: Sequence[slice]) -> list[tuple[Any, ...]]:
        return [tuple(column[s] for column in data) for s in parts]

    def relabelled(self, data: tuple[Any, ...], mapping: Callable[[Any], Any]) -> Any:
        """The statistic with every rating, declared label and bound passed through mapping."""
        options = dict(self.options)
        if "labels" in options:
            options["labels"] = [mapping(v) for v in options["labels"]]
        for bound in ("min_rating", "max_rating"):
            if bound in options:
                options[bound] = mapping(options[bound])
        mapped = tuple(_map(column, mapping) for column in data)
        return statistic(self.coefficient.function(*mapped, **options))


def _show(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _map(column: Any, mapping: Callable[[Any], Any]) -> Any:
    if isinstance(column, np.ndarray):
        return np.array([[None if v is None else mapping(v) for v in row] for row in column])
    return [None if v is None else mapping(v) for v in column]


def _variants(c: Coefficient) -> list[Variant]:
    scale = scale_option(c)
    missing = c.arity == 1  # multi-rater tables drop missing ratings by design
    if scale is None:  # a fixed scale: quadratic weighted kappa reads the values
        out = [Variant(c, {}, INTS, "affine", missing)]
    else:
        out = [Variant(c, {}, WORDS, "any", missing)]
        out += [Variant(c, {scale: v}, INTS, INVARIANCE[v], missing) for v in SCALES[scale]]
    ordered = out[min(1, len(out) - 1)]  # the first variant with ordered ratings
    if "labels" in c.options:  # declared in an order of their own, one never used
        declared = {**ordered.options, "labels": [6, *reversed(INTS)]}
        out.append(Variant(c, declared, INTS, ordered.relabel, missing))
    if "nan_policy" in c.options:
        # continuous ratings are numbers, and quadratic weighted kappa reads their values
        numeric = c.table == "sums" or scale is None
        pool = INTS if numeric else WORDS
        relabel = ordered.relabel if numeric else "any"
        out.append(Variant(c, {"nan_policy": "omit"}, pool, relabel, missing=True))
    if "min_rating" in c.options and "max_rating" in c.options:
        bounds = {"min_rating": 0, "max_rating": 6}
        out.append(Variant(c, bounds, INTS, ordered.relabel, missing))
    return out


# The generic tests rate categories (WORDS, INTS as labels). The intraclass correlation
# takes continuous scores and keeps sums, not count tables: tests/test_icc.py gives it
# the same checks (merge equals one shot bit for bit, float twin equals the exact value).
CATEGORICAL = [c for c in REGISTRY if c.table != "sums"]
VARIANTS = [v for c in CATEGORICAL for v in _variants(c)]
RESULTS = [v for v in VARIANTS if v.coefficient.returns_result]


def ids(variants: Sequence[Variant]) -> list[str]:
    return [v.id for v in variants]


def statistic(value: Any) -> float:
    """The statistic of a result, or the float quadratic_weighted_kappa returns."""
    return float(value) if isinstance(value, float) else float(value.statistic)


def same(a: float, b: float) -> bool:
    """Equal to rounding: the exact cores round once, the order of sums may differ."""
    return bool(np.isclose(a, b, rtol=1e-12, atol=1e-12) or (np.isnan(a) and np.isnan(b)))


# --- data ----------------------------------------------------------------------------------------
@st.composite
def data(draw: st.DrawFn, variant: Variant, max_items: int = 25, raters: int = 0) -> tuple:
    """Random valid data for the variant's table: (a, b) lists for pairs, else (matrix,)."""
    n = draw(st.integers(1, max_items))
    cell = st.sampled_from([*variant.pool, *([None] if variant.missing else [])])
    if variant.pairs:
        a = draw(st.lists(cell, min_size=n, max_size=n))
        b = draw(st.lists(cell, min_size=n, max_size=n))
        assume(any(x is not None and y is not None for x, y in zip(a, b, strict=True)))
        return a, b
    r = raters or draw(st.integers(2, 4))
    rows = draw(st.lists(st.lists(cell, min_size=r, max_size=r), min_size=n, max_size=n))
    assume(any(v is not None for row in rows for v in row))
    return (np.array(rows, dtype=object),)


def sample(variant: Variant, n: int, seed: int = 0, raters: int = 4) -> tuple:
    """n items from a fixed rng: a true category per item, kept by each rater with
    probability 0.6, else a uniform draw; 5% missing where the variant allows it."""
    rng = np.random.default_rng(seed)
    pool = np.array(variant.pool, dtype=object)
    k = len(pool)
    truth = rng.integers(0, k, n)
    chance = rng.integers(0, k, (n, raters))
    codes = np.where(rng.random((n, raters)) < 0.6, truth[:, None], chance)
    x = pool[codes]
    if variant.missing:
        x[rng.random(x.shape) < 0.05] = None
    return (list(x[:, 0]), list(x[:, 1])) if variant.pairs else (x,)


def empty(c: Coefficient) -> tuple:
    """No ratings at all, in the coefficient's input form."""
    return ([], []) if c.arity == 2 else (np.empty((0, 0)),)


def cut(n: int, points: Sequence[int]) -> list[slice]:
    """Split range(n) at the given points into consecutive slices (some may be empty)."""
    edges = [0, *sorted(min(p, n) for p in points), n]
    return [slice(lo, hi) for lo, hi in itertools.pairwise(edges)]


# Weighted percent agreement with missing ratings: its analytic standard error is 6-15%
# above the bootstrap's spread. The cause is Gwet's linearisation, which concord follows
# as irrCAC 1.4's pa.coeff.raw does (test_percent_agreement_se_is_irrcacs in
# tests/test_bootstrap_vs_exact.py): an item with a single rating enters the variance as
# p_a,i = 0, a deviation of -p_a, which weighs most when p_a is high (weighted). With no
# singly rated item the two agree. docs/guide/implementations.md.
SE_ABOVE_BOOTSTRAP = pytest.mark.xfail(
    strict=True,
    reason="Gwet's variance of p_a counts singly rated items as p_a,i = 0 (irrCAC 1.4)",
)


# Lin's (1989) variance of the concordance correlation assumes bivariate normal ratings;
# on the few discrete scores of sample() the bootstrap's spread is about 17% larger (Lin
# 1989, section 3: the variance is normal-theory; Carrasco & Jover 2003 on its non-
# robustness). The normal-data check is in test_continuous.py.
SE_NORMAL_THEORY = pytest.mark.xfail(
    strict=True, reason="Lin's variance is normal-theory; sample() draws discrete scores"
)


def se_params(variants: Sequence[Variant]) -> list[Any]:
    """The variants, with the known standard-error mismatches marked."""
    out = []
    for v in variants:
        if v.coefficient.name == "percent_agreement" and "weights" in v.options:
            out.append(pytest.param(v, marks=SE_ABOVE_BOOTSTRAP, id=v.id))
        elif v.coefficient.name == "concordance_correlation":
            out.append(pytest.param(v, marks=SE_NORMAL_THEORY, id=v.id))
        else:
            out.append(pytest.param(v, id=v.id))
    return out
