"""concord.compare of two raters, pinned bit for bit: the SE and the seeded bootstrap.

Source of the expected values: this test's cases run on main at 8f8f673 (before the
paired two-rater path counted joint cell patterns instead of evaluating every item's
terms), printed as float.hex. The change is a change of speed only: every SE is the
same exact (correctly rounded) sum, and each seed draws the same multinomial over the
same joint patterns, so the replicates, percentile and BCa intervals stay bit for bit.
The replicates are hashed (sha256 of their bytes): every step of the float twin of
kappa is elementwise, or a sum of integer-valued floats (counts, integer weights),
which no CPU rounds. Scott's π's two SEs were pinned again when its chance
agreement p_e became an exact sum rounded once (it went through BLAS; they moved by one
and two ulps); nothing else moved.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

import concord


def _data(seed: int, n: int, k: int, labels: list[str] | None) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.6, truth, np.clip(truth + rng.integers(-2, 3, n), 0, k - 1))
    b = np.where(rng.random(n) < 0.7, truth, np.clip(truth + rng.integers(-2, 3, n), 0, k - 1))
    if labels is None:
        return truth, a, b
    named = np.array(labels)
    return named[truth], named[a], named[b]


# name: (seed, n, k, function, options, text labels, clusters of 3 items)
CASES: dict[str, tuple[int, int, int, str, dict[str, Any], list[str] | None, bool]] = {
    "qwk": (1, 3000, 6, "cohen_kappa", {"weights": "quadratic"}, None, False),
    "nominal_text": (2, 500, 4, "cohen_kappa", {}, ["d", "a", "c", "b"], False),
    "scott_linear": (3, 800, 5, "scott_pi", {"weights": "linear"}, None, False),
    "population": (
        4,
        600,
        4,
        "cohen_kappa",
        {"weights": "quadratic", "population_size": 5000},
        None,
        False,
    ),
    "declared_unused": (5, 400, 3, "cohen_kappa", {"labels": [0, 1, 2, 3]}, None, False),
    "groups": (6, 900, 5, "cohen_kappa", {"weights": "quadratic"}, None, True),
    "scott_groups": (7, 700, 4, "scott_pi", {}, None, True),
}

# name: difference, SE, sha256[:16] of the 999 replicates (rng=1), percentile and BCa limits
PINNED = {
    "qwk": (
        "0x1.4261ea2fa7820p-6",
        "0x1.52f15bb6a7315p-8",
        "138309b241fdc85f",
        ("0x1.4c70b7cb0404dp-7", "0x1.e4cfa797ac599p-6"),
        ("0x1.483ca2addb028p-7", "0x1.e1f2d80b7d6cfp-6"),
    ),
    "nominal_text": (
        "0x1.8b4abe3affe50p-5",
        "0x1.22da129d6178bp-5",
        "a2662ec3bb399473",
        ("-0x1.2d88ddb479577p-6", "0x1.ceac7debbff64p-4"),
        ("-0x1.5fb13638ac2ddp-6", "0x1.c6dac719148a4p-4"),
    ),
    "scott_linear": (
        "0x1.d840fa3c90ac0p-5",
        "0x1.3c7df66fe68b1p-6",  # 8f8f673: ...8afp-6 (p_e through BLAS)
        "908047e90dd6acef",
        ("0x1.363bd34fe713fp-6", "0x1.8b5acfbfaa85ep-4"),
        ("0x1.4af68f241e047p-6", "0x1.94bb2c01584bap-4"),
    ),
    "population": (
        "0x1.325f729c74b98p-4",
        "0x1.4eb96531e6dffp-6",
        "67a5b0d22e07fa65",
        ("0x1.074cacf649fe8p-5", "0x1.e1794b383a37fp-4"),
        ("0x1.16bf48f9c6a60p-5", "0x1.e3013c0db874ep-4"),
    ),
    "declared_unused": (
        "0x1.7402c27a4be00p-7",
        "0x1.4f93ae1258710p-5",
        "91754a37a4dd2882",
        ("-0x1.0807ce37632a5p-4", "0x1.7f1aab00797a0p-4"),
        ("-0x1.055bb0b9007ebp-4", "0x1.80aa1a4e0187dp-4"),
    ),
    "groups": (
        "0x1.292a7de0af870p-5",
        "0x1.b5fa01e3405dcp-7",
        "1db0dd46dd541de1",
        ("0x1.6c2f7ddbb2443p-7", "0x1.000bb0c6d6463p-4"),
        ("0x1.66186c35f70e0p-7", "0x1.f816a796ff431p-5"),
    ),
    "scott_groups": (
        "0x1.2418b289dd800p-4",
        "0x1.ecbeade896aecp-6",  # 8f8f673: ...aedp-6 (p_e through BLAS)
        "d09f52dc1a8193a1",
        ("0x1.0dc8638780734p-7", "0x1.0977f633099a9p-3"),
        ("0x1.4f2d0258cfdc7p-7", "0x1.109ca5470245ep-3"),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_compare_of_two_raters_is_pinned_bit_for_bit(name: str) -> None:
    seed, n, k, function, options, labels, clustered = CASES[name]
    truth, a, b = _data(seed, n, k, labels)
    if clustered:
        options = {**options, "groups": np.arange(n) // 3}
    r = concord.compare(getattr(concord, function), (truth, a), (truth, b), **options)
    difference, se, digest, percentile, bca = PINNED[name]
    assert float(r.difference).hex() == difference
    assert float(r.standard_error).hex() == se
    replicates = r._inferred().bootstrap(999, 1, "test")
    assert hashlib.sha256(np.ascontiguousarray(replicates).tobytes()).hexdigest()[:16] == digest
    for method, limits in (("bootstrap-percentile", percentile), ("bootstrap-bca", bca)):
        ci = r.confidence_interval(method=method, n_resamples=999, rng=1)
        assert (float(ci.low).hex(), float(ci.high).hex()) == limits


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_joint_cells_give_the_items_se_and_sampler(name: str) -> None:
    # the reference is the items' path, kept for the other coefficients: every item's
    # terms (the registry's terms hook), summed by compare.difference_se, and the joint
    # sampler paired_sampler forms from each item's units
    from concord._coefficients.registry import entry
    from concord._studies.compare import compare as module
    from concord._studies.compare.compare_boot import paired_sampler

    seed, n, k, function, options, labels, clustered = CASES[name]
    truth, a, b = _data(seed + 100, n, k, labels)
    fn = getattr(concord, function)
    c = entry(fn, "test")
    groups = np.arange(n) // 3 if clustered else None
    r = concord.compare(fn, (truth, a), (truth, b), groups=groups, **options)
    assert c.terms is not None
    d1, d2 = (truth, a), (truth, b)
    u1 = np.asarray(c.terms(d1, module._options(c, d1, options)))
    u2 = np.asarray(c.terms(d2, module._options(c, d2, options)))
    clusters = None if groups is None else module.clusters_of(groups, truth, "test")
    se, df = module.difference_se(c, u2 - u1, clusters)
    assert (r.standard_error, r.df) == (se, df)
    reference = paired_sampler(c, (d1, d2), (r.first, r.second), clusters)
    ours = r._inferred().sampler
    assert type(ours) is type(reference)
    np.testing.assert_array_equal(ours.frequencies(), reference.frequencies())
    if clustered:  # whole clusters of joint patterns: the same distinct clusters
        np.testing.assert_array_equal(ours.members, reference.members)
    else:
        for side in range(2):
            np.testing.assert_array_equal(ours.index[side], reference.index[side])
    freq = reference.frequencies()
    counts = np.random.default_rng(seed).multinomial(freq.sum(), freq / freq.sum(), size=50)
    np.testing.assert_array_equal(
        ours.statistic(counts.astype(float)), reference.statistic(counts.astype(float))
    )
