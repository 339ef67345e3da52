"""A numpy input decides host or device once, at the entry, and then keeps to the host path.

``cohen_kappa`` (and every two-rater function through ``_tables/pairs.py``)
asks :func:`concord._data.arrays.any_device_array` once; numpy inputs then
never meet a device check again (issue 25: the host path visited the device
helpers once per input and once per conversion). The values are the general
path's own, bit for bit (tests/test_two_rater_fast_path.py, test_array_api.py).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import concord
from concord._data import columns
from concord._tables import pairs


def _never(*args: object) -> object:
    raise AssertionError("a device check on the host path")


@pytest.mark.parametrize(
    "options",
    [
        {"labels": [1, 2, 3]},
        {"sample_weight": np.ones(7)},
        {"nan_policy": "omit"},
    ],
)
def test_numpy_inputs_meet_no_device_check_after_the_entry(monkeypatch, options):
    a = np.array([1, 2, 3, 3, 2, 1, 2], dtype=float)
    b = np.array([1, 2, 3, 2, 2, 1, 1], dtype=float)
    monkeypatch.setattr(pairs, "counted_on_device", _never)
    monkeypatch.setattr(columns, "to_host", _never)
    r = concord.cohen_kappa(a, b, **options)
    # by hand: p_o = 5/7; marginals (2, 3, 2) and (3, 3, 1), p_e = (6 + 9 + 2)/49 = 17/49;
    # κ = (35 − 17)/(49 − 17) = 9/16
    assert r.statistic == float(Fraction(9, 16))


def test_one_entry_check_decides_the_path(monkeypatch):
    seen = []
    real = pairs.any_device_array
    monkeypatch.setattr(pairs, "any_device_array", lambda *xs: seen.append(xs) or real(*xs))
    a = np.array([1, 2, 3, 3, 2, 1, 2])
    concord.cohen_kappa(a, a[::-1].copy(), labels=[1, 2, 3], sample_weight=np.ones(7))
    assert len(seen) == 1
