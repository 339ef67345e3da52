"""``concord.consensus``: one label per item from many raters, by majority or Dawid & Skene."""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import check_option, param_error
from concord._studies.crowds import dawid_skene
from concord._studies.crowds.consensus_result import ConsensusResult
from concord._studies.crowds.inputs import Crowd, crowd

METHODS = ("majority", "dawid-skene")


def consensus(
    ratings: Any,
    /,
    *,
    method: str = "majority",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    labels: Any = None,
    max_iter: int = 1000,
    tol: float = 1e-10,
) -> ConsensusResult:
    """Consensus labels: one per item, with posteriors and each rater's confusion matrix.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame, or a long table
        One row per item, one column per rater (NaN/None/pd.NA where a rater
        did not rate the item); or, with ``item=``, ``rater=`` and
        ``rating=``, a table with one rating per row.
    method : {"majority", "dawid-skene"}
        ``"majority"``: the most voted category, the vote shares as
        posteriors. ``"dawid-skene"``: Dawid & Skene's (1979) EM, which
        weighs each rater by their estimated error rates.
    item, rater, rating : column names, optional
        The long form's columns (all three or none).
    labels : sequence, optional
        The categories in order (a category nobody used gets a column of
        zeros); default the sorted distinct ratings.
    max_iter : int
        Dawid-Skene only: the most EM iterations.
    tol : float
        Dawid-Skene only: EM stops when no posterior moves by ``tol`` or more
        in an iteration.

    Returns
    -------
    ConsensusResult
        ``.labels``, ``.posteriors`` (items × categories), ``.confusions``
        (one k×k matrix per rater, rows = true class), ``.rater_accuracy``,
        ``.priors``, ``.tied``; ``.statistic`` is the chosen labels' mean posterior.

    Notes
    -----
    Ties: a tie goes to the first tied category in label order (the
    sorted or declared labels), for both methods; ``.tied`` marks these
    items. (crowd-kit's ``idxmax`` takes the first in its own column order,
    which follows the data, so its tied labels may differ.)

    Dawid-Skene starts from the majority vote's shares (soft, as crowd-kit's
    ``DawidSkene`` does, so a tied item starts at equal shares), floors the
    error rates of the labels a rater used at 1e-10 before normalising (so a
    class with no mass gets equal rates instead of 0/0), and reaches
    crowd-kit's fixed point where the likelihood's optimum is unique. EM
    finds a *local* optimum: with few items per rater, raters who never
    overlap, or label switching (a crowd that is mostly wrong), another
    start may give a higher likelihood. A rater who rated one item has a
    single label whose rate is 1 under every class: that rating carries no
    evidence and does not move the posteriors. Raters who share no item
    are not compared: each item's posterior then rests on its own raters'
    rates and the priors.

    References
    ----------
    Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of
    observer error-rates using the EM algorithm. Applied Statistics 28(1),
    20-28. doi:10.2307/2346806

    Examples
    --------
    >>> import concord
    >>> r = concord.consensus([["a", "a", "b"], ["b", "b", "b"], ["a", "b", None]])
    >>> r.labels  # the third item is tied: the first label in order wins
    ('a', 'b', 'a')
    >>> r.tied.tolist()
    [False, False, True]
    """
    func = "consensus"
    check_option(func, "method", method, METHODS)
    if not isinstance(max_iter, int) or isinstance(max_iter, bool) or max_iter < 1:
        param_error(func, "max_iter", "a whole number of at least 1", max_iter)
    if not isinstance(tol, int | float) or isinstance(tol, bool) or not tol > 0:
        param_error(func, "tol", "a positive number", tol)
    data = crowd(ratings, (item, rater, rating), labels, func)
    if method == "majority":
        return _majority(data)
    return _dawid_skene(data, max_iter, float(tol))


def _chosen(posteriors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return each item's top category (first in label order on ties) and whether it tied."""
    top = posteriors.max(axis=1, keepdims=True)
    best = np.isclose(posteriors, top, rtol=0, atol=1e-12)
    return best.argmax(axis=1), best.sum(axis=1) > 1  # the first of the tied (within 1e-12)


def _majority(data: Crowd) -> ConsensusResult:
    k = data.labels.k
    shares = dawid_skene.majority_shares(data.codes, k)
    chosen, tied = _chosen(shares)
    confusions, accuracy = {}, {}
    for j, name in enumerate(data.raters):
        rated = data.codes[:, j] >= 0
        counts = np.bincount(chosen[rated] * k + data.codes[rated, j], minlength=k * k).reshape(
            k, k
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            confusions[name] = counts / counts.sum(axis=1, keepdims=True)
        accuracy[name] = float(np.trace(counts) / rated.sum()) if rated.any() else np.nan
    return _result("majority", data, shares, chosen, tied, confusions, accuracy)


def _dawid_skene(data: Crowd, max_iter: int, tol: float) -> ConsensusResult:
    fit = dawid_skene.fit(data.codes, data.labels.k, max_iter=max_iter, tol=tol)
    chosen, tied = _chosen(fit.posteriors)
    confusions, accuracy = {}, {}
    for j, name in enumerate(data.raters):
        rated = data.codes[:, j] >= 0
        confusions[name] = fit.errors[j]
        given = fit.posteriors[rated, data.codes[rated, j]]
        accuracy[name] = float(given.mean()) if given.size else np.nan
    return _result(
        "dawid-skene", data, fit.posteriors, chosen, tied, confusions, accuracy,
        priors=fit.priors, n_iter=fit.n_iter, converged=fit.converged,
    )  # fmt: skip


def _result(
    method: str,
    data: Crowd,
    posteriors: np.ndarray,
    chosen: np.ndarray,
    tied: np.ndarray,
    confusions: dict[Any, np.ndarray],
    accuracy: dict[Any, float],
    **fit: Any,
) -> ConsensusResult:
    values = data.labels.values
    fit.setdefault("priors", posteriors.mean(axis=0))
    return ConsensusResult(
        method,
        tuple(values[c] for c in chosen),
        data.items,
        values,
        posteriors,
        confusions,
        accuracy,
        tied=tied,
        **fit,
    )
