"""Mergeable accumulators: any coefficient over data that arrive in batches.

An :class:`Accumulator` keeps only the count table its coefficient is
computed from (:mod:`concord._streaming.state`); ``update`` counts a batch
and adds it, ``merge`` adds two tables exactly, and ``result`` hands the
table to the same core as the one-shot function
(:mod:`concord._streaming.dispatch`), so the result is the one-shot result.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any, overload

import numpy as np

from concord._coefficients.continuous.icc_core import Sums
from concord._coefficients.registry import Coefficient, by_name, entry
from concord._common.errors import param_error
from concord._data.long import LONG
from concord._results.studies.comparison import ComparisonResult
from concord._streaming import dispatch as stream
from concord._streaming import options as checks
from concord._streaming.comparison import ComparisonAccumulator, comparison
from concord._streaming.long import LongForm
from concord._streaming.state import ItemCounts, PairCounts, Where
from concord._streaming.sums import SumsCounts
from concord._studies.compare.compare import compare


class Accumulator:
    """A coefficient over data that arrive in batches: ``update``, ``merge``, ``result``.

    Made by :func:`accumulate`, which documents the parameters. It keeps only
    the count table the coefficient is computed from: the k×k confusion
    table of two raters, or the distinct item patterns with their
    frequencies of many raters (with who rated what, for Conger and Light).
    Its size does not grow with the number of items.

    Attributes
    ----------
    function : callable
        The coefficient, e.g. :func:`concord.cohen_kappa`.
    options : dict
        Its options, validated, with the defaults filled in.
    n : int
        Pairs (two raters) or items (many raters) counted so far; items that
        nobody rated are not counted.
    labels : tuple
        The categories so far, in the table's order (the declared ones from the start).

    Methods
    -------
    update(*data, sample_weight=None)
        Count a batch, in the form the function takes, and add it; return the
        accumulator. Many-rater batches hold whole items: all of an item's
        ratings in one batch, as one row. An empty batch adds nothing.
    merge(other)
        Return a new accumulator holding both tables (exact integer
        addition; associative and commutative, an empty one is the identity).
    result()
        Return the function's result on everything counted: the same object,
        value, standard error, p-value, intervals, bootstrap and ``explain()``
        as the one-shot function on the whole data.

    Examples
    --------
    >>> import concord
    >>> acc = concord.accumulate(concord.fleiss_kappa)
    >>> acc.update([[1, 1, 2], [2, 2, 2]]).update([[3, 3, None]])
    Accumulator(fleiss_kappa, n=3, k=3)
    >>> other = concord.accumulate(concord.fleiss_kappa).update([[1, 3, 3]])
    >>> merged = acc.merge(other)
    >>> merged.labels
    (1, 2, 3)
    >>> data = [[1, 1, 2], [2, 2, 2], [3, 3, None], [1, 3, 3]]
    >>> merged.result().statistic == concord.fleiss_kappa(data).statistic
    True
    """

    def __init__(
        self,
        function: Callable[..., Any],
        /,
        *,
        n_replicates: Any = None,
        rng: Any = None,
        item: Any = None,
        rater: Any = None,
        rating: Any = None,
        **options: Any,
    ) -> None:
        self._name = entry(function).name  # a name, not the entry: accumulators pickle small
        self._long = LongForm.of(self._coef, item, rater, rating)
        self._options = checks.checked(self._coef, options)
        self._n_replicates = checks.replicates(self._coef, n_replicates, rng)
        self._rng = None if self._n_replicates is None else np.random.default_rng(rng)
        self._state: PairCounts | ItemCounts | Sums | SumsCounts | None = None
        self._streams: frozenset[str] = frozenset()  # where the replicates' draws began
        # rows were counted but every one was dropped as missing: result() says so, as the
        # one-shot function does, rather than calling the input empty
        self._only_missing = False

    @property
    def _coef(self) -> Coefficient:
        return by_name(self._name)

    @property
    def function(self) -> Callable[..., Any]:
        return self._coef.function

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def n(self) -> int:
        return 0 if self._state is None else self._state.n

    @property
    def labels(self) -> tuple[Any, ...]:
        if self._state is None:  # the declared labels, or none found yet
            declared = self._options.get("labels")
            return () if declared is None else tuple(declared)
        return self._state.labels.values

    def update(self, *data: Any, sample_weight: Any = None) -> Accumulator:
        """Count a batch and add it to the table; return the accumulator (see the class)."""
        draws = None if self._rng is None else (self._n_replicates, self._rng)
        start = _stream_of(self._rng)
        long = self._long
        if long is not None and len(data) == 1:
            wide, long = long.pivot(data[0])
            data = (wide,)
        found = stream.batch(self._coef, self._options, data, sample_weight, draws)
        if long is not None and long is not self._long:
            self._long = long
            if self._state is not None and isinstance(self._state, ItemCounts | Sums):
                self._state = self._state.on_raters(long.raters)
        if found is None:
            self._only_missing = self._only_missing or _has_rows(data)
        else:
            if self._state is None and start is not None:
                self._streams = frozenset([start])
            where = ("Accumulator.update", "rater1" if self._coef.arity == 2 else "ratings")
            self._state = found if self._state is None else self._add(self._state, found, where)
        return self

    def merge(self, other: Accumulator) -> Accumulator:
        """Return a new accumulator with both tables (see the class)."""
        if not isinstance(other, Accumulator):
            param_error("Accumulator.merge", "other", "an Accumulator", other, exc=TypeError)
        if not self._same_kind(other):
            param_error(
                "Accumulator.merge",
                "other",
                f"an accumulator of {self._describe()}",
                other._describe(),
                raw=True,
                fix="Only accumulators of one function with the same options merge.",
            )
        self._check_streams(other)
        out = copy.copy(self)  # the tables are immutable: sharing them is safe
        mine, theirs = self._state, other._state
        if self._long is not None and other._long is not None:
            out._long = self._long.merged(other._long)
            mine, theirs = (_on_raters(s, out._long.raters) for s in (mine, theirs))
        out._streams = self._streams | other._streams
        out._only_missing = self._only_missing or other._only_missing
        if mine is None:
            out._state = theirs
        elif theirs is not None:
            out._state = self._add(mine, theirs, ("Accumulator.merge", "other"))
        return out

    def result(self) -> Any:
        """Return the function's result on everything counted (see the class)."""
        if self._state is None:
            stream.empty(self._coef, self._options, self._only_missing)
        if isinstance(self._state, PairCounts) and self._state.freq.size == 0:
            # batches whose every pair had a missing rating: their categories, no pair
            stream.empty(self._coef, self._options, True)
        out = stream.result(self._coef, self._options, self._state)
        if self._state.replicates is None:
            return out
        return stream.with_replicates(out, self._state)

    def _with_options(self, **changes: Any) -> Accumulator:
        """Return a copy whose ``result()`` uses changed options.

        Only for options the counts do not depend on: the command line sets
        Krippendorff's δ² matrix once the labels are known.
        """
        out = copy.copy(self)
        out._options = checks.checked(self._coef, {**self._options, **changes})
        if out._state is not None:
            stream.check_engine(self._coef, out._options, out._state.labels.k)
        return out

    def _add(self, a: Any, b: Any, where: Where) -> PairCounts | ItemCounts | Sums | SumsCounts:
        merged: PairCounts | ItemCounts | Sums | SumsCounts = a.merge(b, where)
        stream.check_engine(self._coef, self._options, merged.labels.k)
        return merged

    def _check_streams(self, other: Accumulator) -> None:
        """Refuse to add replicates drawn from one random stream: they are not independent.

        Accumulators made with the same seed on several workers draw the same
        Poisson weights; their sum has twice the variance of independent
        draws, so the bootstrap SE of the merge would be too wide.
        """
        if not self._streams & getattr(other, "_streams", frozenset()):
            return
        param_error(
            "Accumulator.merge",
            "other",
            "an accumulator whose Poisson replicates come from another random stream",
            "one whose replicates were drawn from the same stream (the same rng)",
            raw=True,
            fix="Give each worker its own stream, e.g. "
            "rng=np.random.SeedSequence(seed).spawn(n_workers)[worker], "
            "and merge each accumulator once.",
        )

    def _same_kind(self, other: Accumulator) -> bool:
        return (
            self._name == other._name
            and _long_names(self) == _long_names(other)
            and self._n_replicates == other._n_replicates
            and checks.same_options(self._options, other._options)
        )

    def _describe(self) -> str:
        replicates = f", n_replicates={self._n_replicates}" if self._n_replicates else ""
        long = _long_names(self)
        shown = "".join(f", {k}={v!r}" for k, v in zip(LONG, long or (), strict=False))
        return f"{self._name}{checks.shown(self._options, self._coef)}{shown}{replicates}"

    def __repr__(self) -> str:
        return f"Accumulator({self._describe()}, n={self.n}, k={len(self.labels)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Accumulator):
            return NotImplemented
        a, b = self._state, other._state
        if not self._same_kind(other) or a is None or b is None:
            return self._same_kind(other) and a is b
        return type(a) is type(b) and a.same(b)  # type: ignore[arg-type]

    __hash__ = None  # type: ignore[assignment]  # mutable


def _long_names(acc: Accumulator) -> tuple[Any, ...] | None:
    return None if acc._long is None else acc._long.names


def _on_raters(state: Any, raters: tuple[Any, ...]) -> Any:
    return state.on_raters(raters) if isinstance(state, ItemCounts | Sums) else state


def _stream_of(rng: np.random.Generator | None) -> str | None:
    """Return a fingerprint of the generator's state: equal only where the draws to come are."""
    if rng is None:
        return None
    state = repr(rng.bit_generator.state).encode()
    return hashlib.blake2b(state, digest_size=16).hexdigest()


@overload
def accumulate(
    function: Callable[..., ComparisonResult],
    /,
    *,
    n_replicates: int | None = None,
    rng: Any = None,
    **options: Any,
) -> ComparisonAccumulator: ...


@overload
def accumulate(
    function: Callable[..., Any],
    /,
    *,
    n_replicates: int | None = None,
    rng: Any = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    **options: Any,
) -> Accumulator: ...


def accumulate(
    function: Callable[..., Any],
    /,
    *,
    n_replicates: int | None = None,
    rng: Any = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    **options: Any,
) -> Accumulator | ComparisonAccumulator:
    """Return an accumulator that computes ``function`` over data arriving in batches.

    The accumulator keeps only the count table the coefficient is computed
    from, so batches of any number and size, counted in one process or in
    many, give exactly the result of the one-shot function on all the data.

    Parameters
    ----------
    function : callable
        :func:`cohen_kappa`, :func:`scott_pi`, :func:`quadratic_weighted_kappa`,
        :func:`fleiss_kappa`, :func:`conger_kappa`, :func:`light_kappa`,
        :func:`brennan_prediger`, :func:`gwet_ac`, :func:`krippendorff_alpha`
        or :func:`percent_agreement`. Or :func:`compare`, with
        ``function=`` the coefficient and ``paired=``: the accumulator keeps
        each side's table and their joint pattern table, and ``update(first,
        second)`` takes a batch of each side as :func:`compare` takes them.
        Its options are :func:`compare`'s (``paired``, ``confidence_level``,
        ``method``, ``n_resamples``, ``rng``: the bootstrap's seed) and the
        coefficient's; no ``groups``. Its bootstrap intervals redraw the
        joint pattern table as :func:`compare` redraws the items, so one
        seed gives the one-shot interval, however the batches fell.
    n_replicates : int, optional
        Keep this many Poisson bootstrap replicates of the table: each
        batch's table gets one Poisson draw per cell (or pattern) and
        replicate, and replicates merge by addition. ``result().bootstrap()``
        and the bootstrap intervals then read them (``n_resamples`` at most
        ``n_replicates``). Default: none; the result's bootstrap resamples
        the merged table, as the one-shot result does.
    rng : None, int or numpy.random.Generator
        Seed or generator for the Poisson replicates (only with ``n_replicates``).
        Accumulators that will be merged need independent streams: merging
        two whose draws began from one generator state (one seed on several
        workers) is a ValueError, since their replicates would be
        correlated. Give each its own, e.g.
        ``np.random.SeedSequence(seed).spawn(n_workers)``.
        For :func:`compare`: the seed of the result's bootstrap intervals,
        as :func:`compare` takes it (no ``n_replicates`` there).
    item, rater, rating : column name, optional
        Long form (many raters only): each batch is a table with one row per
        rating, pivoted as the function pivots it. All of an item's rows
        must come in one batch: an item an earlier batch rated (or that
        another merged accumulator counted) is an error naming it, so the
        accumulator keeps a 64-bit fingerprint per item. A rater new in a
        later batch joins as a rater the earlier items lack.
    **options
        The function's options: ``weights``, ``labels``, ``nan_policy``,
        ``population_size``, ``level``, ``min_rating``, ``max_rating``, as it
        takes them. ``sample_weight`` goes to ``update`` with each batch.

    Returns
    -------
    Accumulator
        ``update(*data, sample_weight=None)`` counts a batch given as the
        function takes its data (two raters' ratings; a ratings matrix,
        DataFrame or :class:`CategoryCounts`); ``merge(other)`` adds two
        accumulators; ``result()`` returns the function's result.

    Notes
    -----
    Labels. Declared ``labels`` fix the table. Otherwise it grows as new
    categories arrive: numbers in sorted order, other values as the one-shot
    function orders them (sorted for the layout only), so the result equals
    the one-shot result on the batches concatenated. An ordered pandas
    Categorical fixes its categories and order; merging two different orders,
    or ratings outside them, is an error, as is merging accumulators of
    different functions or options.

    Batches. A two-rater batch is any number of pairs; a wide many-rater batch is
    a set of whole items (every rating of an item in one row of one batch):
    an item split across batches would count as two items. Every batch of
    one accumulator has the same raters (columns). Batches may be empty.

    Krippendorff's alpha of more than 256 distinct values (continuous data
    at the ordinal, interval or ratio level) has no count table: it raises
    NotImplementedError; compute it on the whole data.

    With sample weights the state holds the distinct (pair, weight) units,
    so it grows with the number of distinct weights.

    Examples
    --------
    >>> import concord
    >>> acc = concord.accumulate(concord.cohen_kappa, weights="quadratic")
    >>> acc.update([1, 2, 3, 3], [1, 2, 2, 3]).update([2, 4], [2, 4])
    Accumulator(cohen_kappa, weights='quadratic', n=6, k=4)
    >>> r = acc.result()
    >>> whole = concord.cohen_kappa([1, 2, 3, 3, 2, 4], [1, 2, 2, 3, 2, 4], weights="quadratic")
    >>> r.statistic == whole.statistic, r.standard_error == whole.standard_error
    (True, True)

    Accumulators merge, in any order, also after travelling between processes
    (they pickle):

    >>> a = concord.accumulate(concord.cohen_kappa).update(["yes", "no"], ["yes", "yes"])
    >>> b = concord.accumulate(concord.cohen_kappa).update(["maybe"], ["no"])
    >>> a.merge(b).labels
    ('maybe', 'no', 'yes')
    >>> a.merge(b) == b.merge(a)
    True
    """
    if function is compare:
        if n_replicates is not None:
            param_error(
                "accumulate",
                "n_replicates",
                "None for a comparison: its stream keeps no Poisson replicates",
                n_replicates,
            )
        if any(v is not None for v in (item, rater, rating)):
            param_error(
                "accumulate",
                "item",
                "None for a comparison: its batches are the two sides' ratings",
                item,
            )
        return comparison(Accumulator, rng=rng, **options)
    long = {"item": item, "rater": rater, "rating": rating}
    return Accumulator(function, n_replicates=n_replicates, rng=rng, **long, **options)


def _has_rows(data: tuple[Any, ...]) -> bool:
    """Return True if a batch held at least one row (an item), missing ratings or not."""
    try:
        return len(data[0]) > 0
    except TypeError:  # something without a length: update() has already checked it
        return False
