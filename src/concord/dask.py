"""Agreement coefficients of dask collections: a tree reduction of accumulators.

Every partition (or block) is counted by an :class:`~concord.Accumulator`
where it lies, the accumulators are merged in a tree, ``split_every`` at a
time, and the merged table gives the result: the one-shot function's result
on all the data, bit for bit. Only count tables travel, never ratings. The
graph runs on the current dask scheduler: a ``distributed.Client`` if one is
active, else dask's default.

``import concord`` does not import dask; ``concord.dask`` does.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from concord._common.extras import require

require("dask.array", "dask", "concord.dask")  # without dask: one line naming the extra

import dask.array as da
import numpy as np
from dask.base import compute as _compute
from dask.base import is_dask_collection, tokenize
from dask.delayed import Delayed, delayed

from concord._coefficients.registry import Coefficient, entry
from concord._common.errors import describe, param_error
from concord._data.columns import listing
from concord._data.long import pivot
from concord._streaming.accumulator import accumulate
from concord._studies.compare.compare import compare

__all__ = ["accumulator", "compute"]

_FUNC = "concord.dask.compute"
_LONG = ("item", "rater", "rating")
_LONG_FIX = "raters= lists the raters of long-form data (item=, rater=, rating=)."


@dataclass(frozen=True)
class _Spec:
    """What a chunk task needs: the accumulator to make and how to read its partition."""

    function: Callable[..., Any]
    options: dict[str, Any]
    n_replicates: int | None
    pair: bool
    weighted: bool = False
    long: tuple[Any, Any, Any] | None = None
    raters: tuple[Any, ...] = ()
    split: int | None = None  # compare: the first side's columns; the second's follow


def compute(
    function: Callable[..., Any],
    /,
    *data: Any,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Sequence[Any] | None = None,
    sample_weight: Any = None,
    split_every: int = 8,
    n_replicates: int | None = None,
    rng: Any = None,
    **options: Any,
) -> Any:
    """Compute an agreement coefficient of data held in dask collections.

    Each partition is counted where it lies, by an accumulator
    (:func:`concord.accumulate`); the accumulators are merged in a tree and
    the merged count table gives the result. The graph runs on the current
    scheduler (an active ``distributed.Client``, else dask's default).

    Parameters
    ----------
    function : callable
        Any function :func:`concord.accumulate` takes: :func:`~concord.cohen_kappa`,
        :func:`~concord.scott_pi`, :func:`~concord.quadratic_weighted_kappa`
        (two raters), :func:`~concord.fleiss_kappa`, :func:`~concord.conger_kappa`,
        :func:`~concord.light_kappa`, :func:`~concord.brennan_prediger`,
        :func:`~concord.gwet_ac`, :func:`~concord.krippendorff_alpha`,
        :func:`~concord.percent_agreement`, :func:`~concord.icc` (many raters),
        :func:`~concord.concordance_correlation`, :func:`~concord.bland_altman`
        (two raters, continuous: exact sums, no count table). Or
        :func:`~concord.compare` with ``function=`` and two collections,
        first and second (paired: rows are items), each a DataFrame or 2-D
        Array of one column per rater (two for a two-rater function).
    *data : dask DataFrame, Series or Array
        Two raters: a dask DataFrame of two columns or an array of shape
        (n, 2), or two dask Series or 1-D arrays, as ``cohen_kappa(rater1,
        rater2)`` takes them; Series pair by index label (an outer join:
        a label one Series lacks is a missing rating). Many raters: a dask
        DataFrame or 2-D array with one column per rater and one row per
        item (``fleiss_kappa(ratings)``).
        Long form: a dask DataFrame with one row per rating, named by
        ``item``, ``rater`` and ``rating``.
    item, rater, rating : str, optional
        Long form: the columns holding the item, the rater and the rating.
        Give all three or none. Rows are shuffled by item so that every
        item's ratings lie in one partition, and pivoted there to one column
        per rater (missing ratings are missing values). Each (item, rater)
        pair may appear once.
    raters : sequence, optional
        Long form: the raters, in order. Default: every rater found, in order
        of first appearance, which costs one pass over the ``rater`` column.
    sample_weight : dask Series or 1-D Array, optional
        :func:`~concord.cohen_kappa` only: a weight per pair, partitioned as
        the ratings are (a Series of the same DataFrame, an array of the same
        length).
    split_every : int, default 8
        How many accumulators each merge task adds.
    n_replicates, rng
        Poisson bootstrap replicates, as :func:`concord.accumulate` keeps them;
        each partition draws from its own stream spawned from ``rng``, so one
        seed and one partitioning give one result.
    **options
        The function's options (``weights``, ``labels``, ``nan_policy``,
        ``level``, ``population_size``, ...), as it takes them.

    Returns
    -------
    result
        What ``function`` returns on all the data in memory (a
        :class:`~concord.KappaResult`, :class:`~concord.AgreementResult`, ...;
        a float for ``quadratic_weighted_kappa``).

    See Also
    --------
    accumulator : the lazy merged accumulator, to compute with other collections.

    Notes
    -----
    Wide many-rater data must hold whole items per row (as they do); long
    form is shuffled for you. Labels grow across partitions as they do across
    an accumulator's batches, or are fixed by ``labels=``. Krippendorff's
    alpha of more than 256 distinct values has no count table and raises
    ``NotImplementedError``.

    Examples
    --------
    >>> import concord, concord.dask, pandas as pd, dask.dataframe as dd
    >>> df = pd.DataFrame({"a": [1, 2, 3, 3, 2, 4], "b": [1, 2, 2, 3, 2, 4]})
    >>> ddf = dd.from_pandas(df, npartitions=2)
    >>> r = concord.dask.compute(concord.cohen_kappa, ddf[["a", "b"]], weights="quadratic")
    >>> r.statistic == concord.cohen_kappa(df.a, df.b, weights="quadratic").statistic
    True
    >>> concord.dask.compute(concord.fleiss_kappa, ddf, labels=[1, 2, 3, 4]).labels
    (1, 2, 3, 4)

    Long form, one row per rating:

    >>> long = pd.DataFrame({"unit": [1, 1, 2, 2, 3, 3], "coder": ["x", "y"] * 3,
    ...                      "value": [1.0, 1.5, 2.0, 2.0, 3.0, 2.5]})
    >>> r = concord.dask.compute(concord.krippendorff_alpha, dd.from_pandas(long, npartitions=2),
    ...                          item="unit", rater="coder", rating="value", level="interval")
    >>> round(r.statistic, 4)
    0.8333
    """
    merged = accumulator(
        function,
        *data,
        item=item,
        rater=rater,
        rating=rating,
        raters=raters,
        sample_weight=sample_weight,
        split_every=split_every,
        n_replicates=n_replicates,
        rng=rng,
        **options,
    )
    (acc,) = _compute(merged)  # type: ignore[no-untyped-call]
    return _named(acc.result(), data)


def _named(result: Any, data: tuple[Any, ...]) -> Any:
    """Name a two-rater result after its two Series or its frame's two columns (as in memory)."""
    from concord._results.protocol import with_names

    if len(data) == 2:
        return with_names(result, data[0], data[1])
    columns = list(getattr(data[0], "columns", ())) if len(data) == 1 else []
    if len(columns) == 2:
        return with_names(result, str(columns[0]), str(columns[1]))
    return result


def accumulator(
    function: Callable[..., Any],
    /,
    *data: Any,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Sequence[Any] | None = None,
    sample_weight: Any = None,
    split_every: int = 8,
    n_replicates: int | None = None,
    rng: Any = None,
    **options: Any,
) -> Delayed:
    """Return the merged accumulator of dask collections, lazily, as a dask ``Delayed``.

    Takes what :func:`compute` takes. Computing it gives an
    :class:`~concord.Accumulator`; its ``result()`` is what :func:`compute`
    returns. Compute several with one ``dask.compute`` call to read the data
    once for several coefficients, or merge the accumulator with others.
    Long form without ``raters`` computes the raters now.

    Examples
    --------
    >>> import dask, concord, concord.dask, dask.array as da
    >>> x = da.from_array([[1, 1, 2], [2, 2, 2], [3, 3, 1], [1, 3, 3]], chunks=(2, 3))
    >>> fleiss = concord.dask.accumulator(concord.fleiss_kappa, x)
    >>> gwet = concord.dask.accumulator(concord.gwet_ac, x)
    >>> a, b = dask.compute(fleiss, gwet)
    >>> a
    Accumulator(fleiss_kappa, n=4, k=3)
    >>> b.result().statistic == concord.gwet_ac(x.compute()).statistic
    True
    """
    if function is compare:
        accumulate(compare, n_replicates=n_replicates, rng=rng, **options)  # options fail here
        return _comparison(data, split_every, options)
    coef = entry(function, _FUNC)
    name = coef.name
    accumulate(function, n_replicates=n_replicates, rng=rng, **options)  # options fail here
    if not isinstance(split_every, int | np.integer) or split_every < 2:
        param_error(_FUNC, "split_every", "an integer of at least 2", split_every)
    fields, columns = _inputs(coef, data, (item, rater, rating), raters, sample_weight)
    spec = _Spec(function, dict(options), n_replicates, coef.arity == 2, **fields)
    blocks = _blocks(columns)
    seeds = _seeds(n_replicates, rng, len(blocks))
    token = tokenize(name, options, n_replicates, split_every, seeds, *columns)
    counted = [
        delayed(_count, pure=True)(spec, seed, *block, dask_key_name=(f"concord-count-{token}", i))
        for i, (seed, block) in enumerate(zip(seeds, blocks, strict=True))
    ]
    return _tree(counted, int(split_every), token)


def _inputs(
    coef: Coefficient,
    data: tuple[Any, ...],
    long: tuple[Any, Any, Any],
    raters: Sequence[Any] | None,
    sample_weight: Any,
) -> tuple[dict[str, Any], list[Any]]:
    """Check the data; return how chunks read them (spec fields) and the aligned collections."""
    name = coef.name
    if not data:
        _not_dask(name, "no data")
    for x in data:
        if not is_dask_collection(x) or not hasattr(x, "to_delayed"):
            _not_dask(name, describe(x))
    if sample_weight is not None:
        _check_weights(coef, sample_weight, long)
    if any(c is not None for c in long):
        return _long_form(coef, data, long, raters)
    if raters is not None:
        param_error(_FUNC, "raters", "None for wide data", raters, fix=_LONG_FIX)
    if coef.arity == 2:
        return {"weighted": sample_weight is not None}, _pairs(name, data, sample_weight)
    if len(data) != 1 or _is_series(data[0]) or getattr(data[0], "ndim", 2) != 2:
        _many_error(name, data)
    return {}, [_whole_rows(data[0])]


def _whole_rows(x: Any) -> Any:
    """Return an array with every column in one block (a DataFrame as it is)."""
    if isinstance(x, da.Array):
        return x.rechunk({1: -1})  # type: ignore[no-untyped-call]
    return x


def _not_dask(name: str, got: str) -> NoReturn:
    param_error(
        _FUNC,
        "data",
        "a dask DataFrame, Series or Array",
        got,
        raw=True,
        fix=f"Wrap in-memory data with dask.dataframe.from_pandas or dask.array.from_array, "
        f"or call concord.{name} on it directly.",
        exc=TypeError,
    )


def _check_weights(coef: Coefficient, sample_weight: Any, long: tuple[Any, ...]) -> None:
    if not coef.takes_sample_weight:
        expected = f"None: {coef.name} takes no sample weights"
        param_error(_FUNC, "sample_weight", expected, sample_weight, exc=TypeError)
    if any(c is not None for c in long):
        param_error(_FUNC, "sample_weight", "None for long-form data", sample_weight)
    if not is_dask_collection(sample_weight) or getattr(sample_weight, "ndim", 0) != 1:
        param_error(
            _FUNC, "sample_weight", "a dask Series or 1-D Array", sample_weight, exc=TypeError
        )


def _is_series(x: Any) -> bool:
    return not isinstance(x, da.Array) and getattr(x, "ndim", 0) == 1


def _pairs(name: str, data: tuple[Any, ...], sample_weight: Any) -> list[Any]:
    """Return two raters (and weights) as one dask DataFrame, or as arrays of equal row chunks."""
    if len(data) == 1 and not _is_series(data[0]):
        x = data[0]
        ncols = len(x.columns) if hasattr(x, "columns") else (x.shape[1] if x.ndim == 2 else 0)
        if ncols != 2:
            got = f"{ncols} columns" if x.ndim == 2 else f"a {x.ndim}-D array"
            param_error(
                _FUNC,
                "data",
                f"two rater columns for {name}",
                got,
                raw=True,
                fix="Select the two raters, e.g. ddf[['rater1', 'rater2']], or pass them as "
                "two Series.",
            )
        data = (_whole_rows(x),)
    elif len(data) != 2 or not all(getattr(x, "ndim", 0) == 1 for x in data):
        param_error(
            _FUNC,
            "data",
            f"two raters for {name}: a DataFrame of two columns, an (n, 2) array, "
            "or two Series or 1-D arrays",
            f"{len(data)} arguments of {[getattr(x, 'ndim', None) for x in data]} dimensions",
            raw=True,
            exc=TypeError,
        )
    parts = [*data, *([] if sample_weight is None else [sample_weight])]
    arrays = [isinstance(x, da.Array) for x in parts]
    if all(arrays):
        return _aligned(parts)
    if any(arrays):
        param_error(
            _FUNC,
            "data",
            "all dask DataFrames and Series or all dask Arrays",
            ", ".join(type(x).__name__ for x in parts),
            raw=True,
            exc=TypeError,
            fix="Convert with dask.array.from_array or Series.to_dask_array().",
        )
    if len(parts) == 1:
        return parts
    dd = require("dask.dataframe", "dask", "concord.dask of DataFrames")
    return [dd.concat(parts, axis=1)]


def _aligned(arrays: list[Any]) -> list[Any]:
    """Rechunk the rows of every array as the first's, an (n, 2) matrix or rater1."""
    first = arrays[0]
    for x in arrays[1:]:
        if x.shape[0] != first.shape[0] or x.ndim != 1:
            param_error(
                _FUNC,
                "data",
                "arrays of one length",
                f"shapes {first.shape} and {x.shape}",
                raw=True,
                fix="Call compute_chunk_sizes() on arrays of unknown length."
                if np.isnan(first.shape[0]) or np.isnan(x.shape[0])
                else "",
            )
    return [first, *(x.rechunk(first.chunks[0]) for x in arrays[1:])]


def _many_error(name: str, data: tuple[Any, ...]) -> NoReturn:
    shown = ", ".join(f"{type(x).__name__} of {getattr(x, 'ndim', '?')} dimensions" for x in data)
    param_error(
        _FUNC,
        "data",
        f"one ratings matrix for {name}: a dask DataFrame or 2-D Array, one column per rater",
        shown,
        raw=True,
        exc=TypeError,
        fix="Long-form data (one row per rating) take item=, rater= and rating=.",
    )


def _long_form(
    coef: Coefficient,
    data: tuple[Any, ...],
    long: tuple[Any, Any, Any],
    raters: Sequence[Any] | None,
) -> tuple[dict[str, Any], list[Any]]:
    """Shuffle long-form rows by item, so that each partition holds whole items."""
    for key, value in zip(_LONG, long, strict=True):
        if value is None:
            given = ", ".join(f"{k}=" for k, v in zip(_LONG, long, strict=True) if v is not None)
            param_error(
                _FUNC,
                key,
                "a column name: long-form data take item=, rater= and rating= together",
                None,
                fix=f"Only {given} was given.",
            )
    frame = data[0]
    if len(data) != 1 or not hasattr(frame, "columns"):
        param_error(
            _FUNC,
            "data",
            "one dask DataFrame for long-form data",
            f"{len(data)} arguments, the first a {type(frame).__name__}",
            raw=True,
            exc=TypeError,
        )
    names: tuple[Any, Any, Any] = long
    for key, column in zip(_LONG, names, strict=True):
        if column not in frame.columns:
            param_error(
                _FUNC,
                key,
                f"a column of the DataFrame: {listing(list(frame.columns), 10)}",
                column,
            )
    if len(set(names)) != 3:
        param_error(_FUNC, "rating", "a third column, neither item nor rater", names[2])
    item, rater, _ = names
    found = _raters(frame[rater]) if raters is None else tuple(raters)
    name = coef.name
    if coef.arity == 2 and len(found) != 2:
        param_error(
            _FUNC,
            "rater",
            f"a column naming two raters for {name}",
            f"{len(found)} raters: {describe(list(found))}",
            raw=True,
        )
    shuffled = frame[list(names)].shuffle(on=item)
    return {"long": names, "raters": found}, [shuffled]


def _raters(column: Any) -> tuple[Any, ...]:
    """Return the raters in order of first appearance: each partition's, in partition order."""
    tasks = [delayed(_unique)(p) for p in column.to_delayed()]
    found = _compute(*tasks)  # type: ignore[no-untyped-call]
    return tuple(dict.fromkeys(itertools.chain.from_iterable(found)))


def _unique(column: Any) -> list[Any]:
    return list(column.dropna().unique().tolist())  # numbers as Python's


def _blocks(columns: list[Any]) -> list[tuple[Any, ...]]:
    """One tuple of Delayed per partition (block): the aligned collections' pieces."""
    pieces = [c.to_delayed() for c in columns]  # a list, or an array of a grid of blocks
    return list(zip(*(p.ravel() if isinstance(p, np.ndarray) else p for p in pieces), strict=True))


def _seeds(n_replicates: int | None, rng: Any, n: int) -> list[Any]:
    """Return a seed per partition for the Poisson replicates, spawned from ``rng``."""
    if n_replicates is None:
        return [None] * n
    entropy = np.random.default_rng(rng).integers(2**63, size=4).tolist()
    return list(np.random.SeedSequence(entropy).spawn(n))


def _tree(level: list[Delayed], split_every: int, token: str) -> Delayed:
    depth = 0
    while len(level) > 1:
        depth += 1
        level = [
            delayed(_merge, pure=True)(
                *level[i : i + split_every],
                dask_key_name=(f"concord-merge-{token}", depth, i // split_every),
            )
            for i in range(0, len(level), split_every)
        ]
    return level[0]


def _comparison(data: tuple[Any, ...], split_every: int, options: dict[str, Any]) -> Delayed:
    """compare: two collections of one DataFrame (or arrays of one row chunks), side by side."""
    if len(data) != 2 or not all(getattr(x, "ndim", 0) == 2 for x in data):
        param_error(
            _FUNC,
            "data",
            "two dask DataFrames or 2-D Arrays for compare, first and second, "
            "one column per rater (two for a two-rater function)",
            f"{len(data)} arguments",
            raw=True,
            exc=TypeError,
        )
    first, second = data
    if all(isinstance(x, da.Array) for x in data):
        joined = da.concatenate(_aligned_rows(first, second), axis=1)  # type: ignore[no-untyped-call]
    else:
        dd = require("dask.dataframe", "dask", "concord.dask of DataFrames")
        parts = [x.rename(columns=lambda c, s=s: (s, c)) for s, x in enumerate(data)]
        joined = dd.concat(parts, axis=1)
    spec = _Spec(compare, dict(options), None, False, split=int(first.shape[1]))
    blocks = _blocks([_whole_rows(joined)])
    token = tokenize("compare", options, split_every, joined)
    counted = [
        delayed(_count, pure=True)(spec, None, *block, dask_key_name=(f"concord-count-{token}", i))
        for i, block in enumerate(blocks)
    ]
    return _tree(counted, int(split_every), token)


def _aligned_rows(first: Any, second: Any) -> list[Any]:
    if first.shape[0] != second.shape[0]:
        param_error(
            _FUNC,
            "data",
            "arrays of one length",
            f"shapes {first.shape} and {second.shape}",
            raw=True,
        )
    return [first, second.rechunk(first.chunks[0])]


def _sides(spec: _Spec, part: Any) -> tuple[Any, Any]:
    """Split a partition of both sides; a two-rater side becomes (rater1, rater2)."""
    assert spec.split is not None
    table = part if isinstance(part, np.ndarray) else part.to_numpy()
    sides = table[:, : spec.split], table[:, spec.split :]
    if entry(spec.options["function"]).arity == 2:
        return tuple((np.ascontiguousarray(s[:, 0]), np.ascontiguousarray(s[:, 1])) for s in sides)  # type: ignore[return-value]
    if isinstance(part, np.ndarray):
        return sides
    return part.iloc[:, : spec.split], part.iloc[:, spec.split :]


def _count(spec: _Spec, seed: Any, *parts: Any) -> Any:
    """Count one partition (block) into a fresh accumulator: the chunk task."""
    if spec.split is not None:
        return accumulate(compare, **spec.options).update(*_sides(spec, parts[0]))
    acc = accumulate(spec.function, n_replicates=spec.n_replicates, rng=seed, **spec.options)
    if spec.long is not None:
        parts = (_wide(parts[0], spec.long, spec.raters, spec.pair),)
    if not spec.pair:
        return acc.update(parts[0])
    first = parts[0]
    if isinstance(first, np.ndarray):  # numpy blocks: the kernels want contiguous columns
        columns = [first[:, 0], first[:, 1]] if first.ndim == 2 else [first]
        parts = tuple(np.ascontiguousarray(p) for p in (*columns, *parts[1:]))
    else:  # a pandas DataFrame: rater1, rater2 and maybe the weights
        parts = tuple(first.iloc[:, j] for j in range(first.shape[1]))
    return acc.update(parts[0], parts[1], sample_weight=parts[2] if spec.weighted else None)


def _wide(part: Any, long: tuple[Any, Any, Any], raters: tuple[Any, ...], pair: bool) -> Any:
    """Pivot one partition's (item, rater, rating) rows to one column per rater.

    Many raters: the library's pivot, as the functions' ``item=`` takes it. Two
    raters: a DataFrame, whose two columns go to the two-rater function.
    """
    item, rater, rating = long
    keys = part[[item, rater]]
    twice = keys.duplicated()
    if twice.any():
        who, by = keys[twice].head(1).to_dict("split")["data"][0]  # numbers as Python's
        param_error(
            _FUNC,
            "data",
            "one rating per (item, rater) pair",
            f"item {who!r} rated by {by!r} twice",
            raw=True,
        )
    stray = set(part[rater].dropna().unique()) - set(raters)
    if stray:
        param_error(
            _FUNC, "raters", f"a list of every rater, {sorted(map(str, stray))} too", list(raters)
        )
    if not pair:
        return pivot(part, long, _FUNC, raters=raters)
    wide = part.pivot(index=item, columns=rater, values=rating)
    return wide.reindex(columns=list(raters))


def _merge(*accumulators: Any) -> Any:
    """Add ``split_every`` accumulators (a pure merge): the combine task."""
    return functools.reduce(lambda a, b: a.merge(b), accumulators)
