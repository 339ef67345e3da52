"""``concord.item_agreement``: which items are hard — per-item agreement, majority and entropy."""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common import exact_rows
from concord._studies.crowds.dawid_skene import majority_shares
from concord._studies.crowds.inputs import crowd
from concord._studies.crowds.items_result import ItemAgreementResult
from concord._tables.patterns import radix_fits
from concord._tables.weights import resolve


def item_agreement(
    ratings: Any,
    /,
    *,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    weights: Any = None,
    labels: Any = None,
) -> ItemAgreementResult:
    r"""Agreement item by item, hardest first: pairwise agreement, majority label, entropy.

    For item i with n_i ratings, n_ik of them in category k, the pairwise
    agreement is Fleiss's (1971) P_i, the share of the n_i(n_i − 1) ordered
    pairs of its ratings that agree:

    .. math::

        p_{a,i} = \frac{\sum_k n_{ik} (n^*_{ik} - 1)}{n_i (n_i - 1)},
        \qquad n^*_{ik} = \sum_l w_{kl} n_{il}

    with agreement weights w = 1 − W / max W from ``weights=`` (without
    weights w is the identity and n*_ik = n_ik), as R irrCAC weighs it.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame, or a long table
        One row per item, one column per rater (NaN/None/pd.NA where a rater
        did not rate the item); or a long table with ``item=``, ``rater=``
        and ``rating=``.
    item, rater, rating : column names, optional
        The long form's columns (all three or none).
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The categories in order (needed to weigh text labels).

    Returns
    -------
    ItemAgreementResult
        One row per item (``to_frame()``): ``n_ratings``, ``agreement``
        (p_a,i), ``majority`` and ``majority_share``, ``entropy`` (natural
        log of the label shares), sorted hardest first: lowest agreement,
        then highest entropy, then input order. ``statistic`` is the mean
        p_a,i over the items with two or more ratings (Fleiss's P̄);
        ``disagreements()`` lists the items without unanimous agreement with
        every rater's label.

    Notes
    -----
    An item rated once has no pair: its agreement is nan, it is left out of
    the mean and listed last (the summary counts such items). The majority
    label of a tied item is the first tied category in label order.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many
    raters. Psychological Bulletin 76(5), 378-382. doi:10.1037/h0031619

    Examples
    --------
    Fleiss (1971) Table 1: the mean of the items' P_i is his P̄ = 0.556.

    >>> import pandas as pd, concord
    >>> df = pd.read_csv("data/fleiss1971_diagnoses.csv", index_col="patient")
    >>> r = concord.item_agreement(df)
    >>> round(r.statistic, 3)
    0.556
    >>> r.items[:3], r.majority[:3]  # the hardest: 2 + 3 + 1 ratings, p_a = 8/30
    ((8, 15, 17), ('schizophrenia', 'neurosis', 'depression'))
    """
    func = "item_agreement"
    data = crowd(ratings, (item, rater, rating), labels, func)
    k = data.labels.k
    shares = majority_shares(data.codes, k)
    n = (data.codes >= 0).sum(axis=1)
    counts = np.rint(shares * n[:, None]).astype(np.int64)  # the vote counts
    agree = np.eye(k) if weights is None else resolve(weights, data.labels, func).agreement()
    pa = _agreement(counts, agree, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        logs = np.where(shares > 0, np.log(np.where(shares > 0, shares, 1.0)), 0.0)
    terms = shares * logs
    entropy = np.zeros(n.size)
    for j in range(k):  # column by column: elementwise additions, the same on every CPU
        entropy -= terms[:, j]
    entropy += 0.0  # no -0.0
    majority = shares.argmax(axis=1)
    order = np.lexsort((np.arange(n.size), -entropy, np.nan_to_num(pa, nan=np.inf)))
    return ItemAgreementResult(
        items=tuple(data.items[i] for i in order),
        n_ratings=n[order],
        agreement=pa[order],
        majority=tuple(data.labels.values[majority[i]] for i in order),
        majority_share=shares.max(axis=1)[order],
        entropy=entropy[order],
        raters=data.raters,
        ratings=_labelled(data.codes[order], data.labels.values),
        weighted=weights is not None,
    )


def _agreement(counts: np.ndarray, agree: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Each item's p_a = (rᵀ A r − m) / (m (m − 1)), exact, rounded once; nan under two ratings.

    :mod:`concord._common.exact_rows`: no BLAS product, so the same on every CPU.
    """
    base = int(counts.max(initial=0)) + 1
    if counts.shape[0] > 1 and radix_fits(base, counts.shape[1]):  # once per distinct row
        code = counts @ (base ** np.arange(counts.shape[1], dtype=np.int64))
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        found: np.ndarray = _exact_agreement(counts[first], agree, n[first])[inverse.ravel()]
        return found
    return _exact_agreement(counts, agree, n)


def _exact_agreement(counts: np.ndarray, agree: np.ndarray, n: np.ndarray) -> np.ndarray:
    """:func:`_agreement` of each row."""
    sizes = n.astype(np.int64)
    num, power = exact_rows.less(exact_rows.Rows(counts).forms(agree), sizes)
    pairs = sizes * (sizes - 1)
    out = exact_rows.quotients(num, power, np.maximum(pairs, 1))
    out[pairs == 0] = np.nan
    return out


def _labelled(codes: np.ndarray, values: tuple[Any, ...]) -> np.ndarray:
    """Return the ratings as an object matrix of labels, None where missing."""
    table = np.array([*values, None], dtype=object)
    return table[np.where(codes >= 0, codes, len(values))]
