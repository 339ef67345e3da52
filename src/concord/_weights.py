"""Disagreement weights: 0 on the diagonal, larger for worse disagreements.

concord documents one convention only, **disagreement** weights ``W``, as in
the seeds: κ = 1 − ΣW·O / ΣW·E. The agreement weights of Cohen (1968) and
Gwet (2014) are ``1 − W / max W``; they are used internally only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._errors import check_option, param_error
from concord._labels import Labels, check_labels

KINDS = ("unweighted", "linear", "quadratic")
_EXPECTED = "None, 'linear', 'quadratic' or a k×k array of disagreement weights"


@dataclass(frozen=True)
class Weighting:
    """Resolved weights for one computation.

    ``matrix`` is what users see: generated weights scaled to a maximum of 1,
    custom weights as given. ``exact`` is proportional to ``matrix`` and is
    what the cores compute with: for linear and quadratic weights on integer
    scores it holds the integers |i − j| and (i − j)², so the arithmetic is
    exact. Every statistic is invariant to that scale factor.
    """

    name: str
    matrix: np.ndarray
    exact: np.ndarray


def _raw(scores: np.ndarray, kind: str) -> np.ndarray:
    diff = scores[:, None] - scores[None, :]
    raw: np.ndarray = {"linear": np.abs(diff), "quadratic": diff * diff}.get(
        kind, (diff != 0).astype(np.float64)
    )
    return raw


def _scaled(raw: np.ndarray) -> np.ndarray:
    top = raw.max()
    scaled: np.ndarray = raw / top if top > 0 else raw.copy()
    return scaled


def weight_matrix(labels: Any, kind: str = "quadratic") -> np.ndarray:
    r"""Return the k×k disagreement weight matrix for ordered categories.

    .. math::

        w_{ij} = \begin{cases}
            [x_i \ne x_j] & \text{unweighted} \\
            |x_i - x_j| / (x_{max} - x_{min}) & \text{linear} \\
            (x_i - x_j)^2 / (x_{max} - x_{min})^2 & \text{quadratic}
        \end{cases}

    where :math:`x_i` is the i-th label if the labels are numbers, and its
    position 0, 1, ..., k−1 otherwise.

    Parameters
    ----------
    labels : sequence or int
        The categories in order, shape (k,). An integer k stands for the
        positions 0, ..., k−1.
    kind : {"unweighted", "linear", "quadratic"}
        The weighting scheme.

    Returns
    -------
    numpy.ndarray
        Shape (k, k), zero on the diagonal, maximum 1 (for k ≥ 2).

    Notes
    -----
    Numeric labels keep their distances: the scale 1, 2, 3, 5 (4 unused)
    weighs the 3-vs-5 disagreement like a gap of two steps. scikit-learn's
    ``cohen_kappa_score`` instead uses positions among the labels it is given;
    pass ``labels=range(k)``-style positions to reproduce it.

    Examples
    --------
    The quadratic weights of a five-point scale, as printed in seed 001
    (``weighted_matrix(5)``):

    >>> import concord
    >>> concord.weight_matrix(5, "quadratic")
    array([[0.    , 0.0625, 0.25  , 0.5625, 1.    ],
           [0.0625, 0.    , 0.0625, 0.25  , 0.5625],
           [0.25  , 0.0625, 0.    , 0.0625, 0.25  ],
           [0.5625, 0.25  , 0.0625, 0.    , 0.0625],
           [1.    , 0.5625, 0.25  , 0.0625, 0.    ]])
    >>> concord.weight_matrix(["low", "mid", "high"], "linear")
    array([[0. , 0.5, 1. ],
           [0.5, 0. , 0.5],
           [1. , 0.5, 0. ]])
    """
    func = "weight_matrix"
    if isinstance(labels, int | np.integer) and not isinstance(labels, bool):
        if labels < 1:
            param_error(func, "labels", "a positive number of categories", labels)
        values: tuple[Any, ...] = tuple(range(int(labels)))
    else:
        checked = check_labels(labels, func)
        assert checked is not None
        values = checked
    kind = check_option(func, "kind", kind, KINDS)
    scores = Labels(values, ordered=True).scores(func, kind)
    return _scaled(_raw(scores, kind))


def resolve(weights: Any, labels: Labels, func: str) -> Weighting:
    """Turn the ``weights`` parameter into a :class:`Weighting` for these labels."""
    if weights is None:
        weights = "unweighted"
    if isinstance(weights, str):
        kind = check_option(func, "weights", weights, KINDS, expected=_EXPECTED)
        scores = (
            labels.scores(func, kind) if kind != "unweighted" else np.arange(labels.k, dtype=float)
        )
        raw = _raw(scores, kind)
        return Weighting(kind, _scaled(raw), raw)
    matrix = custom(weights, labels, func)
    return Weighting("custom", matrix, matrix)


def custom(weights: Any, labels: Labels, func: str) -> np.ndarray:
    """Validate a user-supplied k×k disagreement matrix."""
    try:
        w = np.array(weights, dtype=np.float64)
    except (TypeError, ValueError):
        param_error(func, "weights", _EXPECTED, weights, exc=TypeError)
    k = labels.k
    if w.shape != (k, k):
        param_error(
            func,
            "weights",
            f"a {k}×{k} matrix, one row and column per label",
            f"shape {w.shape}",
            raw=True,
            fix=f"The labels are {labels.values!r}; pass labels=[...] to fix the categories.",
        )
    problems = [
        (not np.isfinite(w).all(), "finite"),
        ((w < 0).any(), "non-negative"),
        ((np.diag(w) != 0).any(), "zero on the diagonal (they are disagreement weights)"),
        (k >= 2 and not w.any(), "not all zero"),
    ]
    for failed, expected in problems:
        if failed:
            param_error(
                func,
                "weights",
                expected,
                w,
                raw=False,
                fix="Agreement weights A convert with W = 1 − A.",
            )
    w.setflags(write=False)
    return w
