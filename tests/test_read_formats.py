"""The doccano, brat and CoNLL readers: their long frames, and a one-line error for bad input.

The samples in tests/data/annotations/ (README-formats.md) were written for
these tests following each tool's documented format.
"""

from __future__ import annotations

import inspect
import json
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pd = pytest.importorskip("pandas")

from concord import krippendorff_alpha  # noqa: E402
from concord._readers import brat, conll, doccano  # noqa: E402

DATA = Path(__file__).parent / "data" / "annotations"


def rows(df: Any) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in df.itertuples(index=False)]


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


# -- doccano -----------------------------------------------------------------------------------

PER_USER = [
    (1, "ann", "pos"),
    (2, "ann", None),
    (3, "ann", "neg"),
    (4, "ann", "pos"),
    (5, "ann", "neg"),
    (6, "ann", "pos"),
    (1, "bob", "neg"),
    (2, "bob", "pos"),
    (3, "bob", "neg"),
    (4, "bob", "pos"),
    (5, "bob", "neg"),
    (6, "bob", "pos"),
]


def test_doccano_per_user_folder() -> None:
    df = doccano.read(DATA / "doccano_per_user")
    assert list(df.columns) == ["item", "rater", "label"]
    assert rows(df) == PER_USER
    assert df.attrs == {"format": "doccano", "skipped": {}}


def test_doccano_per_user_zip(tmp_path: Path) -> None:
    """doccano's export without collaborative annotation: a zip of USERNAME.jsonl."""
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in sorted((DATA / "doccano_per_user").glob("*.jsonl")):
            zf.write(file, file.name)
    assert rows(doccano.read(archive)) == PER_USER
    assert doccano.looks_like(archive)
    with (DATA / "doccano_per_user" / "ann.jsonl").open() as handle:  # one user, named
        assert rows(doccano.read({"ann": handle})) == PER_USER[:6]
    files = sorted((DATA / "doccano_per_user").glob("*.jsonl"))
    assert rows(doccano.read([str(f) for f in files])) == PER_USER


def alpha(df: Any) -> float:
    result = krippendorff_alpha(df, item="item", rater="rater", rating="label")
    return float(result.statistic)


def test_doccano_empty_label_is_missing_not_a_category() -> None:
    """The issue's trap: ``label: []`` counted as a category lowers α.

    Hand computation with Krippendorff's coincidence formula (Krippendorff 2011,
    "Computing Krippendorff's alpha-reliability", nominal δ):
    * [] missing: item 2 is not pairable; n = 10 values (5 pos, 5 neg), one
      disagreeing pair (item 1) → α = 1 − 9·2/(2·5·5) = 16/25 = 0.64;
    * [] a category: n = 12 (6 pos, 5 neg, 1 none), two disagreeing pairs →
      α = 1 − 11·4/(2·(6·5 + 6·1 + 5·1)) = 19/41 = 0.463.
    """
    missing = doccano.read(DATA / "doccano_per_user")
    assert alpha(missing) == pytest.approx(float(Fraction(16, 25)), abs=1e-12)
    category = doccano.read(DATA / "doccano_per_user", empty="category")
    labels = category["label"].tolist()
    assert frozenset() in labels and all(isinstance(v, frozenset) for v in labels)
    as_words = category.assign(label=[next(iter(s)) if s else "(none)" for s in labels])
    assert alpha(as_words) == pytest.approx(float(Fraction(19, 41)), abs=1e-12)


@pytest.mark.skipif(
    "empty" not in inspect.signature(krippendorff_alpha).parameters,
    reason="krippendorff_alpha(empty=) comes with the label-set work (issue 26, item 2)",
)
def test_doccano_empty_category_through_alpha() -> None:
    category = doccano.read(DATA / "doccano_per_user", empty="category")
    result = krippendorff_alpha(
        category, item="item", rater="rater", rating="label", empty="category"
    )
    assert float(result.statistic) == pytest.approx(float(Fraction(19, 41)), abs=1e-12)
    assert alpha(category) == pytest.approx(0.64, abs=1e-12)  # the empty set: missing


def test_doccano_collaborative_label_sets() -> None:
    """Several labels make a label set; every label is then a set, single ones too."""
    df = doccano.read(DATA / "doccano_collaborative.jsonl")
    assert rows(df) == [
        (10, "ann", frozenset({"econ", "pol"})),
        (10, "bob", frozenset({"econ"})),
        (11, "ann", frozenset({"sport"})),
        (11, "bob", frozenset({"sport"})),
        (12, "ann", frozenset({"health"})),
        (12, "bob", frozenset({"pol", "health"})),
    ]


def test_doccano_parsed_records_and_rater_key() -> None:
    records = [
        {"text": "a", "label": ["x"], "annotator": "p"},
        {"text": "b", "label": "y", "annotator": "p"},  # a single label as a string
        {"text": "a", "label": ["x"], "annotator": "q"},
    ]

    class Named(list):  # type: ignore[type-arg]  # parsed records keeping their file's name
        name = "/tmp/export.jsonl"

    with pytest.raises(ValueError, match=r"^Record 2 of export\.jsonl has no annotator"):
        doccano.read(Named([records[0], {"text": "c", "label": []}]))
    df = doccano.read(records)  # no id: the position in the file
    assert rows(df) == [(1, "p", "x"), (2, "p", "y"), (3, "q", "x")]
    renamed = [{**r, "who": r.pop("annotator")} for r in [dict(r) for r in records]]
    assert rows(doccano.read(renamed, rater="who")) == rows(df)


def test_doccano_spans_both_layouts() -> None:
    """``label: [[start, end, label]]`` and the ``entities`` dicts of the relation export."""
    df = doccano.read(
        {"ann": DATA / "doccano_spans_ann.jsonl", "bob": DATA / "doccano_spans_bob.jsonl"}
    )
    assert list(df.columns) == ["item", "rater", "start", "end", "label", "text"]
    got = [
        (r.item, r.rater, r.start, r.end, r.label, r.text[r.start : r.end])
        for r in df.itertuples()
    ]
    assert got == [
        (1, "ann", 0, 12, "PER", "Ada Lovelace"),
        (1, "ann", 17, 32, "PER", "Charles Babbage"),
        (1, "ann", 36, 42, "LOC", "London"),
        (2, "ann", 0, 5, "LOC", "Paris"),
        (1, "bob", 0, 12, "PER", "Ada Lovelace"),
        (1, "bob", 25, 32, "PER", "Babbage"),
        (2, "bob", 0, 5, "LOC", "Paris"),
        (2, "bob", 12, 18, "LOC", "France"),
    ]
    assert str(df["start"].dtype) == "int64"


def test_doccano_looks_like() -> None:
    assert doccano.looks_like({"id": 1, "text": "a", "label": []})
    assert doccano.looks_like({"id": 1, "text": "a", "entities": [], "relations": []})
    assert not doccano.looks_like({"text": "a", "label": "x", "_input_hash": 1})  # Prodigy
    assert not doccano.looks_like({"id": 1, "data": {"text": "a"}, "annotations": []})
    assert not doccano.looks_like(["not", "a", "record"])
    assert doccano.looks_like(DATA / "doccano_per_user")  # a folder of USERNAME.jsonl
    assert not doccano.looks_like(DATA / "brat_collection" / "alice")
    assert not doccano.looks_like(str(DATA / "doccano_collaborative.jsonl"))


@pytest.mark.parametrize(
    ("lines", "options", "message"),
    [
        (
            ['{"id": 1, "text": "a", "label": ["x"], "user": "u"}', '{"id": 2, "text": "b", "lab'],
            {},
            r"Line 2 of bad\.jsonl is not valid JSON \(.*, column \d+\)\. The file may be "
            r"truncated",
        ),
        (
            ['{"id": 1, "text": "a", "label": ["x"]}'],
            {},
            r"Line 1 of bad\.jsonl \(id 1\) has no annotator \(no 'user' or 'annotator' key\)\. "
            r"doccano's collaborative export merges",
        ),
        (
            ['{"id": 1, "text": "a", "label": ["x"], "user": "u"}'],
            {"rater": "annotator"},
            r"has no annotator \(no annotator key\)",
        ),
        (
            ['{"id": 4, "text": "abc", "label": [[1, 9, "X"]], "user": "u"}'],
            {},
            r"Line 1 of bad\.jsonl \(id 4\) has the span \[1, 9\) past the end of its text "
            r"\(3 characters\)",
        ),
        (
            ['{"id": 4, "text": "abc", "label": [[2, 2, "X"]], "user": "u"}'],
            {},
            r"\(id 4\) has the span \[2, 2\): a span needs 0 <= start < end",
        ),
        (
            ['{"id": 4, "text": "abc", "label": [[0, 1.5, "X"]], "user": "u"}'],
            {},
            r"has the end offset 1\.5, not a whole number",
        ),
        (
            ['{"id": 5, "text": "a", "label": ["x"], "user": "u"}'] * 2,
            {},
            r"Line 2 of bad\.jsonl \(id 5\) rates the item 5 for the rater 'u' again \(Line 1 of "
            r"bad\.jsonl \(id 5\) did\)",
        ),
        (
            [
                '{"id": 1, "text": "ab", "label": ["x"], "user": "u"}',
                '{"id": 2, "text": "ab", "label": [[0, 1, "X"]], "user": "u"}',
            ],
            {},
            r"Line 2 of bad\.jsonl \(id 2\) holds spans where Line 1 .* holds classes",
        ),
        (
            ['{"id": 4, "text": "abc", "label": [[0, 1, null]], "user": "u"}'],
            {},
            r"\(id 4\) has the span \[0, 1, None\] with no label",  # was a row with no label
        ),
        (['{"id": 1, "text": "a", "user": "u"}'], {}, r"has neither 'label' nor 'entities'"),
        (['"text"'], {}, r"Line 1 of bad\.jsonl is 'text', not a record"),
        (["[1, 2]"], {}, r"Record 1 of bad\.jsonl is 1, not a record"),  # a JSON list
    ],
)
def test_doccano_bad_input(
    tmp_path: Path, lines: list[str], options: dict[str, Any], message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        doccano.read(path, **options)
    assert "\n" not in str(info.value)


def test_doccano_bad_options(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="'empty' parameter of read_annotations"):
        doccano.read(DATA / "doccano_per_user", empty="none")
    with pytest.raises(ValueError, match=r"holds no \.jsonl file"):
        doccano.read(tmp_path)
    with pytest.raises(TypeError, match="'source' parameter"):
        doccano.read(42)


# -- brat --------------------------------------------------------------------------------------

BRAT = DATA / "brat_collection"


def spans(df: Any) -> list[tuple[Any, ...]]:
    return [
        (r.item, r.rater, r.start, r.end, r.label, r.text[r.start : r.end])
        for r in df.itertuples()
    ]


def test_brat_collection_one_folder_per_annotator() -> None:
    """Only T lines are spans; A, R, N and # lines are counted; offsets are code points."""
    df = brat.read(BRAT)
    assert list(df.columns) == ["item", "rater", "start", "end", "label", "text"]
    assert spans(df) == [
        ("doc1", "alice", 0, 12, "Person", "Ada Lovelace"),
        ("doc1", "alice", 17, 32, "Person", "Charles Babbage"),
        ("doc1", "alice", 36, 42, "Location", "London"),
        ("doc2", "alice", 2, 7, "Location", "North"),  # a discontinuous span's fragments
        ("doc2", "alice", 18, 25, "Location", "America"),
        ("doc2", "alice", 12, 25, "Location", "South America"),
        ("doc2", "alice", 31, 37, "Location", "Zürich"),  # after 🙂: one code point, not two
        ("doc1", "bob", 0, 12, "Person", "Ada Lovelace"),
        ("doc1", "bob", 25, 32, "Person", "Babbage"),
        ("doc1", "bob", 36, 42, "Location", "London"),
        ("doc2", "bob", 2, 25, "Location", "North and South America"),
        ("doc2", "bob", 31, 37, "Location", "Zürich"),
    ]
    assert df.attrs == {
        "format": "brat",
        "skipped": {
            "relations (R)": 1,
            "attributes (A)": 1,
            "notes (#)": 1,
            "normalizations (N)": 1,
        },
    }


def test_brat_discontinuous_options() -> None:
    hull = brat.read(BRAT / "alice", rater="alice", discontinuous="hull")
    assert ("doc2", "alice", 2, 25, "Location", "North and South America") in spans(hull)
    with pytest.raises(ValueError, match=r"doc2\.ann:1 is a discontinuous span of 2 fragments"):
        brat.read(BRAT / "alice", rater="alice", discontinuous="error")
    with pytest.raises(ValueError, match="'discontinuous' parameter"):
        brat.read(BRAT, discontinuous="split")


def test_brat_one_folder_or_file_with_a_rater() -> None:
    one = brat.read(BRAT / "bob", rater="bob")
    assert spans(one) == [s for s in spans(brat.read(BRAT)) if s[1] == "bob"]
    single = brat.read(BRAT / "bob" / "doc2.ann", rater="bob")
    assert [s[0] for s in spans(single)] == ["doc2", "doc2"]
    both = brat.read({"A": BRAT / "alice", "B": BRAT / "bob"})
    assert sorted(set(both["rater"])) == ["A", "B"]
    with pytest.raises(ValueError, match=r"'rater' parameter of read_annotations must be the"):
        brat.read(BRAT / "bob")
    with pytest.raises(ValueError, match=r"'rater' parameter .* must be None for a collection"):
        brat.read(BRAT, rater="x")


def test_brat_folders(tmp_path: Path) -> None:
    """Hidden sub-folders are no annotators; a folder without .ann files is an error."""
    with pytest.raises(ValueError, match=r"holds no \.ann file"):
        brat.read(tmp_path)
    with pytest.raises(ValueError, match="is not a brat folder"):
        brat.read(tmp_path / "missing")
    with pytest.raises(TypeError, match="'source' parameter"):
        brat.read(3)
    hidden = tmp_path / ".ipynb_checkpoints"
    hidden.mkdir()
    (hidden / "d.ann").write_text("T1\tX 0 1\ta\n", encoding="utf-8")
    (hidden / "d.txt").write_text("a", encoding="utf-8")
    with pytest.raises(ValueError, match=r"holds no \.ann file"):
        brat.read(tmp_path)
    assert not brat.looks_like(tmp_path)


def test_brat_looks_like(tmp_path: Path) -> None:
    assert brat.looks_like(BRAT) and brat.looks_like(BRAT / "bob")
    assert brat.looks_like(BRAT / "bob" / "doc1.ann")
    assert not brat.looks_like(tmp_path) and not brat.looks_like(
        DATA / "doccano_collaborative.jsonl"
    )
    assert not brat.looks_like({"text": "a"})


def brat_doc(tmp_path: Path, text: str | None, ann: str) -> Path:
    folder = tmp_path / "x"
    folder.mkdir()
    if text is not None:
        (folder / "d.txt").write_text(text, encoding="utf-8", newline="")
    (folder / "d.ann").write_text(ann, encoding="utf-8", newline="")
    return folder


@pytest.mark.parametrize(
    ("text", "ann", "message"),
    [
        (None, "T1\tX 0 1\ta\n", r"x/d\.ann has no d\.txt beside it\. brat's offsets count"),
        ("abc", "T1\tX 1 9\tbc\n", r"d\.ann:1 has the span \[1, 9\) past the end of its text \(3"),
        ("abc", "#1\tnote\nT1\tX 2 1\tb\n", r"d\.ann:2 has the span \[2, 1\): a span needs"),
        (
            "abc",
            "T1\tX 0 2\tbc\n",
            r"d\.ann:1 has the text 'bc' where its \.txt holds 'ab' at those offsets\. The "
            r"offsets count Unicode characters",
        ),
        ("abc", "T1\tX 0 a\ta\n", r"d\.ann:1 has the offsets '0 a', not 'START END'"),
        ("abc", "T1\tX\ta\n", r"d\.ann:1 is not a text-bound annotation"),
        ("abc", "Q1\tX 0 1\ta\n", r"d\.ann:1 is not a brat annotation line"),
    ],
)
def test_brat_bad_input(tmp_path: Path, text: str | None, ann: str, message: str) -> None:
    folder = brat_doc(tmp_path, text, ann)
    with pytest.raises(ValueError, match=message) as info:
        brat.read(folder, rater="r")
    assert "\n" not in str(info.value)


def test_brat_windows_line_ends_count_two(tmp_path: Path) -> None:
    """The .txt is read as it is: brat's offsets count both characters of \\r\\n."""
    folder = brat_doc(tmp_path, "ab\r\ncd", "T1\tX 4 6\tcd\r\n")
    assert spans(brat.read(folder, rater="r")) == [("d", "r", 4, 6, "X", "cd")]


# -- CoNLL -------------------------------------------------------------------------------------

CONLL = DATA / "conll_two_annotators.conll"


def chunks(df: Any) -> list[tuple[Any, ...]]:
    got = []
    for r in df.itertuples():
        words = r.text.replace("\n", " ").split(" ")
        assert r.text[r.start : r.end] == " ".join(words[r.token_start : r.token_end])
        got.append((r.item, r.rater, r.start, r.end, r.label, r.text[r.start : r.end]))
    return got


def test_conll_one_column_per_annotator() -> None:
    """CoNLL-2003 columns; the IOB1 column and the IOB2 column give the same chunks."""
    df = conll.read(CONLL, raters=["ann", "bob"])
    assert list(df.columns) == [
        "item", "rater", "start", "end", "label", "text", "token_start", "token_end",
    ]  # fmt: skip
    got = chunks(df)
    doc1 = [
        (1, 0, 2, "ORG", "EU"),
        (1, 11, 17, "MISC", "German"),
        (1, 34, 41, "MISC", "British"),
        (1, 49, 64, "PER", "Peter Blackburn"),  # the second sentence, after a newline
    ]
    assert [g[:1] + g[2:] for g in got if g[1] == "ann" and g[0] == 1] == doc1
    assert [g[:1] + g[2:] for g in got if g[1] == "bob" and g[0] == 1] == doc1
    # IOB1's B- separates adjacent chunks of one type; bob's I-LOC continues London
    assert [g[4:] for g in got if g[0] == 2] == [
        ("PER", "Ada Lovelace"), ("LOC", "Paris"), ("LOC", "London"), ("LOC", "Berlin"),
        ("PER", "Ada Lovelace"), ("LOC", "Paris"), ("LOC", "London Berlin"),
    ]  # fmt: skip
    assert df["text"].iloc[0] == (
        "EU rejects German call to boycott British lamb .\nPeter Blackburn"
    )
    assert df.attrs == {"format": "conll", "skipped": {}}


def conll_file(tmp_path: Path, text: str, name: str = "x.conll") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_conll_chunks_as_conlleval_counts_them(tmp_path: Path) -> None:
    """conlleval.pl's own counts on 300 random cases (tests/reference/conlleval)."""
    reference = Path(__file__).parent / "reference" / "conlleval" / "conlleval_counts.json"
    cases = json.loads(reference.read_text(encoding="utf-8"))
    for n, case in enumerate(cases):
        text = "\n\n".join("\n".join(" ".join(r) for r in s) for s in case["sentences"])
        df = conll.read(conll_file(tmp_path, text + "\n"), raters=["gold", "guess"])
        found = {
            who: {(r.item, r.token_start, r.token_end, r.label) for r in part.itertuples()}
            for who, part in df.groupby("rater")
        }
        gold, guess = found.get("gold", set()), found.get("guess", set())
        counts = (len(gold), len(guess), len(gold & guess))
        assert counts == (case["gold"], case["guess"], case["correct"]), n


def test_conll_schemes(tmp_path: Path) -> None:
    """Strict IOB1 refuses B- after O; strict IOB2 refuses a chunk begun with I-."""
    assert len(conll.read(CONLL, raters={"ann": 4}, scheme="iob1")) == 8
    assert len(conll.read(CONLL, raters=["bob"], scheme="iob2")) == 7  # the last column
    with pytest.raises(ValueError, match="column numbers from 2 to 5"):
        conll.read(CONLL, raters={"ann": 1})
    with pytest.raises(ValueError, match=r"conll_two_annotators\.conll:3 has 'B-ORG' after O"):
        conll.read(CONLL, raters=["ann", "bob"], scheme="iob1")
    with pytest.raises(ValueError, match=r"\.conll:3 begins a chunk with 'I-ORG': IOB2 begins"):
        conll.read(CONLL, raters=["ann", "bob"], scheme="iob2")
    mixed = conll_file(tmp_path, "a B-X\nb I-Y\nc B-Y\nd B-Y\ne I-X\n")
    got = [(r.token_start, r.token_end, r.label) for r in conll.read(mixed).itertuples()]
    assert got == [(0, 1, "X"), (1, 2, "Y"), (2, 3, "Y"), (3, 4, "Y"), (4, 5, "X")]
    with pytest.raises(ValueError, match="'scheme' parameter"):
        conll.read(mixed, scheme="bio")


def test_conll_one_file_per_annotator() -> None:
    """Without -DOCSTART- each sentence is an item; the files name the raters."""
    files = {"alice": DATA / "conll_alice.conll", "bob": DATA / "conll_bob.conll"}
    got = [g[:2] + g[4:] for g in chunks(conll.read(files))]
    assert got == [
        (1, "alice", "PER", "Ada Lovelace"),
        (2, "alice", "PER", "Babbage"),
        (2, "alice", "LOC", "London"),
        (1, "bob", "PER", "Ada"),
        (2, "bob", "PER", "Babbage"),
        (2, "bob", "ORG", "London"),
    ]
    listed = conll.read([str(files["alice"]), files["bob"]])
    assert sorted(set(listed["rater"])) == ["conll_alice", "conll_bob"]
    with (DATA / "conll_alice.conll").open(encoding="utf-8") as handle:
        assert len(conll.read(handle)) == 3  # one open file: its one tag column
    with pytest.raises(ValueError, match="'raters' parameter"):
        conll.read(files, raters=["a", "b"])


def test_conll_looks_like() -> None:
    assert conll.looks_like(["-DOCSTART- -X- O", "", "EU B-ORG"])
    assert conll.looks_like(["EU NNP I-ORG", "rejects VBZ O"])
    assert not conll.looks_like(['{"id": 1, "text": "a"}'])
    assert not conll.looks_like(["a plain sentence"]) and not conll.looks_like([])


@pytest.mark.parametrize(
    ("texts", "options", "message"),
    [
        (["a B-X\nb I-X O\n"], {}, r"x0\.conll:2 has 3 columns where line 1 has 2\. Every token"),
        (["EU NNP B-X\n"], {}, r"x0\.conll:1 has 'NNP' in column 2, not an IOB tag\. IOB tags"),
        (["a X\n"], {}, r"x0\.conll:1 has 'X' in column 2, not an IOB tag"),
        (["a B-\n"], {}, r"has 'B-' in column 2, not an IOB tag"),
        (["a O\n"], {"raters": ["p", "q"]}, r"'raters' parameter .* must be 1 to 1 names"),
        (
            ["a O\nb O\n\nc O\n", "a O\nb O\nc O\n\nd O\n"],
            {},
            r"x1\.conll:1 starts sentence 1 of item 1, of 3 tokens where x0\.conll:1 starts "
            r"it with 2\. The annotators' files must hold the same tokens",
        ),
        (
            ["a O\nb O\n", "a O\nc O\n"],
            {},
            r"x1\.conll:2 has the token 'c' where x0\.conll:2 has 'b'",
        ),
        (["a O\n\nb O\n", "a O\n"], {}, r"x1\.conll has 1 items where x0\.conll has 2"),
        (
            ["-DOCSTART- O\n\na O\n\nb O\n", "-DOCSTART- O\n\na O\nb O\n"],
            {},
            r"x1\.conll has 1 sentences in item 1 where x0\.conll has 2",
        ),
    ],
)
def test_conll_bad_input(
    tmp_path: Path, texts: list[str], options: dict[str, Any], message: str
) -> None:
    paths = [conll_file(tmp_path, t, f"x{k}.conll") for k, t in enumerate(texts)]
    source: Any = paths[0] if len(paths) == 1 else paths
    with pytest.raises(ValueError, match=message) as info:
        conll.read(source, **options)
    assert "\n" not in str(info.value)


def test_conll_files_without_tags_or_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"x\.conll:1 has one column, no tag column"):
        conll.read(conll_file(tmp_path, "Ada\nLovelace\n"))
    with pytest.raises(ValueError, match="holds no token line"):
        conll.read(conll_file(tmp_path, "-DOCSTART- O\n\n"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    same = [conll_file(tmp_path / d, "w O\n") for d in ("a", "b")]
    with pytest.raises(ValueError, match="files of distinct names"):
        conll.read(same)


def test_doccano_more_layouts(tmp_path: Path) -> None:
    """A JSON list, a zip of the collaborative all.jsonl, and per-user files of one name."""
    records = [{"id": 3, "text": "t", "label": ["x"], "user": "u"}]
    listed = tmp_path / "export.json"
    listed.write_text(json.dumps(records), encoding="utf-8")
    assert rows(doccano.read(listed)) == [(3, "u", "x")]
    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("all.jsonl", json.dumps(records[0]) + "\n")
    assert rows(doccano.read(archive)) == [(3, "u", "x")]  # all.jsonl: the user key
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    same = [write_jsonl(tmp_path / d / "ann.jsonl", records) for d in ("a", "b")]
    with pytest.raises(ValueError, match="per-user files of distinct names"):
        doccano.read(same)
    with pytest.raises(ValueError, match=r"Line 2 of export\.json is not valid JSON"):
        listed.write_text('[{"id": 1,\n', encoding="utf-8")
        doccano.read(listed)


def test_line_breaks_inside_tokens_and_texts(tmp_path: Path) -> None:
    """Only \\n ends a line: U+2028 inside a JSON string, a no-break space inside a token."""
    text = "a\u2028b"
    path = tmp_path / "u.jsonl"
    path.write_text(
        json.dumps(
            {"id": 1, "text": text, "label": [[0, 3, "X"]], "user": "u"}, ensure_ascii=False
        )
        + "\n",
        encoding="utf-8",
    )
    assert rows(doccano.read(path)) == [(1, "u", 0, 3, "X", text)]
    tokens = conll_file(tmp_path, "New\u00a0York B-LOC\r\nis O\r\n")
    assert chunks(conll.read(tokens)) == [(1, "column 2", 0, 8, "LOC", "New\u00a0York")]


# -- through concord.read_annotations (the dispatcher, written beside these readers) -----------


def test_through_read_annotations() -> None:
    """The public entry point reaches these readers, by name and by detection."""
    import concord

    read_annotations = getattr(concord, "read_annotations", None)
    if read_annotations is None:
        pytest.skip("concord.read_annotations comes with the readers' dispatcher (issue 26)")
    by_name = read_annotations(DATA / "doccano_per_user", format="doccano")
    assert rows(by_name) == PER_USER
    cases = [
        (DATA / "doccano_collaborative.jsonl", "doccano", {}),
        (BRAT, "brat", {}),
        (CONLL, "conll", {"raters": ["ann", "bob"]}),
    ]
    for path, fmt, options in cases:
        with pytest.warns(UserWarning, match=fmt):
            detected = read_annotations(path, **options)
        assert detected.attrs["format"] == fmt
