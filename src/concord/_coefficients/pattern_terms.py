"""Per-pattern linearised terms, for comparisons that stream (``accumulate(compare, ...)``).

The registry's ``terms`` hooks take the ratings, items in order. A stream
keeps instead the joint table of distinct item patterns (one side's key
beside the other's) with their counts, and the merged count table of each
side. The hooks here evaluate the same linearisation once per pattern, the
globals (p_e, κ, the shares) coming from the merged table, so that each
item's term is the one the one-shot hook gives it, bit for bit; the
comparison sums them with the patterns' counts.

A key is what an item's term depends on: the two raters' codes + 1 of a
pair, an item's counts per category, or the codes + 1 of each rater of an
item (Conger). ``layout`` says how a key moves to new labels: "codes"
(values are codes + 1, 0 missing) or "counts" (columns are categories).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from concord._coefficients.kappa.cohen import Pair, pair_linear_terms
from concord._coefficients.multirater import agreement_core as core
from concord._coefficients.multirater.gwet import Member
from concord._coefficients.multirater.raters_core import _conger_linear, chance_conger
from concord._common.errors import check_population
from concord._inference.design import fraction
from concord._tables.item_rows import item_codes, item_counts, pair_codes
from concord._tables.item_table import Items
from concord._tables.pair_table import PairTable
from concord._tables.patterns import Patterns
from concord._tables.weights import resolve

Layout = Literal["codes", "counts"]


@dataclass(frozen=True)
class PatternTerms:
    """How a stream keys items (``keys(data, labels, func)``) and evaluates their terms.

    ``terms(counted, options, keys, freq)`` returns the term of each key
    row, ``counted`` being the side's merged table as its core takes it.
    """

    keys: Callable[[tuple[Any, ...], tuple[Any, ...], str], np.ndarray]
    terms: Callable[[Any, dict[str, Any], np.ndarray, np.ndarray], np.ndarray]
    layout: Layout


def _scaled(
    linear: np.ndarray, coefficient: float, population: float | None, n: int
) -> np.ndarray:
    """:func:`agreement_core.scaled_terms` with n items given (the rows are patterns)."""
    if n < 2 or not math.isfinite(coefficient):
        return np.full(linear.shape[0], np.nan)
    f = fraction(n, population)
    out: np.ndarray = (linear - coefficient) * math.sqrt((1 - f) / (n * (n - 1)))
    return out


def _pair_keys(data: tuple[Any, ...], labels: tuple[Any, ...], func: str) -> np.ndarray:
    a, b = pair_codes(data[0], data[1], labels, func)
    return np.column_stack([a + 1, b + 1]).astype(np.int64)


def _pair_terms(
    pair: Pair, counted: PairTable, options: dict[str, Any], keys: np.ndarray, freq: np.ndarray
) -> np.ndarray:
    """As :func:`concord._coefficients.kappa.cohen.pair_item_terms`, one row per pattern."""
    func = pair.spec.name
    population = check_population(options["population_size"], func)
    table = counted.table
    weighting = resolve(options["weights"], counted.labels, func)
    a, b = keys[:, 0] - 1, keys[:, 1] - 1

    def pooled(rows: np.ndarray, *rest: Any) -> np.ndarray:
        return _linear_terms(core.FLEISS, rows, freq, *rest)

    return pair_linear_terms(pair, table, weighting, (a, b), population, pooled)


def _linear_terms(
    chance: core.Chance,
    rows: np.ndarray,
    freq: np.ndarray,
    agreement: np.ndarray,
    pi: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> np.ndarray:
    t = core.terms(Patterns(rows, freq), agreement)
    if t.n2 == 0:
        return np.full(rows.shape[0], np.nan)
    linear = core.linearised(chance, t, agreement, pi, pe, coefficient)
    return _scaled(linear, coefficient, population, t.n)


def _item_terms(
    member: Member, items: Items, options: dict[str, Any], keys: np.ndarray, freq: np.ndarray
) -> np.ndarray:
    """As :func:`concord._coefficients.multirater.gwet.item_terms`, one row per pattern."""
    func = member.spec.name
    population = check_population(options["population_size"], func)
    weighting = resolve(options["weights"], items.labels, func)
    s = core.shares(items.stats, weighting.exact)
    pe = member.chance.exact(s, weighting.exact)
    pi = np.array([float(Fraction(int(p), s.D)) for p in s.P])
    statistic = core.coefficient(s.pa, pe)
    agreement = weighting.agreement()
    return _linear_terms(
        member.chance, keys, freq, agreement, pi, float(pe), statistic, population
    )


def _conger_terms(
    items: Items, options: dict[str, Any], keys: np.ndarray, freq: np.ndarray
) -> np.ndarray:
    """As :func:`~concord._coefficients.multirater.raters.conger_item_terms`, per pattern."""
    population = check_population(options["population_size"], "conger_kappa")
    weighting = resolve(options["weights"], items.labels, "conger_kappa")
    s = core.shares(items.stats, weighting.exact)
    by_rater = items.by_rater()
    pe = chance_conger(by_rater[by_rater.sum(axis=1) > 0], weighting.exact)
    statistic = core.coefficient(s.pa, pe)
    found = _conger_linear(keys, freq, by_rater, weighting.agreement(), float(pe), statistic)
    if found is None:
        return np.full(keys.shape[0], np.nan)
    return _scaled(found[0], statistic, population, found[1])


def pairs(pair: Pair) -> PatternTerms:
    """Two raters: a pair's key is its two codes + 1."""
    return PatternTerms(_pair_keys, lambda c, o, k, f: _pair_terms(pair, c, o, k, f), "codes")


def items(member: Member) -> PatternTerms:
    """Many raters, shares of categories: an item's key is its counts per category."""
    return PatternTerms(
        lambda d, labels, func: item_counts(d[0], labels, func),
        lambda c, o, k, f: _item_terms(member, c, o, k, f),
        "counts",
    )


CONGER = PatternTerms(
    lambda d, labels, func: item_codes(d[0], labels, func), _conger_terms, "codes"
)
