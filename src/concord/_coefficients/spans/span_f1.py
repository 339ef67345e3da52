"""Span F1: precision, recall and F1 of every pair of raters' spans, and their means.

For a pair of raters and a label, with M spans matched one-to-one (see
:mod:`concord._coefficients.spans.span_match`), A spans of the first rater
and B of the second, all summed over the items: precision of the second
against the first as reference M / B, recall M / A, and F1 = 2M / (A + B),
which is symmetric. Micro F1 pools the labels; macro F1 averages the
per-label F1 over the labels either rater of the pair used. The headline
is the micro F1 averaged over the pairs of raters.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.spans.span_match import SpanCounts, match_spans, unmatched
from concord._common.errors import UndefinedKappaWarning, param_error
from concord._common.exact import fdot, fmean
from concord._data.spans import read_spans
from concord._inference.intervals import progress
from concord._inference.resampling import Resampled
from concord._results.spans.span_f1 import SpanAgreementResult

_FUNC = "span_agreement"
_CHUNK = 1 << 22  # item draws at a time: bounds the memory of a batch of resamples


def f1_of(matched: np.ndarray, totals: np.ndarray, macro: bool) -> np.ndarray:
    """Return the mean F1 over pairs from summed counts, shape (..., P, L) → (...).

    Micro pools the labels; macro averages the F1 of the labels a pair used.
    A pair with no spans, or no label used, gives nan.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        if not macro:
            per_pair = 2 * matched.sum(axis=-1) / totals.sum(axis=-1)
        else:
            per_label = np.where(totals > 0, 2 * matched / np.where(totals > 0, totals, 1), 0.0)
            used = (totals > 0).sum(axis=-1)
            per_pair = per_label.sum(axis=-1) / np.where(used > 0, used, np.nan)
    out: np.ndarray = per_pair.mean(axis=-1)
    return out


@dataclass(frozen=True)
class SpanSampler(Resampled):
    """Resample the items: one multinomial draw of how often each item is taken.

    ``matched`` and ``totals`` are per item, pair and label, shape (I, P, L).
    """

    matched: np.ndarray
    totals: np.ndarray
    macro: bool

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return the mean F1 over pairs for each row of counts per item, shape (B,)."""
        if not self.macro:  # the labels pooled first: a matrix product of (B, I) by (I, P)
            m, t = self.matched.sum(axis=-1), self.totals.sum(axis=-1)
            return f1_of((counts @ m)[..., None], (counts @ t)[..., None], False)
        m = np.einsum("bi,ipl->bpl", counts, self.matched)
        t = np.einsum("bi,ipl->bpl", counts, self.totals)
        return f1_of(m, t, True)

    def frequencies(self) -> np.ndarray:
        return np.ones(self.matched.shape[0])

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        """Return the statistic of ``n_resamples`` redraws of the items, with replacement.

        Each redraw takes n item indices and counts them (a multinomial draw,
        with none of the per-category cost of ``Generator.multinomial``).
        """
        n = self.matched.shape[0]
        per = max(1, _CHUNK // max(n, 1))
        out = []
        with progress(n_resamples, "bootstrap") as bar:
            for done in range(0, n_resamples, per):
                size = min(per, n_resamples - done)
                drawn = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
                counts = np.bincount(drawn.ravel(), minlength=size * n).reshape(size, n)
                out.append(self.statistic(counts.astype(np.float64)))
                if bar is not None:
                    bar.update(size)
        return np.concatenate(out)

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the statistic with each item left out: the sums less that item's counts."""
        m = self.matched.sum(axis=0) - self.matched
        t = self.totals.sum(axis=0) - self.totals
        return f1_of(m, t, self.macro), np.ones(self.matched.shape[0])


def exact_f1(matched: np.ndarray, totals: np.ndarray, macro: bool) -> Fraction | None:
    """Return the mean F1 over pairs as a fraction, from counts summed over items (P, L).

    None (undefined) when a pair has no span at all: its F1 is 0 / 0.
    """
    pairs = []
    for m, t in zip(matched.tolist(), totals.tolist(), strict=True):
        if sum(t) == 0:
            return None
        if not macro:
            pairs.append(Fraction(2 * sum(m), sum(t)))
            continue
        labels = [Fraction(2 * a, b) for a, b in zip(m, t, strict=True) if b > 0]
        pairs.append(sum(labels, Fraction(0)) / len(labels))
    return sum(pairs, Fraction(0)) / len(pairs)


def jackknife_se(sampler: SpanSampler) -> float:
    """Return the jackknife standard error over items (Efron & Tibshirani 1993, eq. 11.5)."""
    values, _ = sampler.jackknife()
    n = values.size
    if n < 2 or not np.isfinite(values).all():
        return math.nan
    centred = values - fmean(values)  # exact sums: the same on every CPU
    return float(np.sqrt((n - 1) / n * fdot(centred, centred)))


def check_match(match: Any) -> Any:
    """Return ``match``: "exact", "overlap" or an IoU threshold in (0, 1]."""
    expected = "'exact', 'overlap' or an IoU threshold in (0, 1]"
    if isinstance(match, str):
        if match in ("exact", "overlap"):
            return match
        param_error(_FUNC, "match", expected, match, fix="Use match=0.5 for IoU >= 0.5.")
    if isinstance(match, bool) or not isinstance(match, int | float | np.integer | np.floating):
        param_error(_FUNC, "match", expected, match, exc=TypeError)
    if not 0 < float(match) <= 1:
        param_error(_FUNC, "match", expected, match, fix="IoU is between 0 and 1.")
    return float(match)


def span_agreement(
    spans: Any,
    /,
    *,
    match: str | float = "exact",
    by: str | None = "label",
    item: Any = "item",
    rater: Any = "rater",
    start: Any = "start",
    end: Any = "end",
    label: Any = "label",
    lengths: Any = None,
    raters: Any = None,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: Any = None,
) -> SpanAgreementResult:
    """Span F1 of every pair of raters: precision, recall and F1, per label, item and pair.

    Parameters
    ----------
    spans : DataFrame or mapping of columns
        One row per span: item, rater, start, end (character offsets, end
        exclusive) and label, as :func:`concord.read_annotations` gives them
        (pandas, polars, pyarrow or a dict of columns). A rater with no span
        on an item said "nothing here" (see :mod:`concord._data.spans` for
        the checks: overlapping spans of one rater and label are refused).
    match : {"exact", "overlap"} or float
        When two spans match: ``"exact"`` the same start and end;
        ``"overlap"`` at least one shared character (``[0, 5)`` and ``[5, 9)``
        do not overlap); a number t in (0, 1] when their intersection over
        union is at least t (inclusive; t is read as the decimal it prints
        as, so 0.1 is exactly one tenth).
    by : {"label", None}
        ``"label"``: spans match only spans of the same label, with per-label
        and macro F1. None: labels are ignored (where the spans are, not
        what they say); micro and macro F1 are then the same.
    item, rater, start, end, label : str
        The columns.
    lengths : mapping, optional
        ``{item: length}``: checks the offsets, and adds the items no one
        annotated (each rater said nothing there; they count as units of
        the bootstrap).
    raters : list, optional
        The raters who annotated (declared). A rater who marked nothing on
        any item has no row in the table; listed here, that rater said
        "nothing here" on every item. Default: the raters of the table.
    confidence_level : float
        The level of the interval the result shows.
    n_resamples : int
        Bootstrap resamples of the items for that interval.
    rng : None, int or numpy.random.Generator
        Seeds the result's bootstrap (drawn once: the result shows the same
        interval every time).

    Returns
    -------
    SpanAgreementResult
        ``statistic``: micro F1, the mean over pairs of raters;
        ``by_pair()``, ``by_label()``, ``by_item()`` and ``disagreements()``.

    Notes
    -----
    Matching is one-to-one and of maximum size (maximum bipartite
    matching), so the counts do not depend on the order of the rows; F1 =
    2·matched / (both raters' spans), with the counts summed over items per
    label. The interval is a bootstrap over items (percentile by default);
    the standard error is the jackknife's over items.

    Examples
    --------
    Two annotators of one sentence (hand-counted: 1 exact match of 2 + 2
    spans, F1 = 2·1 / 4).

    >>> import concord
    >>> spans = {"item": [1, 1, 1, 1], "rater": ["ann", "ann", "bob", "bob"],
    ...          "start": [0, 10, 0, 11], "end": [4, 15, 4, 15],
    ...          "label": ["PER", "LOC", "PER", "LOC"]}
    >>> r = concord.span_agreement(spans)
    >>> r.statistic
    0.5
    >>> concord.span_agreement(spans, match="overlap").statistic
    1.0
    """
    match = check_match(match)
    if by not in ("label", None):
        param_error(_FUNC, "by", "'label' or None", by)
    table = read_spans(
        spans, item=item, rater=rater, start=start, end=end, label=label,
        lengths=lengths, raters=raters, func=_FUNC,
    )  # fmt: skip
    if len(table.raters) < 2:
        param_error(
            _FUNC,
            "spans",
            "spans of at least two raters",
            f"only rater {table.raters[0]!r}" if table.raters else "no spans",
            raw=True,
        )
    counts = match_spans(table, match, by)
    seed = int(np.random.default_rng(rng).integers(2**63 - 1))
    return _result(table, counts, match, by, confidence_level, n_resamples, seed)


def _float(value: Fraction | None) -> float:
    return math.nan if value is None else float(value)


def _warn_empty_pairs(table: Any, counts: SpanCounts, totals: np.ndarray) -> None:
    """Warn that F1 is undefined where a pair of raters marked no span at all (0 / 0)."""
    empty = [p for p, t in zip(counts.pairs, totals.sum(axis=1).tolist(), strict=True) if t == 0]
    if empty:
        a, b = (table.raters[r] for r in empty[0])
        more = f", as in {len(empty) - 1} more pair(s)" if len(empty) > 1 else ""
        warnings.warn(
            f"{_FUNC}: F1 is undefined (nan): raters {a!r} and {b!r} marked no span on any "
            f"item (2·0 / 0){more}. Their agreement on 'nothing' is what token_agreement or "
            "unitizing_alpha measure.",
            UndefinedKappaWarning,
            stacklevel=4,
        )


def _result(
    table: Any, counts: SpanCounts, match: Any, by: str | None, level: float, n: int, seed: int
) -> SpanAgreementResult:
    totals = counts.totals()
    micro = SpanSampler(
        np.moveaxis(counts.matched, 0, 1).astype(np.float64),
        np.moveaxis(totals, 0, 1).astype(np.float64),
        False,
    )
    macro = SpanSampler(micro.matched, micro.totals, True)
    summed_m, summed_t = counts.matched.sum(axis=1), totals.sum(axis=1)
    _warn_empty_pairs(table, counts, summed_t)
    return SpanAgreementResult(
        statistic=_float(exact_f1(summed_m, summed_t, False)),
        macro=_float(exact_f1(summed_m, summed_t, True)),
        match=match,
        by=by,
        spans=table,
        counts=counts,
        standard_error=jackknife_se(micro),
        macro_standard_error=jackknife_se(macro),
        confidence_level=level,
        n_resamples=n,
        seed=seed,
        samplers=(micro, macro),
        disagreeing=partial(unmatched, table, counts),
    )
