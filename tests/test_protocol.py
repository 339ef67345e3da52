"""Every public result speaks one protocol (issue 25), checked as scikit-learn's common tests do.

The public classes and functions are found by introspection of
``concord.__all__``: a result type or a function returning one that is added
later and not registered below makes ``test_every_public_*_is_registered``
fail, and once registered it gets every protocol check. The protocol
(src/concord/_results/protocol.py): ``.statistic`` (a real number),
``summary()``, ``explain()``, ``to_dict()`` (JSON-safe), ``to_frame()`` (the
tidy columns), ``_repr_html_()``, ``_report_section_()``, and
``interpret()`` where a published scale exists.
"""

from __future__ import annotations

import inspect
import json
import math
import numbers
import warnings

import numpy as np
import pandas as pd
import pytest

import concord

COLUMNS = ["coefficient", "statistic", "standard_error", "ci_low", "ci_high", "pvalue", "n"]

# public classes that are not results: each with what it is
NOT_RESULTS = {
    "Accumulator": "the state of accumulate()",
    "BenchmarkLevel": "one level of interpret(probabilistic=True)",
    "BenchmarkProbabilities": "what interpret(probabilistic=True) returns: a reading",
    "CategoryCounts": "an input: an items x categories count table",
    "ConfidenceInterval": "a (low, high) pair",
    "ThresholdClassifier": "a scikit-learn estimator",
    "UndefinedKappaWarning": "a warning",
}
# public functions that return no result
NOT_RESULT_FUNCTIONS = {
    "accumulate": "returns an Accumulator",
    "weight_matrix": "returns an array",
    "read_annotations": "returns a pandas DataFrame: the ratings of an annotation export",
    "token_ratings": "returns a DataFrame: spans painted on a grid (token_agreement's ratings)",
    "quadratic_weighted_kappa": "returns a float: Hamner's metric for scoring loops (the "
    'result is cohen_kappa(..., weights="quadratic"))',
}

# small data: two raters with names, a panel of three
A = [1, 2, 3, 3, 2, 1, 2, 3, 1, 2, 3, 1]
B = [1, 2, 3, 2, 2, 1, 3, 3, 1, 2, 2, 1]
C = [1, 3, 3, 3, 2, 1, 2, 3, 2, 2, 3, 1]
PANEL = np.column_stack([A, B, C])
X = [494.0, 395, 516, 434, 476, 557, 413, 442, 650, 433]
Y = [512.0, 430, 520, 428, 500, 600, 364, 380, 658, 445]


def _alt_test():
    truth = np.tile(["yes", "no", "no", "yes", "maybe"], 8)
    humans = np.column_stack([truth, truth, truth]).astype(object)
    humans[[0, 5, 10, 15, 20, 25], 0] = "maybe"
    humans[[1, 6, 11, 16], 1] = "yes"
    humans[[2, 7, 12, 17, 22], 2] = "yes"
    judge = truth.astype(object)
    judge[[3, 8]] = "no"
    return concord.alt_test(humans, judge, epsilon=0.2)


def _intra_rater():
    rows = [
        {"item": i, "rater": r, "trial": t, "rating": (v + (t == 2 and i % 4 == 0)) % 3}
        for r, values in (("ann", A), ("bob", B))
        for t in (1, 2)
        for i, v in enumerate(values)
    ]
    return concord.intra_rater(
        pd.DataFrame(rows), item="item", rater="rater", trial="trial", rating="rating"
    )


def _grouped():
    frame = pd.DataFrame({"set": [1] * 6 + [2] * 6, "a": A, "b": B})
    return concord.grouped_kappa(frame, by="set", rater1="a", rater2="b")


# spans of two raters on two items (item, rater, start, end, label)
SPANS = {
    "item": ["d1", "d1", "d1", "d1", "d2", "d2", "d2"],
    "rater": ["ann", "ann", "bob", "bob", "ann", "bob", "bob"],
    "start": [0, 10, 1, 12, 3, 3, 20],
    "end": [5, 20, 5, 20, 9, 9, 25],
    "label": ["PER", "LOC", "PER", "ORG", "PER", "PER", "LOC"],
}

SCORES = np.array([0.1, 1.2, 2.9, 2.6, 1.4, 0.7, 2.2, 3.1, 0.9, 1.8, 2.4, 0.2])

# every public function that returns a result: a call on small data
CALLS = {
    "against_gold": lambda: concord.against_gold(PANEL[:, 1:], PANEL[:, 0]),
    "agree": lambda: concord.agree(PANEL),
    "alt_test": _alt_test,
    "bangdiwala_b": lambda: concord.bangdiwala_b(A, B),
    "bland_altman": lambda: concord.bland_altman(X, Y),
    "brennan_prediger": lambda: concord.brennan_prediger(PANEL),
    "cohen_kappa": lambda: concord.cohen_kappa(A, B),
    "cochran_q": lambda: concord.cochran_q(PANEL > 1),
    "compare": lambda: concord.compare(concord.fleiss_kappa, PANEL, np.column_stack([A, B, A])),
    "concordance_correlation": lambda: concord.concordance_correlation(X, Y),
    "conger_kappa": lambda: concord.conger_kappa(PANEL),
    "cronbach_alpha": lambda: concord.cronbach_alpha(PANEL.astype(float)),
    "consensus": lambda: concord.consensus(PANEL),
    "cross_validated_kappa": lambda: concord.cross_validated_kappa(
        np.tile(A, 3), np.tile(SCORES, 3), cv=3, rng=0
    ),
    "diagnostic_accuracy": lambda: concord.diagnostic_accuracy(
        [a > 1 for a in A], [b > 1 for b in B]
    ),
    "drift": lambda: concord.drift(
        pd.DataFrame(np.tile(PANEL, (2, 1)), columns=["a", "b", "c"]).assign(t=range(24)),
        time="t",
        window=12,
    ),
    "evaluate": lambda: concord.evaluate(
        [4, 4, 4, 3, 2, 2, 4, 2, 3, 3], [4.1, 4.3, 2.9, 3.9, 3.5, 1.5, 4.2, 1.9, 3.2, 2.8]
    ),
    "fleiss_kappa": lambda: concord.fleiss_kappa(PANEL),
    "gamma": lambda: concord.gamma(SPANS, precision_level=0.2, rng=0),
    "grouped_kappa": _grouped,
    "gwet_ac": lambda: concord.gwet_ac(PANEL),
    "homogeneity": lambda: concord.homogeneity(
        concord.cohen_kappa(A, B), concord.cohen_kappa(A, C)
    ),
    "icc": lambda: concord.icc(PANEL.astype(float)),
    "intra_rater": _intra_rater,
    "item_agreement": lambda: concord.item_agreement(PANEL),
    "label_agreement": lambda: concord.label_agreement(
        [[{"a"}, {"a", "b"}, {"b"}], [{"b"}, {"b"}, {"a", "b"}], [{"a"}, {"a"}, {"a"}]] * 3
    ),
    "kendall_w": lambda: concord.kendall_w(PANEL),
    "krippendorff_alpha": lambda: concord.krippendorff_alpha(PANEL),
    "light_kappa": lambda: concord.light_kappa(PANEL),
    "marginal_homogeneity": lambda: concord.marginal_homogeneity(A, B),
    "mean_kappa": lambda: concord.mean_kappa(
        [concord.cohen_kappa(A, B), concord.cohen_kappa(A, C)]
    ),
    "mean_correlation": lambda: concord.mean_correlation(PANEL.astype(float)),
    "optimize_thresholds": lambda: concord.optimize_thresholds(A, SCORES),
    "overall_concordance": lambda: concord.overall_concordance(PANEL.astype(float)),
    "percent_agreement": lambda: concord.percent_agreement(PANEL),
    "plan": lambda: concord.plan("cohen", expected=0.8, null=0.6),
    "rater_diagnostics": lambda: concord.rater_diagnostics(PANEL),
    "scott_pi": lambda: concord.scott_pi(A, B),
    "span_agreement": lambda: concord.span_agreement(
        {
            "item": [1, 1, 1, 1, 2, 2, 2],
            "rater": ["ann", "ann", "bob", "bob", "ann", "bob", "cy"],
            "start": [0, 10, 0, 11, 0, 0, 1],
            "end": [4, 15, 4, 15, 5, 5, 5],
            "label": ["PER", "LOC", "PER", "LOC", "PER", "PER", "PER"],
        },
        rng=0,
    ),
    "specific_agreement": lambda: concord.specific_agreement(A, B),
    "symmetry_test": lambda: concord.symmetry_test(A, B),
    "token_agreement": lambda: concord.token_agreement(
        {
            "item": [1, 1, 1, 2],
            "rater": ["ann", "ann", "bob", "bob"],
            "start": [0, 9, 0, 2],
            "end": [4, 11, 4, 5],
            "label": ["PER", "PER", "PER", "LOC"],
        },
        lengths={1: 12, 2: 8},
    ),
    "unitizing_alpha": lambda: concord.unitizing_alpha(
        {
            "item": [0, 0, 0, 0],
            "rater": ["a", "b", "a", "b"],
            "start": [0, 1, 6, 6],
            "end": [4, 4, 9, 8],
            "label": ["x", "x", "y", "y"],
        },
        lengths={0: 12},
    ),
}

# results whose frame has a row per item and whose headline is the mean of its statistic column
PER_ITEM = {"item_agreement", "consensus"}

# result types no public function returns as such: built another way
OTHER_BUILDS = {
    "AgreementResult": lambda: concord.agree(PANEL)["fleiss_kappa"],
}

# the result types that have a published verbal scale: interpret() returns a word
SCALED = {
    "AgreementResult",
    "FleissResult",
    "GoldResult",
    "GroupedKappaResult",
    "IccResult",
    "KappaResult",
    "KrippendorffResult",
    "LightResult",
    "MeanKappaResult",
    "RaterDiagnostics",
    "ThresholdResult",
    "CrossValidatedKappa",
}


def _public():
    return {name: getattr(concord, name) for name in concord.__all__ if name != "__version__"}


def _result_types():
    return sorted(
        n for n, obj in _public().items() if inspect.isclass(obj) and n not in NOT_RESULTS
    )


def _built():
    """Every result the registry builds, by its call, each warning-free."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, call in {**CALLS, **OTHER_BUILDS}.items():
            out[name] = call()
    return out


BUILT = _built()


def test_every_public_class_is_registered():
    """A new public class is a result (it gets the checks) or is listed as not one."""
    returned = {type(r).__name__ for r in BUILT.values()}
    for result in BUILT.values():
        returned |= {c.__name__ for c in type(result).__mro__}
    missing = [n for n in _result_types() if n not in returned]
    assert not missing, f"public result types no registered call builds: {missing}"


def test_every_public_function_is_registered():
    functions = {n for n, obj in _public().items() if callable(obj) and not inspect.isclass(obj)}
    unknown = functions - set(CALLS) - set(NOT_RESULT_FUNCTIONS)
    assert not unknown, f"public functions neither called here nor listed: {sorted(unknown)}"


@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_function_returns_a_public_result_type(name):
    public = {obj for n, obj in _public().items() if n in _result_types()}
    assert type(BUILT[name]) in public, (name, type(BUILT[name]))


RESULTS = sorted(BUILT)


@pytest.mark.parametrize("name", RESULTS)
def test_statistic_is_the_headline_number(name):
    value = BUILT[name].statistic
    assert isinstance(value, numbers.Real) and not isinstance(value, bool)
    assert math.isfinite(float(value))


@pytest.mark.parametrize("name", RESULTS)
def test_summary_and_explain_are_text(name):
    r = BUILT[name]
    assert isinstance(r.summary(), str) and r.summary().strip()
    assert isinstance(r.explain(), str) and r.explain().strip()


@pytest.mark.parametrize("name", RESULTS)
def test_to_dict_is_json_safe(name):
    text = json.dumps(BUILT[name].to_dict(), allow_nan=False)
    assert text.startswith("{")


@pytest.mark.parametrize("name", RESULTS)
def test_to_frame_has_the_tidy_columns(name):
    frame = BUILT[name].to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) >= 1
    columns = list(frame.reset_index().columns)
    assert set(COLUMNS) <= set(columns), (name, columns)
    for legacy in ("icc", "low", "high", "estimate", "value"):
        assert legacy not in columns, (name, legacy)
    # the headline is one of the statistic column's values, or, for a per-item frame
    # (item_agreement, consensus), their mean
    values = frame.reset_index()["statistic"].astype(float).to_numpy()
    headline = float(BUILT[name].statistic)
    per_item = name in PER_ITEM and np.isclose(np.nanmean(values), headline)
    assert np.isclose(values, headline).any() or per_item, (name, values)


@pytest.mark.parametrize("name", RESULTS)
def test_notebook_html(name):
    r = BUILT[name]
    page = r._repr_html_()
    assert page.startswith('<div class="concord-result">') and page.endswith("</div>")
    assert "<script" not in page


@pytest.mark.parametrize("name", RESULTS)
def test_report_section(name):
    r = BUILT[name]
    section = r._report_section_()
    assert section.title and section.sentence == r.summary()
    assert section.explanation == r.explain()
    assert section.rows and all(isinstance(v, str) for row in section.rows for v in row.values())


@pytest.mark.parametrize("name", RESULTS)
def test_interpret_where_a_scale_exists(name):
    r = BUILT[name]
    kinds = {c.__name__ for c in type(r).__mro__}
    if kinds & SCALED:
        # percent agreement is not chance-corrected: no default scale, one must be named
        word = r.interpret("altman") if name == "percent_agreement" else r.interpret()
        assert word in {
            "poor",
            "slight",
            "fair",
            "moderate",
            "substantial",
            "almost perfect",
            "good",
            "excellent",
            "unacceptable",
            "tentative",
            "acceptable",
            "very good",
        }, (name, word)


def test_mean_kappa_is_a_result_and_still_a_float():
    """mean_kappa returned a bare float; now a result that is one (round, compare, json)."""
    m = BUILT["mean_kappa"]
    assert isinstance(m, float) and round(m, 6) == round(float(m), 6)
    assert json.loads(json.dumps(m)) == pytest.approx(float(m))
    low, high = m.confidence_interval()
    assert low < m.statistic < high and m.standard_error > 0


def test_dask_results_speak_the_protocol():
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(pd.DataFrame({"a": A, "b": B}), npartitions=2)
    import concord.dask

    r = concord.dask.compute(concord.cohen_kappa, frame["a"], frame["b"])
    assert r.statistic == pytest.approx(BUILT["cohen_kappa"].statistic)
    assert r._report_section_().title and set(COLUMNS) <= set(r.to_frame().columns)


def test_concord_ml_returns_no_result_type():
    """concord.ml's functions return scorers, metrics and losses: no result to register here."""
    import typing

    import concord.ml

    results = set(_result_types())
    for name in concord.ml.__all__:
        hints = typing.get_type_hints(getattr(concord.ml, name))
        returned = str(hints.get("return", ""))
        assert not any(t in returned for t in results), (name, returned)
