"""Ratings near the ends of the float range: ratios stay exact, moments beyond it read ±inf.

Expected values: the same data scaled by a power of two (exact in floats) give
the same ρ_c, r and C_b, since those are ratios of the sums; u by hand with
fractions (u = D / (AB)^¼, module docstring of concordance_core).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import concord

X = np.array([1.0, 2.0, 4.0, 7.0, 3.0])
Y = np.array([1.5, 3.0, 2.0, 6.0, 3.5])


@pytest.mark.parametrize("power", [600, 1000, -1000])
def test_ratios_do_not_depend_on_a_power_of_two(power):
    small = concord.concordance_correlation(X, Y)
    big = concord.concordance_correlation(np.ldexp(X, power), np.ldexp(Y, power))
    assert big.statistic == small.statistic
    assert big.precision == small.precision and big.accuracy == small.accuracy
    assert big.scale_shift == small.scale_shift and big.location_shift == small.location_shift


def test_variances_beyond_the_float_range_are_inf_not_an_error():
    big = concord.concordance_correlation(np.ldexp(X, 1000), np.ldexp(Y, 1000))
    assert big.var_x == math.inf and big.var_y == math.inf
    ba = concord.bland_altman(np.ldexp(X, 1000), np.ldexp(Y, 1000))
    assert ba.sd == math.ldexp(concord.bland_altman(X, Y).sd, 1000)  # exact: a power of two
    ba = concord.bland_altman([1e300, -1e300, 1.7e308], [-1e300, 1e300, -1.7e308])
    assert ba.sd == math.inf and (ba.lower_limit, ba.upper_limit) == (-math.inf, math.inf)


def test_location_shift_of_ratings_on_far_apart_scales():
    # x near 1e88, y near 1e-220: D⁴/(AB) is near 1e617, beyond the float range, but u is 1e154
    x, y = [1e88, 2e88, 3e88], [1e-220, 3e-220, 2e-220]
    u = concord.concordance_correlation(x, y).location_shift
    fx, fy = [Fraction(v) for v in x], [Fraction(v) for v in y]
    n = len(x)
    a = n * sum(v * v for v in fx) - sum(fx) ** 2
    b = n * sum(v * v for v in fy) - sum(fy) ** 2
    d = sum(fx) - sum(fy)
    expected = Fraction(d**4, 1) / (a * b)  # u⁴, exactly
    assert u > 0 and abs(Fraction(u) ** 4 / expected - 1) < Fraction(1, 10**14)


def test_icc_refuses_python_integers_that_floats_would_round():
    # 2**70 + 1 is 2**70 in float64: the ICC's float sums would silently use another score
    with pytest.raises(ValueError, match=r"'ratings' parameter of icc.*1180591620717411303425"):
        concord.icc([[2**70 + 1, 1], [2, 3], [4, 5], [6, 6]])
    assert concord.icc([[2**53, 1], [2, 3], [4, 5], [6, 6]]).n_items == 4  # still exact
