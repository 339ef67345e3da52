"""The ANOVA of an intraclass correlation and the formulas of its six forms.

:class:`Anova` holds the sums of squares of the one-way and two-way layouts
(items × raters, possibly incomplete) and their degrees of freedom, as exact
fractions (integer scores) or floats; :func:`coefficient`, :func:`f_test`
and :func:`f_interval` are McGraw & Wong's (1996) formulas, with Shrout &
Fleiss' (1979) k replaced by Ebel's (1951) k₀ for incomplete data, as R
irrNA's ``iccNA`` does (Brueckl 2011). The arithmetic takes Fractions, floats
or numpy arrays (the bootstrap's float twin computes many at once), so the
exact core and its twin share one formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from concord._common.extras import require

FORMS = (
    ("oneway", "agreement", "single"),
    ("oneway", "agreement", "average"),
    ("twoway", "agreement", "single"),
    ("twoway", "agreement", "average"),
    ("twoway", "consistency", "single"),
    ("twoway", "consistency", "average"),
)
# Shrout & Fleiss' (1979) names of the forms
SHROUT_FLEISS = {
    ("oneway", "single"): "ICC(1,1)",
    ("oneway", "average"): "ICC(1,k)",
    ("agreement", "single"): "ICC(2,1)",
    ("agreement", "average"): "ICC(2,k)",
    ("consistency", "single"): "ICC(3,1)",
    ("consistency", "average"): "ICC(3,k)",
}
# McGraw & Wong's (1996) names
MCGRAW_WONG = {
    ("oneway", "single"): "ICC(1)",
    ("oneway", "average"): "ICC(k)",
    ("agreement", "single"): "ICC(A,1)",
    ("agreement", "average"): "ICC(A,k)",
    ("consistency", "single"): "ICC(C,1)",
    ("consistency", "average"): "ICC(C,k)",
}


def key(model: str, type: str, unit: str) -> tuple[str, str]:
    """Return the form's key in the name tables: the one-way model has a single type."""
    return ("oneway" if model == "oneway" else type, unit)


@dataclass(frozen=True)
class Anova:
    """Sums of squares and degrees of freedom of an items × raters layout.

    Attributes
    ----------
    n_items, n_raters, n_ratings : int
        n (items with a rating), k (raters with a rating) and N (ratings).
    k0 : Fraction or float
        Ebel's (1951) mean number of ratings per item, (N − Σk_i²/N)/(n − 1);
        k when every item has every rater's rating.
    ss_items, ss_within : Fraction or float
        The one-way sums of squares: between items Σ T_i²/k_i − T²/N, and
        within items Σx² − Σ T_i²/k_i.
    ss_items_adjusted : Fraction or float
        Between items after each rater's mean is moved to the grand mean
        (Greer & Dunlap 1997); equal to ``ss_items`` on complete data.
    ss_raters, ss_error, ss_total : Fraction or float
        Between raters Σ S_j²/n_j − T²/N, the residual, and Σx² − T²/N.
    """

    n_items: Any
    n_raters: Any
    n_ratings: Any
    k0: Any
    ss_items: Any
    ss_within: Any
    ss_items_adjusted: Any
    ss_raters: Any
    ss_error: Any
    ss_total: Any

    @property
    def df_items(self) -> Any:
        return self.n_items - 1

    @property
    def df_within(self) -> Any:
        return self.n_ratings - self.n_items

    @property
    def df_raters(self) -> Any:
        return self.n_raters - 1

    @property
    def df_error(self) -> Any:
        """(n − 1)(N/n − 1): (n − 1)(k − 1) on complete data (iccNA's df_res)."""
        n, big_n = self.n_items, self.n_ratings
        if isinstance(n, int) and isinstance(big_n, int):
            return Fraction((n - 1) * (big_n - n), n) if n else math.nan
        return (n - 1) * (big_n - n) / n

    def mean_squares(self) -> dict[str, Any]:
        """MS of items (one-way), within, items (two-way), raters and error."""
        return {
            "items": _ratio(self.ss_items, self.df_items),
            "within": _ratio(self.ss_within, self.df_within),
            "items_adjusted": _ratio(self.ss_items_adjusted, self.df_items),
            "raters": _ratio(self.ss_raters, self.df_raters),
            "error": _ratio(self.ss_error, self.df_error),
        }


_FAR = 900  # mean squares beyond 2**±_FAR are scaled before they become floats


def float_squares(anova: Anova) -> dict[str, float]:
    """Return the mean squares as floats, all divided by one power of two when they are extreme.

    The F statistics, their degrees of freedom and the intervals are ratios of
    mean squares (homogeneous of degree 0), so a common power of two changes
    none of them, while scores near 1e300 have mean squares beyond the float
    range and scores near 1e−160 have subnormal ones. In range: the floats.
    """
    ms = anova.mean_squares()
    exact = [abs(v) for v in ms.values() if isinstance(v, Fraction) and v != 0]
    top = max(exact) if exact else None
    if top is None or 2**-_FAR < top < 2**_FAR:
        return {name: to_float(v) for name, v in ms.items()}
    shift = top.numerator.bit_length() - top.denominator.bit_length()
    scale = Fraction(1, 1 << shift) if shift > 0 else Fraction(1 << -shift)
    return {name: to_float(v * scale if isinstance(v, Fraction) else v) for name, v in ms.items()}


def to_float(v: Any) -> float:
    """float(v), ±inf beyond the float range (as float arithmetic overflows)."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _ratio(a: Any, b: Any) -> Any:
    if not hasattr(b, "shape") and b == 0:
        return math.nan
    return a / b


def coefficient(anova: Anova, model: str, type: str, unit: str) -> Any:
    """Return the ICC of one form from the mean squares (McGraw & Wong 1996, Tables 4 and 5)."""
    ms = anova.mean_squares()
    k0, n = anova.k0, anova.n_items
    if model == "oneway":
        rows, error = ms["items"], ms["within"]
    else:
        rows, error = ms["items_adjusted"], ms["error"]
    if unit == "average":
        below = rows if type == "consistency" or model == "oneway" else None
        if below is None:
            below = rows + (ms["raters"] - error) / n
    else:
        below = rows + (k0 - 1) * error
        if model == "twoway" and type == "agreement":
            below = below + k0 * (ms["raters"] - error) / n
    return _divide(rows - error, below)


def _divide(a: Any, b: Any) -> Any:
    if not hasattr(b, "shape") and b == 0:
        return math.nan
    return a / b  # numpy arrays: 0/0 is nan, numpy's warning suppressed by the caller


def _agreement_df(anova: Anova, ms: dict[str, Any], a: float, b: float) -> float:
    """Satterthwaite's degrees of freedom of a·MSC + b·MSE (McGraw & Wong 1996, Table 8)."""
    c, e = a * float(ms["raters"]), b * float(ms["error"])
    if math.isfinite(c) and math.isfinite(e) and max(abs(c), abs(e)) > 0:
        # a power of two: the ratio is the same float, and the squares cannot overflow
        power = math.frexp(max(abs(c), abs(e)))[1]
        c, e = math.ldexp(c, -power), math.ldexp(e, -power)
    denominator = c * c / anova.df_raters + e * e / float(anova.df_error)
    return (c + e) ** 2 / denominator if denominator > 0 else math.nan


def _agreement_ab(anova: Anova, rho: float, unit: str) -> tuple[float, float]:
    """McGraw & Wong's a and b for ρ (single: k₀ρ/(n(1 − ρ)); average: ρ/(n(1 − ρ)))."""
    n = anova.n_items
    scale = float(anova.k0) if unit == "single" else 1.0
    a = scale * rho / (n * (1 - rho))
    b = 1 + scale * rho * (n - 1) / (n * (1 - rho))
    return a, b


def f_test(anova: Anova, model: str, type: str, unit: str, r0: float) -> tuple[float, ...]:
    """Return F for H0: ICC = r0 and its two degrees of freedom (McGraw & Wong 1996)."""
    ms = float_squares(anova)
    k0 = float(anova.k0)
    if model == "twoway" and type == "agreement":
        a, b = _agreement_ab(anova, r0, unit)
        f = _fdiv(ms["items_adjusted"], a * ms["raters"] + b * ms["error"])
        return f, float(anova.df_items), _agreement_df(anova, ms, a, b)
    if model == "oneway":
        rows, error, df2 = ms["items"], ms["within"], float(anova.df_within)
    else:
        rows, error, df2 = ms["items_adjusted"], ms["error"], float(anova.df_error)
    shrink = (1 - r0) / (1 + (k0 - 1) * r0) if unit == "single" else 1 - r0
    return _fdiv(rows, error) * shrink, float(anova.df_items), df2


def _fdiv(a: float, b: float) -> float:
    if b == 0:
        return math.inf if a > 0 else math.nan
    return a / b


def f_sf(f: float, df1: float, df2: float) -> float:
    """P(F > f) on (df1, df2) degrees of freedom (scipy, imported when first needed)."""
    if not (math.isfinite(df1) and math.isfinite(df2)) or math.isnan(f):
        return math.nan
    if df1 > 0 and df2 > 0 and 0 < f < math.inf:  # what scipy.stats.f.sf calls, less its checks
        return float(_special().fdtrc(df1, df2, f))
    return float(_f().sf(f, df1, df2))


def f_ppf(q: float, df1: float, df2: float) -> float:
    """Return the q quantile of F on (df1, df2) degrees of freedom, as ``scipy.stats.f.ppf``."""
    if 0 < q < 1 and 0 < df1 < math.inf and 0 < df2 < math.inf:
        return float(_special().fdtri(df1, df2, q))  # scipy.stats.f.ppf's own call
    return float(_f().ppf(q, df1, df2))


_WHAT = "the ICC's F test (and its interval)"


def _special() -> Any:
    return require("scipy.special", "stats", _WHAT)


def _f() -> Any:
    return require("scipy.stats", "stats", _WHAT).f


def f_interval(
    anova: Anova, model: str, type: str, unit: str, icc: float, level: float
) -> tuple[float, float]:
    """McGraw & Wong's (1996) exact F-based interval (Tables 7 and 8), as R irr's ``icc``."""
    ms = float_squares(anova)
    n, k0, q = anova.n_items, float(anova.k0), 1 - (1 - level) / 2
    if model == "twoway" and type == "agreement":
        return _agreement_interval(anova, ms, unit, icc, q)
    if model == "oneway":
        rows, error, df2 = ms["items"], ms["within"], float(anova.df_within)
    else:
        rows, error, df2 = ms["items_adjusted"], ms["error"], float(anova.df_error)
    ratio = _fdiv(rows, error)
    low = ratio / f_ppf(q, n - 1, df2)
    high = ratio * f_ppf(q, df2, n - 1)
    if unit == "single":
        return (low - 1) / (low + k0 - 1), (high - 1) / (high + k0 - 1)
    return 1 - 1 / low, 1 - 1 / high


def _agreement_interval(
    anova: Anova, ms: dict[str, float], unit: str, icc: float, q: float
) -> tuple[float, float]:
    n, k0 = anova.n_items, float(anova.k0)
    if not math.isfinite(icc) or icc >= 1:
        return math.nan, math.nan
    # irr and iccNA take a and b of the single form's k₀ at the estimate, for both units
    a, b = _agreement_ab(anova, icc, "single")
    v = _agreement_df(anova, ms, a, b)
    low_f, high_f = f_ppf(q, n - 1, v), f_ppf(q, v, n - 1)
    rows, raters, error = ms["items_adjusted"], ms["raters"], ms["error"]
    if unit == "single":
        spread = k0 * raters + (k0 * n - k0 - n) * error
        low = n * (rows - low_f * error) / (low_f * spread + n * rows)
        high = n * (high_f * rows - error) / (spread + n * high_f * rows)
        return low, high
    low = n * (rows - low_f * error) / (low_f * (raters - error) + n * rows)
    high = n * (high_f * rows - error) / (raters - error + n * high_f * rows)
    return low, high
