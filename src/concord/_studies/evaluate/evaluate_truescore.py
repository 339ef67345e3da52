"""True-score evaluation: PRMSE with any number of human scores per response.

Loukina, Madnani, Cahill, Yao, Johnson, Riordan & McCaffrey (2020), "Using
PRMSE to evaluate automated scoring systems in the presence of label
noise", BEA workshop, doi:10.18653/v1/2020.bea-1.2. The arithmetic is
RSMTool's ``rsmtool/utils/prmse.py`` (rsmtool 12) operation by operation:
a response may have one human score or several (NaN where a rater did not
score it), and only responses with two or more inform the variance of the
raters' errors.
"""

from __future__ import annotations

import math

import numpy as np

from concord._results.studies.evaluation_parts import TrueScore


def variance_of_errors(humans: np.ndarray) -> float:
    """Return the pooled within-response variance of the human scores (nan: none double)."""
    n_scores = (~np.isnan(humans)).sum(axis=1)
    multiple = n_scores > 1
    if not multiple.any():
        return math.nan
    per_response = np.nanvar(humans[multiple], ddof=1, axis=1)
    return float(np.average(per_response, weights=n_scores[multiple] - 1))


def true_score_variance(humans: np.ndarray, error_variance: float) -> float:
    """Return the variance of the true scores, corrected for the raters' error variance."""
    mean_scores = np.nanmean(humans, axis=1)
    n_scores = (~np.isnan(humans)).sum(axis=1)
    grand_mean = np.nanmean(humans)
    n = len(humans)
    m = n_scores.sum()
    sum_of_squares = (n_scores * (mean_scores - grand_mean) ** 2).sum()
    numerator = sum_of_squares - (n - 1) * error_variance
    denominator = m - ((n_scores**2).sum() / m)
    return float(numerator / denominator)


def mse_true(machine: np.ndarray, humans: np.ndarray, error_variance: float) -> float:
    """Return the machine score's mean squared error against the true score."""
    n_scores = (~np.isnan(humans)).sum(axis=1)
    mean_scores = np.nanmean(humans, axis=1)
    se = ((mean_scores - machine) ** 2) * n_scores
    return float((se.sum() - len(machine) * error_variance) / n_scores.sum())


def true_score(machine: np.ndarray, humans: np.ndarray) -> TrueScore:
    """Return one row of the true-score table for ``machine`` against the (n, k) human scores."""
    n_scores = (~np.isnan(humans)).sum(axis=1)
    error_variance = variance_of_errors(humans)
    if math.isnan(error_variance):
        true_var = mse = prmse = math.nan
    else:
        true_var = true_score_variance(humans, error_variance)
        mse = mse_true(machine, humans, error_variance)
        prmse = 1 - (mse / true_var)
    return TrueScore(
        n=len(humans),
        n_raters=int(n_scores.max()),
        n_single=int(np.count_nonzero(n_scores == 1)),
        n_multiple=int(np.count_nonzero(n_scores > 1)),
        variance_of_errors=error_variance,
        true_score_variance=true_var,
        mse_true=mse,
        prmse_true=prmse,
    )
