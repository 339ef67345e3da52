"""Plots of agreement results, as display objects in scikit-learn's pattern.

``XDisplay.from_result(result, ...)`` reads what a result already carries
(O, E, W, contributions, bootstrap replicates, intervals) and computes no
statistic of its own; ``display.plot(ax=None, **style)`` draws it and returns
the display, with ``figure_`` and ``ax_`` (and ``im_`` for matrices) set.
matplotlib is imported only when drawing: ``pip install "concord-agreement[plot]"``.

One module per display family: :mod:`~concord.plot.kappa` (two raters' matrices and
the agreement chart), :mod:`~concord.plot.intervals` (bootstrap, forest, comparison),
:mod:`~concord.plot.continuous` (Bland–Altman, concordance), :mod:`~concord.plot.raters`
(pairwise kappa, leave-one-rater-out), :mod:`~concord.plot.spans` (γ's alignment of
one item's spans) and :mod:`~concord.plot.thresholds`.

Examples
--------
>>> import matplotlib; matplotlib.use("Agg")
>>> import concord
>>> from concord.plot import ObservedMatrixDisplay
>>> r = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2], weights="quadratic")
>>> display = ObservedMatrixDisplay.from_result(r).plot()
>>> display.matrix
array([[1, 0, 0],
       [0, 2, 0],
       [0, 1, 1]])
>>> display.figure_.savefig("/dev/null", format="svg")
>>> matplotlib.pyplot.close(display.figure_)
"""

from __future__ import annotations

from concord.plot.continuous import BlandAltmanDisplay, ConcordanceDisplay
from concord.plot.intervals import BootstrapDisplay, ComparisonDisplay, ForestDisplay
from concord.plot.kappa import (
    AgreementChartDisplay,
    ContributionsDisplay,
    ExpectedMatrixDisplay,
    ObservedMatrixDisplay,
    WeightMatrixDisplay,
)
from concord.plot.raters import PairwiseMatrixDisplay, RaterDisplay
from concord.plot.spans import SpanAlignmentDisplay
from concord.plot.thresholds import ThresholdDisplay

__all__ = [
    "AgreementChartDisplay",
    "BlandAltmanDisplay",
    "BootstrapDisplay",
    "ComparisonDisplay",
    "ConcordanceDisplay",
    "ContributionsDisplay",
    "ExpectedMatrixDisplay",
    "ForestDisplay",
    "ObservedMatrixDisplay",
    "PairwiseMatrixDisplay",
    "RaterDisplay",
    "SpanAlignmentDisplay",
    "ThresholdDisplay",
    "WeightMatrixDisplay",
]
