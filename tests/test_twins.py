"""Every coefficient's float twin agrees with its exact core.

The bootstrap recomputes each coefficient in floating point, vectorised over
resamples (its sampler, beside the exact core in its family module). Given
the observed counts as the single replicate, the twin must give the exact
``statistic`` to 1e-12. The test iterates the registry, so a new coefficient
is checked as soon as it is declared.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from concord._coefficients.registry import REGISTRY, Coefficient

_RESULTS = [c for c in REGISTRY if c.returns_result and c.table != "sums"]


def _pairs(rng: np.random.Generator) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Two raters: agreeing, unrelated, and a rare category."""
    a = rng.integers(1, 5, 80)
    b = np.where(rng.random(80) < 0.6, a, rng.integers(1, 5, 80))
    yield (a, b), {}
    yield (rng.integers(1, 4, 50), rng.integers(1, 4, 50)), {}
    yield (np.r_[a, 9], np.r_[b, 1]), {}


def _matrix(rng: np.random.Generator, missing: float) -> np.ndarray:
    """Items × raters of 1..5 around a true value per item, some ratings missing."""
    truth = rng.integers(1, 6, 60)
    noise = rng.integers(-1, 2, (60, 5)) * (rng.random((60, 5)) < 0.4)
    out = np.clip(truth[:, None] + noise, 1, 5).astype(float)
    out[rng.random(out.shape) < missing] = np.nan
    return out


def _matrices(rng: np.random.Generator) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    yield (_matrix(rng, 0.0),), {}
    yield (_matrix(rng, 0.3),), {}
    yield (_matrix(rng, 0.3)[:, :2],), {}  # two raters, missing ratings


def _cases(coef: Coefficient) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    rng = np.random.default_rng(12)
    data = list(_pairs(rng) if coef.arity == 2 else _matrices(rng))
    if "level" in coef.options:
        for level in ("nominal", "ordinal", "interval", "ratio"):
            yield from ((d, {**o, "level": level}) for d, o in data)
        continuous = rng.normal(10, 2, (400, 3))  # > 256 values: the continuous engine
        continuous[rng.random(continuous.shape) < 0.2] = np.nan
        yield (continuous,), {"level": "interval"}
        return
    for weights in (None, "linear", "quadratic"):
        yield from ((d, {**o, "weights": weights}) for d, o in data)
    if coef.takes_sample_weight:
        a, b = next(_pairs(rng))[0]
        yield (a, b), {"sample_weight": rng.choice([0.5, 1.0, 2.5], a.size)}


@pytest.mark.parametrize("coef", _RESULTS, ids=lambda c: c.name)
def test_twin_equals_exact_core(coef: Coefficient) -> None:
    for data, options in _cases(coef):
        result = coef.function(*data, **options)
        sampler = result._inferred().sampler
        assert isinstance(sampler, coef.twin), (coef.name, type(sampler))
        assert sampler.observed() == pytest.approx(result.statistic, abs=1e-12, rel=0), (
            coef.name,
            options,
        )


def test_every_result_has_a_twin() -> None:
    assert all(c.twin for c in _RESULTS)
    assert [c.name for c in REGISTRY if not c.returns_result] == ["quadratic_weighted_kappa"]
