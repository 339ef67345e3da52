"""``concord.agree``: every chosen coefficient of one panel, from one validation and one table.

The ratings are validated and counted once (:func:`item_data`, with who rated
what when Conger's or Light's kappa is asked for), and each coefficient's
registry ``core`` computes its result from that one table, the code the
accumulators use. Krippendorff's alpha shares the table too, unless its level
needs its engine for many distinct values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from concord._coefficients.krippendorff import krippendorff as _alpha
from concord._coefficients.registry import REGISTRY, Coefficient
from concord._common import options as vocabulary
from concord._common.docs import fill
from concord._common.errors import param_error
from concord._data.long import LONG, long_ratings
from concord._data.matrix import CategoryCounts
from concord._inference.intervals import _level
from concord._results.multirater.agreement import AgreementResult
from concord._results.multirater.panel import AgreementTable
from concord._tables.item_table import Items
from concord._tables.items import item_data
from concord._tables.weights import resolve

_FUNC = "agree"
#: The coefficients of many raters, in the registry's order (Krippendorff's alpha last).
# categorical panels of one ratings argument: not the continuous scores ("sums")
PANEL: tuple[Coefficient, ...] = tuple(c for c in REGISTRY if c.arity == 1 and c.table != "sums")


def _one(x: Any) -> Coefficient:
    for c in PANEL:
        if x is c.function or x == c.name:
            return c
    names = ", ".join(repr(c.name) for c in PANEL)
    param_error(
        _FUNC,
        "coefficients",
        f"names or functions of coefficients of many raters: {names}",
        x,
        fix="Two raters' coefficients (cohen_kappa, scott_pi) have their own functions.",
    )


def chosen(coefficients: Any, counts: bool) -> list[Coefficient]:
    """Return the registry entries asked for; by default every one that applies to the data.

    Conger's and Light's kappa need to know who rated what, which the count
    form has lost: by default they are left out for it.
    """
    if coefficients is None:
        return [c for c in PANEL if not (counts and c.table == "raters")]
    many = [coefficients] if isinstance(coefficients, str) or callable(coefficients) else None
    picked = [_one(x) for x in (many or list(coefficients))]
    if not picked:
        param_error(_FUNC, "coefficients", "at least one coefficient, or None for all", [])
    twice = [c.name for i, c in enumerate(picked) if c in picked[:i]]
    if twice:
        param_error(
            _FUNC, "coefficients", "each coefficient once", twice[0], fix="Drop the repeat."
        )
    return picked


def _long(long_form: dict[str, Any]) -> tuple[Any, Any, Any]:
    stray = sorted(set(long_form) - {*LONG, "form"})
    if stray:
        raise TypeError(
            f"agree() got an unexpected keyword argument {stray[0]!r}; besides its own "
            "options it takes item=, rater= and rating= (the long form's columns) and form=."
        )
    return long_form.get("item"), long_form.get("rater"), long_form.get("rating")


def _names(ratings: Any, n: int | None) -> tuple[Any, ...] | None:
    if isinstance(ratings, CategoryCounts) or n is None:
        return None
    columns = getattr(ratings, "columns", None)
    return tuple(columns) if columns is not None else tuple(range(n))


def _named_level(weights: Any) -> str | None:
    """Return the level that says what ``weights`` say (none, quadratic, ratio), else None."""
    if weights is None or isinstance(weights, str):
        return vocabulary.LEVEL_OF_WEIGHTS.get(weights)
    return None


def alpha_level(weights: Any, level: Any, kappas: Sequence[AgreementResult], items: Items) -> Any:
    """α's level: as given; else the one that says what ``weights`` say; else their matrix."""
    if level is not None:
        return level
    named = _named_level(weights)
    if named is not None:
        return named
    if kappas:
        return kappas[0].weights
    return resolve(weights, items.labels, _FUNC).matrix


def _krippendorff(
    ratings: Any, items: Items | None, kappas: list[AgreementResult], options: dict[str, Any]
) -> AgreementResult:
    """α from the shared table where its one-shot function would count the same table."""
    level, labels = options["level"], options["labels"]
    if items is None:  # α alone: its own validation (continuous data may have many values)
        named = level if level is not None else _named_level(options["weights"])
        if named is not None:
            return _alpha.krippendorff_alpha(ratings, level=named, labels=labels)
        items = item_data(ratings, labels, _FUNC)  # the weights' matrix needs the labels
    level = alpha_level(options["weights"], level, kappas, items)
    if items.counts is not None and _alpha.coincidence_engine(items.labels.k, level):
        return _alpha.alpha_result(items, level, None)
    declared = labels if labels is not None else list(items.labels.values)
    return _alpha.krippendorff_alpha(ratings, level=level, labels=declared)


@fill
def agree(
    ratings: Any,
    /,
    *,
    coefficients: Any = None,
    weights: Any = None,
    level: Any = None,
    labels: Any = None,
    confidence_level: float = 0.95,
    **long_form: Any,
) -> AgreementTable:
    """Every agreement coefficient of a panel of raters, from one validation and one table.

    What ``concord agree`` prints: percent agreement, Fleiss', Conger's and
    Light's kappa, Gwet's AC1/AC2, Brennan–Prediger and Krippendorff's alpha,
    each with its SE, interval, p-value and interpretation. Each result is
    the one its own function returns (the same bits); the ratings are
    validated and counted once for all of them.

    Parameters
    ----------
    ratings : array_like, DataFrame, mapping or CategoryCounts
        Items × raters (missing ratings allowed), the long form with
        ``item=``, ``rater=`` and ``rating=``, or the count form (where
        Conger's and Light's kappa do not apply and are left out).
    coefficients : str, callable or sequence of them, optional
        Function names (``"fleiss_kappa"``) or the functions themselves;
        default every coefficient of many raters that applies to the data.
    weights : None, str or array_like
        The kappa-type coefficients' disagreement weights, as theirs.
    level : None, str or array_like
        Krippendorff's level. None: the level that says what ``weights``
        say (nominal for none, interval for quadratic, ratio for ratio),
        else the weights' matrix itself.
    labels : sequence, optional
        The categories, in order, as every coefficient takes them.
    confidence_level : float
        The level of the intervals the table shows by default.
    ${long_form}

    Returns
    -------
    AgreementTable
        Index it by function name; ``to_frame()`` is a DataFrame with one
        row per coefficient.

    Examples
    --------
    Four items rated by three raters, in the long form an annotation tool
    exports; each row of the table is what that coefficient's own function
    gives:

    >>> import concord
    >>> rows = {
    ...     "doc": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4],
    ...     "annotator": ["ann", "bo", "cy"] * 3 + ["ann", "bo"],
    ...     "label": ["a", "a", "a", "a", "b", "b", "b", "b", "b", "a", "b"],
    ... }
    >>> table = concord.agree(rows, item="doc", rater="annotator", rating="label")
    >>> table.coefficients[:3]
    ('percent_agreement', 'fleiss_kappa', 'conger_kappa')
    >>> fleiss = concord.fleiss_kappa(rows, item="doc", rater="annotator", rating="label")
    >>> table["fleiss_kappa"].statistic == fleiss.statistic
    True
    >>> row = table.to_frame().loc["Fleiss' kappa"]
    >>> round(float(row["statistic"]), 4), row["interpretation"]
    (0.1608, 'slight')
    """
    level_ = _level(confidence_level, _FUNC)
    ratings = long_ratings(ratings, _long(long_form), _FUNC, long_form.get("form", "auto"))
    picked = chosen(coefficients, isinstance(ratings, CategoryCounts))
    options = {"weights": weights, "labels": labels, "population_size": None, "level": level}
    kappas = [c for c in picked if c.table != "coincidences"]
    items = None
    if kappas:
        need = any(c.table == "raters" for c in kappas)
        items = item_data(ratings, labels, _FUNC, need_raters=need, codes_only=need)
    done = {c.name: c.core(items, options) for c in kappas}
    for c in picked:
        if c.table == "coincidences":
            done[c.name] = _krippendorff(ratings, items, list(done.values()), options)
    results = tuple(done[c.name] for c in picked)
    first = results[0]
    names = items.names if items is not None else _names(ratings, first.n_raters)
    return AgreementTable(
        results,
        level_,
        int(first.n_items),
        None if names is None else tuple(names),
        int(first.category_totals.sum()),
        tuple(first.labels),
        first.category_totals.copy(),
    )
