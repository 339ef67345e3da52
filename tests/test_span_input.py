"""The shared span input (concord._data.spans.read_spans): forms, policies, bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from concord._data.spans import SpanTable, read_spans

pd = pytest.importorskip("pandas")

ROWS = {
    "item": ["d1", "d1", "d2", "d1"],
    "rater": ["a", "b", "a", "b"],
    "start": [0, 5, 1, 0],
    "end": [5, 9, 3, 4],
    "label": ["PER", "PER", "LOC", "ORG"],
}


def frame(**changes: list[object]) -> Any:
    return pd.DataFrame({**ROWS, **changes})


def read(spans: object, **options: object) -> SpanTable:
    return read_spans(spans, func="span_agreement", **options)  # type: ignore[arg-type]


def same(a: SpanTable, b: SpanTable) -> None:
    assert (a.items, a.raters, a.labels) == (b.items, b.raters, b.labels)
    for key in ("item", "rater", "start", "end", "label"):
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key))
        assert getattr(a, key).dtype == np.int64


def test_codes_offsets_and_first_appearance_order() -> None:
    t = read(frame())
    assert t.items == ["d1", "d2"]
    assert t.raters == ["a", "b"]
    assert t.labels == ["PER", "LOC", "ORG"]
    assert t.item.tolist() == [0, 0, 1, 0]
    assert t.rater.tolist() == [0, 1, 0, 1]
    assert t.label.tolist() == [0, 0, 1, 2]
    assert t.start.tolist() == [0, 5, 1, 0]
    assert t.end.tolist() == [5, 9, 3, 4]
    assert t.lengths is None and t.texts is None
    assert t.names == dict(item="item", rater="rater", start="start", end="end", label="label")
    assert t.n_spans == 4


def test_a_dict_of_columns_and_polars_read_as_pandas() -> None:
    same(read(dict(ROWS)), read(frame()))
    pl = pytest.importorskip("polars")
    pytest.importorskip("narwhals")
    same(read(pl.DataFrame(ROWS)), read(frame()))


def test_pyarrow_table_reads_as_pandas() -> None:
    pa = pytest.importorskip("pyarrow")
    same(read(pa.table(ROWS)), read(frame()))


def test_column_names_are_overridable_and_kept() -> None:
    renamed = frame().rename(
        columns={"item": "doc", "rater": "who", "start": "s", "end": "e", "label": "tag"}
    )
    t = read(renamed, item="doc", rater="who", start="s", end="e", label="tag")
    same(t, read(frame()))
    assert t.names == dict(item="doc", rater="who", start="s", end="e", label="tag")


def test_lengths_keep_items_no_one_annotated_after_the_tables() -> None:
    # documented: an item of lengths= with no spans is one on which every rater said nothing
    t = read(frame(), lengths={"d3": 7, "d1": 10, "d2": 4})
    assert t.items == ["d1", "d2", "d3"]
    assert t.lengths is not None and t.lengths.tolist() == [10, 4, 7]
    assert t.lengths.dtype == np.int64
    assert t.item.max() == 1  # no span on d3


def test_lengths_as_a_pandas_series() -> None:
    t = read(frame(), lengths=pd.Series({"d1": 10, "d2": 4}))
    assert t.lengths is not None and t.lengths.tolist() == [10, 4]


def test_text_column_gives_lengths_and_texts() -> None:
    # read_annotations' output: the document's text on each of its rows
    texts = ["Anna met Bo.", "Anna met Bo.", "Oslo", "Anna met Bo."]
    t = read(frame(text=texts))
    assert t.lengths is not None and t.lengths.tolist() == [12, 4]
    assert t.texts == ["Anna met Bo.", "Oslo"]
    # lengths= wins over the text
    t = read(frame(text=texts), lengths={"d1": 20, "d2": 4, "d3": 5})
    assert t.lengths is not None and t.lengths.tolist() == [20, 4, 5]
    assert t.texts == ["Anna met Bo.", "Oslo", None]


def test_text_counts_code_points() -> None:
    t = read(frame(text=["Zoë ☃ ok.", None, "Ωmega", "Zoë ☃ ok."]))
    assert t.lengths is not None and t.lengths.tolist() == [9, 5]


def test_a_rater_with_no_spans_on_an_item_is_kept() -> None:
    # documented: rater b has no span on d2 and still annotated it (nothing there)
    t = read(frame(), lengths={"d1": 10, "d2": 4})
    assert t.raters == ["a", "b"]
    assert not ((t.rater == 1) & (t.item == 1)).any()


def test_touching_spans_and_overlaps_of_different_labels_are_accepted() -> None:
    t = read(frame(rater=["a", "a", "a", "a"], start=[0, 5, 1, 2], end=[5, 9, 3, 6]))
    assert t.n_spans == 4  # [0, 5) and [5, 9) touch; [2, 6) ORG overlaps PER spans


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (
            dict(start=[5, 5, 1, 0]),
            r"'end' parameter of span_agreement must be greater than start.*"
            r"Got start 5 and end 5 at row 0",
        ),
        (
            dict(start=[0, 9, 1, 0]),
            r"Got start 9 and end 9 at row 1",
        ),
        (
            dict(start=[0, 5, 1, -1]),
            r"'start' parameter .* 0 or more .*Got start -1 at row 3",
        ),
        (
            dict(start=[0, 5, 1.5, 0]),
            r"'start' parameter .*whole-number .*Got 1\.5 at row 2",
        ),
        (
            dict(end=[5, None, 3, 4]),
            r"'end' parameter .*Got no offset at row 1",
        ),
        (
            dict(rater=["a", None, "a", "b"]),
            r"'rater' parameter .*Got no rater at row 1",
        ),
        (
            dict(label=["PER", "per", "LOC", "ORG"]),
            r"'label' parameter .*differ in more than case .*Got both 'PER' and 'per'.*"
            r"str\.upper\(\)",
        ),
        (
            dict(start=["0", "5", "1", "0"]),
            r"'start' parameter .*whole-number character offsets",
        ),
    ],
)
def test_bad_rows_are_named(change: dict[str, list[object]], pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        read(frame(**change))


def test_overlapping_spans_of_one_rater_and_label_are_refused_naming_both_rows() -> None:
    spans = frame(item=["d1"] * 4, rater=["b", "b", "a", "b"], label=["X", "X", "X", "Y"])
    spans["start"], spans["end"] = [2, 0, 2, 0], [6, 3, 6, 9]
    with pytest.raises(ValueError, match=r"\[2, 6\) at row 0 and \[0, 3\) at row 1, both 'X' "):
        read(spans)


def test_an_exact_duplicate_is_refused() -> None:
    spans = frame(item=["d1"] * 4, rater=["a"] * 4, label=["X", "Y", "Z", "X"])
    spans["start"], spans["end"] = [0, 0, 0, 0], [5, 5, 5, 5]
    with pytest.raises(ValueError, match=r"\[0, 5\) at row 0 and \[0, 5\) at row 3.*Merge"):
        read(spans)


def test_index_labels_are_named() -> None:
    spans = frame(end=[5, 9, 3, 40]).set_index(pd.Index(list("wxyz")))
    with pytest.raises(ValueError, match=r"end 40 at row 3 \(index label 'z'\), item 'd1'"):
        read(spans, lengths={"d1": 10, "d2": 4})


def test_end_beyond_the_text() -> None:
    with pytest.raises(ValueError, match=r"at most the item's length.*end 9 at row 1"):
        read(frame(text=["abcdefgh", "abcdefgh", "abcd", "abcdefgh"]))


def test_lengths_must_cover_the_tables_items() -> None:
    with pytest.raises(ValueError, match=r"'lengths' .*Got no length for item 'd2'"):
        read(frame(), lengths={"d1": 10})
    with pytest.raises(ValueError, match=r"'lengths' .*Got -3 for item 'd2'"):
        read(frame(), lengths={"d1": 10, "d2": -3})
    with pytest.raises(TypeError, match=r"'lengths' .*mapping"):
        read(frame(), lengths=[10, 4])


def test_need_lengths() -> None:
    with pytest.raises(ValueError, match=r"'lengths' .*Got None instead"):
        read(frame(), need_lengths=True)
    with pytest.raises(ValueError, match=r"item 'd2' has no text"):
        read(frame(text=["abcdefghij", None, None, None]), need_lengths=True)
    t = read(frame(), need_lengths=True, lengths={"d1": 10, "d2": 4})
    assert t.lengths is not None


def test_two_texts_for_one_item() -> None:
    with pytest.raises(ValueError, match=r"one text per item.*item 'd1' at row 3"):
        read(frame(text=["abcdefghij", None, "abcd", "klmnopqrst"]))


def test_not_a_table_and_missing_columns() -> None:
    with pytest.raises(TypeError, match=r"'spans' parameter .*one row per span.*Got a list"):
        read([("d1", "a", 0, 5, "PER")])
    with pytest.raises(ValueError, match=r"'label' parameter .*Got 'tag'"):
        read(frame(), label="tag")
    with pytest.raises(ValueError, match=r"'label' parameter .*not the rater column"):
        read(frame(), label="rater")


def test_polars_text_column() -> None:
    pl = pytest.importorskip("polars")
    pytest.importorskip("narwhals")
    texts = ["Anna met Bo.", None, "Oslo", "Anna met Bo."]
    t = read(pl.DataFrame({**ROWS, "text": texts}))
    assert t.texts == ["Anna met Bo.", "Oslo"]
    assert t.lengths is not None and t.lengths.tolist() == [12, 4]


def test_text_offsets_are_shown_as_values_not_a_numpy_dtype() -> None:
    """The message said "Got a column of <U1"; it now shows a value and the conversion."""
    message = r"Got values such as '0' \(str\) at row 0.*astype\(int\)"
    with pytest.raises(ValueError, match=message):
        read(frame(start=["0", "5", "1", "0"]))
    categorical = pd.Categorical(["0", "5", "1", "0"])
    with pytest.raises(ValueError, match=r"Got values such as '0' \(str\) at row 0"):
        read(frame(start=categorical))


def test_an_empty_mapping_of_columns_reads_as_no_spans() -> None:
    """Empty lists are object columns: they failed as offsets "of object" instead."""
    t = read({key: [] for key in ROWS})
    assert t.n_spans == 0 and t.start.dtype == np.int64


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_nan_or_infinite_length_is_named(bad: float) -> None:
    """A NaN length failed inside int() with "cannot convert float NaN to integer"."""
    with pytest.raises(ValueError, match=r"'lengths' parameter .*whole numbers.*for item 'd1'"):
        read(frame(), lengths={"d1": bad, "d2": 4})
