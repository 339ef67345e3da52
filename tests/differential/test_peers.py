"""concord against the independent implementations a user could call instead, on the
seeded random data sets of tests/differential/cases.py.

Peers: scikit-learn (``cohen_kappa_score``), statsmodels (``cohens_kappa``,
``fleiss_kappa``), the ``krippendorff`` package, pingouin (``intraclass_corr``), NLTK
(``AnnotationTask``) and the irrCAC Python port 0.4.4 (optional: it pins an old numpy and
pandas, so it is installed with ``--no-deps`` where present; ``make fuzz`` does that).
Peers compute in floating point, so values are compared within ``TOLERANCE`` (relative).

Every documented difference from a peer is named where the test works around it
(``DIFFERENCES``: the peer, what differs, why, and what the test does instead). A case
that fails today because of a defect issue 24 lists is an ``xfail(strict=True)`` (``KNOWN``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import concord
from tests.differential.cases import FUZZ, Case, cases
from tests.differential.conftest import near, run_all
from tests.differential.test_exact import ITEMS, PAIRS, SCORES, has_missing, matrix, quiet

TOLERANCE = 1e-12  # relative: the peers accumulate float64 sums (one rounding each)
FLOAT_SCORES = 1e-9  # relative, non-integer scores: the peers' two-pass float sums

DIFFERENCES = {
    "float-cancellation": "statsmodels, NLTK and the irrCAC port compute p_o − p_e in floats: "
    "near κ = 0 their value is some 1e-14 off (seen: Fleiss' κ −0.0084033613445526 for the "
    "exact −1/119); compared within 1e-13 absolute (statsmodels' p-value within 1e-7: at "
    "κ = 0 its κ of 1e-16 over a null SE of 1e-8 gives p = 0.99999999 for concord's 1)",
    "sklearn-positions": "scikit-learn weights categories by their positions among the "
    "labels, concord by their values when numeric (cohen_kappa's Notes): the test gives "
    "both the positions",
    "sklearn-missing": "scikit-learn takes no missing ratings: the test drops the pairs "
    "with one, as concord's nan_policy='omit' does",
    "statsmodels-equal-raters": "statsmodels' fleiss_kappa needs the same number of "
    "ratings per item and aggregate_raters counts nan as a category: compared on complete "
    "data only",
    "statsmodels-weights": "statsmodels' cohens_kappa weights |i − j| and (i − j)² of "
    "positions: compared on positions, linear and quadratic only",
    "statsmodels-zero-variance": "statsmodels' variance cancels in floats to about 1e-16 "
    "where it is exactly 0, or is 0/0 (SE ≈ 1e-8 or nan; concord: 0, or about 1e-8 by "
    "issue 24 item 8): SEs below 1e-7 are taken as 0, and a p-value where concord's null "
    "SE is exactly 0 (p nan) is not compared",
    "irrcac-floats": "the irrCAC port accumulates in floats: a coefficient or SE that is "
    "exactly 0 comes out near 1e-15 (2e-13 with circular weights, sin² of floats); "
    "compared within 1e-12 absolute",
    "statsmodels-undefined": "statsmodels returns κ = nan and SE = nan (0/0 in floats) "
    "where concord's κ is defined as 0 (one rater constant): compared where p_e < 1",
    "krippendorff-degenerate": "the krippendorff package raises when the data hold one "
    "value only (concord: nan with a warning): skipped there",
    "pingouin-ci": "pingouin rounds its ICC intervals to 2 decimals: compared within 0.005",
    "pingouin-average-agreement-ci": "pingouin's ICC(A,k) interval is the Spearman–Brown "
    "step-up of the ICC(A,1) interval (as R psych's), where concord follows McGraw & Wong "
    "(1996) and R irr (the average form's own Satterthwaite df): concord's ICC(A,1) interval, "
    "stepped up, is compared with pingouin's",
    "pingouin-missing": "pingouin's intraclass_corr drops items with a missing rating: "
    "the scores are complete",
    "nltk-complete": "NLTK's AnnotationTask averages over coder pairs on items every coder "
    "rated: compared on complete data only",
    "nltk-one-value": "NLTK's alpha returns 1 when the data hold one value (Krippendorff "
    "2011: undefined; concord: nan): skipped there",
    "nltk-undefined-pair": "NLTK's kappa takes a pair of coders who both gave one and the "
    "same label throughout (p_o = p_e = 1) as κ = 1; Cohen's κ is 0/0 there, and concord's "
    "Light's kappa is nan with a warning: compared where every pair's κ is defined",
    "nltk-S": "NLTK's S (Bennett et al. 1954) takes q from the labels seen: concord's "
    "Brennan–Prediger is given no labels there",
    "irrcac-ordinal": "irrCAC's 'ordinal' weights are Gwet's, not Krippendorff's ordinal "
    "metric: α is compared at the nominal, interval (quadratic) and ratio levels only",
    "irrcac-alpha-se": "concord's SE of α follows irrCAC 1.4 (p'_a in the item terms), the "
    "Python port irrCAC 1.0 (p_a): α's SE is not compared",
    "irrcac-zero-se": "the irrCAC port replaces an SE of 0 by 1e-15: compared as 0",
    "irrcac-undefined": "where p_e = 1 concord's coefficient is nan (0/0); the port's p_e "
    "comes out just below 1 in floats and it reports 1.0 (SE 0.2 seen), or raises "
    "ZeroDivisionError when no item has two ratings: not compared there",
    "irrcac-conger-empty": "irrCAC gives nan for Conger's kappa when a rater rated "
    "nothing (issue 24 item 10); every rater rates an item in these data sets",
}


def close(got: float, want: float, rel: float = TOLERANCE) -> bool:
    """Within ``rel``, or 1e-13 absolute: the peers' float sums cancel near 0
    (DIFFERENCES['float-cancellation'])."""
    return near(got, want, rel, 1e-13)


def positions(case: Case) -> tuple[list[int], list[int], list[int]]:
    """The pairs both rated, as positions in the categories (scikit-learn's reading)."""
    index = {v: i for i, v in enumerate(case.categories())}
    kept = [(a, b) for a, b in zip(*case.pairs, strict=True) if a is not None and b is not None]
    return [index[a] for a, _ in kept], [index[b] for _, b in kept], list(index.values())


def concord_positions(case: Case, coefficient: Callable[..., Any], **options: Any) -> Any:
    """concord on the same positions the peer sees (DIFFERENCES['sklearn-positions'])."""
    a, b, labels = positions(case)
    return quiet(coefficient, a, b, labels=labels, **options)


WEIGHTINGS = (None, "linear", "quadratic")


@pytest.mark.parametrize("kind", PAIRS)
def test_sklearn_cohen_kappa(kind: str) -> None:
    metrics = pytest.importorskip("sklearn.metrics")

    def check(case: Case) -> list[str]:
        a, b, labels = positions(case)
        out = []
        sample = None
        if case.sample_weight is not None and not has_missing(case):
            sample = list(case.sample_weight)
        for w in WEIGHTINGS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = metrics.cohen_kappa_score(
                    a, b, labels=labels, weights=w, sample_weight=sample
                )
            got = concord_positions(case, concord.cohen_kappa, weights=w, sample_weight=sample)
            if not close(got.statistic, want):
                out.append(f"{w}: concord {got.statistic!r}, scikit-learn {want!r}")
        return out

    run_all(cases(kind), check)


@pytest.mark.parametrize("kind", ("pairs-int", "pairs-large"))
def test_sklearn_quadratic_weighted_kappa(kind: str) -> None:
    metrics = pytest.importorskip("sklearn.metrics")

    def check(case: Case) -> list[str]:
        r1, r2 = case.pairs
        labels = list(range(min(*r1, *r2), max(*r1, *r2) + 1))  # Kaggle's min..max
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one rating throughout: both nan
            want = metrics.cohen_kappa_score(r1, r2, labels=labels, weights="quadratic")
        got = quiet(concord.quadratic_weighted_kappa, r1, r2)
        return [] if close(got, want) else [f"concord {got!r}, scikit-learn {want!r}"]

    run_all(cases(kind), check)


def _table(case: Case) -> np.ndarray:
    a, b, labels = positions(case)
    table = np.zeros((len(labels), len(labels)))
    np.add.at(table, (a, b), 1)
    return table


@pytest.mark.parametrize("kind", tuple(k for k in PAIRS if k != "pairs-weighted"))
def test_statsmodels_cohens_kappa(kind: str) -> None:
    """κ, its SE (Fleiss, Cohen & Everitt 1969) and the two-sided p-value of the null SE."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

    def check(case: Case) -> list[str]:
        table = _table(case)
        out = []
        for w in WEIGHTINGS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = inter_rater.cohens_kappa(table, wt=w)
            got = concord_positions(case, concord.cohen_kappa, weights=w)
            if math.isnan(want.kappa) and got.chance_agreement != 1:
                continue  # DIFFERENCES['statsmodels-undefined']
            pairs = [("κ", got.statistic, want.kappa), ("SE", got.standard_error, want.std_kappa)]
            if want.std_kappa0 > 0:
                pairs.append(("p", got.pvalue, want.pvalue_two_sided))
            for what, g, v in pairs:
                ok = close(g, v) if what != "p" else near(g, v, 1e-9, 1e-7)
                if what == "SE" and abs(g) < 1e-7:  # DIFFERENCES['statsmodels-zero-variance']
                    ok = math.isnan(v) or abs(v) < 1e-7  # and issue 24 item 8 for concord's
                if what == "p" and math.isnan(g):  # concord's null SE is exactly 0
                    ok = want.std_kappa0 < 1e-7
                if not ok:
                    out.append(f"{w} {what}: concord {g!r}, statsmodels {v!r}")
        return out

    run_all(cases(kind), check)


def _counts(case: Case) -> np.ndarray:
    index = {v: i for i, v in enumerate(case.categories())}
    out = np.zeros((len(case.ratings), len(index)))
    for i, row in enumerate(case.ratings):
        for v in row:
            out[i, index[v]] += 1
    return out


COMPLETE_ITEMS = ("items-int", "items-degenerate", "pairs-int", "pairs-text")


@pytest.mark.parametrize("kind", COMPLETE_ITEMS)
def test_statsmodels_fleiss_kappa(kind: str) -> None:
    """Fleiss (1971) and Randolph's free-marginal kappa (= Brennan–Prediger), complete data
    (DIFFERENCES['statsmodels-equal-raters'])."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")

    def check(case: Case) -> list[str]:
        counts = _counts(case)
        m = matrix(case)
        out = []
        for method, coefficient in (
            ("fleiss", concord.fleiss_kappa),
            ("randolph", concord.brennan_prediger),
        ):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = inter_rater.fleiss_kappa(counts, method=method)
            got = quiet(coefficient, m, labels=case.categories()).statistic
            if not close(got, want):
                out.append(f"{method}: concord {got!r}, statsmodels {want!r}")
        return out

    run_all(cases(kind), check)


KNOWN: dict[tuple[str, str], str] = {}
# Scores far from zero (offsets 1e4 to 1e8, three decimals): concord's sums are exact (its
# values equal the Fraction recomputation, test_exact.py); the peers' two-pass float sums
# keep about 1e-6 relative there (pingouin's F: 288.02741 for the exact 288.02708; its ICC,
# the krippendorff package's alpha)
FAR_SCORES = 1e-5


def known(peer: str, kinds: tuple[str, ...]) -> list[Any]:
    out = []
    for kind in kinds:
        reason = KNOWN.get((peer, kind))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(kind, marks=marks, id=kind))
    return out


def _reliability(case: Case) -> np.ndarray:
    """raters × units, numbers as values, text as positions (concord's interval scores)."""
    if case.numeric:
        return matrix(case).T.astype(float)
    index = {v: i + 1 for i, v in enumerate(case.categories())}
    return np.array([[np.nan if v is None else index[v] for v in row] for row in case.ratings]).T


@pytest.mark.parametrize(
    "kind", known("krippendorff", (*ITEMS, "pairs-int", "pairs-missing", *SCORES))
)
def test_krippendorff_package(kind: str) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    if kind in ("scores-many", "scores-far") and not FUZZ:
        pytest.skip("the package takes 15 s on 570 distinct values: make fuzz runs it")
    continuous = kind.startswith("scores")
    levels = ("interval", "ratio") if continuous else ("nominal", "ordinal", "interval", "ratio")
    rel = FLOAT_SCORES if kind in ("scores-decimal", "scores-many") else TOLERANCE
    rel = FAR_SCORES if kind == "scores-far" else rel

    def check(case: Case) -> list[str]:
        data = case.ratings.T if continuous else _reliability(case)
        if len(np.unique(data[~np.isnan(data)])) < 2:
            return []  # DIFFERENCES['krippendorff-degenerate']
        source = case.ratings if continuous else matrix(case)
        labels = None if continuous else case.labels
        out = []
        for level in levels:
            want = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
            got = quiet(concord.krippendorff_alpha, source, level=level, labels=labels)
            if not close(got.statistic, want, rel):
                out.append(f"{level}: concord {got.statistic!r}, krippendorff {want!r}")
        return out

    run_all(cases(kind), check)


PINGOUIN = {  # pingouin's Type -> concord's form
    "ICC(1,1)": ("oneway", "agreement", "single"),
    "ICC(A,1)": ("twoway", "agreement", "single"),
    "ICC(C,1)": ("twoway", "consistency", "single"),
    "ICC(1,k)": ("oneway", "agreement", "average"),
    "ICC(A,k)": ("twoway", "agreement", "average"),
    "ICC(C,k)": ("twoway", "consistency", "average"),
}


@pytest.mark.parametrize("kind", known("pingouin", SCORES))
def test_pingouin_icc(kind: str) -> None:
    """The six forms, their F, p and 95% interval (DIFFERENCES['pingouin-ci'])."""
    pingouin = pytest.importorskip("pingouin")
    pandas = pytest.importorskip("pandas")
    rel = TOLERANCE if kind == "scores-int" else FLOAT_SCORES
    rel = FAR_SCORES if kind == "scores-far" else rel

    def check(case: Case) -> list[str]:
        x = case.ratings
        long = pandas.DataFrame(
            [(i, j, x[i, j]) for i in range(x.shape[0]) for j in range(x.shape[1])],
            columns=["item", "rater", "score"],
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = pingouin.intraclass_corr(long, "item", "rater", "score").set_index("Type")
        out = []
        for name, (model, type_, unit) in PINGOUIN.items():
            row = table.loc[name]
            got = quiet(concord.icc, x, model=model, type=type_, unit=unit)
            lo, hi = got.confidence_interval()
            if name == "ICC(A,k)":  # DIFFERENCES['pingouin-average-agreement-ci']
                k = x.shape[1]
                single = quiet(concord.icc, x, model=model, type=type_, unit="single")
                lo, hi = (v * k / (1 + v * (k - 1)) for v in single.confidence_interval())
            ci = row["CI95"]
            checks = [
                ("ICC", got.statistic, row["ICC"], rel),
                ("F", got.f_statistic, row["F"], rel),
                ("CI low", lo, ci[0], None),
                ("CI high", hi, ci[1], None),
            ]
            for what, g, v, tol in checks:
                ok = abs(g - v) <= 0.005 + 1e-9 if tol is None else close(g, v, tol)
                if not ok:
                    out.append(f"{name} {what}: concord {g!r}, pingouin {v!r}")
        return out

    run_all(cases(kind), check)


def _task(case: Case) -> Any:
    agreement = pytest.importorskip("nltk.metrics.agreement")
    triples = [
        (f"c{j}", f"i{i}", v) for i, row in enumerate(case.ratings) for j, v in enumerate(row)
    ]
    return agreement.AnnotationTask(data=triples)


NLTK = {  # NLTK's method -> concord's coefficient (unweighted, complete data)
    "kappa": concord.light_kappa,  # the mean of pairwise Cohen kappas
    "multi_kappa": concord.conger_kappa,  # Davies & Fleiss (1982) = Conger (1980), complete data
    "pi": concord.fleiss_kappa,  # multi-π (Fleiss 1971; Scott's π for two coders)
    "S": concord.brennan_prediger,
    "alpha": concord.krippendorff_alpha,
}


@pytest.mark.parametrize("kind", COMPLETE_ITEMS)
def test_nltk_annotation_task(kind: str) -> None:
    """DIFFERENCES['nltk-complete'], ['nltk-one-value'], ['nltk-S']."""

    def check(case: Case) -> list[str]:
        task = _task(case)
        one_value = len({v for row in case.ratings for v in row}) < 2
        out = []
        for method, coefficient in NLTK.items():
            if one_value:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = getattr(task, method)()
                except ZeroDivisionError:
                    want = math.nan
            got = quiet(coefficient, matrix(case)).statistic
            if method == "kappa" and math.isnan(got):
                continue  # DIFFERENCES['nltk-undefined-pair']
            if not close(got, want):
                out.append(f"{method}: concord {got!r}, NLTK {want!r}")
        return out

    run_all(cases(kind), check)


IRRCAC = {  # port method -> concord coefficient
    "fleiss": concord.fleiss_kappa,
    "gwet": concord.gwet_ac,
    "bp": concord.brennan_prediger,
    "conger": concord.conger_kappa,
}
IRRCAC_WEIGHTS = (
    "unweighted",
    "linear",
    "quadratic",
    "ordinal",
    "ratio",
    "radical",
    "bipolar",
    "circular",
)


@pytest.mark.parametrize("kind", (*ITEMS, "pairs-int", "pairs-text"))
def test_irrcac_port(kind: str) -> None:
    """Gwet's coefficients and their SEs, with every weighting, and α (nominal, interval,
    ratio): DIFFERENCES['irrcac-ordinal'], ['irrcac-alpha-se'], ['irrcac-zero-se'],
    ['irrcac-undefined'], ['irrcac-floats']."""
    irrcac = pytest.importorskip("irrCAC.raw")
    pandas = pytest.importorskip("pandas")

    def port(case: Case, weights: str) -> Any:
        codes = _reliability(case).T  # scores: values, or positions for text
        categories = sorted({float(v) for v in codes.ravel() if not math.isnan(v)})
        if case.labels is not None:
            scores = case.labels if case.numeric else range(1, len(case.labels) + 1)
            categories = [float(v) for v in scores]
        frame = pandas.DataFrame(codes)
        return irrcac.CAC(frame, weights=weights, categories=categories, digits=17)

    def compare(what: str, got: Any, method: str, cac: Any) -> list[str]:
        if math.isnan(got.statistic):
            return []  # DIFFERENCES['irrcac-undefined']
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(cac, method)()["est"]
        pairs = [("", got.statistic, want["coefficient_value"])]
        if method != "krippendorff":  # DIFFERENCES['irrcac-alpha-se']
            se = 0.0 if want["se"] == 1e-15 else want["se"]  # ['irrcac-zero-se']
            pairs.append((" SE", got.standard_error, se))
        return [
            f"{what}{part}: concord {g!r}, irrCAC {v!r}"
            for part, g, v in pairs
            if not near(g, v, 1e-9, 1e-12)  # DIFFERENCES['irrcac-floats']
        ]

    def check(case: Case) -> list[str]:
        m, out = matrix(case), []
        for weighting in IRRCAC_WEIGHTS:
            cac = port(case, "identity" if weighting == "unweighted" else weighting)
            for method, coefficient in IRRCAC.items():
                got = quiet(coefficient, m, weights=weighting, labels=case.categories())
                out += compare(f"{method} {weighting}", got, method, cac)
        for level, weights in (
            ("nominal", "identity"),
            ("interval", "quadratic"),
            ("ratio", "ratio"),
        ):
            got = quiet(concord.krippendorff_alpha, m, level=level, labels=case.labels)
            out += compare(f"α {level}", got, "krippendorff", port(case, weights))
        return out

    run_all(cases(kind), check)
