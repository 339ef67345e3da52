"""Each coefficient's stream: a batch → its count table, and the merged table → the result.

The registry (:mod:`concord._coefficients.registry`) gives each coefficient's
hooks: ``batch`` validates and counts a batch by the same code as the one-shot
function, and ``core`` hands the merged table to the same core, so no
statistic is implemented twice and nothing here depends on which coefficient it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NoReturn, Protocol

import numpy as np

from concord._coefficients.continuous.icc_core import Sums
from concord._coefficients.registry import Coefficient
from concord._common.errors import param_error
from concord._streaming.state import ItemCounts, PairCounts
from concord._streaming.sums import SumsCounts
from concord._tables.moments import Moments
from concord._tables.pair_table import PairTable

State = PairCounts | ItemCounts | Sums | SumsCounts


def batch(
    coef: Coefficient,
    options: dict[str, Any],
    data: tuple[Any, ...],
    sample_weight: Any,
    draws: Any,
) -> State | None:
    """Validate and count one batch; None when it holds nothing to count."""
    _check_arity(coef, data, sample_weight)
    counted = coef.batch(data, options, sample_weight)
    if counted is None:
        return None
    if isinstance(counted, PairTable):
        return PairCounts.of(counted, draws)
    if isinstance(counted, Sums):  # continuous scores: the sums are the state
        if draws is not None:
            raise NotImplementedError(
                f"{coef.name}'s accumulator keeps sums, not items: it has no Poisson "
                "replicates. Leave n_replicates out; the F interval needs none."
            )
        return counted
    if isinstance(counted, Moments):
        return SumsCounts.of(counted, draws)
    return ItemCounts.of(counted, draws)


def _check_arity(coef: Coefficient, data: tuple[Any, ...], sample_weight: Any) -> None:
    if len(data) != coef.arity:
        what = "two arrays, rater1 and rater2," if coef.arity == 2 else "one ratings matrix"
        param_error(
            "Accumulator.update",
            "data",
            f"{what} as {coef.name} takes them",
            f"{len(data)} arguments",
            raw=True,
            exc=TypeError,
        )
    if sample_weight is not None and not coef.takes_sample_weight:
        param_error(
            "Accumulator.update",
            "sample_weight",
            f"None: {coef.name} takes no sample weights",
            sample_weight,
            exc=TypeError,
        )


def check_engine(coef: Coefficient, options: dict[str, Any], k: int) -> None:
    """Refuse what the one-shot path computes without count tables (α of > 256 values)."""
    if coef.check_counts is not None:
        coef.check_counts(options, k)


def counted(state: State) -> Any:
    """Return the merged table as the core takes it: a PairTable, Items, or the ICC's Sums."""
    if isinstance(state, PairCounts):
        return PairTable(state.table(), state.labels, state.units())
    if isinstance(state, Sums):
        return state
    if isinstance(state, SumsCounts):
        return state.sums
    return state.items()


def result(coef: Coefficient, options: dict[str, Any], state: State) -> Any:
    """Compute the one-shot function's result from the merged table."""
    return coef.core(counted(state), options)


def empty(coef: Coefficient, options: dict[str, Any], only_missing: bool = False) -> NoReturn:
    """Raise what the one-shot function raises on empty input, or on only missing ratings."""
    data: tuple[Any, ...] = ([], []) if coef.arity == 2 else (np.empty((0, 0)),)
    if only_missing:
        data = ([np.nan], [np.nan]) if coef.arity == 2 else (np.full((1, 2), np.nan),)
    coef.function(*data, **options)
    raise AssertionError(f"{coef.name} accepted empty input")  # pragma: no cover


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
    inference = out._inferred()
    sampler = StoredReplicates(state.replicates.tables, inference.sampler)
    return replace(out, _inference=replace(inference, sampler=sampler))
