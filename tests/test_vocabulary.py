"""One vocabulary for the options: the library, the accumulators and the CLI use the same names.

Each tuple of :mod:`concord._common.options` is checked against what every
user of it offers or accepts: the command line's choices, the names the
library's error lists, and the values it accepts.
"""

from __future__ import annotations

import re
from typing import get_args

import click
import pytest

import concord
from concord._cli.main import main
from concord._common import options as vocabulary

DATA = [[1, 2, 2], [2, 2, 3], [1, 1, 1], [3, 3, 2]]
R1, R2 = [1, 2, 3, 1, 2, 3], [1, 2, 3, 2, 2, 3]


def choices(option: str) -> dict[str, tuple[str, ...]]:
    """Return {command: the option's choices} for every command that takes the option."""
    assert isinstance(main, click.Group)
    found = {}
    for name, command in main.commands.items():
        for param in command.params:
            if option in getattr(param, "opts", ()):
                found[name] = tuple(param.type.choices)
    return found


def listed(message: str) -> tuple[str, ...]:
    """Return the quoted names an error message lists."""
    expected = message.split(" must be ", 1)[1].split(" Got ", 1)[0]
    return tuple(re.findall(r"'([^']+)'", expected))


def error(call) -> str:
    with pytest.raises((ValueError, TypeError)) as caught:
        call()
    return str(caught.value)


def test_each_tuple_is_its_literal_type():
    assert get_args(vocabulary.WeightName) == vocabulary.WEIGHTS
    assert vocabulary.WEIGHTS == (
        "linear",
        "quadratic",
        "ordinal",
        "radical",
        "ratio",
        "circular",
        "bipolar",
    )
    # masi and jaccard: distances between label sets (issue 26)
    assert vocabulary.LEVELS == ("nominal", "ordinal", "interval", "ratio", "masi", "jaccard")
    assert vocabulary.NAN_POLICIES == ("raise", "omit")
    assert vocabulary.INTERVAL_METHODS == (
        "wald",
        "t",
        "fisher-z",
        "bootstrap-percentile",
        "bootstrap-bca",
    )


def test_the_cli_offers_the_library_names():
    assert set(choices("--weights")) == {
        "kappa",
        "agree",
        "raters",
        "items",
        "drift",
        "compare",
        "thresholds",
        "report",
    }
    for offered in choices("--weights").values():
        assert offered == ("none", *vocabulary.WEIGHTS)
    assert set(choices("--level")) == {"agree", "raters", "report"}
    for offered in choices("--level").values():
        assert offered == ("auto", *vocabulary.LEVELS)
    assert set(choices("--nan-policy")) == {"kappa", "report", "bland-altman"}
    for offered in choices("--nan-policy").values():
        assert offered == vocabulary.NAN_POLICIES
    assert set(choices("--ci-method")) == {"kappa", "agree", "compare", "report"}
    for offered in choices("--ci-method").values():
        assert offered == vocabulary.INTERVAL_METHODS


def test_the_library_lists_and_accepts_the_weight_names():
    for call in (
        lambda: concord.cohen_kappa(R1, R2, weights="cubic"),
        lambda: concord.fleiss_kappa(DATA, weights="cubic"),
        lambda: concord.accumulate(concord.gwet_ac, weights="cubic"),
    ):
        assert listed(error(call)) == vocabulary.WEIGHTS
    assert listed(error(lambda: concord.weight_matrix(3, "cubic"))) == (
        "unweighted",
        *vocabulary.WEIGHTS,
    )
    for name in vocabulary.WEIGHTS:
        assert concord.cohen_kappa(R1, R2, weights=name).weighting == name
        assert concord.fleiss_kappa(DATA, weights=name).weighting == name
        assert concord.weight_matrix(3, name).shape == (3, 3)


def test_the_library_lists_and_accepts_the_levels():
    for call in (
        lambda: concord.krippendorff_alpha(DATA, level="cubic"),
        lambda: concord.accumulate(concord.krippendorff_alpha, level="cubic"),
    ):
        assert listed(error(call)) == vocabulary.LEVELS
    sets = [[{"a"}, {"a", "b"}], [{"b"}, {"b"}], [{"a"}, {"a"}]]  # the set distances need sets
    for level in vocabulary.LEVELS:
        concord.krippendorff_alpha(sets if level in ("masi", "jaccard") else DATA, level=level)


def test_the_library_lists_and_accepts_the_nan_policies():
    for call in (
        lambda: concord.cohen_kappa(R1, R2, nan_policy="drop"),
        lambda: concord.accumulate(concord.cohen_kappa, nan_policy="drop"),
    ):
        assert listed(error(call)) == vocabulary.NAN_POLICIES
    for policy in vocabulary.NAN_POLICIES:
        concord.cohen_kappa(R1, R2, nan_policy=policy)


def test_the_library_lists_and_accepts_the_interval_methods():
    result = concord.cohen_kappa(R1, R2)
    message = error(lambda: result.confidence_interval(method="exact"))
    assert listed(message) == vocabulary.INTERVAL_METHODS
    for method in vocabulary.INTERVAL_METHODS:
        result.confidence_interval(method=method, n_resamples=50, rng=0)


def test_population_size_has_one_checker():
    """The same sentence, whoever checks: the function, an accumulator, or the variance."""
    at_once = error(lambda: concord.fleiss_kappa(DATA, population_size=0))
    assert at_once == error(lambda: concord.accumulate(concord.fleiss_kappa, population_size=0))
    assert at_once.startswith("The 'population_size' parameter of fleiss_kappa must be positive.")
    too_few = error(lambda: concord.fleiss_kappa(DATA, population_size=3))
    assert too_few.startswith(
        "The 'population_size' parameter must be at least the number of items (4). Got 3 instead."
    )
    assert at_once.endswith(too_few.rsplit(". ", 1)[1])  # the same hint: what N is
