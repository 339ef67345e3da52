"""The coefficient registry against the public API: every public function that returns an
agreement coefficient is registered, everything registered is public, and the registry's
description of each function matches its signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import concord
from concord._coefficients.registry import REGISTRY, by_name, entry
from tests.registry import (
    CATEGORICAL,
    DEFINED_ON_ONE_CATEGORY,
    NOT_COEFFICIENTS,
    SAMPLE_SIZE_CORRECTED,
    TWO_RATER_COUNTERPART,
    VARIANTS,
)

NAMES = [c.name for c in REGISTRY]


def test_registry_is_all_of_the_public_coefficients():
    public = set(concord.__all__)
    assert set(NAMES) <= public, "registered but not public"
    assert public - set(NAMES) == set(NOT_COEFFICIENTS), "public, neither registered nor listed"
    assert len(NAMES) == len(set(NAMES))


def test_registry_is_in_the_public_order():
    # the order of the user guide's table and of concord agree's rows: the two-rater
    # coefficients first, then those of many raters, Krippendorff's alpha last of the
    # categorical ones, then those of continuous ratings (exact sums)
    tables = [c.table for c in REGISTRY]
    pairs, sums = tables.count("pairs"), tables.count("sums")
    assert tables[:pairs] == ["pairs"] * pairs
    assert tables[len(tables) - sums :] == ["sums"] * sums
    assert tables[len(tables) - sums - 1] == "coincidences"


@pytest.mark.parametrize("c", REGISTRY, ids=NAMES)
def test_entry_matches_the_function(c):
    assert getattr(concord, c.name) is c.function and c.function.__name__ == c.name
    assert entry(c.function) is c and by_name(c.name) is c
    params = inspect.signature(c.function).parameters.values()
    keyword = inspect.Parameter.KEYWORD_ONLY
    # groups= and bland_altman's subject= label the items, as the data do
    kw = tuple(p.name for p in params if p.kind is keyword and p.name not in ("groups", "subject"))
    positional = [p for p in params if p.kind is inspect.Parameter.POSITIONAL_ONLY]
    # every multi-rater function takes the long form (issue 14): item=, rater=, rating=,
    # which say how the ratings are laid out and are not options of the coefficient
    long = ("item", "rater", "rating")
    assert set(long) <= set(kw)  # and now every function (issue 25): two raters by raters=
    # form= (is the table wide?) and raters= (which two raters) say how the data are laid out
    layout = (*long, "form", "raters")
    assert c.options == tuple(k for k in kw if k not in layout)
    assert c.arity == len(positional)
    assert c.table == "sums" or c.arity == (2 if c.table == "pairs" else 1)
    assert c.table in {"pairs", "items", "raters", "coincidences", "sums"}
    assert c.takes_sample_weight == ("sample_weight" in kw)
    assert c.returns_result == (c.default_interval is not None)
    returned = inspect.signature(c.function).return_annotation
    assert (returned == "float") == (not c.returns_result)
    assert c.display_name


def test_entry_refuses_what_is_not_a_coefficient():
    for name in NOT_COEFFICIENTS:
        obj = getattr(concord, name)
        if callable(obj):
            with pytest.raises(TypeError):
                entry(obj)


def test_the_hand_listed_facts_name_registered_coefficients():
    registered = set(NAMES)
    counterparts = {name for name, _field in TWO_RATER_COUNTERPART.values()}
    assert set(TWO_RATER_COUNTERPART) | counterparts <= registered
    assert registered >= DEFINED_ON_ONE_CATEGORY | SAMPLE_SIZE_CORRECTED


def test_every_coefficient_has_variants_for_each_option():
    # what the invariance, accumulator and bootstrap tests run: every coefficient, every
    # scale value, declared labels and the options that change the input (the
    # categorical coefficients: tests/registry.py, CATEGORICAL)
    for c in CATEGORICAL:
        mine = [v.options for v in VARIANTS if v.coefficient is c]
        assert {} in mine
        for option in ("labels", "nan_policy", "min_rating"):
            assert (option in c.options) == any(option in o for o in mine), (c.name, option)


def test_the_report_leads_with_the_registrys_lead(monkeypatch):
    """The report's summary asks the registry which coefficient leads, not the name."""
    import dataclasses

    from concord._render import questions

    assert [c.name for c in REGISTRY if c.leads] == ["krippendorff_alpha"]
    ratings = np.array([[1, 2, 2], [2, 2, 1], [1, 1, 1], [3, 3, 2], [2, 3, 3]])
    results = [concord.fleiss_kappa(ratings), concord.gwet_ac(ratings)]
    results.append(concord.krippendorff_alpha(ratings))
    assert questions.headline(results).coefficient == "krippendorff_alpha"
    declared = tuple(dataclasses.replace(c, leads=c.name == "gwet_ac") for c in REGISTRY)
    monkeypatch.setattr(questions, "REGISTRY", declared)
    assert questions.headline(results).coefficient == "gwet_ac"
