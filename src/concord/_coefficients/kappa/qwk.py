"""Quadratic weighted kappa from five integer sums, in one pass over the ratings.

Two plain numpy integer arrays need only this module, the counting engines and
the errors: a fresh process that computes one κ imports nothing else of concord.
Other inputs import the general path (columns, labels, the table) on first use.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common import exact as _exact
from concord._common.errors import UndefinedKappaWarning, param_error
from concord._common.options import check_nan_policy
from concord._results.spec import Spec
from concord._tables import engines as _count

if TYPE_CHECKING:
    from concord._data.labels import Labels
    from concord._tables.pair_table import PairTable

# returns a float, not a result: the spec names it, for the registry
SPEC = Spec("quadratic_weighted_kappa", "Quadratic weighted kappa")


def rating_bound(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    param_error(
        "quadratic_weighted_kappa", name, "None or an integer rating", value, exc=TypeError
    )


def bounds(min_rating: Any, max_rating: Any) -> tuple[int | None, int | None]:
    """Validate ``min_rating`` and ``max_rating``: integers (or None), the first not above."""
    lo_bound = rating_bound(min_rating, "min_rating")
    hi_bound = rating_bound(max_rating, "max_rating")
    if lo_bound is not None and hi_bound is not None and lo_bound > hi_bound:
        param_error(
            "quadratic_weighted_kappa", "max_rating", f"at least min_rating={lo_bound}", hi_bound
        )
    return lo_bound, hi_bound


def quadratic_weighted_kappa(
    rater1: Any,
    rater2: Any = None,
    /,
    *,
    min_rating: int | None = None,
    max_rating: int | None = None,
    labels: Any = None,
    nan_policy: str = "raise",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
) -> float:
    r"""Quadratic weighted kappa, fast, with the signature of Ben Hamner's Metrics.

    For integer ratings a and b, quadratic weights make κ a function of five
    sums, computed in one pass with O(1) extra memory:

    .. math::

        \kappa = \frac{2\,(n \sum ab - \sum a \sum b)}
                      {n \sum a^2 + n \sum b^2 - 2 \sum a \sum b}
               = \frac{2\,\mathrm{cov}(a, b)}
                      {\mathrm{var}\,a + \mathrm{var}\,b + (\bar a - \bar b)^2}

    The sums are exact integers and the ratio is rounded once, so the value
    is identical to ``cohen_kappa(rater1, rater2, weights="quadratic").statistic``.

    Parameters
    ----------
    rater1, rater2 : array-like, shape (n,)
        Integer ratings (other inputs go through :func:`cohen_kappa`).
        Two pandas Series pair by index label, as in :func:`cohen_kappa`.
        PyTorch, CuPy and JAX arrays are counted on their device (a GPU,
        say): only the k×k table comes to the host.
    min_rating, max_rating : int, optional
        The lowest and highest possible rating. Ratings outside them are an
        error. They do not change κ: quadratic weights depend only on the
        differences of the ratings.
    labels : sequence, optional
        The ordered categories, as in :func:`cohen_kappa`.
    nan_policy : {"raise", "omit"}, default "raise"
        A missing rating (NaN, None or pd.NA, in a list, an object array or
        a nullable pandas column) is an error, or with ``"omit"`` its pair
        is dropped, as in :func:`cohen_kappa`.
    item, rater, rating : column name, optional
        Long form: the first argument is a table with one row per rating
        (pandas, polars, pyarrow or a mapping of columns) and these name its
        item, rater and rating columns; ``raters`` picks the two raters.
    raters : pair of names, optional
        The two raters: of the long table (default: its only two), or two
        columns of a DataFrame (pandas, polars, pyarrow) given as the first
        argument; the second rater is then left out.

    Returns
    -------
    float
        κ; nan with an :class:`~concord.UndefinedKappaWarning` when the
        chance disagreement is 0 (both raters gave one and the same rating).

    Examples
    --------
    Seed 001's example; scikit-learn and Hamner's code give -0.13924050632911378:

    >>> import concord
    >>> actual = [2, 2, 2, 3, 4, 5, 5, 5, 5, 5]
    >>> pred = [2, 2, 2, 3, 2, 1, 1, 1, 1, 3]
    >>> concord.quadratic_weighted_kappa(actual, pred)
    -0.13924050632911392
    >>> concord.quadratic_weighted_kappa(actual, pred, min_rating=1, max_rating=5)
    -0.13924050632911392

    A missing rating is an error unless its pair is dropped; the three
    complete pairs agree perfectly:

    >>> concord.quadratic_weighted_kappa([1, 2, None, 3], [1, 2, 2, 3], nan_policy="omit")
    1.0
    """
    func = "quadratic_weighted_kappa"
    if labels is None and _plain(rater1, rater2, item, rater, rating, raters):
        check_nan_policy(nan_policy, func)
        return _integers(rater1, rater2, *bounds(min_rating, max_rating))
    from concord._data.arrays import counted_on_device, to_host
    from concord._data.columns import check_pair, column, omit_missing, paired
    from concord._data.two import two_raters

    rater1, rater2, labels, _ = two_raters(
        func, rater1, rater2, (item, rater, rating), raters, labels, None
    )
    check_nan_policy(nan_policy, func)
    lo_bound, hi_bound = bounds(min_rating, max_rating)
    rater1, rater2 = paired(rater1, rater2, func)
    if counted_on_device(rater1) or counted_on_device(rater2):
        on_device = _on_device(rater1, rater2, lo_bound, hi_bound, labels, nan_policy)
        if on_device is not None:
            return on_device
        rater1, rater2 = to_host(rater1), to_host(rater2)
    c1, c2 = column(rater1, func, "rater1"), column(rater2, func, "rater2")
    check_pair(c1, c2, func)
    # a missing rating: the error, or the pair dropped (never its placeholder value counted)
    (c1, c2), _ = omit_missing([c1, c2], None, nan_policy, func)
    a, b = c1.values, c2.values
    if labels is None and _int64_exact(a) and _int64_exact(b):
        return _integers(a, b, lo_bound, hi_bound, rater1, rater2, nan_policy)
    return _via_cohen(rater1, rater2, lo_bound, hi_bound, labels, nan_policy)


def _plain(rater1: Any, rater2: Any, *long: Any) -> bool:
    """Whether the call is two plain numpy integer arrays of one non-zero length.

    Such arrays pass every check of the general path (no missing value, no
    categories, nothing to pair by index, no table), so they skip them.
    """
    if (
        type(rater1) is not np.ndarray
        or type(rater2) is not np.ndarray
        or any(x is not None for x in long)
    ):
        return False
    if rater1.ndim != 1 or rater1.shape != rater2.shape or rater1.shape[0] == 0:
        return False
    return _int64_exact(rater1) and _int64_exact(rater2)


def _integers(
    a: np.ndarray,
    b: np.ndarray,
    lo_bound: int | None,
    hi_bound: int | None,
    rater1: Any = None,
    rater2: Any = None,
    nan_policy: str = "raise",
) -> float:
    """κ of integer ratings from their five sums (``rater1``/``rater2``: the inputs as given)."""
    bounded = lo_bound is not None or hi_bound is not None
    counted = _count.pair_moments(a, b, need_range=bounded)
    if counted is None:  # a range too wide for int64 chunks: the table's path
        first, second = (a, b) if rater1 is None else (rater1, rater2)
        return _via_cohen(first, second, lo_bound, hi_bound, None, nan_policy)
    lo, hi, sums = counted
    if bounded:
        check_range(lo, hi, lo_bound, hi_bound)  # type: ignore[arg-type]
    return _from_sums(a.shape[0], sums)


def _int64_exact(x: np.ndarray) -> bool:
    """Whether the five-sum kernels take ``x``: ints, but not uint64 beyond int64."""
    if x.dtype.kind not in "iub":
        return False
    return x.dtype != np.uint64 or x.shape[0] == 0 or int(x.max()) < 2**63


def _via_cohen(
    rater1: Any,
    rater2: Any,
    lo_bound: int | None,
    hi_bound: int | None,
    labels: Any,
    nan_policy: str = "raise",
) -> float:
    """κ of ratings that are not integer arrays: the statistic of :func:`cohen_kappa`."""
    from concord._tables.pairs import confusion_table

    if labels is None and lo_bound is not None and hi_bound is not None:
        labels = range(lo_bound, hi_bound + 1)
    func = "quadratic_weighted_kappa"  # errors and warnings name the function the user called
    counted = confusion_table(
        rater1, rater2, labels=labels, nan_policy=nan_policy, sample_weight=None, func=func
    )
    if labels is None:  # numeric ratings: the labels are the values seen
        check_range(min(counted.labels.values), max(counted.labels.values), lo_bound, hi_bound)
    return from_table(counted.table, counted.labels)  # as the accumulator computes it


def _on_device(
    rater1: Any,
    rater2: Any,
    lo_bound: int | None,
    hi_bound: int | None,
    labels: Any,
    nan_policy: str,
) -> float | None:
    """κ of PyTorch, CuPy or JAX arrays, counted on their device; None: take the host path.

    Integer ratings give the k×k table (``_device_pairs``) rather than the
    five sums: κ is the same exactly rounded ratio either way.
    """
    from concord._data.arrays import Fallback, check_numeric, namespace
    from concord._tables.pairs import confusion_table

    try:
        xp = namespace(rater1, rater2)
        kinds = {check_numeric(xp, x, 1) for x in (rater1, rater2)}
    except Fallback:
        return None
    if rater1.shape != rater2.shape:
        return None  # numpy's error names this function
    if labels is not None or not kinds <= set("iub"):
        return _via_cohen(rater1, rater2, lo_bound, hi_bound, labels, nan_policy)
    func = "quadratic_weighted_kappa"
    counted = confusion_table(
        rater1, rater2, labels=None, nan_policy=nan_policy, sample_weight=None, func=func
    )
    if lo_bound is not None or hi_bound is not None:
        values = counted.labels.values
        check_range(int(min(values)), int(max(values)), lo_bound, hi_bound)
    return from_table(counted.table, counted.labels)


def check_range(lo: int, hi: int, lo_bound: int | None, hi_bound: int | None) -> None:
    func = "quadratic_weighted_kappa"
    if lo_bound is not None and lo < lo_bound:
        param_error(
            func,
            "min_rating",
            f"at most the lowest rating, {lo}",
            lo_bound,
            fix="Lower min_rating, or check the ratings.",
        )
    if hi_bound is not None and hi > hi_bound:
        param_error(
            func,
            "max_rating",
            f"at least the highest rating, {hi}",
            hi_bound,
            fix="Raise max_rating, or check the ratings.",
        )


def _from_sums(n: int, sums: tuple[int, int, int, int, int]) -> float:
    sa, sb, saa, sbb, sab = sums
    numerator = 2 * (n * sab - sa * sb)
    denominator = n * saa + n * sbb - 2 * sa * sb
    if denominator == 0:
        _undefined()
    return _exact.ratio(numerator, denominator)


def from_table(table: np.ndarray, labels: Labels) -> float:
    """κ of a confusion table: the statistic of ``cohen_kappa(weights="quadratic")``."""
    from concord._coefficients.kappa.cohen_core import weighted_kappa_core
    from concord._tables.weights import resolve

    weighting = resolve("quadratic", labels, "quadratic_weighted_kappa")
    statistic = weighted_kappa_core(table, weighting.exact, split=weighting.split)[0]
    if np.isnan(statistic):
        _undefined()
    return statistic


def _undefined() -> None:
    warnings.warn(
        "quadratic_weighted_kappa is undefined (nan) because the chance disagreement "
        "is 0: both raters gave one and the same rating to every item.",
        UndefinedKappaWarning,
        stacklevel=4,
    )


def count(data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any) -> PairTable | None:
    """Validate and count one batch of a stream; ratings must lie within the declared bounds."""
    from concord._tables.pairs import batch_table

    counted = batch_table(
        *data,
        labels=options["labels"],
        nan_policy=options.get("nan_policy", "raise"),
        sample_weight=sample_weight,
        func=SPEC.name,
    )
    values = () if counted is None else counted.labels.values
    if options["labels"] is None and values and all(isinstance(v, int | float) for v in values):
        check_range(min(values), max(values), options["min_rating"], options["max_rating"])
    return counted


def from_counts(counted: PairTable, options: dict[str, Any]) -> float:
    """κ of a stream's merged table."""
    return from_table(counted.table, counted.labels)


def checked(options: dict[str, Any]) -> dict[str, Any]:
    """Validate the options of an accumulator: the rating bounds."""
    options["min_rating"], options["max_rating"] = bounds(
        options["min_rating"], options["max_rating"]
    )
    return options
