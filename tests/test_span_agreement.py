"""concord.span_agreement: span F1 of every pair of raters (issue 28, item 1).

Expected values are counted by hand from the definitions in the issue (one-to-one
maximum matching, F1 = 2·matched / (both counts), counts summed over items per
label), recomputed with fractions.Fraction; on seeded random data they are
checked against a hand-written span-F1 loop below (Kuhn's augmenting paths for
the maximum matching) and, for exact matching, against seqeval 1.2.2's
entity-level F1 (Nakayama 2018), which scores exact (type, start, end) chunks.
"""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import concord

pd = pytest.importorskip("pandas")
pytest.importorskip("scipy")

#      item  rater  start end  label
HAND = [
    ("d1", "a", 0, 5, "PER"),
    ("d1", "a", 10, 15, "LOC"),
    ("d1", "a", 20, 25, "PER"),
    ("d2", "a", 0, 3, "ORG"),
    ("d1", "b", 0, 5, "PER"),
    ("d1", "b", 11, 15, "LOC"),
    ("d1", "b", 21, 24, "PER"),
    ("d2", "b", 0, 3, "ORG"),
    ("d2", "b", 5, 8, "PER"),
]
COLUMNS = ["item", "rater", "start", "end", "label"]


def hand(rows: list[tuple[Any, ...]] = HAND) -> Any:
    return pd.DataFrame(rows, columns=COLUMNS)


def test_exact_match_by_label_counted_by_hand() -> None:
    # PER: a 2, b 3, matched 1 ([0, 5)); LOC: 1, 1, 0; ORG: 1, 1, 1
    r = concord.span_agreement(hand(), rng=0)
    assert r.statistic == float(Fraction(2 * 2, 4 + 5))
    assert r.macro == float((Fraction(2, 5) + 0 + 1) / 3)
    pair = r.by_pair().iloc[0]
    assert (pair.matched, pair.n1, pair.n2) == (2, 4, 5)
    assert pair.precision == float(Fraction(2, 5))  # b's spans judged against a's
    assert pair.recall == float(Fraction(2, 4))
    labels = r.by_label()
    assert labels.loc["PER", "f1"] == float(Fraction(2, 5))
    assert labels.loc["LOC", "f1"] == 0.0 and labels.loc["ORG", "f1"] == 1.0
    assert labels.loc["PER", "spans"] == 5 and labels.loc["PER", "matched"] == 1
    items = r.by_item()
    assert items.loc["d1", "f1"] == float(Fraction(2, 6))
    assert items.loc["d2", "f1"] == float(Fraction(2, 3))


def test_overlap_and_iou_counted_by_hand() -> None:
    r = concord.span_agreement(hand(), match="overlap")
    assert r.statistic == float(Fraction(2 * 4, 9))
    assert r.macro == float((Fraction(4, 5) + 1 + 1) / 3)
    # IoU: [10, 15) vs [11, 15) is 4/5, [20, 25) vs [21, 24) is 3/5; inclusive threshold
    assert concord.span_agreement(hand(), match=0.8).statistic == float(Fraction(6, 9))
    assert concord.span_agreement(hand(), match=0.81).statistic == float(Fraction(4, 9))
    assert concord.span_agreement(hand(), match=0.6).statistic == float(Fraction(8, 9))
    assert concord.span_agreement(hand(), match=1).statistic == float(Fraction(4, 9))


def test_iou_threshold_is_inclusive_at_a_tenth() -> None:
    # [0, 10) and [0, 1): IoU exactly 1/10; the float 0.1 is read as one tenth
    spans = hand([("x", "a", 0, 10, "T"), ("x", "b", 0, 1, "T")])
    assert concord.span_agreement(spans, match=0.1).statistic == 1.0
    assert concord.span_agreement(spans, match=0.1000001).statistic == 0.0


def test_touching_spans_do_not_overlap() -> None:
    spans = hand([("x", "a", 0, 5, "T"), ("x", "b", 5, 9, "T")])
    assert concord.span_agreement(spans, match="overlap").statistic == 0.0
    spans = hand([("x", "a", 0, 5, "T"), ("x", "b", 4, 9, "T")])
    assert concord.span_agreement(spans, match="overlap").statistic == 1.0


def test_labels_ignored() -> None:
    spans = hand([("x", "a", 0, 5, "PER"), ("x", "b", 0, 5, "ORG"), ("x", "b", 7, 9, "ORG")])
    assert concord.span_agreement(spans).statistic == 0.0
    r = concord.span_agreement(spans, by=None)
    assert r.statistic == r.macro == float(Fraction(2, 3))
    with pytest.raises(ValueError, match="by='label'"):
        r.by_label()


def test_matching_is_maximum_not_greedy() -> None:
    # a's [0, 10) overlaps b's [0, 3) and [8, 12); a's [11, 15) overlaps only [8, 12):
    # a greedy pass that gives [0, 10) the span it overlaps first... or most may leave one
    # out; labels ignored so that each rater's spans may overlap (a's two labels)
    spans = hand(
        [
            ("x", "a", 0, 10, "P"),
            ("x", "a", 9, 12, "Q"),
            ("x", "b", 8, 12, "P"),
            ("x", "b", 0, 3, "Q"),
        ]
    )
    r = concord.span_agreement(spans, match="overlap", by=None)
    assert r.by_pair().iloc[0].matched == 2  # [0, 10)-[0, 3) and [9, 12)-[8, 12)


def test_three_raters_average_the_pairs() -> None:
    rows = [*HAND, ("d1", "c", 0, 5, "PER"), ("d2", "c", 0, 3, "ORG")]
    r = concord.span_agreement(hand(rows))
    # a-b 4/9; a-c: matched 2 of 4 + 2 -> 4/6; b-c: 2 of 5 + 2 -> 4/7
    expected = (Fraction(4, 9) + Fraction(4, 6) + Fraction(4, 7)) / 3
    assert r.statistic == float(expected)
    assert list(r.by_pair().f1) == [float(Fraction(4, 9)), 4 / 6, 4 / 7]
    # per label means over the pairs that used it: ORG 1 everywhere; LOC 0 (a-b), 0 (a-c)
    # and 0 (b-c); PER 2/5, 2/(2+1), 2/(3+1)
    labels = r.by_label()
    assert labels.loc["PER", "f1"] == pytest.approx(
        float((Fraction(2, 5) + Fraction(2, 3) + Fraction(2, 4)) / 3)
    )
    assert labels.loc["LOC", "f1"] == 0.0


def test_row_order_changes_nothing() -> None:
    frame = random_spans(np.random.default_rng(3), n_items=12, raters=("a", "b", "c"))
    for match, by in [("exact", "label"), ("overlap", "label"), (0.5, None), ("overlap", None)]:
        one = concord.span_agreement(frame, match=match, by=by, rng=1)
        # rows shuffled; raters kept in their order of appearance (it orients each pair)
        permuted = frame.sample(frac=1, random_state=7).sort_values("rater", kind="stable")
        permuted = permuted.reset_index(drop=True)
        two = concord.span_agreement(permuted, match=match, by=by, rng=1)
        assert one.statistic == two.statistic and one.macro == two.macro
        pd.testing.assert_frame_equal(one.by_pair(), two.by_pair())
        pd.testing.assert_frame_equal(one.by_item().sort_index(), two.by_item().sort_index())
        keys = [*COLUMNS, "other_rater"]
        a = one.disagreements().sort_values(keys).reset_index(drop=True)
        b = two.disagreements().sort_values(keys).reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)


def test_disagreements_list_unmatched_spans_with_the_other_raters_span() -> None:
    d = concord.span_agreement(hand()).disagreements()
    got = [tuple(x) for x in d[[*COLUMNS, "other_rater", "other_start", "other_label"]].values]
    assert got[:4] == [
        ("d1", "a", 10, 15, "LOC", "b", 11, "LOC"),
        ("d1", "b", 11, 15, "LOC", "a", 10, "LOC"),
        ("d1", "a", 20, 25, "PER", "b", 21, "PER"),
        ("d1", "b", 21, 24, "PER", "a", 20, "PER"),
    ]
    assert got[4][:6] == ("d2", "b", 5, 8, "PER", "a")  # no span of a overlaps it
    assert len(got) == 5
    assert d["other_start"].isna().tolist() == [False] * 4 + [True]
    assert d["other_end"].isna().tolist() == [False] * 4 + [True]
    assert d["other_label"].isna().tolist() == [False] * 4 + [True]


def test_user_column_names_in_the_tables() -> None:
    renamed = hand().rename(columns={"item": "doc", "rater": "who"})
    r = concord.span_agreement(renamed, item="doc", rater="who")
    assert r.by_item().index.name == "doc"
    assert list(r.disagreements().columns[:2]) == ["doc", "who"]


def test_interval_is_a_seeded_bootstrap_over_items() -> None:
    frame = random_spans(np.random.default_rng(0), n_items=30, raters=("a", "b"))
    r = concord.span_agreement(frame, match="overlap", rng=5, n_resamples=499)
    low, high = r.confidence_interval()
    assert low <= r.statistic <= high and low < high
    assert (
        r.confidence_interval()
        == concord.span_agreement(
            frame, match="overlap", rng=5, n_resamples=499
        ).confidence_interval()
    )
    assert r.bootstrap(50, rng=1).shape == (50,)
    bca = r.confidence_interval(method="bootstrap-bca", rng=2)
    assert bca.low <= r.statistic <= bca.high
    macro = r.confidence_interval(average="macro", rng=2)
    assert macro.low <= r.macro <= macro.high
    with pytest.raises(ValueError, match="'method' parameter"):
        r.confidence_interval(method="wald")


def test_one_resample_is_the_f1_of_the_resampled_items() -> None:
    r = concord.span_agreement(hand())
    sampler = r.samplers[0]
    # item d1 taken twice, d2 not: a-b counts on d1 are matched 1, spans 3 + 3
    assert sampler.statistic(np.array([[2.0, 0.0]]))[0] == float(Fraction(2 * 2, 12))
    assert sampler.statistic(np.array([[0.0, 3.0]]))[0] == float(Fraction(2 * 3, 9))


def test_standard_error_is_the_jackknife_over_items() -> None:
    frame = random_spans(np.random.default_rng(1), n_items=8, raters=("a", "b", "c"))
    r = concord.span_agreement(frame, match="overlap")
    loo = []
    for item in r.spans.items:
        rest = frame[frame["item"] != item]
        loo.append(concord.span_agreement(rest, match="overlap").statistic)
    values = np.array(loo)
    n = values.size
    expected = np.sqrt((n - 1) / n * np.sum((values - values.mean()) ** 2))
    assert r.standard_error == pytest.approx(expected, rel=1e-12)


def test_lengths_add_items_no_one_annotated() -> None:
    r = concord.span_agreement(hand(), lengths={"d1": 30, "d2": 10, "d3": 4})
    assert r.n_items == 3 and r.statistic == float(Fraction(4, 9))
    assert np.isnan(r.by_item().loc["d3", "f1"])


@pytest.mark.parametrize(
    ("match", "error", "pattern"),
    [
        ("exakt", ValueError, r"'match' parameter of span_agreement must be 'exact'"),
        (0, ValueError, r"IoU threshold in \(0, 1\]"),
        (1.5, ValueError, r"IoU threshold in \(0, 1\]"),
        (True, TypeError, r"'match' parameter"),
        (None, TypeError, r"'match' parameter"),
    ],
)
def test_bad_match(match: Any, error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        concord.span_agreement(hand(), match=match)


def test_bad_by_and_one_rater() -> None:
    with pytest.raises(ValueError, match=r"'by' parameter"):
        concord.span_agreement(hand(), by="labels")
    with pytest.raises(ValueError, match=r"at least two raters.*only rater 'a'"):
        concord.span_agreement(hand(HAND[:4]))


def test_protocol_texts() -> None:
    r = concord.span_agreement(hand(), rng=0)
    assert r.summary().startswith("Span F1 (exact match, by label) was 0.44 (micro; macro 0.47)")
    assert "maximum bipartite matching" in r.explain()
    frame = r.to_frame()
    assert frame.coefficient.tolist()[:3] == [
        "span F1 (micro)",
        "span F1 (macro)",
        "span F1 of a pair",
    ]
    assert r.to_dict()["pairs"][0]["precision"] == 0.4
    assert "P 0.400" in str(r)


# --- the reference: a hand-written span-F1 loop, and seqeval ------------------------------


def random_spans(rng: np.random.Generator, n_items: int, raters: tuple[str, ...]) -> Any:
    """Spans with no overlap within a rater and label (labels may overlap each other)."""
    rows = []
    for i, r, label in itertools.product(range(n_items), raters, ("PER", "LOC", "ORG")):
        cuts = np.sort(rng.choice(60, size=2 * int(rng.integers(0, 4)), replace=False))
        for s, e in cuts.reshape(-1, 2):
            rows.append((f"doc{i}", r, int(s), int(e), label))
    return hand(rows)


def _kuhn(edges: dict[int, list[int]]) -> int:
    """Maximum bipartite matching by augmenting paths (Kuhn 1955)."""
    owner: dict[int, int] = {}

    def augment(u: int, seen: set[int]) -> bool:
        for v in edges.get(u, []):
            if v in seen:
                continue
            seen.add(v)
            if v not in owner or augment(owner[v], seen):
                owner[v] = u
                return True
        return False

    return sum(augment(u, set()) for u in edges)


def _matches(x: tuple[int, int], y: tuple[int, int], match: Any) -> bool:
    inter = min(x[1], y[1]) - max(x[0], y[0])
    if match == "exact":
        return x == y
    if match == "overlap":
        return inter > 0
    union = (x[1] - x[0]) + (y[1] - y[0]) - max(inter, 0)
    return inter > 0 and Fraction(inter, union) >= Fraction(str(match))


def reference(frame: Any, match: Any, by: str | None) -> tuple[Fraction, Fraction]:
    """Micro and macro span F1, mean over pairs, with a loop over items and labels."""
    rows = list(frame.itertuples(index=False))
    raters = list(dict.fromkeys(r.rater for r in rows))
    micro, macro = [], []
    for a, b in itertools.combinations(raters, 2):
        per_label: dict[Any, list[int]] = {}
        for item in {r.item for r in rows}:
            for label in {r.label for r in rows} if by else [None]:
                mine = [(r.start, r.end) for r in rows if r.item == item and r.rater == a
                        and (by is None or r.label == label)]  # fmt: skip
                theirs = [(r.start, r.end) for r in rows if r.item == item and r.rater == b
                          and (by is None or r.label == label)]  # fmt: skip
                edges = {i: [j for j, y in enumerate(theirs) if _matches(x, y, match)]
                         for i, x in enumerate(mine)}  # fmt: skip
                counts = per_label.setdefault(label, [0, 0, 0])
                counts[0] += _kuhn(edges)
                counts[1] += len(mine)
                counts[2] += len(theirs)
        m = sum(c[0] for c in per_label.values())
        t = sum(c[1] + c[2] for c in per_label.values())
        micro.append(Fraction(2 * m, t))
        used = [Fraction(2 * c[0], c[1] + c[2]) for c in per_label.values() if c[1] + c[2]]
        macro.append(sum(used, Fraction(0)) / len(used))
    return sum(micro, Fraction(0)) / len(micro), sum(macro, Fraction(0)) / len(macro)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    ("match", "by"),
    [("exact", "label"), ("overlap", "label"), (0.5, "label"), ("overlap", None), (0.3, None)],
)
def test_against_a_hand_written_loop(seed: int, match: Any, by: str | None) -> None:
    frame = random_spans(np.random.default_rng(seed), n_items=6, raters=("a", "b", "c"))
    r = concord.span_agreement(frame, match=match, by=by)
    micro, macro = reference(frame, match, by)
    assert r.statistic == float(micro)
    assert r.macro == float(macro)


def _iob2(spans: list[tuple[int, int, str]], length: int) -> list[str]:
    tags = ["O"] * length
    for s, e, label in spans:
        tags[s] = f"B-{label}"
        for k in range(s + 1, e):
            tags[k] = f"I-{label}"
    return tags


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_exact_match_against_seqeval(seed: int) -> None:
    """seqeval scores exact (type, start, end) chunks of IOB2 tags: span F1 with exact match."""
    seqeval = pytest.importorskip("seqeval.metrics")
    rng = np.random.default_rng(seed)
    rows, truth, predicted = [], [], []
    for i in range(20):
        per_rater = []
        for rater in ("gold", "model"):
            cuts = np.sort(
                rng.choice(np.arange(1, 40), size=2 * int(rng.integers(0, 5)), replace=False)
            )
            spans = [
                (int(s), int(e), str(rng.choice(["PER", "LOC", "ORG"])))
                for s, e in cuts.reshape(-1, 2)
            ]
            if rater == "model" and rng.random() < 0.5 and per_rater[0]:
                spans = [sp for sp in per_rater[0] if rng.random() < 0.7]  # close copies
                spans = [(s, e + int(rng.random() < 0.2), lab) for s, e, lab in spans]
            per_rater.append(spans)
            rows += [(f"doc{i}", rater, s, e, lab) for s, e, lab in spans]
        truth.append(_iob2(per_rater[0], 41))
        predicted.append(_iob2(per_rater[1], 41))
    r = concord.span_agreement(hand(rows))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval's zero-division warnings
        micro = seqeval.f1_score(truth, predicted, average="micro")
        macro = seqeval.f1_score(truth, predicted, average="macro")
        precision = seqeval.precision_score(truth, predicted)
        recall = seqeval.recall_score(truth, predicted)
    assert r.statistic == pytest.approx(micro, abs=1e-12)
    assert r.macro == pytest.approx(macro, abs=1e-12)
    pair = r.by_pair().iloc[0]  # gold the reference (rater1): seqeval's y_true
    assert pair.precision == pytest.approx(precision, abs=1e-12)
    assert pair.recall == pytest.approx(recall, abs=1e-12)


@pytest.mark.parametrize("match", ["exact", "overlap", 0.5])
def test_huge_offsets_give_the_same_counts(match: Any) -> None:
    # offsets near 2**61: the int64 keys item·width + offset would overflow; their ranks
    # keep every comparison, the IoU reads the offsets themselves
    frame = random_spans(np.random.default_rng(4), n_items=5, raters=("a", "b"))
    shifted = frame.assign(start=frame.start + 2**61, end=frame.end + 2**61)
    small = concord.span_agreement(frame, match=match)
    huge = concord.span_agreement(shifted, match=match)
    assert small.statistic == huge.statistic and small.macro == huge.macro


def test_repr_shows_the_values_without_float_noise() -> None:
    r = concord.span_agreement(hand(), rng=0)  # micro 4/9, macro 7/15
    assert repr(r) == (
        "SpanAgreementResult(statistic=0.444444, macro=0.466667, match='exact', by='label', "
        "n_items=2, raters=2)"
    )


def test_by_label_is_indexed_by_the_users_label_column() -> None:
    r = concord.span_agreement(hand().rename(columns={"label": "tag"}), label="tag")
    assert r.by_label().index.name == "tag"
    assert r.by_label().loc["ORG", "f1"] == 1.0
