"""Disagreement weights: 0 on the diagonal, larger for worse disagreements.

concord documents one convention only, **disagreement** weights ``W``, as in
the seeds: κ = 1 − ΣW·O / ΣW·E. The agreement weights of Cohen (1968) and
Gwet (2014) are ``1 − W / max W``; they are used internally only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common import exact as _exact
from concord._common.errors import ForCli, check_option, param_error
from concord._common.options import WEIGHTS
from concord._data.labels import Labels, check_labels, spelled

# weight_matrix's kinds: the named families and the 0/1 matrix of no weights
KINDS = ("unweighted", *WEIGHTS)
_EXPECTED = f"None, one of {', '.join(map(repr, WEIGHTS))}, or a k×k array of disagreement weights"


@dataclass(frozen=True)
class Weighting:
    """Resolved weights for one computation.

    ``matrix`` is what users see: generated weights scaled to a maximum of 1,
    custom weights as given. ``exact`` is proportional to ``matrix`` and is
    what the cores compute with: for linear and quadratic weights on integer
    scores it holds the integers |i − j| and (i − j)², so the arithmetic is
    exact. Every statistic is invariant to that scale factor. ``split`` is
    :func:`concord._common.exact.split` of ``exact`` where it is kept (the
    named weights of integer labels, resolved once per scale; see :func:`resolve`).
    """

    name: str
    matrix: np.ndarray
    exact: np.ndarray
    split: _exact.Split | None = field(default=None, compare=False, repr=False)

    def agreement(self) -> np.ndarray:
        """Return the agreement weights 1 − W / max W (all ones for a single category)."""
        top = self.exact.max()
        if self.exact.dtype == object:  # Python ints: (top − W)/top, each rounded once
            flat = [(top - int(v)) / top if top > 0 else 1.0 for v in self.exact.flat]
            return np.array(flat, dtype=np.float64).reshape(self.exact.shape)
        out: np.ndarray = 1 - self.exact / top if top > 0 else np.ones_like(self.exact)
        return out

    def floats(self) -> np.ndarray:
        """``exact`` as float64 (the float twins'), scaled to a maximum of 1 when Python ints."""
        if self.exact.dtype == object:
            return self.matrix
        return self.exact


def _ratio(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    total = x + y
    safe = np.where(total == 0, 1.0, total)
    out: np.ndarray = ((x - y) / safe) ** 2
    return out


def _bipolar(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
    den = (x + y - 2 * lo) * (2 * hi - x - y)
    out: np.ndarray = np.where(x == y, 0.0, (x - y) ** 2 / np.where(den == 0, 1.0, den))
    return out


def _circular(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    span = max(x.max(), y.max()) - min(x.min(), y.min()) + 1
    out: np.ndarray = np.sin(np.pi * (x - y) / span) ** 2
    return out


def _ordinal(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # Gwet (2014): categories at positions, w ∝ C(|i − j| + 1, 2), whatever their values
    pos = np.arange(x.shape[0], dtype=np.float64)
    d = np.abs(pos[:, None] - pos[None, :])
    out: np.ndarray = d * (d + 1) / 2
    return out


# Disagreement before scaling, as functions of the scores x_i (rows) and x_j (columns).
# irrCAC (Gwet 2014, weights.gen.r) defines the agreement weights 1 − these / max.
_FORMULAS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "unweighted": lambda x, y: (x != y).astype(np.float64),
    "linear": lambda x, y: np.abs(x - y),
    "quadratic": lambda x, y: (x - y) ** 2,
    "radical": lambda x, y: np.sqrt(np.abs(x - y)),
    "ratio": _ratio,
    "circular": _circular,
    "bipolar": _bipolar,
}


def _raw(scores: np.ndarray, kind: str) -> np.ndarray:
    if kind == "ordinal":
        return _ordinal(scores, scores)
    return _FORMULAS[kind](scores[:, None], scores[None, :])


def _scaled(raw: np.ndarray) -> np.ndarray:
    top = raw.max()
    scaled: np.ndarray = raw / top if top > 0 else raw.copy()
    return scaled


# kinds whose weights, scaled to a maximum of 1, do not change when every score is multiplied
# by one positive factor (their formulas are homogeneous in the scores)
_SCALE_FREE = frozenset({"linear", "quadratic", "radical", "ratio", "bipolar"})


def _in_range(scores: np.ndarray, kind: str) -> np.ndarray:
    """Scores far from 1 (labels of 1e200, 1e-200) scaled by a power of two, exactly.

    (1e200 − 0)² overflows to inf and (1e-200)² underflows to 0, which made
    the weights nan or 0; scaling by 2^−e, e the exponent of the largest
    score, is exact and leaves these kinds' weights unchanged.
    """
    if kind not in _SCALE_FREE or scores.size == 0:
        return scores
    top = float(np.abs(scores).max())
    if top == 0 or 2.0**-400 <= top <= 2.0**400:
        return scores
    scaled: np.ndarray = np.ldexp(scores, -math.frexp(top)[1])
    return scaled


def _scores(labels: Labels, kind: str, func: str) -> np.ndarray:
    if kind == "unweighted":
        return np.arange(labels.k, dtype=np.float64)
    scores = _in_range(labels.scores(func, kind), kind)
    if kind == "ratio" and (scores < 0).any():
        param_error(
            func,
            "weights",
            "'ratio' only for non-negative scores",
            "'ratio'",
            fix=f"The labels {labels.values!r} include negative values.",
            raw=True,
            cli=ForCli(fix=f"The categories {spelled(labels.values)} include negative values."),
        )
    return scores


def weight_matrix(labels: Any, kind: str = "quadratic") -> np.ndarray:
    r"""Return the k×k disagreement weight matrix for ordered categories.

    With scores :math:`x_i` (the labels themselves if they are numbers, their
    positions 1, 2, ..., k otherwise, as R irrCAC's ``weights.gen`` scores
    them), the disagreement of categories i and
    j before scaling to a maximum of 1 is

    ============  =====================================================
    kind          disagreement
    ============  =====================================================
    unweighted    :math:`[x_i \ne x_j]`
    linear        :math:`|x_i - x_j|`
    quadratic     :math:`(x_i - x_j)^2`
    ordinal       :math:`\binom{|i - j| + 1}{2}` on positions
    radical       :math:`\sqrt{|x_i - x_j|}`
    ratio         :math:`((x_i - x_j) / (x_i + x_j))^2`
    circular      :math:`\sin^2(\pi (x_i - x_j) / (x_{max} - x_{min} + 1))`
    bipolar       :math:`(x_i - x_j)^2 / ((x_i + x_j - 2x_{min})(2x_{max} - x_i - x_j))`
    ============  =====================================================

    These are 1 minus the agreement weights of Gwet (2014) and R irrCAC.

    Parameters
    ----------
    labels : sequence or int
        The categories in order, shape (k,). An integer k stands for k
        categories scored 1, ..., k.
    kind : str
        One of the kinds above.

    Returns
    -------
    numpy.ndarray
        Shape (k, k), zero on the diagonal, maximum 1 (for k ≥ 2).

    Notes
    -----
    Ratio and bipolar weights are rational in the scores: the coefficients
    compute with them as exact integers, so a weighted coefficient is the
    correctly rounded value of these formulas (this matrix shows them rounded
    to floats). Radical and circular weights are irrational: each is rounded
    once, and the coefficient is exact for the rounded weights.

    Numeric labels keep their distances: the scale 1, 2, 3, 5 (4 unused)
    weighs the 3-vs-5 disagreement like a gap of two steps. scikit-learn's
    ``cohen_kappa_score`` instead uses positions among the labels it is given;
    pass positions to reproduce it.

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed.,
    Advanced Analytics, chapter 3 (weights for ordinal, interval and ratio
    ratings).

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
    >>> concord.weight_matrix(4, "ordinal") * 6  # C(d + 1, 2): 1, 3, 6
    array([[0., 1., 3., 6.],
           [1., 0., 1., 3.],
           [3., 1., 0., 1.],
           [6., 3., 1., 0.]])
    """
    func = "weight_matrix"
    if isinstance(labels, int | np.integer) and not isinstance(labels, bool):
        if labels < 1:
            param_error(func, "labels", "a positive number of categories", labels)
        values: tuple[Any, ...] = tuple(range(1, int(labels) + 1))
    else:
        checked = check_labels(labels, func)
        assert checked is not None
        values = checked
    kind = check_option(func, "kind", kind, KINDS)
    return _scaled(_raw(_scores(Labels(values, ordered=True), kind, func), kind))


def resolve(weights: Any, labels: Labels, func: str) -> Weighting:
    """Turn the ``weights`` parameter into a :class:`Weighting` for these labels."""
    if weights is None:
        weights = "unweighted"
    if not isinstance(weights, str):
        matrix = custom(weights, labels, func)
        return Weighting("custom", matrix, matrix)
    kind = check_option(func, "weights", weights, KINDS, expected=_EXPECTED)
    keep = labels.k <= _KEEP_K and all(type(v) is int for v in labels.values)
    kept = _KEPT.get((kind, labels.values)) if keep else None
    if kept is None:
        scores = _scores(labels, kind, func)
        raw = _raw(scores, kind)
        exact = raw if kind in ("unweighted", "linear", "quadratic", "ordinal") else _scaled(raw)
        if kind in _RATIONAL:
            # exact integers proportional to the rational weights (Python ints past int64)
            whole = rational_weights(scores, kind, limit=1 << 62)
            if whole is None:
                whole = rational_weights(scores, kind, limit=None)
            if whole is not None:
                exact = whole
        if not keep:
            return Weighting(kind, _scaled(raw), exact, _whole_split(kind, labels, exact))
        kept = _kept((kind, labels.values), _scaled(raw), exact)
    # a view of a read-only array cannot be made writeable: results may hand it out
    return Weighting(kind, kept.matrix.view(), kept.exact, kept.split)


_WHOLE_TOP = {"linear": lambda span: span, "quadratic": lambda span: span * span}


def _whole_split(kind: str, labels: Labels, exact: np.ndarray) -> _exact.Split | None:
    """:func:`_exact.split` of whole-number weights, without its scans of the k×k matrix.

    No weights ([i ≠ j]) and the linear and quadratic weights of integer
    labels below 2**25 in magnitude are integers below 2**53, held exactly as
    floats: one part, whose largest value (and bound) follows from the labels.
    Other weights: None (the core splits them).
    """
    if labels.k < 2:
        return None
    if kind == "unweighted":
        return [(0, exact.astype(np.int64))], 1, 1
    top = _WHOLE_TOP.get(kind)
    values = labels.values
    if top is None or not all(type(v) is int for v in values):
        return None
    lo, hi = min(values), max(values)
    if max(-lo, hi) >= 1 << 25:  # a span below 2**26: squares below 2**53, exact as floats
        return None
    largest = top(hi - lo)
    return [(0, exact.astype(np.int64))], largest, largest


_RATIONAL = ("ratio", "bipolar")  # rational functions of the scores: exact integer weights


def rational_weights(scores: np.ndarray, kind: str, limit: int | None = 1 << 62) -> Any:
    """Integers proportional to the ratio or bipolar weights, exactly; None past ``limit``.

    The scores are integers times one power of two (:func:`_exact.dyadic`),
    which cancels in both formulas, so each weight is a fraction of integers;
    times the least common multiple of their denominators they are integers
    (int64 while the largest is below ``limit``; Python ints, an object array,
    with ``limit=None``; None where :func:`rational_steps` gives up). The
    cores compute κ from integer weights exactly, so κ is then the correctly
    rounded value of the published rational weights.

    Scores 1, 2, 3: (1/3)², (2/4)², (1/5)² = 100/900, 225/900, 36/900.

    >>> rational_weights(np.array([1.0, 2.0, 3.0]), "ratio")
    array([[  0, 100, 225],
           [100,   0,  36],
           [225,  36,   0]])
    """
    found = rational_steps(scores, kind)
    if found is None:
        return None
    out = found[0]
    top = int(out.max()) if out.size else 0
    if limit is None:
        return out
    return out.astype(np.int64) if top < limit else None


_RATIONAL_K = 256  # categories beyond which the weights stay floats (k² fractions)
_RATIONAL_BITS = 1 << 13  # a common denominator beyond this many bits: floats


def rational_steps(scores: np.ndarray, kind: str) -> tuple[np.ndarray, int] | None:
    """Return integers D (object) and L with the ratio or bipolar weight of i, j = D_ij / L.

    None for more than 256 categories, or when L would pass 2**8192 (scores
    with many digits, whose denominators share few factors): the caller then
    uses the float weights, each rounded once.
    """
    from fractions import Fraction

    x, _ = _exact.dyadic(scores)
    lo, hi, k = min(x, default=0), max(x, default=0), len(x)
    if k > _RATIONAL_K:
        return None
    cells: dict[tuple[int, int], Fraction] = {}
    for i in range(k):
        for j in range(i + 1, k):
            if kind == "ratio":
                total = x[i] + x[j]
                value = Fraction((x[i] - x[j]) ** 2, total * total) if total else Fraction(0)
            else:
                den = (x[i] + x[j] - 2 * lo) * (2 * hi - x[i] - x[j])
                value = Fraction((x[i] - x[j]) ** 2, den) if den and x[i] != x[j] else Fraction(0)
            cells[i, j] = value
    common = 1
    for v in cells.values():
        common = math.lcm(common, v.denominator)
        if common.bit_length() > _RATIONAL_BITS:
            return None
    out = np.zeros((k, k), dtype=object)
    for (i, j), v in cells.items():
        out[i, j] = out[j, i] = v.numerator * (common // v.denominator)
    return out, common


# Named weights of small integer scales, kept per (kind, labels): the same
# arrays each call, read-only. Only Python ints are keys, whose equality is
# identity of value (1 == 1.0 == True would mix labels that score alike but
# are shown differently).
_KEPT: dict[tuple[str, tuple[Any, ...]], Weighting] = {}
_KEEP_K = 64  # k² floats, three arrays: at most 100 KiB an entry
_KEEP_MAX = 256


def _kept(key: tuple[str, tuple[Any, ...]], matrix: np.ndarray, exact: np.ndarray) -> Weighting:
    for array in (matrix, exact):
        array.setflags(write=False)
    if len(_KEPT) >= _KEEP_MAX:
        _KEPT.clear()
    kept = Weighting(key[0], matrix, exact, _exact.split(exact))
    _KEPT[key] = kept
    return kept


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
    # two reductions, no k×k masks: min and max carry NaN, −inf and +inf
    lo, hi = (float(w.min()), float(w.max())) if w.size else (0.0, 0.0)
    finite = np.isfinite(lo) and np.isfinite(hi)
    problems = [
        (not finite, "finite"),
        (lo < 0, "non-negative"),
        ((np.diag(w) != 0).any(), "zero on the diagonal (they are disagreement weights)"),
        (k >= 2 and hi == 0, "not all zero"),
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
