"""Docstring fragments shared by the coefficient functions.

A docstring names a fragment as ``${name}``; :func:`fill` substitutes it.
Fragments are pre-indented for a function's docstring (4 spaces).
"""

from __future__ import annotations

from collections.abc import Callable
from string import Template
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

_FRAGMENTS = {
    "device_pair": """\
PyTorch, CuPy and JAX arrays are encoded and counted on their
        device (a GPU, say) in their own namespace; only the k×k table
        comes to the host (``pip install 'concord-agreement[array]'``).""",
    "device_ratings": """\
A PyTorch, CuPy or JAX array is encoded and counted on its device
        (a GPU, say) in its own namespace; only the distinct item patterns
        come to the host (``pip install 'concord-agreement[array]'``).""",
    "series_pairing": """\
Two pandas Series pair by index label, as pandas and
        :mod:`concord.dask` pair them: identical indexes as they are, the
        same labels in another order aligned; other label sets are an error
        (``.reset_index(drop=True)`` on both pairs by position). Any other
        input pairs by position.""",
    "population_size": """\
population_size : float, optional
        The size N of the population the items were drawn from: the
        variance is multiplied by 1 − n/N, as irrCAC's ``N``. Default:
        infinite (no correction).""",
    "empty": """\
empty : {"missing", "category"}
        What an empty label set (a rating of no label: ``set()``, ``[]``)
        is: a missing rating (default), or a category of its own, "no label
        applies". Only label sets are concerned.""",
    "long_form": """\
item, rater, rating : column name, optional
        Long form: ``ratings`` is a table with one row per rating (a pandas
        DataFrame, a pyarrow Table or a mapping of columns such as a dict of
        lists), and these name its item, rater and rating columns; give all
        three or none. It is pivoted to one column per rater (raters in order
        of first appearance). A missing item or rater, or a second rating of
        an item by one rater, is an error naming its row; a missing rating
        is missing. A DataFrame of pandas, polars (eager or lazy) or pyarrow
        keeps its column names and its categories' order (an ordered
        Categorical, a ``pl.Enum``, an ordered dictionary).
    ${form}""",
    "form": """\
form : {"auto", "wide"}
        Without ``item=``, ``rater=`` and ``rating=`` a table is read as one
        column per rater; "auto" first refuses a table that looks long (an
        item column whose values repeat, a column of rater names found in no
        other column, a column of ratings), naming its columns and the
        long-form call; "wide" says the columns are raters and skips that
        check.""",
    "pair_long": """\
item, rater, rating : column name, optional
        Long form: the first argument is a table with one row per rating
        (pandas, polars, pyarrow or a mapping of columns) and these name its
        item, rater and rating columns; ``raters`` picks the two raters.
    raters : pair of names, optional
        The two raters: of the long table (default: its only two), or two
        columns of a DataFrame (pandas, polars, pyarrow) given as the first
        argument; the second rater is then left out.""",
    "groups": """\
groups : array-like, optional
        One cluster label per item (row), such as the patient of each
        slide: the clusters, not the items, are then the independent units
        of ``standard_error``, ``pvalue`` (t on C − 1 df),
        ``confidence_interval()`` and ``bootstrap()``, which resamples
        clusters (docs/guide/uncertainty.md, "Clustered items"). A pandas Series pairs with
        the items by index label. With the long form, name the column that
        holds each item's cluster. One item per cluster gives the result
        without ``groups``.""",
    "gwet_se": """\
``standard_error`` is Gwet's (2014) design-based SE, conditional on the
    raters, from the raw-ratings formulas of R irrCAC (each item's linearised
    contribution). ``pvalue`` is two-sided for H0: coefficient = 0, from
    Gwet's t test with n_items − 1 degrees of freedom.""",
    "fisher_z_default": """\
``confidence_interval()`` defaults to ``method="fisher-z"``: the Wald
    interval on artanh(κ), mapped back with tanh, which came closest to 95%
    coverage for n ≥ 100 in the coverage study (docs/guide/uncertainty.md).
    ``"wald"``, ``"t"`` (as irrCAC), ``"bootstrap-percentile"`` and
    ``"bootstrap-bca"`` are the alternatives; every interval is clipped to
    [−1, 1].""",
}


def fill(func: F) -> F:
    """Substitute the ``${name}`` fragments of ``func.__doc__`` (fragments may hold fragments)."""
    if func.__doc__:
        text = Template(func.__doc__).substitute(_FRAGMENTS)
        func.__doc__ = Template(text).substitute(_FRAGMENTS) if "${" in text else text
    return func
