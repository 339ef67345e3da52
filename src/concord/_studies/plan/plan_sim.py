"""Sample sizes for the ICC and Krippendorff's α: the exact F test, and simulation of the design.

The one-way ICC's F test has an exact power (Donner & Eliasziw 1987):
MSB/MSW divided by (1 + kθ), θ = ρ/(1 − ρ), is F(n − 1, n(k − 1)). Walter,
Eliasziw & Donner (1998) approximate its n in closed form. With missing
ratings, and for α, the planned design is simulated: items × raters, the
category rates (α) or variance components (ICC), and each rating missing at
random with probability ``missing``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from statistics import NormalDist

import numpy as np

from concord._common.errors import UndefinedKappaWarning
from concord._common.exact import fmean
from concord._common.extras import require

_Z = NormalDist()


def _theta(rho: float) -> float:
    return rho / (1 - rho)


def icc_power(
    n: int, raters: int, null: float, expected: float, alpha: float, sides: int
) -> float:
    """Return the exact power of the one-way F test of ICC = null at n items, ICC = expected."""
    f = require("scipy.stats", "stats", "concord.plan").f
    k = raters
    df1, df2 = n - 1, n * (k - 1)
    crit = float(f.ppf(1 - alpha / sides, df1, df2))
    ratio = (1 + k * _theta(null)) / (1 + k * _theta(expected))
    return float(f.sf(crit * ratio, df1, df2))


def icc_n(
    null: float, expected: float, raters: int, alpha: float, power: float, sides: int
) -> int:
    """Return the least n ≥ 2 whose exact one-way F test reaches ``power``.

    From Walter's closed form, the bracket doubles until it holds that n, then
    bisects: a few dozen power evaluations even where n is in the billions.
    """

    def reaches(n: int) -> bool:
        return icc_power(n, raters, null, expected, alpha, sides) >= power

    start = max(2, math.floor(walter_n(null, expected, raters, alpha, power, sides)) - 2)
    low, high, step = start - 1, start, 1  # low fails (or is below 2), high is tried
    while not reaches(high):
        low, high, step = high, high + step, 2 * step
    step = 1
    while low >= 2 and reaches(low):
        high, low, step = low, max(1, low - step), 2 * step
    while high - low > 1:  # low fails (or is 1), high reaches
        mid = (low + high) // 2
        low, high = (low, mid) if reaches(mid) else (mid, high)
    return high


def walter_n(
    null: float, expected: float, raters: int, alpha: float, power: float, sides: int
) -> float:
    """Return Walter, Eliasziw & Donner's (1998) closed-form n (their equation 6)."""
    k = raters
    c0 = (1 + k * _theta(null)) / (1 + k * _theta(expected))
    z = _Z.inv_cdf(1 - alpha / sides) + _Z.inv_cdf(power)
    return 1 + 2 * z**2 * k / (math.log(c0) ** 2 * (k - 1))


def _holes(x: np.ndarray, missing: float, rng: np.random.Generator) -> np.ndarray:
    """Blank each rating with probability ``missing``."""
    if missing > 0:
        x[rng.random(x.shape) < missing] = np.nan
    return x


def icc_data(
    n: int, raters: int, rho: float, missing: float, rng: np.random.Generator
) -> np.ndarray:
    """Return n items × raters scores: item effect variance ρ, error variance 1 − ρ."""
    items = rng.normal(0.0, math.sqrt(rho), size=(n, 1))
    x = items + rng.normal(0.0, math.sqrt(1 - rho), size=(n, raters))
    return _holes(x, missing, rng)


def alpha_data(
    n: int, raters: int, rho: float, props: np.ndarray, missing: float, rng: np.random.Generator
) -> np.ndarray:
    """Return n items × raters category codes from kappaSize's mixture, whose α is ρ.

    With probability ρ every rater gives the item's category, else each draws from ``props``.
    """
    k = props.size
    truth = rng.choice(k, size=(n, 1), p=props)
    guess = rng.choice(k, size=(n, raters), p=props)
    x = np.where(rng.random((n, 1)) < rho, truth, guess).astype(float)
    return _holes(x, missing, rng)


Test = Callable[[list[np.ndarray]], int]  # how many of the simulated studies reject

_CELLS = 1 << 20  # ratings drawn before they are tested together: a few MiB at a time


def _batches(
    draw: Callable[[np.random.Generator], np.ndarray], reps: int, rng: np.random.Generator
) -> Iterator[list[np.ndarray]]:
    """Draw ``reps`` studies in order, a batch of about ``_CELLS`` ratings at a time."""
    batch: list[np.ndarray] = []
    for _ in range(reps):
        batch.append(draw(rng))
        if len(batch) * batch[0].size >= _CELLS:
            yield batch
            batch = []
    if batch:
        yield batch


def rejection_rate(
    draw: Callable[[np.random.Generator], np.ndarray], test: Test, reps: int, seed: int | None
) -> float:
    """Return the share of ``reps`` simulated studies whose ``test`` rejects."""
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # undefined: does not reject
        return sum(test(batch) for batch in _batches(draw, reps, rng)) / reps


def icc_test(null: float, alpha: float, sides: int) -> Test:
    """Return the one-way F test of ICC = null (concord.icc, McGraw & Wong), at level α."""
    from concord._coefficients.continuous.icc import icc

    f = require("scipy.stats", "stats", "concord.plan").f

    def rejects(x: np.ndarray) -> bool:
        r = icc(x, model="oneway", r0=null)
        return bool(f.sf(r.f_statistic, r.df1, r.df2) < alpha / sides)

    return lambda studies: sum(rejects(x) for x in studies)


def alpha_test(null: float, alpha: float, sides: int) -> Test:
    """Return the Wald test of α = null with concord's analytic SE of α, at level α.

    α and its SE are those of :func:`concord.krippendorff_alpha`, bit for bit,
    computed for a batch of studies at once (:mod:`.krippendorff_batch`).
    """
    from concord._coefficients.krippendorff.krippendorff_batch import nominal_alphas

    z = _Z.inv_cdf(1 - alpha / sides)

    def rejects(studies: list[np.ndarray]) -> int:
        alphas, ses = nominal_alphas(studies)
        with np.errstate(invalid="ignore"):  # undefined α (nan): does not reject
            return int(((alphas - null) > z * ses).sum())

    return rejects


def alpha_spread(
    expected: float, raters: int, props: np.ndarray, missing: float, reps: int, seed: int | None
) -> float:
    """Return √n·SE(α̂) at the anticipated α, averaged over pilot studies of 200 items."""
    from concord._coefficients.krippendorff.krippendorff_batch import nominal_alphas

    rng = np.random.default_rng(seed)
    pilot = 200

    def draw(g: np.random.Generator) -> np.ndarray:
        return alpha_data(pilot, raters, expected, props, missing, g)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # nan: plan() says why
        ses = np.concatenate(
            [nominal_alphas(b)[1] for b in _batches(draw, max(reps // 4, 50), rng)]
        )
    return fmean(ses) * math.sqrt(pilot)  # an exact sum: the same on every CPU
