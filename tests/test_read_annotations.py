"""concord.read_annotations: Label Studio, Prodigy and Argilla exports, detection, bad input.

The samples in tests/data/annotations/ were written for these tests following each
tool's documented export (tests/data/annotations/README.md); every expected value
below is read off those files by hand.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest

import concord
from concord._readers import read as dispatch

pd = pytest.importorskip("pandas")

DATA = Path(__file__).parent / "data" / "annotations"
LS = DATA / "label_studio.json"


def _read(source, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return concord.read_annotations(source, **options)


def _tasks():
    return json.loads(LS.read_text(encoding="utf-8"))


# --- Label Studio ----------------------------------------------------------------------------


def test_label_studio_choices_long_table_and_cancelled_count():
    df = concord.read_annotations(LS, format="label-studio")
    assert list(df.columns) == ["item", "rater", "label"]
    assert len(df) == 17  # 6 tasks x 3 annotators, one annotation cancelled
    assert df.attrs == {"format": "label-studio", "skipped": {"cancelled": 1}}
    # task 3 in the file: alice and bob neutral, carol positive
    three = df[df["item"] == 3].set_index("rater")["label"].to_dict()
    assert three == {
        "alice@example.com": "neutral",
        "bob@example.com": "neutral",
        "carol@example.com": "positive",
    }
    # the predictions (all "positive") are never read: task 2 is negative x 3
    assert set(df[df["item"] == 2]["label"]) == {"negative"}


def test_label_studio_alpha_matches_the_hand_pivoted_table():
    df = concord.read_annotations(LS, format="label-studio")
    wide = df.pivot(index="item", columns="rater", values="label")
    by_hand = pd.DataFrame(
        {
            "a": ["positive", "negative", "neutral", "positive", "negative", "neutral"],
            "b": ["positive", "negative", "neutral", "positive", "neutral", "negative"],
            "c": ["positive", "negative", "positive", "positive", "negative", None],
        }
    )
    assert concord.krippendorff_alpha(wide).statistic == pytest.approx(
        concord.krippendorff_alpha(by_hand).statistic, abs=1e-15
    )


def test_label_studio_several_controls_need_from_name():
    path = DATA / "label_studio_topics.json"
    with pytest.raises(ValueError, match=r"several controls: 'sentiment' \(choices\), 'topics'"):
        concord.read_annotations(path, format="label-studio")
    topics = concord.read_annotations(path, format="label-studio", from_name="topics")
    # a multi-choice control: every label is a frozenset, even one choice
    assert all(isinstance(v, frozenset) for v in topics["label"])
    first = topics[topics["item"] == 1].set_index("rater")["label"].to_dict()
    assert first == {1: {"service"}, 2: {"service"}, 3: {"service", "food"}}
    sentiment = concord.read_annotations(path, format="label-studio", from_name="sentiment")
    assert set(map(type, sentiment["label"])) == {str}
    with pytest.raises(ValueError, match=r"no control 'topic' .*Controls: 'sentiment'"):
        concord.read_annotations(path, format="label-studio", from_name="topic")


def test_label_studio_spans_offsets_and_text():
    df = concord.read_annotations(DATA / "label_studio_spans.json", format="label-studio")
    assert list(df.columns) == ["item", "rater", "label", "start", "end", "text"]
    carol = df[(df["item"] == 1) & (df["rater"] == 3)]
    assert list(zip(carol["start"], carol["end"], carol["label"], strict=True)) == [
        (0, 12, "PER"),
        (25, 32, "PER"),
    ]
    row = df.iloc[0]
    assert row["text"][row["start"] : row["end"]] == "Ada Lovelace"  # end exclusive


def test_label_studio_rating_and_taxonomy():
    tasks = [
        {
            "id": 7,
            "data": {"text": "x"},
            "annotations": [
                {
                    "completed_by": 1,
                    "result": [
                        {"from_name": "stars", "type": "rating", "value": {"rating": 4}},
                        {
                            "from_name": "tax",
                            "type": "taxonomy",
                            "value": {"taxonomy": [["Food", "Soup"]]},
                        },
                    ],
                },
                {
                    "completed_by": 2,
                    "result": [
                        {"from_name": "stars", "type": "rating", "value": {"rating": 5}},
                        {
                            "from_name": "tax",
                            "type": "taxonomy",
                            "value": {"taxonomy": [["Food", "Soup"], ["Service"]]},
                        },
                    ],
                },
            ],
        }
    ]
    stars = concord.read_annotations(tasks, format="label-studio", from_name="stars")
    assert stars["label"].tolist() == [4, 5]
    tax = concord.read_annotations(tasks, format="label-studio", from_name="tax")
    assert tax["label"].tolist() == [
        frozenset({"Food / Soup"}),
        frozenset({"Food / Soup", "Service"}),
    ]


def test_label_studio_nothing_chosen_is_a_missing_label_not_a_set():
    tasks = _tasks()
    tasks[0]["annotations"][0]["result"][0]["value"]["choices"] = []
    df = concord.read_annotations(tasks, format="label-studio")
    assert pd.isna(df["label"].iloc[0]) and set(map(type, df["label"].iloc[1:])) == {str}
    topics = json.loads((DATA / "label_studio_topics.json").read_text(encoding="utf-8"))
    topics[0]["annotations"][0]["result"][1]["value"]["choices"] = []
    sets = concord.read_annotations(topics, format="label-studio", from_name="topics")
    assert sets["label"].iloc[0] == frozenset() and sets["label"].iloc[1] == {"service"}


def test_label_studio_annotation_without_result_is_counted():
    tasks = _tasks()
    tasks[0]["annotations"][0]["result"] = []
    df = concord.read_annotations(tasks, format="label-studio")
    assert df.attrs["skipped"] == {"cancelled": 1, "without a result": 1}
    assert len(df) == 16


def test_label_studio_user_object_without_email_uses_its_id():
    tasks = _tasks()
    for task in tasks:
        for a in task["annotations"]:
            a["completed_by"] = {"id": a["completed_by"]["id"]}
    df = concord.read_annotations(tasks, format="label-studio")
    assert set(df["rater"]) == {1, 2, 3}


# --- Label Studio: bad input, one line each --------------------------------------------------


def test_truncated_json_names_line_and_column(tmp_path):
    text = LS.read_text(encoding="utf-8")
    cut = tmp_path / "export.json"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"export.json is not valid JSON: record \d+ breaks at line \d+, col"
    ):
        concord.read_annotations(cut, format="label-studio")
    with pytest.raises(ValueError) as caught:
        _read(cut)  # detection, then the reader
    assert "\n" not in str(caught.value) and "export it again" in str(caught.value)


def test_truncated_jsonl_names_its_line(tmp_path):
    lines = (DATA / "prodigy_choice.jsonl").read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "db.jsonl"
    cut.write_text("\n".join([*lines[:3], lines[3][:40]]), encoding="utf-8")
    with pytest.raises(ValueError, match=r"db.jsonl: line 4 is not valid JSON"):
        concord.read_annotations(cut, format="prodigy")


def test_annotation_without_annotator():
    tasks = _tasks()
    del tasks[1]["annotations"][2]["completed_by"]
    with pytest.raises(ValueError, match=r"record 2 \(id 2\), annotation 3 has no annotator"):
        concord.read_annotations(tasks, format="label-studio")


def test_label_outside_declared_choices():
    tasks = _tasks()
    tasks[4]["annotations"][1]["result"][0]["value"]["choices"] = ["neutrall"]
    declared = ["positive", "neutral", "negative"]
    with pytest.raises(ValueError, match=r"record 5 \(id 5\), annotation 2: the label 'neutrall'"):
        concord.read_annotations(tasks, format="label-studio", choices=declared)
    tasks[4]["annotations"][1]["result"][0]["value"]["choices"] = ["neutral"]
    assert len(concord.read_annotations(tasks, format="label-studio", choices=declared)) == 17


def test_span_past_the_text():
    tasks = json.loads((DATA / "label_studio_spans.json").read_text(encoding="utf-8"))
    tasks[1]["annotations"][0]["result"][1]["value"]["end"] = 40
    with pytest.raises(ValueError, match=r"record 2 \(id 2\), annotation 1: the span \[12, 40\) "):
        concord.read_annotations(tasks, format="label-studio")


@pytest.mark.parametrize("labels", [[None], [], [""]])
def test_span_without_a_label_names_its_record(labels):
    """A region labelled [None] was read as a span with no label (refused later by row of the
    table, not by record of the export); an empty list was dropped without a word."""
    tasks = json.loads((DATA / "label_studio_spans.json").read_text(encoding="utf-8"))
    tasks[1]["annotations"][0]["result"][1]["value"]["labels"] = labels
    with pytest.raises(ValueError, match=r"record 2 \(id 2\), annotation 1: the span \[12, "):
        concord.read_annotations(tasks, format="label-studio")


def test_same_annotator_twice_on_a_task():
    tasks = _tasks()
    tasks[2]["annotations"].append(tasks[2]["annotations"][0])
    with pytest.raises(ValueError, match=r"record 3 \(id 3\), annotation 4: annotator 'alice@"):
        concord.read_annotations(tasks, format="label-studio")
    spans = json.loads((DATA / "label_studio_spans.json").read_text(encoding="utf-8"))
    spans[0]["annotations"].append(spans[0]["annotations"][1])
    with pytest.raises(ValueError, match="a second time on this task"):
        concord.read_annotations(spans, format="label-studio")


def test_task_without_id_and_record_not_an_object():
    tasks = _tasks()
    del tasks[3]["id"]
    with pytest.raises(ValueError, match=r"record 4 has no 'id'"):
        concord.read_annotations(tasks, format="label-studio")
    with pytest.raises(ValueError, match=r"record 2 is a str, not an object"):
        concord.read_annotations([_tasks()[0], "oops"], format="label-studio")


# --- Prodigy ---------------------------------------------------------------------------------


def test_prodigy_choice_accept_only_and_counts():
    df = concord.read_annotations(DATA / "prodigy_choice.jsonl", format="prodigy")
    assert df.attrs == {"format": "prodigy", "skipped": {"ignore": 1, "reject": 1}}
    assert len(df) == 13  # 15 answers less one ignore, one reject
    assert df.set_index(["item", "rater"]).loc[(1002, "sentiment-bob"), "label"] == "positive"
    both = concord.read_annotations(
        DATA / "prodigy_choice.jsonl", format="prodigy", answers=("accept", "reject")
    )
    assert len(both) == 14 and both.attrs["skipped"] == {"ignore": 1}


def test_prodigy_open_file_and_several_options_are_a_set():
    lines = (DATA / "prodigy_choice.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["accept"] = ["positive", "neutral"]
    lines[0] = json.dumps(first)
    df = concord.read_annotations(io.StringIO("\n".join(lines)), format="prodigy")
    assert df["label"].iloc[0] == frozenset({"positive", "neutral"})
    assert df["label"].iloc[1] == frozenset({"positive"})  # the column is all sets


def test_prodigy_spans_char_and_token_offsets():
    df = concord.read_annotations(DATA / "prodigy_ner.jsonl", format="prodigy")
    assert list(df.columns) == [
        *("item", "rater", "label", "start", "end"),
        *("token_start", "token_end", "text"),
    ]
    babbage = df[(df["rater"] == "ner-carol") & (df["start"] == 25)].iloc[0]
    # "Babbage" is token 4 alone: token_end inclusive, character end exclusive
    assert (babbage["token_start"], babbage["token_end"], babbage["end"]) == (4, 4, 32)
    assert babbage["text"][25:32] == "Babbage"


def test_prodigy_bad_input():
    rows = [json.loads(x) for x in (DATA / "prodigy_choice.jsonl").read_text().splitlines()]
    no_rater = [dict(r) for r in rows]
    del no_rater[4]["_annotator_id"], no_rater[4]["_session_id"]
    with pytest.raises(ValueError, match=r"record 5 \(_task_hash 5001\) has no annotator"):
        concord.read_annotations(no_rater, format="prodigy")
    outside = [dict(r) for r in rows]
    outside[6]["accept"] = ["mixed"]
    with pytest.raises(ValueError, match=r"record 7 .*the accepted option 'mixed' is not one of"):
        concord.read_annotations(outside, format="prodigy")
    twice = [*rows, rows[0]]
    with pytest.raises(ValueError, match=r"record 16 .*a second time \(first in record 1\)"):
        concord.read_annotations(twice, format="prodigy")
    ner = [json.loads(x) for x in (DATA / "prodigy_ner.jsonl").read_text().splitlines()]
    ner[3]["spans"][0]["end"] = 99
    with pytest.raises(ValueError, match=r"record 4 .*the span \[0, 99\) is not inside the text"):
        concord.read_annotations(ner, format="prodigy")


def test_prodigy_span_without_a_label_names_its_record():
    """A span with label null was read as a row with a missing label."""
    ner = [json.loads(x) for x in (DATA / "prodigy_ner.jsonl").read_text().splitlines()]
    ner[3]["spans"][0]["label"] = None
    with pytest.raises(ValueError, match=r"record 4 .*the span \[0, \d+\) has no label"):
        concord.read_annotations(ner, format="prodigy")


def test_prodigy_binary_reads_accept_and_reject_per_task():
    rows = [
        {"text": "a", "label": "SPORT", "_input_hash": 1, "_task_hash": 11, "answer": a,
         "_annotator_id": who}
        for a, who in (("accept", "x"), ("reject", "y"), ("ignore", "z"))
    ]  # fmt: skip
    df = concord.read_annotations(rows, format="prodigy")
    assert df["label"].tolist() == ["accept", "reject"] and df["item"].tolist() == [11, 11]
    assert df.attrs["skipped"] == {"ignore": 1}


# --- Argilla ---------------------------------------------------------------------------------


def test_argilla_v2_question_and_drafts():
    with pytest.raises(ValueError, match=r"several questions: 'sentiment', 'topics'"):
        concord.read_annotations(DATA / "argilla.json", format="argilla")
    df = concord.read_annotations(DATA / "argilla.json", format="argilla", question="sentiment")
    assert df.attrs["skipped"] == {"draft": 2}  # one draft response, two questions
    assert len(df) == 14 and df["item"].iloc[0] == "review-1"
    topics = concord.read_annotations(DATA / "argilla.json", format="argilla", question="topics")
    assert topics["label"].iloc[2] == frozenset({"service", "food"})


def test_argilla_v1_hub_and_flattened_layouts_read_the_same():
    v2 = json.loads((DATA / "argilla.json").read_text(encoding="utf-8"))
    v1, flat, hub = [], [], []
    for r in v2:
        users = [a["user_id"] for a in r["responses"]["sentiment"]]
        status = [a["status"] for a in r["responses"]["sentiment"]]
        values = [a["value"] for a in r["responses"]["sentiment"]]
        v1.append(
            {
                "external_id": r["id"],
                "fields": r["fields"],
                "responses": [
                    {"user_id": u, "values": {"sentiment": {"value": v}}, "status": s}
                    for u, v, s in zip(users, values, status, strict=True)
                ],
            }
        )
        hub.append(
            {
                "text": r["fields"]["text"],
                "sentiment": [
                    {"user_id": u, "value": v, "status": s}
                    for u, v, s in zip(users, values, status, strict=True)
                ],
                "sentiment-suggestion": "positive",
                "external_id": r["id"],
            }
        )
        flat.append(
            {
                "id": r["id"],
                "text": r["fields"]["text"],
                "sentiment.responses": values,
                "sentiment.responses.users": users,
                "sentiment.responses.status": status,
            }
        )
    want = concord.read_annotations(v2, format="argilla", question="sentiment")
    for other in (v1, flat, hub):
        got = _read(other)
        assert got.attrs["format"] == "argilla"
        pd.testing.assert_frame_equal(got, want)
        assert got.attrs["skipped"] == {"draft": 1}


class _Dataset:
    """Stands in for a Hugging Face or Argilla dataset: records through to_list()."""

    def __init__(self, rows):
        self.rows = rows

    def to_list(self):
        return list(self.rows)


def test_argilla_dataset_object_and_bad_input():
    v2 = json.loads((DATA / "argilla.json").read_text(encoding="utf-8"))
    df = concord.read_annotations(_Dataset(v2), format="argilla", question="sentiment")
    assert len(df) == 14
    v2[1]["responses"]["sentiment"][0]["user_id"] = None
    with pytest.raises(ValueError, match=r"record 2 \(id 'review-2'\): a response has no user_id"):
        concord.read_annotations(v2, format="argilla", question="sentiment")
    v2 = json.loads((DATA / "argilla.json").read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match=r"record 3 .*the label 'neutral' is not one of"):
        concord.read_annotations(
            v2, format="argilla", question="sentiment", choices=["positive", "negative"]
        )
    v2[0]["responses"]["sentiment"].append(v2[0]["responses"]["sentiment"][0])
    with pytest.raises(ValueError, match=r"record 1 .*answers it twice"):
        concord.read_annotations(v2, format="argilla", question="sentiment")


# --- dispatch and detection ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("label_studio.json", "label-studio"),
        ("label_studio_spans.json", "label-studio"),
        ("prodigy_choice.jsonl", "prodigy"),
        ("prodigy_ner.jsonl", "prodigy"),
        ("argilla.json", "argilla"),
    ],
)
def test_detection_says_what_it_chose(name, fmt):
    options = {"question": "sentiment"} if fmt == "argilla" else {}
    with pytest.warns(UserWarning, match=f"as format='{fmt}' \\(detected"):
        df = concord.read_annotations(DATA / name, **options)
    pd.testing.assert_frame_equal(df, concord.read_annotations(DATA / name, format=fmt, **options))
    assert df.attrs == concord.read_annotations(DATA / name, format=fmt, **options).attrs


def test_detection_of_parsed_records_and_open_files():
    with pytest.warns(UserWarning, match="'label-studio'"):
        df = concord.read_annotations(_tasks())
    assert len(df) == 17
    with open(LS, "rb") as f, pytest.warns(UserWarning, match="label_studio.json as format="):
        assert len(concord.read_annotations(f)) == 17


def test_unknown_layout_names_the_keys(tmp_path):
    with pytest.raises(ValueError, match=r"first record's keys \('name', 'score'\)"):
        concord.read_annotations([{"name": "a", "score": 1}])
    odd = tmp_path / "odd.txt"
    odd.write_text("hello world\n", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot tell the annotation format"):
        concord.read_annotations(odd)


def test_unknown_format_name_suggests_one():
    with pytest.raises(ValueError, match="Did you mean 'label-studio'"):
        concord.read_annotations(LS, format="labelstudio")


def test_missing_file_empty_file_and_folder_errors(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        concord.read_annotations(tmp_path / "nope.json", format="label-studio")
    empty = tmp_path / "empty.json"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="is empty"):
        concord.read_annotations(empty, format="label-studio")


def test_each_format_module_keeps_the_agreed_interface():
    import importlib
    import inspect

    for fmt, module in dispatch.MODULES.items():
        try:
            reader = importlib.import_module(f"concord._readers.{module}")
        except ModuleNotFoundError:
            continue  # written on another branch (doccano, brat, conll)
        assert callable(reader.read) and callable(reader.looks_like), fmt
        first = next(iter(inspect.signature(reader.read).parameters.values()))
        assert first.kind is inspect.Parameter.POSITIONAL_ONLY, fmt


def test_json_faults_name_the_record(tmp_path):
    tasks = _tasks()
    text = json.dumps(tasks[:3])
    broken = text.replace('"Terrible food', '"Terrible" food', 1)  # in task 2
    bad = tmp_path / "bad.json"
    bad.write_text(broken, encoding="utf-8")
    with pytest.raises(ValueError, match=r"record 2 breaks at line 1, column \d+"):
        concord.read_annotations(bad, format="label-studio")
    bad.write_text(text + "]", encoding="utf-8")
    with pytest.raises(ValueError, match=r"text follows the closing '\]'"):
        concord.read_annotations(bad, format="label-studio")
    bad.write_text(text[:-1], encoding="utf-8")  # the closing bracket lost
    with pytest.raises(ValueError, match=r"after record 3, line 1 has the end of the file"):
        concord.read_annotations(bad, format="label-studio")
    bad.write_bytes(text.replace("excellent", "excell\xe9nt").encode("latin-1"))
    with pytest.raises(ValueError, match=r"bad.json: byte \d+ is not UTF-8"):
        concord.read_annotations(bad, format="label-studio")


def test_one_pretty_printed_task_blank_jsonl_lines_and_an_empty_array(tmp_path):
    one = tmp_path / "one.json"
    one.write_text(json.dumps(_tasks()[0], indent=2), encoding="utf-8")
    assert len(concord.read_annotations(one, format="label-studio")) == 3
    lines = (DATA / "prodigy_choice.jsonl").read_text(encoding="utf-8").replace("\n", "\n\n")
    assert len(concord.read_annotations(io.StringIO(lines), format="prodigy")) == 13
    empty = tmp_path / "empty.json"
    empty.write_text("[ ]", encoding="utf-8")
    with pytest.raises(ValueError, match="no annotation holds a choices"):
        concord.read_annotations(empty, format="label-studio")
    with pytest.raises(ValueError, match="holds no record"):
        concord.read_annotations(empty)


def test_a_generator_of_records_is_read_once_when_detected():
    with pytest.warns(UserWarning, match="'argilla'"):
        df = concord.read_annotations(
            (r for r in json.loads((DATA / "argilla.json").read_text())), question="sentiment"
        )
    assert len(df) == 14


def test_detection_hands_another_module_the_path_or_an_open_file(tmp_path, monkeypatch):
    """The seam with the readers written beside these (doccano here): the agreed interface."""
    import sys
    import types

    got = []
    fake = types.ModuleType("concord._readers.doccano")
    fake.looks_like = lambda sample: "label" in sample and "text" in sample
    fake.read = lambda source, /, **options: got.append((source, options)) or "read"
    monkeypatch.setitem(sys.modules, "concord._readers.doccano", fake)
    path = tmp_path / "admin.jsonl"
    path.write_text('{"id": 1, "text": "a", "label": ["x"]}\n', encoding="utf-8")
    with pytest.warns(UserWarning, match="format='doccano'"):
        assert concord.read_annotations(path, user="admin") == "read"
    assert got[-1] == (path, {"user": "admin"})
    with open(path, encoding="utf-8") as f, pytest.warns(UserWarning):
        concord.read_annotations(f)
    assert got[-1][0].read() == path.read_text(encoding="utf-8")
    assert got[-1][0].name == str(path)


def test_argilla_question_named_label_is_argilla_not_doccano():
    """Argilla 1 on the Hub with a question "label": doccano's reader claims it too."""
    record = {
        "text": "good",
        "label": [{"user_id": "u1", "value": "pos", "status": "submitted"}],
        "external_id": "r1",
    }
    with pytest.warns(UserWarning, match="format='argilla'"):
        df = concord.read_annotations([record, {**record, "external_id": "r2"}])
    assert df["rater"].tolist() == ["u1", "u1"] and df.attrs["format"] == "argilla"


def test_a_folder_of_neither_jsonl_nor_ann_files(tmp_path):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match=r"is a folder holding no .jsonl or .ann file"):
        concord.read_annotations(tmp_path)


def test_label_sets_read_from_label_studio_give_nltks_masi_alpha():
    """NLTK 3.10 AnnotationTask(data, distance=masi_distance).alpha() on the 18 topic sets of
    label_studio_topics.json gives 0.3990778688524588; without a distance, 0.252 (nominal).
    """
    topics = concord.read_annotations(
        DATA / "label_studio_topics.json", format="label-studio", from_name="topics"
    )
    long = {"item": "item", "rater": "rater", "rating": "label"}
    masi = concord.krippendorff_alpha(topics, **long, level="masi").statistic
    assert masi == pytest.approx(0.3990778688524588, abs=1e-12)
    nominal = concord.krippendorff_alpha(topics, **long).statistic
    assert nominal == pytest.approx(0.2519999999999999, abs=1e-12)


def test_a_document_answered_with_no_span_still_counts_in_the_span_measures(tmp_path):
    # review of issue 26/28: a task every annotator answered with no span had no row, so token
    # and unitizing alpha left out the agreement on it; the export's attrs now carry every
    # answered document's length and every annotator, and read_spans uses them
    tasks = json.loads((DATA / "label_studio_spans.json").read_text(encoding="utf-8"))
    empty = [{"completed_by": r, "result": [], "was_cancelled": False} for r in (1, 2, 3)]
    tasks.append({"id": 9, "data": {"text": "Nothing to mark here."}, "annotations": empty})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    df = concord.read_annotations(path, format="label-studio")
    assert df.attrs["lengths"][9] == len("Nothing to mark here.") and df.attrs["raters"] == [
        1,
        2,
        3,
    ]
    assert 9 not in set(df["item"])
    lengths = {i: len(t["data"]["text"]) for i, t in ((t["id"], t) for t in tasks)}
    plain = pd.DataFrame(df.to_dict("list"))  # no attrs: the empty document is lost
    for measure in (concord.token_agreement, concord.unitizing_alpha):
        with_attrs = measure(df).statistic
        assert with_attrs == measure(plain, lengths=lengths).statistic
        assert with_attrs > measure(plain).statistic  # agreement on "nothing here" counts
    renamed = df.assign(rater=df["rater"].map({1: "ann", 2: "bob", 3: "cy"}))
    assert renamed.attrs["raters"] == [1, 2, 3]  # stale: ignored, not an error
    assert list(concord.span_agreement(renamed).raters) == ["ann", "bob", "cy"]
    # rows filtered after reading: the attrs no longer describe the frame and are ignored
    # (they would bring the filtered-out documents back as "nothing here")
    one = df[df["item"] == 1]
    assert (
        concord.token_agreement(one).statistic
        == concord.token_agreement(pd.DataFrame(one.to_dict("list"))).statistic
    )
    two = df[df["rater"] != 3]
    assert list(concord.span_agreement(two).raters) == [1, 2]
    df.to_parquet(tmp_path / "spans.parquet")  # the attrs are JSON: pandas writes them
