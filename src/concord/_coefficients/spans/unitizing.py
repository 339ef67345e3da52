"""Krippendorff's unitizing α of span annotations: :func:`concord.unitizing_alpha`."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients.spans.unitizing_core import disagreements, unitizing_sums
from concord._common.errors import UndefinedKappaWarning, check_option, param_error
from concord._common.exact import to_float
from concord._data.spans import SpanTable, read_spans
from concord._results.spans.unitizing import UnitizingAlphaResult

_FUNC = "unitizing_alpha"
# the variants of Krippendorff et al. (2016) this function computes; |u, cu and (k)u are not
# implemented: no published worked example pins their computation down here
VARIANTS = ("u",)
_PLANNED = ("|u", "cu", "(k)u")


def unitizing_alpha(
    spans: Any,
    /,
    *,
    lengths: Any = None,
    raters: Any = None,
    variant: str = "u",
    item: Any = "item",
    rater: Any = "rater",
    start: Any = "start",
    end: Any = "end",
    label: Any = "label",
) -> UnitizingAlphaResult:
    """Krippendorff's unitizing α (uα): agreement on where units are and what they are.

    Each rater's spans of a category c are units on the item's continuum
    [0, length); the rest is gap. α_c = 1 − D_o,c / D_e,c compares the
    observed squared distances between the raters' units (and between a unit
    and the other rater's gap) with those of units placed at random in the
    gaps; the overall α = 1 − Σ_c D_o,c / Σ_c D_e,c (Krippendorff 1995, 2004).
    The values are those of DKPro Statistics' ``KrippendorffAlphaUnitizingAgreement``.

    Parameters
    ----------
    spans : DataFrame, mapping of columns or :func:`concord.read_annotations` output
        One row per span: item, rater, start, end (exclusive), label.
    lengths : mapping, optional
        ``{item: length}``. Needed, since the unannotated stretches count,
        unless the table has a ``text`` column (its length in code points).
        An item only in ``lengths`` is one no rater marked anything on.
    raters : list, optional
        The raters who annotated (declared). A rater who marked nothing on
        any item has no row in the table; listed here, that rater said
        "nothing here" on every item. Default: the raters of the table.
    variant : {"u"}
        ``"u"``: Krippendorff's (2004) uα. The later variants ``"|u"``,
        ``"cu"`` and ``"(k)u"`` of Krippendorff et al. (2016) are refused
        with an error: they are not implemented.
    item, rater, start, end, label : column names
        Where the table's columns are named otherwise.

    Returns
    -------
    UnitizingAlphaResult
        ``statistic`` (the overall α), ``alphas`` per category,
        ``to_frame()`` one row overall and one per category.

    Notes
    -----
    Several items are laid end to end into one continuum whose length L is
    the sum of their lengths; pairs of segments and gaps never cross an
    item's boundary. With one item this is exactly DKPro's single continuum.
    Every rater of the table is taken to have annotated every item: a rater
    without spans on an item said "nothing here" (all gap). A rater's spans
    of one label may not overlap on an item (an error names both rows);
    spans of different labels may. The sums are integers, so α is computed
    exactly (``result.exact`` is a Fraction) and rounded once. With more
    than two raters this is still the 2004 definition (pairs of raters
    averaged), which Krippendorff et al. (2016) later revised.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data.
    *Sociological Methodology*, 25, 47–76.
    Krippendorff, K. (2004). Measuring the reliability of qualitative text
    analysis data. *Quality & Quantity*, 38, 787–800; and *Content Analysis*
    (2nd ed., pp. 251–256). Sage.

    Examples
    --------
    Krippendorff's (2004, p. 254) example, shifted to start at 0 (its
    continuum is [150, 450)): α_c = 0.7286, α_k = 1 and α = 0.8587 (DKPro
    Statistics' Krippendorff2004Test: 0.8591 ± 0.0005).

    >>> import concord
    >>> spans = {
    ...     "item": ["t"] * 9,
    ...     "rater": ["i", "i", "j", "j", "j", "i", "i", "j", "j"],
    ...     "start": [75, 220, 70, 205, 250, 30, 150, 30, 150],
    ...     "end": [145, 250, 150, 225, 270, 90, 200, 90, 200],
    ...     "label": ["c", "c", "c", "c", "c", "k", "k", "k", "k"],
    ... }
    >>> result = concord.unitizing_alpha(spans, lengths={"t": 300})
    >>> round(result.statistic, 4), round(result.alpha("c"), 4), result.alpha("k")
    (0.8587, 0.7286, 1.0)
    """
    _check_variant(variant)
    table = read_spans(
        spans,
        item=item,
        rater=rater,
        start=start,
        end=end,
        label=label,
        lengths=lengths,
        raters=raters,
        func=_FUNC,
        need_lengths=True,
    )
    return _alpha_u(table)


def _check_variant(variant: Any) -> None:
    if isinstance(variant, str) and variant in _PLANNED:
        param_error(
            _FUNC,
            "variant",
            "'u' (Krippendorff 2004), the one variant implemented",
            variant,
            fix="|uα, cuα and (k)uα of Krippendorff et al. (2016) are not implemented yet; "
            "use variant='u'.",
        )
    check_option(_FUNC, "variant", variant, VARIANTS)


def _alpha_u(table: SpanTable) -> UnitizingAlphaResult:
    m = len(table.raters)
    if m < 2:
        param_error(
            _FUNC,
            "spans",
            "the spans of at least two raters",
            f"one rater, {table.raters[0]!r}" if m else "no spans",
            raw=True,
            fix="Agreement needs two or more raters who annotated the same items.",
        )
    lengths = table.lengths if table.lengths is not None else np.zeros(0, np.int64)
    total = int(lengths.sum())
    sums = unitizing_sums(
        lengths, table.item, table.rater, table.start, table.end, table.label, m, len(table.labels)
    )
    parts = [disagreements(s, m, total) for s in sums]
    alphas = [1 - o / e if e else None for o, e in parts]
    observed = sum((o for o, _ in parts), Fraction(0))
    expected = sum((e for _, e in parts), Fraction(0))
    exact = 1 - observed / expected if expected else None
    undefined = [c for c, a in zip(table.labels, alphas, strict=True) if a is None]
    if undefined:
        warnings.warn(
            f"{_FUNC}: α of {', '.join(repr(c) for c in undefined)} is undefined (nan): the "
            "expected disagreement is 0 (its units fill the continuum, with nowhere to move).",
            UndefinedKappaWarning,
            stacklevel=3,
        )
    return UnitizingAlphaResult(
        statistic=math.nan if exact is None else to_float(exact),
        exact=exact,
        variant="u",
        labels=tuple(table.labels),
        alphas=np.array([math.nan if a is None else to_float(a) for a in alphas]),
        observed=np.array([to_float(o) for o, _ in parts]),
        expected=np.array([to_float(e) for _, e in parts]),
        units=np.array([s.units for s in sums], dtype=np.int64),
        raters=tuple(table.raters),
        n_items=len(table.items),
        length=total,
        label_column=str(table.names["label"]),
    )
