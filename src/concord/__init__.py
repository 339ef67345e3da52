"""concord: exact, fast and explainable agreement between raters.

The centre is quadratic weighted kappa; around it the kappa family. Every
statistic follows one path: raw ratings → validated, label-encoded arrays →
a small count table → one core function → a frozen result object.

``import concord`` needs numpy only; pandas, numba and the CLI libraries are
imported lazily, where they are used. The public names themselves are
resolved on first use (PEP 562), so ``import concord`` loads only this
module and its version; ``concord.cohen_kappa`` imports what it needs then.
"""

from __future__ import annotations

from concord._version import __version__

#: typing.TYPE_CHECKING without importing typing (mypy treats this name as True)
TYPE_CHECKING = False
if TYPE_CHECKING:  # the type checkers see every public name; the interpreter loads on use
    from concord._coefficients.continuous.bland_altman import bland_altman
    from concord._coefficients.continuous.concordance import concordance_correlation
    from concord._coefficients.continuous.icc import icc
    from concord._coefficients.kappa.categories import (
        bangdiwala_b,
        marginal_homogeneity,
        specific_agreement,
    )
    from concord._coefficients.kappa.categories_square import cochran_q, symmetry_test
    from concord._coefficients.kappa.cohen import cohen_kappa, scott_pi
    from concord._coefficients.kappa.mean import GroupedKappaResult, grouped_kappa, mean_kappa
    from concord._coefficients.kappa.qwk import quadratic_weighted_kappa
    from concord._coefficients.krippendorff.krippendorff import krippendorff_alpha
    from concord._coefficients.multirater.gwet import (
        brennan_prediger,
        fleiss_kappa,
        gwet_ac,
        percent_agreement,
    )
    from concord._coefficients.multirater.raters import conger_kappa, light_kappa
    from concord._coefficients.panel import agree
    from concord._coefficients.ranks.correlation import mean_correlation
    from concord._coefficients.ranks.cronbach import cronbach_alpha
    from concord._coefficients.ranks.kendall import kendall_w
    from concord._coefficients.ranks.overall import overall_concordance
    from concord._coefficients.spans.gamma import gamma
    from concord._coefficients.spans.span_f1 import span_agreement
    from concord._coefficients.spans.unitizing import unitizing_alpha
    from concord._common.errors import UndefinedKappaWarning
    from concord._data.matrix import CategoryCounts
    from concord._inference.intervals import ConfidenceInterval
    from concord._readers.read import read_annotations
    from concord._results.benchmark import BenchmarkLevel, BenchmarkProbabilities
    from concord._results.continuous.agreement_continuous import BlandAltmanResult, CccResult
    from concord._results.continuous.continuous import IccResult
    from concord._results.continuous.ranks import KendallResult, MeanCorrelationResult
    from concord._results.continuous.reliability import CronbachResult, OverallConcordanceResult
    from concord._results.continuous.square import CochranQResult, SymmetryResult
    from concord._results.kappa.categories import (
        BangdiwalaResult,
        MarginalHomogeneityResult,
        SpecificAgreementResult,
    )
    from concord._results.kappa.kappa import KappaResult
    from concord._results.kappa.mean import MeanKappaResult
    from concord._results.multirater.agreement import (
        AgreementResult,
        FleissResult,
        KrippendorffResult,
        LightResult,
    )
    from concord._results.multirater.panel import AgreementTable
    from concord._results.spans.gamma import GammaResult
    from concord._results.spans.span_f1 import SpanAgreementResult
    from concord._results.spans.unitizing import UnitizingAlphaResult
    from concord._results.studies.alt_test import AltTestResult
    from concord._results.studies.comparison import ComparisonResult, HomogeneityResult
    from concord._results.studies.diagnostic import DiagnosticResult
    from concord._results.studies.evaluation import EvaluationResult
    from concord._results.studies.gold import GoldResult
    from concord._results.studies.intra_rater import IntraRaterResult
    from concord._results.studies.labels import LabelAgreementResult
    from concord._results.studies.plan import PlanResult
    from concord._results.studies.raters import RaterDiagnostics
    from concord._streaming.accumulator import Accumulator, accumulate
    from concord._streaming.drift import drift
    from concord._streaming.drift_result import DriftResult
    from concord._studies.compare.compare import compare, homogeneity
    from concord._studies.crowds.consensus import consensus
    from concord._studies.crowds.consensus_result import ConsensusResult
    from concord._studies.crowds.items import item_agreement
    from concord._studies.crowds.items_result import ItemAgreementResult
    from concord._studies.evaluate.evaluate import evaluate
    from concord._studies.judges.accuracy import diagnostic_accuracy
    from concord._studies.judges.alt_test import alt_test
    from concord._studies.judges.intra_rater import intra_rater
    from concord._studies.labels.label_agreement import label_agreement
    from concord._studies.plan.plan import plan
    from concord._studies.raters.diagnostics import rater_diagnostics
    from concord._studies.raters.gold import against_gold
    from concord._studies.spans.tokens import token_agreement, token_ratings
    from concord._tables.weights import weight_matrix
    from concord._thresholds.estimator import ThresholdClassifier
    from concord._thresholds.optimize import (
        CrossValidatedKappa,
        ThresholdResult,
        cross_validated_kappa,
        optimize_thresholds,
    )

__all__ = [
    "Accumulator",
    "AgreementResult",
    "AgreementTable",
    "AltTestResult",
    "BangdiwalaResult",
    "BenchmarkLevel",
    "BenchmarkProbabilities",
    "BlandAltmanResult",
    "CategoryCounts",
    "CccResult",
    "CochranQResult",
    "ComparisonResult",
    "ConfidenceInterval",
    "ConsensusResult",
    "CronbachResult",
    "CrossValidatedKappa",
    "DiagnosticResult",
    "DriftResult",
    "EvaluationResult",
    "FleissResult",
    "GammaResult",
    "GoldResult",
    "GroupedKappaResult",
    "HomogeneityResult",
    "IccResult",
    "IntraRaterResult",
    "ItemAgreementResult",
    "KappaResult",
    "KendallResult",
    "KrippendorffResult",
    "LabelAgreementResult",
    "LightResult",
    "MarginalHomogeneityResult",
    "MeanCorrelationResult",
    "MeanKappaResult",
    "OverallConcordanceResult",
    "PlanResult",
    "RaterDiagnostics",
    "SpanAgreementResult",
    "SpecificAgreementResult",
    "SymmetryResult",
    "ThresholdClassifier",
    "ThresholdResult",
    "UndefinedKappaWarning",
    "UnitizingAlphaResult",
    "__version__",
    "accumulate",
    "against_gold",
    "agree",
    "alt_test",
    "bangdiwala_b",
    "bland_altman",
    "brennan_prediger",
    "cochran_q",
    "cohen_kappa",
    "compare",
    "concordance_correlation",
    "conger_kappa",
    "consensus",
    "cronbach_alpha",
    "cross_validated_kappa",
    "diagnostic_accuracy",
    "drift",
    "evaluate",
    "fleiss_kappa",
    "gamma",
    "grouped_kappa",
    "gwet_ac",
    "homogeneity",
    "icc",
    "intra_rater",
    "item_agreement",
    "kendall_w",
    "krippendorff_alpha",
    "label_agreement",
    "light_kappa",
    "marginal_homogeneity",
    "mean_correlation",
    "mean_kappa",
    "optimize_thresholds",
    "overall_concordance",
    "percent_agreement",
    "plan",
    "quadratic_weighted_kappa",
    "rater_diagnostics",
    "read_annotations",
    "scott_pi",
    "span_agreement",
    "specific_agreement",
    "symmetry_test",
    "token_agreement",
    "token_ratings",
    "unitizing_alpha",
    "weight_matrix",
]

#: Where each public name is defined: imported on first access by __getattr__.
_WHERE: dict[str, str] = {
    "Accumulator": "concord._streaming.accumulator",
    "AgreementResult": "concord._results.multirater.agreement",
    "AgreementTable": "concord._results.multirater.panel",
    "AltTestResult": "concord._results.studies.alt_test",
    "BangdiwalaResult": "concord._results.kappa.categories",
    "BenchmarkLevel": "concord._results.benchmark",
    "BenchmarkProbabilities": "concord._results.benchmark",
    "BlandAltmanResult": "concord._results.continuous.agreement_continuous",
    "CategoryCounts": "concord._data.matrix",
    "CccResult": "concord._results.continuous.agreement_continuous",
    "CochranQResult": "concord._results.continuous.square",
    "ComparisonResult": "concord._results.studies.comparison",
    "ConfidenceInterval": "concord._inference.intervals",
    "ConsensusResult": "concord._studies.crowds.consensus_result",
    "CronbachResult": "concord._results.continuous.reliability",
    "CrossValidatedKappa": "concord._thresholds.optimize",
    "DiagnosticResult": "concord._results.studies.diagnostic",
    "DriftResult": "concord._streaming.drift_result",
    "EvaluationResult": "concord._results.studies.evaluation",
    "FleissResult": "concord._results.multirater.agreement",
    "GoldResult": "concord._results.studies.gold",
    "GroupedKappaResult": "concord._coefficients.kappa.mean",
    "HomogeneityResult": "concord._results.studies.comparison",
    "IccResult": "concord._results.continuous.continuous",
    "IntraRaterResult": "concord._results.studies.intra_rater",
    "LabelAgreementResult": "concord._results.studies.labels",
    "ItemAgreementResult": "concord._studies.crowds.items_result",
    "KappaResult": "concord._results.kappa.kappa",
    "KendallResult": "concord._results.continuous.ranks",
    "GammaResult": "concord._results.spans.gamma",
    "gamma": "concord._coefficients.spans.gamma",
    "KrippendorffResult": "concord._results.multirater.agreement",
    "LightResult": "concord._results.multirater.agreement",
    "MarginalHomogeneityResult": "concord._results.kappa.categories",
    "MeanCorrelationResult": "concord._results.continuous.ranks",
    "MeanKappaResult": "concord._results.kappa.mean",
    "OverallConcordanceResult": "concord._results.continuous.reliability",
    "PlanResult": "concord._results.studies.plan",
    "RaterDiagnostics": "concord._results.studies.raters",
    "SpanAgreementResult": "concord._results.spans.span_f1",
    "SpecificAgreementResult": "concord._results.kappa.categories",
    "SymmetryResult": "concord._results.continuous.square",
    "ThresholdResult": "concord._thresholds.optimize",
    "UndefinedKappaWarning": "concord._common.errors",
    "UnitizingAlphaResult": "concord._results.spans.unitizing",
    "accumulate": "concord._streaming.accumulator",
    "against_gold": "concord._studies.raters.gold",
    "agree": "concord._coefficients.panel",
    "alt_test": "concord._studies.judges.alt_test",
    "bangdiwala_b": "concord._coefficients.kappa.categories",
    "bland_altman": "concord._coefficients.continuous.bland_altman",
    "brennan_prediger": "concord._coefficients.multirater.gwet",
    "cochran_q": "concord._coefficients.kappa.categories_square",
    "cohen_kappa": "concord._coefficients.kappa.cohen",
    "compare": "concord._studies.compare.compare",
    "concordance_correlation": "concord._coefficients.continuous.concordance",
    "conger_kappa": "concord._coefficients.multirater.raters",
    "consensus": "concord._studies.crowds.consensus",
    "cronbach_alpha": "concord._coefficients.ranks.cronbach",
    "cross_validated_kappa": "concord._thresholds.optimize",
    "diagnostic_accuracy": "concord._studies.judges.accuracy",
    "drift": "concord._streaming.drift",
    "evaluate": "concord._studies.evaluate.evaluate",
    "fleiss_kappa": "concord._coefficients.multirater.gwet",
    "grouped_kappa": "concord._coefficients.kappa.mean",
    "gwet_ac": "concord._coefficients.multirater.gwet",
    "homogeneity": "concord._studies.compare.compare",
    "icc": "concord._coefficients.continuous.icc",
    "intra_rater": "concord._studies.judges.intra_rater",
    "label_agreement": "concord._studies.labels.label_agreement",
    "item_agreement": "concord._studies.crowds.items",
    "kendall_w": "concord._coefficients.ranks.kendall",
    "krippendorff_alpha": "concord._coefficients.krippendorff.krippendorff",
    "light_kappa": "concord._coefficients.multirater.raters",
    "marginal_homogeneity": "concord._coefficients.kappa.categories",
    "mean_correlation": "concord._coefficients.ranks.correlation",
    "mean_kappa": "concord._coefficients.kappa.mean",
    "optimize_thresholds": "concord._thresholds.optimize",
    "overall_concordance": "concord._coefficients.ranks.overall",
    "percent_agreement": "concord._coefficients.multirater.gwet",
    "plan": "concord._studies.plan.plan",
    "quadratic_weighted_kappa": "concord._coefficients.kappa.qwk",
    "rater_diagnostics": "concord._studies.raters.diagnostics",
    "read_annotations": "concord._readers.read",
    "scott_pi": "concord._coefficients.kappa.cohen",
    "span_agreement": "concord._coefficients.spans.span_f1",
    "specific_agreement": "concord._coefficients.kappa.categories",
    "symmetry_test": "concord._coefficients.kappa.categories_square",
    "token_agreement": "concord._studies.spans.tokens",
    "token_ratings": "concord._studies.spans.tokens",
    "unitizing_alpha": "concord._coefficients.spans.unitizing",
    "weight_matrix": "concord._tables.weights",
    "ThresholdClassifier": "concord._thresholds.estimator",
}

_SUBMODULES = ("dask", "plot", "report")


def __getattr__(name: str) -> object:
    """Import a public name's module on first access, and keep the name (PEP 562)."""
    import importlib

    where = _WHERE.get(name)
    if where is not None:
        value = getattr(importlib.import_module(where), name)
        if name != "ThresholdClassifier":  # it imports scikit-learn: asked again on each use
            globals()[name] = value
        return value
    # concord.plot and concord.report import matplotlib and jinja2 only when they draw
    if name in _SUBMODULES:
        return importlib.import_module(f"concord.{name}")
    raise AttributeError(f"module 'concord' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Every public name, loaded or not."""
    return sorted(set(globals()) | set(__all__))
