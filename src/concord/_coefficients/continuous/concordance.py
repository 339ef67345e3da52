"""Lin's concordance correlation coefficient of two raters' continuous ratings.

The exact core, its float twin and its variance are in
:mod:`concord._coefficients.continuous.concordance_core`; the sums come from
:mod:`concord._tables.moments`.
"""

from __future__ import annotations

import math
import warnings
from functools import partial
from typing import Any

from concord._coefficients.continuous.concordance_core import PairSampler, ccc_core, z_variance
from concord._common.docs import fill
from concord._common.errors import UndefinedKappaWarning
from concord._data.names import rater_names
from concord._data.two import two_raters
from concord._inference.intervals import Deferred, Inference, _level
from concord._results.continuous.agreement_continuous import CccResult
from concord._results.protocol import named
from concord._results.spec import Spec
from concord._tables.moments import Moments, bootstrap_pairs, counted, exact_sums, paired_ratings

SPEC = Spec("concordance_correlation", "Lin's concordance correlation", scale=None)
_FUNC = SPEC.name


def _inference(statistic: float, se: float, n: int, pairs: Any) -> Inference:
    pairs = pairs() if callable(pairs) else pairs
    sampler = None if pairs is None else PairSampler(*pairs)
    return Inference(
        statistic=statistic,
        standard_error=se,
        df=max(n - 2, 0),
        bounds=SPEC.bounds,
        default_method=SPEC.interval,
        sampler=sampler,
    )


def ccc_result(sums: Moments, confidence_level: Any, pairs: Any = None) -> CccResult:
    """Build the :class:`CccResult` of exact sums.

    ``pairs``: the distinct pairs, for the bootstrap, or a function computing
    them; then the result's inference is deferred until it is first read.
    """
    level = _level(confidence_level, _FUNC)
    c = ccc_core(sums)
    if not math.isfinite(c.statistic):
        warnings.warn(
            "concordance_correlation is undefined (nan): x and y are both constant and "
            "equal, so 2·cov / (var_x + var_y + (mean_x − mean_y)²) is 0/0.",
            UndefinedKappaWarning,
            stacklevel=3,
        )

    var_z = z_variance(c, sums.n)
    se = math.sqrt(var_z) * (1 - c.statistic**2) if math.isfinite(var_z) else math.nan
    inference = _inference(c.statistic, se, sums.n, None if callable(pairs) else pairs)
    interval = inference.interval(level, None, 2, None, _FUNC)  # analytic: no sampler
    deferred: Deferred = inference
    if callable(pairs):
        deferred = partial(_inference, c.statistic, se, sums.n, pairs)
    return CccResult(
        statistic=c.statistic,
        n=sums.n,
        confidence_level=level,
        interval=interval,
        precision=c.precision,
        accuracy=c.accuracy,
        scale_shift=c.scale_shift,
        location_shift=c.location_shift,
        mean_x=c.mean_x,
        mean_y=c.mean_y,
        var_x=c.var_x,
        var_y=c.var_y,
        covariance=c.covariance,
        _inference=deferred,
        _spec=SPEC,
    )


def checked(options: dict[str, Any]) -> dict[str, Any]:
    """Validate ``confidence_level`` (the registry's hook)."""
    return {**options, "confidence_level": _level(options["confidence_level"], _FUNC)}


def count(data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any) -> Moments | None:
    """Validate and sum one batch of a stream, as the one-shot function does."""
    x, y = paired_ratings(data[0], data[1], _FUNC, options.get("nan_policy", "raise"))
    return exact_sums(x, y) if x.size else None


def from_counts(sums: Moments, options: dict[str, Any]) -> CccResult:
    """Return the result of a stream's merged sums, as the one-shot function computes it."""
    return ccc_result(sums, options["confidence_level"])


def empty_error(func: str) -> None:
    """Refuse no pairs at all, naming ``func``."""
    from concord._common.errors import param_error

    param_error(func, "x", "at least one pair of ratings", "none", raw=True)


@fill
def concordance_correlation(
    x: Any,
    y: Any = None,
    /,
    *,
    confidence_level: float = 0.95,
    nan_policy: str = "raise",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
) -> CccResult:
    r"""Lin's concordance correlation coefficient of two raters' continuous ratings.

    .. math::

        \rho_c = \frac{2 s_{xy}}{s_x^2 + s_y^2 + (\bar x - \bar y)^2}
               = r \cdot C_b

    with population (1/n) moments (Lin 1989). It is 1 only when every point
    lies on the identity line y = x. Pearson's r (the precision) says how
    far the points lie from their best-fit line; C_b = 2 / (v + 1/v + u²)
    (the accuracy) how far that line lies from the identity, from the scale
    shift v = s_x / s_y and the location shift u = (x̄ − ȳ) / √(s_x s_y).

    Parameters
    ----------
    x, y : array-like, shape (n,)
        The two raters' numeric ratings of the same n items.
        ${series_pairing}
    confidence_level : float
        The level of the result's ``interval``; default 0.95.
    nan_policy : {"raise", "omit"}
        What to do with a missing rating: raise, or drop the pair.
    ${pair_long}

    Returns
    -------
    CccResult
        ``statistic`` (ρ_c), ``interval``, ``precision``, ``accuracy``,
        ``scale_shift``, ``location_shift``, ``standard_error``, ``explain()``.

    Notes
    -----
    The sums n, Σx, Σy, Σx², Σy², Σxy are exact (integers times a power of
    two), and ρ_c, r, C_b, v and u are rounded once from them; a merged
    accumulator gives the one-shot result bit for bit. The interval is Lin's:
    Fisher's z = artanh(ρ_c) ± z_{α/2} σ_z, with Lin's (1989, corrected 2000)
    variance σ_z² on n − 2 (R epiR's ``epi.ccc`` with ``ci="z-transform"``);
    ``standard_error`` is σ_z (1 − ρ_c²). ``confidence_interval(method=
    "bootstrap-bca")`` resamples the pairs.

    On integer scores ρ_c is the quadratic weighted kappa with value-spaced
    weights (x − y)² (:func:`quadratic_weighted_kappa` on the raw scores).

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. Biometrics 45(1), 255-268. doi:10.2307/2532051

    Lin, L. I.-K. (2000). A note on the concordance correlation coefficient.
    Biometrics 56(1), 324-325.

    Examples
    --------
    Bland & Altman's (1986) PEFR data, first readings of the Wright and mini
    Wright meters of 8 subjects:

    >>> import concord
    >>> wright = [494, 395, 516, 434, 476, 557, 413, 442]
    >>> mini = [512, 430, 520, 428, 500, 600, 364, 380]
    >>> r = concord.concordance_correlation(wright, mini)
    >>> round(r.statistic, 4), round(r.precision, 4)
    (0.8439, 0.904)
    >>> concord.quadratic_weighted_kappa(wright, mini) == r.statistic
    True
    """
    x, y, _, _ = two_raters(
        "concordance_correlation", x, y, (item, rater, rating), raters, None, None
    )
    paired = counted(x, y, _FUNC, nan_policy)
    if paired.sums.n == 0:
        empty_error(_FUNC)
    result = ccc_result(paired.sums, confidence_level, bootstrap_pairs(paired.x, paired.y))
    return named(result, rater_names(x, y, ("x", "y")), "names")
