"""Each coefficient's stream: a batch → its count table, and the merged table → the result.

A batch is validated and counted by the same code as the one-shot function
(:func:`~concord._tables.pairs.batch_table`, :func:`~concord._tables.items.batch_items`),
and the merged table goes to the same core (``kappa_result``,
``from_items``, ``conger_result``, ``light_result``, ``alpha_result``), so
no statistic is implemented twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NoReturn, Protocol

import numpy as np

from concord._coefficients import qwk as _qwk
from concord._coefficients.cohen import cohen_kappa, kappa_result, scott_pi
from concord._coefficients.gwet import brennan_prediger, fleiss_kappa, from_items, gwet_ac
from concord._coefficients.gwet import percent_agreement as _percent
from concord._coefficients.krippendorff import (
    alpha_result,
    coincidence_engine,
    count_limit,
    is_continuous,
)
from concord._coefficients.krippendorff import krippendorff_alpha as _alpha
from concord._coefficients.raters import conger_kappa, conger_result, light_kappa, light_result
from concord._common.errors import param_error
from concord._streaming.state import Draws, ItemCounts, PairCounts
from concord._tables.items import batch_items
from concord._tables.pairs import batch_table
from concord._tables.weights import resolve

State = PairCounts | ItemCounts

FUNCTIONS: dict[str, Callable[..., Any]] = {
    f.__name__: f
    for f in (
        cohen_kappa,
        scott_pi,
        _qwk.quadratic_weighted_kappa,
        fleiss_kappa,
        conger_kappa,
        light_kappa,
        brennan_prediger,
        gwet_ac,
        _alpha,
        _percent,
    )
}
PAIR = ("cohen_kappa", "scott_pi", "quadratic_weighted_kappa")
_RATERS = ("conger_kappa", "light_kappa")


def batch(
    name: str, options: dict[str, Any], data: tuple[Any, ...], sample_weight: Any, draws: Any
) -> State | None:
    """Validate and count one batch; None when it holds nothing to count."""
    _check_arity(name, data, sample_weight)
    if name in PAIR:
        counted = batch_table(
            *data,
            labels=options["labels"],
            nan_policy=options.get("nan_policy", "raise"),
            sample_weight=sample_weight,
            func=name,
        )
        if counted is not None and name == "quadratic_weighted_kappa":
            _check_range(options, counted.labels.values)
        return None if counted is None else PairCounts.of(counted, draws)
    return _item_batch(name, options, data[0], draws)


def _check_arity(name: str, data: tuple[Any, ...], sample_weight: Any) -> None:
    want = 2 if name in PAIR else 1
    if len(data) != want:
        what = "two arrays, rater1 and rater2," if want == 2 else "one ratings matrix"
        param_error(
            "Accumulator.update",
            "data",
            f"{what} as {name} takes them",
            f"{len(data)} arguments",
            raw=True,
            exc=TypeError,
        )
    if sample_weight is not None and name != "cohen_kappa":
        param_error(
            "Accumulator.update",
            "sample_weight",
            f"None: {name} takes no sample weights",
            sample_weight,
            exc=TypeError,
        )


def _check_range(options: dict[str, Any], values: tuple[Any, ...]) -> None:
    """Quadratic weighted kappa: found ratings must lie within min_rating and max_rating."""
    numeric = all(isinstance(v, int | float) for v in values)
    if options["labels"] is None and numeric:
        _qwk.check_range(min(values), max(values), options["min_rating"], options["max_rating"])


def _item_batch(
    name: str, options: dict[str, Any], ratings: Any, draws: Draws | None
) -> ItemCounts | None:
    level = options.get("level")
    kripp = name == "krippendorff_alpha"
    items = batch_items(
        ratings,
        options["labels"],
        name,
        need_raters=name in _RATERS,
        dense_limit=count_limit(level) if kripp else None,
        continuous=kripp and is_continuous(level),
    )
    if items is None:
        return None
    if items.counts is None:  # Krippendorff's alpha of many distinct values
        check_engine(name, options, items.labels.k)
    return ItemCounts.of(items, draws)


def check_engine(name: str, options: dict[str, Any], k: int) -> None:
    """Refuse what the one-shot path computes without count tables: α of > 256 values."""
    if name != "krippendorff_alpha" or coincidence_engine(k, options["level"]):
        return
    raise NotImplementedError(
        f"krippendorff_alpha's accumulator keeps the items' category counts, which the "
        f"level {options['level']!r} uses for at most 256 distinct values; these data have "
        f"{k}. Compute krippendorff_alpha on the whole data instead (its engine for "
        "continuous data needs every item at once), or round the ratings to a coarser scale."
    )


def result(name: str, options: dict[str, Any], state: State) -> Any:
    """Compute the one-shot function's result from the merged table."""
    population = options.get("population_size")
    if isinstance(state, PairCounts):
        table, labels = state.table(), state.labels
        if name == "quadratic_weighted_kappa":
            return _qwk.from_table(table, labels)
        weighting = resolve(options["weights"], labels, name)
        return kappa_result(
            table, labels, weighting, name, population=population, units=state.units()
        )
    items = state.items()
    if name == "krippendorff_alpha":
        return alpha_result(items, options["level"], population)
    weighting = resolve(options["weights"], items.labels, name)
    core = {"conger_kappa": conger_result, "light_kappa": light_result}.get(name)
    if core is not None:
        return core(items, weighting, population)
    return from_items(name, items, weighting, population)


def empty(name: str, options: dict[str, Any], only_missing: bool = False) -> NoReturn:
    """Raise what the one-shot function raises on empty input, or on only missing ratings."""
    data: tuple[Any, ...] = ([], []) if name in PAIR else (np.empty((0, 0)),)
    if only_missing:
        data = ([np.nan], [np.nan]) if name in PAIR else (np.full((1, 2), np.nan),)
    FUNCTIONS[name](*data, **options)
    raise AssertionError(f"{name} accepted empty input")  # pragma: no cover


class CountStatistic(Protocol):
    """A sampler whose statistic comes from counts per unit (``_inference.resampling``)."""

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return the statistic for each row of counts per unit, shape (B, units)."""
        ...

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return leave-one-item-out values and how many items give each."""
        ...


@dataclass(frozen=True)
class StoredReplicates:
    """The bootstrap of a stream: the Poisson replicates the accumulator kept, read back.

    ``counts`` (B, units) count each unit of ``sampler`` (cells, weighted
    units or patterns, in its order) in each replicate; the jackknife, which
    BCa intervals need, comes from the merged table itself.
    """

    counts: np.ndarray
    sampler: CountStatistic

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        kept = self.counts.shape[0]
        if n_resamples > kept:
            param_error(
                "bootstrap",
                "n_resamples",
                f"at most {kept}, the Poisson replicates the accumulator kept",
                n_resamples,
                fix=f"Pass n_resamples={kept}, or accumulate with n_replicates={n_resamples}.",
            )
        return self.sampler.statistic(self.counts[:n_resamples])

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        return self.sampler.jackknife()


def with_replicates(out: Any, state: State) -> Any:
    """Return the result with its bootstrap read from the stream's Poisson replicates."""
    assert state.replicates is not None
    inference = out._inference
    sampler = StoredReplicates(state.replicates.tables, inference.sampler)
    return replace(out, _inference=replace(inference, sampler=sampler))
