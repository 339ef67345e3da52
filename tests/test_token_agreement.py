"""concord.token_agreement and token_ratings: spans painted on a grid (issue 28, item 2).

The grids are painted by hand below; the coefficients on them are concord's
own (checked elsewhere against irr, irrCAC and krippendorff), so the tests
check that token_agreement gives the coefficient of the hand-painted grid,
and one value counted by hand with fractions.Fraction.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import concord
from concord._studies.spans import paint

pd = pytest.importorskip("pandas")

N = "(no label)"
# "Anna met Bo." (12 characters): ann marks Anna and Bo, bob Anna
SENTENCE = {
    "item": [1, 1, 1],
    "rater": ["ann", "ann", "bob"],
    "start": [0, 9, 0],
    "end": [4, 11, 4],
    "label": ["PER"] * 3,
}


def test_char_grid_painted_by_hand() -> None:
    grid = concord.token_ratings(SENTENCE, lengths={1: 12})
    assert grid["ann"].tolist() == ["PER"] * 4 + [N] * 5 + ["PER"] * 2 + [N]
    assert grid["bob"].tolist() == ["PER"] * 4 + [N] * 8
    assert grid.index.names == ["item", "position"]
    assert grid.index.get_level_values("position").tolist() == list(range(12))
    assert list(grid["ann"].cat.categories) == [N, "PER"]


def test_cohen_kappa_on_the_characters_counted_by_hand() -> None:
    # 10 of 12 characters agree; ann PER 6 / none 6, bob PER 4 / none 8
    p_o = Fraction(10, 12)
    p_e = Fraction(6 * 4 + 6 * 8, 144)
    r = concord.token_agreement(SENTENCE, lengths={1: 12}, function=concord.cohen_kappa)
    assert r.statistic == pytest.approx(float((p_o - p_e) / (1 - p_e)), abs=1e-15)
    assert r.raters == ("ann", "bob")


def test_the_coefficient_of_the_hand_painted_grid() -> None:
    spans = {
        "item": ["a", "a", "a", "a", "b", "b"],
        "rater": ["x", "y", "z", "x", "y", "z"],
        "start": [0, 1, 0, 5, 0, 2],
        "end": [3, 3, 3, 7, 2, 4],
        "label": ["P", "P", "L", "L", "P", "P"],
    }
    by_hand = np.array(
        [
            # item a, length 8
            ["P", N, "L"],
            ["P", "P", "L"],
            ["P", "P", "L"],
            [N, N, N],
            [N, N, N],
            ["L", N, N],
            ["L", N, N],
            [N, N, N],
            # item b, length 4
            [N, "P", N],
            [N, "P", N],
            [N, N, "P"],
            [N, N, "P"],
        ],
        dtype=object,
    )
    lengths = {"a": 8, "b": 4}
    for function in (concord.krippendorff_alpha, concord.fleiss_kappa, concord.gwet_ac):
        r = concord.token_agreement(spans, lengths=lengths, function=function)
        assert r.statistic == pytest.approx(function(by_hand).statistic, abs=1e-15)
    r = concord.token_agreement(spans, lengths=lengths, level="interval", labels=[N, "P", "L"])
    assert r.statistic == pytest.approx(
        concord.krippendorff_alpha(by_hand, level="interval", labels=[N, "P", "L"]).statistic
    )


def test_an_item_no_one_annotated_is_no_label_throughout() -> None:
    grid = concord.token_ratings(SENTENCE, lengths={1: 12, 2: 3})
    assert grid.loc[2]["ann"].tolist() == [N] * 3 and grid.loc[2]["bob"].tolist() == [N] * 3


def test_text_gives_the_lengths() -> None:
    spans = {**SENTENCE, "text": ["Anna met Bo."] * 3}
    assert len(concord.token_ratings(spans)) == 12
    with pytest.raises(ValueError, match=r"'lengths' parameter of token_agreement"):
        concord.token_agreement(SENTENCE)


def test_tokens_take_the_label_of_every_span_they_share_a_character_with() -> None:
    text = "New York-based firm  ."
    spans = {
        "item": ["s"] * 4,
        "rater": ["a", "a", "b", "b"],
        # a: "New York" LOC; "firm" ORG; b: "York" LOC, and two spaces (no token)
        "start": [0, 15, 4, 19],
        "end": [8, 19, 8, 21],
        "label": ["LOC", "ORG", "LOC", "ORG"],
        "text": [text] * 4,
    }
    grid = concord.token_ratings(spans, unit="token")
    # tokens: New, York-based, firm, .
    assert grid["a"].tolist() == ["LOC", "LOC", "ORG", N]
    assert grid["b"].tolist() == [N, "LOC", N, N]
    assert grid.index.names == ["item", "token"]


def test_tokens_need_the_text() -> None:
    with pytest.raises(ValueError, match=r"'unit' parameter .*no text for item 1"):
        concord.token_agreement(SENTENCE, lengths={1: 12}, unit="token")


def test_nested_spans_of_one_rater_are_a_combined_category() -> None:
    spans = {
        "item": [1, 1, 1, 1],
        "rater": ["a", "a", "a", "b"],
        # a: ORG [0, 6) with LOC [2, 4) inside, and PER [4, 8) over its end; b: ORG [0, 6)
        "start": [0, 2, 4, 0],
        "end": [6, 4, 8, 6],
        "label": ["ORG", "LOC", "PER", "ORG"],
    }
    grid = concord.token_ratings(spans, lengths={1: 9})
    assert grid["a"].tolist() == ["ORG", "ORG", "LOC+ORG", "LOC+ORG", "ORG+PER", "ORG+PER",
                                  "PER", "PER", N]  # fmt: skip
    assert grid["b"].tolist() == ["ORG"] * 6 + [N] * 3
    assert list(grid["b"].cat.categories) == [N, "ORG", "LOC", "PER", "LOC+ORG", "ORG+PER"]


def test_more_labels_than_a_bit_mask_holds(monkeypatch: Any) -> None:
    spans = {
        "item": [1, 1, 1, 1],
        "rater": ["a", "a", "a", "b"],
        "start": [0, 2, 4, 0],
        "end": [6, 4, 8, 6],
        "label": ["ORG", "LOC", "PER", "ORG"],
    }
    expected = concord.token_ratings(spans, lengths={1: 9})
    monkeypatch.setattr(paint, "_MASK_LABELS", 0)
    pd.testing.assert_frame_equal(concord.token_ratings(spans, lengths={1: 9}), expected)


def test_row_order_changes_nothing() -> None:
    rng = np.random.default_rng(0)
    rows = []
    for i in range(10):
        for r in ("a", "b", "c"):
            cuts = np.sort(rng.choice(50, size=4, replace=False))
            rows += [
                (i, r, int(s), int(e), str(rng.choice(["X", "Y"]))) for s, e in cuts.reshape(-1, 2)
            ]
    frame = pd.DataFrame(rows, columns=["item", "rater", "start", "end", "label"])
    lengths = {i: 50 for i in range(10)}
    one = concord.token_agreement(frame, lengths=lengths)
    shuffled = frame.sample(frac=1, random_state=1)
    assert concord.token_agreement(shuffled, lengths=lengths).statistic == pytest.approx(
        one.statistic, abs=1e-14
    )


def test_accumulator_and_dask_give_the_one_shot_result() -> None:
    spans = {**SENTENCE, "item": [1, 2, 2], "start": [0, 2, 1], "end": [4, 3, 3]}
    lengths = {1: 12, 2: 5}
    grid = concord.token_ratings(spans, lengths=lengths)
    acc = concord.accumulate(concord.krippendorff_alpha)
    for _, chunk in grid.groupby(level=0, observed=True):
        acc.update(chunk)
    one = concord.token_agreement(spans, lengths=lengths)
    assert acc.result().statistic == pytest.approx(one.statistic, abs=1e-15)
    dd = pytest.importorskip("dask.dataframe")
    import concord.dask as concord_dask

    frame = dd.from_pandas(grid.reset_index(drop=True), npartitions=2)
    got = concord_dask.compute(concord.krippendorff_alpha, frame)
    assert got.statistic == pytest.approx(one.statistic, abs=1e-15)


def test_bad_function_unit_and_labels() -> None:
    three = {**SENTENCE, "rater": ["a", "b", "c"]}
    with pytest.raises(ValueError, match=r"'function' parameter .*cohen_kappa for 3 raters"):
        concord.token_agreement(three, lengths={1: 12}, function=concord.cohen_kappa)
    with pytest.raises(TypeError, match=r"'function' parameter of token_agreement"):
        concord.token_agreement(SENTENCE, lengths={1: 12}, function=len)
    with pytest.raises(ValueError, match=r"'unit' parameter .*Did you mean 'token'"):
        concord.token_agreement(SENTENCE, lengths={1: 12}, unit="tokens")
    clash = {**SENTENCE, "label": ["PER", N, "PER"]}
    with pytest.raises(ValueError, match=r"'label' parameter .*other than '\(no label\)'"):
        concord.token_ratings(clash, lengths={1: 12})
    same_name = {**SENTENCE, "label": [1, "1", 1]}
    with pytest.raises(ValueError, match=r"names differ.*1 and '1'"):
        concord.token_ratings(same_name, lengths={1: 12})


def test_one_rater_or_none_is_refused() -> None:
    """One rater gave nan with a warning; no spans, an error about krippendorff_alpha's input."""
    one = {k: v[:2] if isinstance(v, list) else v for k, v in SENTENCE.items()}
    with pytest.raises(ValueError, match=r"'spans' parameter of token_agreement.*only rater"):
        concord.token_agreement(one, lengths={1: 12})
    empty = {k: [] for k in ("item", "rater", "start", "end", "label")}
    with pytest.raises(ValueError, match=r"'spans' parameter of token_agreement.*no spans"):
        concord.token_agreement(empty, lengths={1: 12})
