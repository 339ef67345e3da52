"""Krippendorff's unitizing α of span annotations: :func:`concord.unitizing_alpha`."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients.spans.unitizing_core import disagreements, unitizing_sums
from concord._coefficients.spans.unitizing_variants import family, two_raters
from concord._common.errors import UndefinedKappaWarning, check_option
from concord._common.exact import to_float
from concord._data.spans import SpanTable, read_spans
from concord._results.spans.unitizing import UnitizingAlphaResult

_FUNC = "unitizing_alpha"
# "u": Krippendorff (2004), as DKPro Statistics; the others: Krippendorff et al. (2016)
VARIANTS = ("u", "u2016", "|u", "cu", "(k)u")


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
    """Krippendorff's unitizing α family: agreement on where units are and what they are.

    Each rater's spans are units on the item's continuum [0, length); the
    rest is gap (irrelevant matter). Five coefficients answer four questions:

    * ``"u"`` (uα, Krippendorff 2004): do the raters agree on where the units
      of each category are and how long they are? Per category c,
      α_c = 1 − D_o,c / D_e,c compares the observed squared distances
      between the raters' units (and between a unit and the other rater's
      gap) with those of units placed at random in the gaps; the overall
      α = 1 − Σ_c D_o,c / Σ_c D_e,c (Krippendorff 1995, 2004), the values of
      DKPro Statistics' ``KrippendorffAlphaUnitizingAgreement``.
    * ``"u2016"`` (uα as Krippendorff et al. 2016 revised it, Krippendorff
      2019's nominal _uα): the same question in one coincidence matrix of
      lengths, the gaps a value beside the categories. It is a different
      coefficient from ``"u"``, not a refinement of its arithmetic: on
      Krippendorff's (2019, Fig. 12.11) example ``"u2016"`` gives the book's
      0.510 and ``"u"`` 0.153. Report the one your field's papers report;
      ``"u2016"`` is the current definition and decomposes into ``"|u"`` and
      ``"cu"``.
    * ``"|u"`` (|uα, Krippendorff et al. 2016): do they agree on what is
      relevant at all, any unit against the gaps, ignoring the categories?
    * ``"cu"`` (cuα, Krippendorff et al. 2016): where their units intersect,
      do they give them the same category? A nominal α over the coincidences
      of the intersecting lengths of two raters' units; the unitizing itself
      (what one marked and the other did not) is left out.
    * ``"(k)u"`` ((k)uα, Krippendorff et al. 2016): the same for each
      category k: how often k's intersections meet another category,
      against chance. ``alphas`` holds (k)uα per category; ``statistic`` is
      cuα, which they decompose (``"cu"`` and ``"(k)u"`` return the same
      result but for ``variant``).

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
    variant : {"u", "u2016", "|u", "cu", "(k)u"}
        Which coefficient (above); default ``"u"``.
    item, rater, start, end, label : column names
        Where the table's columns are named otherwise.

    Returns
    -------
    UnitizingAlphaResult
        ``statistic`` (the overall α, |uα or cuα), ``alphas`` per category
        (α_c or (k)uα; none for ``"u2016"`` and ``"|u"``), ``to_frame()`` one row overall and
        one per category.

    Notes
    -----
    Several items are laid end to end into one continuum whose length L is
    the sum of their lengths; pairs of segments and gaps never cross an
    item's boundary. With one item this is exactly DKPro's single continuum.
    Every rater of the table is taken to have annotated every item: a rater
    without spans on an item said "nothing here" (all gap). A rater's spans
    of one label may not overlap on an item (an error names both rows);
    for ``"u"`` spans of different labels may, as each category is taken on
    its own. The 2016 variants take each rater's units and gaps as a
    partition of the continuum (Krippendorff et al. 2016): there two spans
    of one rater may not overlap whatever their labels (an error names both
    rows). The sums are integers, so α is computed exactly
    (``result.exact`` is a Fraction) and rounded once. Undefined values
    (nothing marked; one value everywhere, for ``"u2016"``; all marked, for
    ``"|u"``; units of different categories that never intersect, for
    ``"cu"``) are nan with an :class:`concord.UndefinedKappaWarning`.

    The 2016 coefficients follow the paper's coincidences: l_ck, the lengths
    where one rater's segment of value c meets another's of value k, over
    ordered pairs of raters, divided by m − 1; expected coincidences with
    each unit's l² (each gap's l: gaps divide anywhere) as its self-pairing
    term; uα (2016) on the whole matrix; |uα on the matrix collapsed to gap
    against unit; cuα and (k)uα on
    the coincidences of two units, each unit's self-pairing term the square
    of its part meeting the other rater's units, summed over the ordered
    pairs of raters and divided by m − 1 (the reading of the port
    lindanna/unitized_alpha, which numbers the paper's equations). The port
    quallmer (R, after Krippendorff 2019, § 12.6) squares the part that
    meets the union of all other raters' units instead, undivided: the two
    agree for two raters and may differ for three or more. On the book's
    three-rater example (2019, Fig. 12.11, p. 340) the book prints cuα =
    0.724; the reading followed here gives 0.7256 and quallmer's 0.7283, so
    the book's value sides with this one. Both ports and concord give its
    uα (2016) = 0.5100 and |uα = 0.4136 (printed 0.510 and 0.413).

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data.
    *Sociological Methodology*, 25, 47–76.
    Krippendorff, K. (2004). Measuring the reliability of qualitative text
    analysis data. *Quality & Quantity*, 38, 787–800; and *Content Analysis*
    (2nd ed., pp. 251–256). Sage.
    Krippendorff, K., Mathet, Y., Bouvry, S., & Widlöcher, A. (2016). On the
    reliability of unitizing textual continua: Further developments.
    *Quality & Quantity*, 50, 2347–2364.
    Krippendorff, K. (2019). *Content Analysis: An Introduction to Its
    Methodology* (4th ed., § 12.6). Sage.

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

    cuα and (k)uα of two raters who split a stretch into c and k at
    different places, computed by hand from the formulas of Krippendorff
    et al. (2016) in tests/test_unitizing_family.py (cuα = 37/60, (k)uα of c
    16/25 and of k 26/45):

    >>> spans = {
    ...     "item": ["t"] * 4,
    ...     "rater": ["a", "a", "b", "b"],
    ...     "start": [0, 4, 0, 6],
    ...     "end": [4, 8, 6, 8],
    ...     "label": ["c", "k", "c", "k"],
    ... }
    >>> cu = concord.unitizing_alpha(spans, lengths={"t": 10}, variant="cu")
    >>> cu.exact, round(cu.alpha("c"), 4), round(cu.alpha("k"), 4)  # cuα; (k)uα of c, k
    (Fraction(37, 60), 0.64, 0.5778)
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
    if variant != "u":
        return family(table, variant, _FUNC)
    return _alpha_u(table)


def _check_variant(variant: Any) -> None:
    check_option(_FUNC, "variant", variant, VARIANTS)


def _alpha_u(table: SpanTable) -> UnitizingAlphaResult:
    m = len(table.raters)
    two_raters(table, _FUNC)
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
    if not table.labels:
        warnings.warn(
            f"{_FUNC}: α is undefined (nan): no rater marked any unit, so there is nothing "
            "to agree or disagree on.",
            UndefinedKappaWarning,
            stacklevel=3,
        )
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
