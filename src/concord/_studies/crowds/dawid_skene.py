"""Dawid & Skene's (1979) EM on label codes, vectorised over the observed responses.

The ratings are the (items × raters) codes of a :class:`RatingMatrix` (-1 where
a rater did not rate an item). Each observed rating is one response (item,
rater, label); a response's *key* is its (rater, label) pair. The E-step
gathers each response's log error rates and sums them per item
(``np.add.reduceat`` over responses in item order); the M-step sums the
items' posteriors per key (``reduceat`` over responses in key order). Where the
items × keys count matrix is small enough (``DENSE`` cells), both steps are
one matrix product with it instead. Only the
(rater, label) pairs that occur have error rates, as in crowd-kit's
``DawidSkene``: they are floored at 1e-10 before each rater's columns are
normalised, so that a true class with no posterior mass (0/0) gets equal rates
over the labels the rater used instead of nan.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FLOOR = 1e-10  # crowd-kit's _EPS: error rates and priors never fall below it
DENSE = 1 << 23  # items × (rater, label) pairs up to which both steps are matrix products


@dataclass(frozen=True)
class Fit:
    """The EM's fixed point: posteriors (n, k), errors (raters, true k, observed k), priors."""

    posteriors: np.ndarray
    errors: np.ndarray
    priors: np.ndarray
    n_iter: int
    converged: bool


@dataclass(frozen=True)
class Responses:
    """The observed ratings as responses, with the orders the two steps reduce over."""

    item_starts: np.ndarray  # where each item's responses start (item order)
    key_index: np.ndarray  # each response's (rater, label) pair among the pairs present
    by_key: np.ndarray  # the responses' items, in key order
    key_starts: np.ndarray  # where each present key's responses start (key order)
    key_rater: np.ndarray  # each present key's rater
    key_label: np.ndarray  # each present key's label
    n_raters: int
    k: int
    dense: np.ndarray | None = None  # (n_items, n_keys): how often item i has key j
    dense_t: np.ndarray | None = None  # its transpose, C-ordered (dense is its view)


def responses(codes: np.ndarray, k: int) -> Responses:
    """Index the observed ratings once; every item has at least one rating."""
    n, r = codes.shape
    rated = codes >= 0
    item = np.broadcast_to(np.arange(n)[:, None], codes.shape)[rated]
    key = (np.broadcast_to(np.arange(r)[None, :] * k, codes.shape)[rated] + codes[rated]).astype(
        np.int64
    )
    all_keys = np.bincount(key, minlength=r * k)
    present = np.flatnonzero(all_keys)
    renumber = np.zeros(r * k, dtype=np.int64)
    renumber[present] = np.arange(present.size)
    key_index = renumber[key]
    key_starts = np.concatenate(([0], np.cumsum(all_keys[present])[:-1]))
    item_starts = np.concatenate(([0], np.cumsum(rated.sum(axis=1))[:-1]))
    keys = (present // k, present % k)
    if n * present.size <= DENSE:
        counts = np.bincount(key_index * n + item, minlength=present.size * n)
        dense_t = counts.reshape(present.size, n).astype(np.float64)
        empty = np.zeros(0, dtype=np.int64)
        return Responses(
            item_starts, key_index, empty, key_starts, *keys, r, k, dense_t.T, dense_t
        )
    by_key = item[np.argsort(key_index, kind="stable")]
    return Responses(item_starts, key_index, by_key, key_starts, *keys, r, k)


def majority_shares(codes: np.ndarray, k: int) -> np.ndarray:
    """Return each item's vote shares (n, k): crowd-kit's soft majority-vote start."""
    n = codes.shape[0]
    rated = codes >= 0
    item = np.broadcast_to(np.arange(n)[:, None], codes.shape)[rated]
    counts = np.bincount(item * k + codes[rated], minlength=n * k).reshape(n, k)
    return counts / counts.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def m_step(data: Responses, posteriors: np.ndarray) -> np.ndarray:
    """Return the log error rates of the present keys (n_keys, k): P(label | true class)."""
    if data.dense is not None:
        mass = (np.ascontiguousarray(posteriors.T) @ data.dense).T
    else:
        mass = np.add.reduceat(posteriors[data.by_key], data.key_starts, axis=0)
    np.maximum(mass, FLOOR, out=mass)
    totals = np.zeros((data.n_raters, data.k))
    np.add.at(totals, data.key_rater, mass)
    return np.log(mass / totals[data.key_rater])  # type: ignore[no-any-return]


def e_step(data: Responses, log_errors: np.ndarray, priors: np.ndarray) -> np.ndarray:
    """Return the items' posteriors (n, k) from the log error rates and the priors."""
    if data.dense_t is not None:  # (k, n): each class's row over the items
        log_like = log_errors.T @ data.dense_t
    else:
        log_like = np.add.reduceat(log_errors[data.key_index], data.item_starts, axis=0).T
    log_like += np.log(np.maximum(priors, FLOOR))[:, None]
    log_like -= log_like.max(axis=0)
    like = np.exp(log_like)
    like /= like.sum(axis=0)
    return like.T  # type: ignore[no-any-return]


def fit(codes: np.ndarray, k: int, *, max_iter: int = 1000, tol: float = 1e-10) -> Fit:
    """Run EM from the majority-vote shares until no posterior moves by ``tol`` or more.

    The order of the steps is crowd-kit's: the start's priors and error rates
    come from the vote shares; each iteration is an E-step then an M-step.
    """
    data = responses(codes, k)
    posteriors = majority_shares(codes, k)
    priors = posteriors.mean(axis=0)
    log_errors = m_step(data, posteriors)
    converged, n_iter = False, 0
    while n_iter < max_iter and not converged:
        new = e_step(data, log_errors, priors)
        converged = bool(np.max(np.abs(new - posteriors)) < tol)
        posteriors = new
        priors = posteriors.mean(axis=0)
        log_errors = m_step(data, posteriors)
        n_iter += 1
    return Fit(posteriors, error_matrices(data, log_errors), priors, n_iter, converged)


def error_matrices(data: Responses, log_errors: np.ndarray) -> np.ndarray:
    """Return one (true class × observed label) matrix per rater; labels never used are 0."""
    errors = np.zeros((data.n_raters, data.k, data.k))
    errors[data.key_rater, :, data.key_label] = np.exp(log_errors)
    return errors
