"""A comparison that streams: ``accumulate(compare, function=..., paired=True)``.

Each side keeps its own accumulator (its count table), so each side's
result is the one-shot function's. The SE of a paired difference needs more:
the per-item terms of both sides, item by item, and those depend on the
final tables (p_e, κ), so they cannot be summed batch by batch. The stream
keeps the joint pattern table instead: each distinct (side-1 key, side-2
key) row with its count (:mod:`concord._coefficients.pattern_terms`), which
merges by adding counts. ``result()`` evaluates each side's terms once per
joint pattern on that side's merged table, and Σ_p f_p (d_p − d̄)² is the
one-shot Σ_i (d_i − d̄)² summed by pattern.
"""

from __future__ import annotations

import copy
import functools
import math
from typing import Any

import numpy as np

from concord._coefficients.pattern_terms import Layout
from concord._coefficients.registry import Coefficient, by_name
from concord._common.errors import param_error
from concord._common.exact import fdot
from concord._data.labels import Labels
from concord._inference.intervals import Inference
from concord._results.studies.comparison import check_method
from concord._streaming import dispatch as stream
from concord._streaming import options as checks
from concord._streaming.state import _positions
from concord._studies.compare.compare import _sides, _welch, compared, finish, inference_of
from concord._studies.compare.compare_boot import independent_sampler, paired_sampler_of_joint

_FUNC = "accumulate"
_Joint = tuple[tuple[np.ndarray, np.ndarray], np.ndarray]  # each side's key rows, and counts


class ComparisonAccumulator:
    """:func:`concord.compare` over batches: ``update(first, second)``, ``merge``, ``result``.

    Made by ``concord.accumulate(concord.compare, function=..., paired=True,
    **options)``. ``update(first, second)`` takes one batch of each side as
    :func:`concord.compare` takes them (paired: the same items, row for row;
    a two-rater function's side is a tuple ``(rater1, rater2)``);
    ``merge(other)`` adds two accumulators; ``result()`` returns the
    :class:`~concord.ComparisonResult` of everything counted. Its bootstrap
    intervals redraw the joint pattern table as :func:`concord.compare`
    redraws the items (``n_resamples``, ``rng``: the seed, as there; a
    merged accumulator keeps the left one's), so one seed gives the one-shot
    interval.

    Examples
    --------
    >>> import concord
    >>> acc = concord.accumulate(concord.compare, function=concord.cohen_kappa)
    >>> truth, a, b = [1, 2, 2, 1, 3, 3], [1, 2, 1, 1, 3, 2], [1, 2, 2, 1, 3, 1]
    >>> acc.update((truth[:3], a[:3]), (truth[:3], b[:3]))
    Accumulator(compare, function=cohen_kappa, n=3)
    >>> r = acc.update((truth[3:], a[3:]), (truth[3:], b[3:])).result()
    >>> whole = concord.compare(concord.cohen_kappa, (truth, a), (truth, b))
    >>> r.difference == whole.difference, abs(r.standard_error - whole.standard_error) < 1e-12
    (True, True)
    """

    def __init__(
        self,
        first: Any,
        second: Any,
        *,
        paired: bool = True,
        confidence_level: float = 0.95,
        method: str | None = None,
        n_resamples: int = 9999,
        rng: Any = None,
    ) -> None:
        self._first, self._second = first, second  # the sides' Accumulators
        self._name = first._name
        self._paired = bool(paired)
        self._level = confidence_level
        self._method = check_method("t" if method is None else method, _FUNC)
        self._n_resamples, self._rng = n_resamples, rng
        # the joint pattern table: each side's key rows, on that side's labels, and counts
        self._rows: tuple[np.ndarray, np.ndarray] | None = None
        self._freq = np.zeros(0, dtype=np.int64)

    @property
    def _coef(self) -> Coefficient:
        return by_name(self._name)

    @property
    def n(self) -> int:
        return int(self._freq.sum()) if self._paired else self._first.n

    def update(self, first: Any, second: Any) -> ComparisonAccumulator:
        """Count a batch of each side and add it (see the class)."""
        d1, d2 = _sides(self._coef, first, second)
        one = copy.copy(self._first).update(*d1)  # the states are immutable: copies are cheap
        two = copy.copy(self._second).update(*d2)
        if self._paired and _rows(d1) > 0 and one._state is not None and two._state is not None:
            keys = (self._keys(d1, one), self._keys(d2, two))
            if keys[0].shape[0] != keys[1].shape[0]:
                param_error(
                    "Accumulator.update",
                    "second",
                    f"the same {keys[0].shape[0]} items as first (paired=True)",
                    f"{keys[1].shape[0]} items",
                    fix="Pass both sides' ratings of the same items, row for row.",
                )
            freq = np.ones(keys[0].shape[0], dtype=np.int64)
            self._rows, self._freq = self._joined(self._moved(one, two), (keys, freq))
        self._first, self._second = one, two
        return self

    def merge(self, other: ComparisonAccumulator) -> ComparisonAccumulator:
        """Return a new accumulator with both sides' tables and the joint table."""
        if not isinstance(other, ComparisonAccumulator) or not self._same_kind(other):
            param_error(
                "Accumulator.merge",
                "other",
                f"an accumulator of {self._describe()}",
                other._describe() if isinstance(other, ComparisonAccumulator) else other,
                raw=True,
                exc=TypeError if not isinstance(other, ComparisonAccumulator) else ValueError,
                fix="Only comparisons of one function with the same options merge.",
            )
        out = copy.copy(self)
        out._first, out._second = (
            self._first.merge(other._first),
            self._second.merge(other._second),
        )
        if self._paired:
            out._rows, out._freq = self._joined(
                self._moved(out._first, out._second), other._moved(out._first, out._second)
            )
        return out

    def result(self) -> Any:
        """Return the :class:`~concord.ComparisonResult` of everything counted."""
        r1, r2 = self._first.result(), self._second.result()
        se, df = self._paired_se() if self._paired else _welch(r1, r2)
        estimate = (r2.statistic - r1.statistic, se, df)
        # the table's arrays are replaced, never changed in place: later batches leave it be
        joint = (self._rows, self._freq) if self._paired else None
        inference = functools.partial(
            _inference, self._coef, (r1, r2), joint, estimate, self._method
        )
        bootstrap = (self._n_resamples, self._rng, inference)
        return finish(r1, r2, se, df, self._paired, self._level, self._method, bootstrap)

    def _paired_se(self) -> tuple[float, float]:
        terms = self._coef.pattern_terms
        assert terms is not None and self._rows is not None
        options = self._first.options
        u = [
            terms.terms(stream.counted(side._state), options, rows, self._freq)
            for side, rows in zip((self._first, self._second), self._rows, strict=True)
        ]
        d = u[1] - u[0]
        freq = self._freq.astype(np.float64)
        n = float(freq.sum())
        mean = fdot(freq, d) / n  # exact sums: the same on every CPU
        return math.sqrt(fdot(freq, (d - mean) ** 2)), n - 1

    def _keys(self, data: tuple[Any, ...], side: Any) -> np.ndarray:
        terms = self._coef.pattern_terms
        assert terms is not None and side._state is not None
        return terms.keys(data, side._state.labels.values, self._name)

    def _moved(self, one: Any, two: Any) -> _Joint:
        """Return the joint rows laid out on the sides' (merged) labels ``one``, ``two``."""
        if self._rows is None or self._first._state is None:  # nothing counted yet
            return (_empty(one), _empty(two)), self._freq
        layout = self._layout
        old = (self._first._state.labels, self._second._state.labels)
        new = (one._state.labels, two._state.labels)
        moved = tuple(_move(r, a, b, layout) for r, a, b in zip(self._rows, old, new, strict=True))
        return (moved[0], moved[1]), self._freq

    @property
    def _layout(self) -> Layout:
        terms = self._coef.pattern_terms
        assert terms is not None
        return terms.layout

    @staticmethod
    def _joined(a: _Joint, b: _Joint) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
        """Add two joint tables: equal (side-1, side-2) rows add their counts."""
        (a1, a2), (b1, b2) = a[0], b[0]
        w1, w2 = max(a1.shape[1], b1.shape[1]), max(a2.shape[1], b2.shape[1])
        stacked = np.hstack(
            [
                np.concatenate([_width(a1, w1), _width(b1, w1)]),
                np.concatenate([_width(a2, w2), _width(b2, w2)]),
            ]
        )
        rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
        freq = np.zeros(rows.shape[0], dtype=np.int64)
        np.add.at(freq, inverse.reshape(-1), np.concatenate([a[1], b[1]]))
        return (rows[:, :w1], rows[:, w1:]), freq

    def _same_kind(self, other: ComparisonAccumulator) -> bool:
        return (
            self._name == other._name
            and self._paired == other._paired
            and self._level == other._level
            and self._method == other._method
            and self._n_resamples == other._n_resamples
            and checks.same_options(self._first.options, other._first.options)
        )

    def _describe(self) -> str:
        shown = checks.shown(self._first.options, self._coef)
        paired = "" if self._paired else ", paired=False"
        return f"compare, function={self._name}{paired}{shown}"

    def __repr__(self) -> str:
        return f"Accumulator({self._describe()}, n={self.n})"


def comparison(
    make: Any,
    *,
    function: Any = None,
    paired: bool = True,
    confidence_level: float = 0.95,
    method: str | None = None,
    n_resamples: int = 9999,
    rng: Any = None,
    **options: Any,
) -> ComparisonAccumulator:
    """Return the accumulator of ``compare(function, ...)``; ``make`` makes each side's."""
    if function is None:
        param_error(
            _FUNC,
            "function",
            "the coefficient to compare, e.g. function=concord.cohen_kappa",
            None,
            exc=TypeError,
        )
    compared(function, paired, _FUNC, "pattern_terms")
    for key in ("sample_weight", "groups"):
        if key in options:
            param_error(_FUNC, key, "not given: streamed comparisons take neither", options[key])
    first, second = make(function, **options), make(function, **options)
    return ComparisonAccumulator(
        first,
        second,
        paired=paired,
        confidence_level=confidence_level,
        method=method,
        n_resamples=n_resamples,
        rng=rng,
    )


def _inference(
    c: Coefficient,
    results: tuple[Any, Any],
    joint: tuple[tuple[np.ndarray, np.ndarray] | None, np.ndarray] | None,
    estimate: tuple[float, float, float],
    method: str,
) -> Inference:
    """Return the streamed difference's inference (paired: redrawing the joint table)."""
    if joint is None:
        return inference_of(results, estimate, method, independent_sampler(results))
    keys, freq = joint
    assert keys is not None
    return inference_of(results, estimate, method, paired_sampler_of_joint(c, results, keys, freq))


def _rows(data: tuple[Any, ...]) -> int:
    try:
        return len(data[0])
    except TypeError:
        return 1  # no length: let the keys say what is wrong


def _empty(side: Any) -> np.ndarray:
    return np.zeros((0, 0), dtype=np.int64)


def _width(rows: np.ndarray, width: int) -> np.ndarray:
    """Rows with ``width`` columns: an empty table has none until it meets one."""
    return rows if rows.shape[1] == width else np.zeros((0, width), dtype=np.int64)


def _move(rows: np.ndarray, old: Labels, new: Labels, layout: Layout) -> np.ndarray:
    """Lay key rows out on new labels: remap codes + 1, or place count columns."""
    pos = _positions(old, new)
    if layout == "codes":
        out: np.ndarray = np.concatenate([[0], pos + 1])[rows]
        return out
    placed = np.zeros((rows.shape[0], new.k), dtype=np.int64)
    placed[:, pos] = rows
    return placed
