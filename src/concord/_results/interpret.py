"""Verbal benchmark scales for agreement coefficients.

Each scale is a list of (label, upper bound, bound included) checked in
order. The published tables give two-decimal ranges ("0.21–0.40"); concord
reads them as half-open intervals so that every real value gets exactly one
label, e.g. Landis & Koch's "fair" is (0.20, 0.40].

Each coefficient has its own default scale (its :class:`~concord._results.spec.Spec`):
the kappa scales were made for chance-corrected coefficients of the kappa type,
Krippendorff's rule for his alpha, and none was made for percent agreement, which
is not corrected for chance (the kappa scales' bands assume a chance correction:
0.82 of raw agreement can be no better than chance).
"""

from __future__ import annotations

import math

from concord._common.errors import check_option, param_error
from concord._results.spec import Spec

_INF = math.inf

SCALES: dict[str, tuple[tuple[str, float, bool], ...]] = {
    # Landis, J. R. & Koch, G. G. (1977). Biometrics 33(1), 159-174. doi:10.2307/2529310
    "landis-koch": (
        ("poor", 0.0, False),
        ("slight", 0.2, True),
        ("fair", 0.4, True),
        ("moderate", 0.6, True),
        ("substantial", 0.8, True),
        ("almost perfect", _INF, True),
    ),
    # Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions, 2nd ed., p. 218.
    "fleiss": (
        ("poor", 0.4, False),
        ("fair to good", 0.75, True),
        ("excellent", _INF, True),
    ),
    # Altman, D. G. (1991). Practical Statistics for Medical Research, p. 404.
    "altman": (
        ("poor", 0.2, True),
        ("fair", 0.4, True),
        ("moderate", 0.6, True),
        ("good", 0.8, True),
        ("very good", _INF, True),
    ),
    # Cicchetti, D. V. (1994). Psychological Assessment 6(4), 284-290.
    # doi:10.1037/1040-3590.6.4.284
    "cicchetti": (
        ("poor", 0.4, False),
        ("fair", 0.6, False),
        ("good", 0.75, False),
        ("excellent", _INF, True),
    ),
    # Krippendorff, K. (2004). Content Analysis, 2nd ed., p. 241: rely on α ≥ .800,
    # draw tentative conclusions for .667 ≤ α < .800.
    "krippendorff": (
        ("unacceptable", 0.667, False),
        ("tentative", 0.8, False),
        ("acceptable", _INF, True),
    ),
    # Koo, T. K. & Li, M. Y. (2016). A guideline of selecting and reporting intraclass
    # correlation coefficients for reliability research. J. Chiropractic Medicine 15(2),
    # 155-163. doi:10.1016/j.jcm.2016.02.012: below .5 poor, .5-.75 moderate,
    # .75-.9 good, above .9 excellent.
    "koo-li": (
        ("poor", 0.5, False),
        ("moderate", 0.75, False),
        ("good", 0.9, True),
        ("excellent", _INF, True),
    ),
    # McBride, G. B. (2005). A proposal for strength-of-agreement criteria for Lin's
    # concordance correlation coefficient. NIWA Client Report HAM2005-062: below .90 poor,
    # .90-.95 moderate, .95-.99 substantial, above .99 almost perfect.
    "mcbride": (
        ("poor", 0.9, False),
        ("moderate", 0.95, False),
        ("substantial", 0.99, True),
        ("almost perfect", _INF, True),
    ),
}


def interpret(value: float, scale: str, func: str) -> str:
    """Return the verbal category of ``value`` on ``scale``; 'undefined' for nan."""
    check_option(func, "scale", scale, SCALES)
    if math.isnan(value):
        return "undefined"
    for label, upper, included in SCALES[scale]:
        if value < upper or (included and value == upper):
            return label
    raise AssertionError("unreachable: every scale ends at +inf")  # pragma: no cover


# how explain(), the command line and the report name each scale
SOURCES = {
    "landis-koch": "Landis & Koch 1977",
    "fleiss": "Fleiss 1981",
    "altman": "Altman 1991",
    "cicchetti": "Cicchetti 1994",
    "krippendorff": "Krippendorff 2004",
    "koo-li": "Koo & Li 2016",
    "mcbride": "McBride 2005",
}


def resolve(scale: str | None, spec: Spec, func: str) -> str:
    """Return ``scale``, or the coefficient's default; raise when it has none."""
    if scale is not None:
        return scale
    chosen = spec.scale
    if chosen is None:
        what = spec.display.lower()
        param_error(
            func,
            "scale",
            f"given for {what}",
            "None",
            raw=True,
            fix=f"No published benchmark scale is made for {what}, which is not "
            "corrected for chance. Pass scale=... to read it on one of "
            + ", ".join(repr(k) for k in SCALES)
            + " anyway, or interpret a chance-corrected coefficient.",
        )
    return chosen


def interpretation_line(value: float, spec: Spec) -> str:
    """Return explain()'s last line: the default scale's reading, or why there is none."""
    scale = spec.scale
    if scale is None:
        return f"Interpretation: none (no benchmark scale is made for {spec.display.lower()})"
    return f"Interpretation ({SOURCES[scale]}): {interpret(value, scale, '')}"
