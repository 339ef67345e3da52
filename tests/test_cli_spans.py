"""``concord spans``: span F1 and token alpha of a span file, every output format, the gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import concord
from concord._cli import spans as cli_spans
from concord._cli.main import main

pd = pytest.importorskip("pandas")

TEXT1, TEXT2 = "Anna met Bo in Oslo.", "Acme hired Cy."
ROWS = [
    ("d1", "ann", 0, 4, "PER", TEXT1),
    ("d1", "ann", 9, 11, "PER", TEXT1),
    ("d1", "ann", 15, 19, "LOC", TEXT1),
    ("d1", "bob", 0, 4, "PER", TEXT1),
    ("d1", "bob", 15, 20, "LOC", TEXT1),
    ("d2", "ann", 0, 5, "ORG", TEXT2),
    ("d2", "bob", 0, 4, "ORG", TEXT2),
    ("d2", "bob", 11, 13, "PER", TEXT2),
]
COLUMNS = ["item", "rater", "start", "end", "label", "text"]


@pytest.fixture
def spans_csv(tmp_path: Path) -> Path:
    path = tmp_path / "entities.csv"
    pd.DataFrame(ROWS, columns=COLUMNS).to_csv(path, index=False)
    return path


def run(*args: Any) -> Any:
    return CliRunner().invoke(main, ["spans", *map(str, args), "--quiet"])


def library(**options: Any) -> Any:
    return concord.span_agreement(pd.DataFrame(ROWS, columns=COLUMNS), **options)


def test_text_output(spans_csv: Path) -> None:
    out = run(spans_csv, "--match", "overlap", "--measure", "f1,token-alpha", "--seed", "1")
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"{spans_csv}: 8 spans, 2 items, 2 raters, 3 labels")
    assert "span F1 (micro) 0.7500" in out.output
    assert "span F1 per pair of raters" in out.output and "span F1 per label" in out.output
    assert library(match="overlap", rng=1).summary() in out.output
    alpha = concord.token_agreement(pd.DataFrame(ROWS, columns=COLUMNS))
    assert alpha.summary() in out.output


def test_json_is_the_libraries_values(spans_csv: Path) -> None:
    out = run(spans_csv, "--match", "0.5", "--format", "json", "--seed", "3")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["data"] == {
        "spans": 8,
        "items": 2,
        "raters": ["ann", "bob"],
        "labels": ["PER", "LOC", "ORG"],
    }
    assert record["measures"]["f1"] == json.loads(json.dumps(library(match=0.5, rng=3).to_dict()))


def test_csv_and_markdown(spans_csv: Path) -> None:
    out = run(spans_csv, "--format", "csv", "--measure", "f1,token-alpha")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("coefficient,statistic,standard_error,ci_low,ci_high,pvalue,n")
    assert lines[1].startswith(f"span F1 (micro),{library().statistic!r},")
    assert any(line.startswith("Krippendorff's alpha,") for line in lines)
    out = run(spans_csv, "--format", "markdown")
    assert out.exit_code == 0 and "| span F1 (micro) |" in out.output.replace("  ", " ")


def test_parquet_and_column_names(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame(ROWS, columns=["doc", "who", "s", "e", "tag", "body"])
    path = tmp_path / "entities.parquet"
    frame.to_parquet(path)
    out = run(path, "--item", "doc", "--rater", "who", "--start", "s", "--end", "e",
              "--label", "tag", "--text", "body", "--format", "json", "--measure",
              "f1,token-alpha")  # fmt: skip
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["measures"]["f1"]["statistic"] == library().statistic
    alpha = concord.token_agreement(pd.DataFrame(ROWS, columns=COLUMNS)).statistic
    assert record["measures"]["token-alpha"]["statistic"] == alpha


def test_ignore_labels_and_tokens(spans_csv: Path) -> None:
    out = run(spans_csv, "--ignore-labels", "--match", "overlap", "--format", "json",
              "--measure", "f1,token-alpha", "--unit", "token")  # fmt: skip
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["measures"]["f1"]["statistic"] == library(match="overlap", by=None).statistic
    tokens = concord.token_agreement(pd.DataFrame(ROWS, columns=COLUMNS), unit="token")
    assert record["measures"]["token-alpha"]["statistic"] == tokens.statistic


def test_disagreements_file(spans_csv: Path, tmp_path: Path) -> None:
    target = tmp_path / "disagreements.csv"
    out = run(spans_csv, "--match", "overlap", "-o", target)
    assert out.exit_code == 0, out.output
    written = pd.read_csv(target)
    assert written[["item", "rater", "start", "end", "label"]].values.tolist() == [
        ["d1", "ann", 9, 11, "PER"],
        ["d2", "bob", 11, 13, "PER"],
    ]
    again = run(spans_csv, "-o", target)
    assert again.exit_code == 1 and "exists. Pass --overwrite" in again.output
    assert run(spans_csv, "-o", target, "--overwrite").exit_code == 0


def test_fail_under(spans_csv: Path) -> None:
    out = run(spans_csv, "--fail-under", "0.9")
    assert out.exit_code == 3
    assert "span F1 (micro) value 0.25 below --fail-under 0.9" in out.output
    assert run(spans_csv, "--fail-under", "0.2").exit_code == 0


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            [("d1", "ann", 0, 4, "PER"), ("d1", "ann", 2, 5, "PER"), ("d1", "bob", 0, 4, "PER")],
            "The spans must be non-overlapping for one rater and one label on an item. Got "
            "[0, 4) at row 2 and [2, 5) at row 3",
        ),
        (
            [("d1", "bob", 0, 4, "PER"), ("d1", "ann", 4, 4, "PER")],
            "--end must be greater than start: spans are [start, end), end exclusive "
            "(column 'end'). Got start 4 and end 4 at row 3 instead.",
        ),
        (
            [("d1", "ann", "x", 4, "PER"), ("d1", "bob", 0, 4, "PER")],
            "row 2 of column 'start' holds 'x': offsets are whole numbers",
        ),
        (
            [("d1", "ann", 0, 4, "PER"), ("d1", "bob", 0, 4, "per")],
            "--label must be labels that differ in more than case (column 'label'). Got both "
            "'PER' and 'per' instead. Spell the label one way in FILE",
        ),
        (
            [("d1", "ann", 0, 4, "PER"), ("d1", "bob", 0, 4, "")],
            "--label must be a column with a value on every row (column 'label'). Got no "
            "label at row 3 instead.",
        ),
        (
            [("d1", "ann", 0, 4, "PER")],
            "at least two raters",
        ),
    ],
)
def test_bad_spans_are_one_line_naming_the_file_row(
    tmp_path: Path, rows: list[tuple[Any, ...]], message: str
) -> None:
    path = tmp_path / "bad.csv"
    pd.DataFrame(rows, columns=COLUMNS[:5]).to_csv(path, index=False)
    out = run(path)
    assert out.exit_code == 1, out.output
    assert message in out.output, out.output
    assert "Traceback" not in out.output and out.output.count("Error:") == 1


def test_bad_options(spans_csv: Path) -> None:
    out = run(spans_csv, "--match", "big")
    assert out.exit_code == 2 and "exact, overlap or an IoU threshold" in out.output
    out = run(spans_csv, "--match", "2")
    assert out.exit_code == 1 and "--match must be 'exact', 'overlap' or an IoU" in out.output
    out = run(spans_csv, "--measure", "f1,kappa")
    assert out.exit_code == 2 and "'kappa': one of f1, token-alpha, unitizing-alpha" in out.output
    out = run(spans_csv, "--item", "doc")
    assert out.exit_code == 1 and "no column 'doc' for --item" in out.output


def test_a_measure_this_version_lacks_is_named() -> None:
    measure = cli_spans._later("no_such_measure")
    with pytest.raises(click.UsageError, match="--measure no-such-measure is not available"):
        measure(None, {})


def test_every_measure_is_in_the_table() -> None:
    assert list(cli_spans.MEASURES) == ["f1", "token-alpha", "unitizing-alpha", "gamma"]


def test_html_report(spans_csv: Path, tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    page = tmp_path / "spans.html"
    args = [str(spans_csv), "--measure", "f1,unitizing-alpha,token-alpha", "--html", str(page)]
    result = run(*args)
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    table = pd.DataFrame(ROWS, columns=COLUMNS)
    f1 = concord.span_agreement(table)
    assert f"<h3>{f1.name}</h3>" in html and f'<p class="sentence">{f1.summary()}' in html
    assert "Spans to adjudicate" in html and "items of lowest F1" in html
    assert "<h3>Krippendorff&#39;s unitizing alpha</h3>" in html
    assert "<title>Span agreement in entities.csv</title>" in html
    again = run(*args)  # the file exists: refused before anything is computed
    assert again.exit_code != 0 and "--overwrite" in again.output
    assert run(*args, "--overwrite").exit_code == 0


def test_report_and_agree_point_a_span_file_to_concord_spans(spans_csv: Path) -> None:
    # before: read as one column per rater, it failed on "the ratings mix numbers and text"
    for command in ("report", "agree"):
        result = CliRunner().invoke(main, [command, str(spans_csv)])
        assert result.exit_code == 2
        assert "looks like a table of spans" in result.output
        assert f"concord spans {spans_csv}" in result.output.replace("\n", " ")


def test_gamma_is_the_librarys_and_seeded(spans_csv: Path) -> None:
    """--measure gamma runs concord.gamma with --seed as its rng: the same value twice."""
    out = run(spans_csv, "--measure", "gamma", "--format", "json", "--seed", "5")
    assert out.exit_code == 0, out.output
    again = run(spans_csv, "--measure", "gamma", "--format", "json", "--seed", "5")
    assert (
        json.loads(out.output)["measures"]["gamma"]
        == json.loads(again.output)["measures"]["gamma"]
    )
    frame = pd.DataFrame(ROWS, columns=COLUMNS)
    want = concord.gamma(frame, rng=5)
    assert json.loads(out.output)["measures"]["gamma"]["statistic"] == pytest.approx(
        want.statistic
    )


def test_declared_raters(spans_csv: Path) -> None:
    """--raters adds a rater with no span, who marked nothing on every item (all measures)."""
    measures = "f1,token-alpha,unitizing-alpha"
    out = run(spans_csv, "--raters", "ann,bob,cy", "--measure", measures, "--format", "json")
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)["measures"]
    table = pd.DataFrame(ROWS, columns=COLUMNS)
    raters = ["ann", "bob", "cy"]
    assert got["f1"]["statistic"] == pytest.approx(library(raters=raters).statistic)
    assert got["f1"]["raters"] == raters
    assert json.loads(out.output)["data"]["raters"] == raters  # cy counted, with no span
    want = concord.unitizing_alpha(table, raters=raters).statistic
    assert got["unitizing-alpha"]["statistic"] == pytest.approx(want)
    want = concord.token_agreement(table, raters=raters).statistic
    assert got["token-alpha"]["statistic"] == pytest.approx(want)
    assert got["f1"]["statistic"] != pytest.approx(library().statistic)


def test_declared_raters_must_include_the_files(spans_csv: Path) -> None:
    out = run(spans_csv, "--raters", "ann")
    assert out.exit_code != 0 and "Traceback" not in out.output
    assert "Rater 'bob' has spans in FILE: add it to --raters." in out.output.replace("\n", " ")


def test_html_report_draws_gammas_alignment(spans_csv: Path, tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    page = tmp_path / "gamma.html"
    result = run(spans_csv, "--measure", "gamma", "--seed", "1", "--html", page)
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    want = concord.gamma(pd.DataFrame(ROWS, columns=COLUMNS), rng=1)
    assert want.summary() in html
    assert "best alignment of the item of lowest γ</figcaption>" in html and "<svg" in html


@pytest.mark.parametrize("measure", ["token-alpha", "unitizing-alpha"])
def test_no_text_column_is_said_in_the_command_lines_words(tmp_path: Path, measure: str) -> None:
    """It said "pass lengths={item: len(text)}", a keyword the command line does not have."""
    path = tmp_path / "no_text.csv"
    pd.DataFrame([r[:5] for r in ROWS], columns=COLUMNS[:5]).to_csv(path, index=False)
    out = run(path, "--measure", measure)
    assert out.exit_code == 1, out.output
    assert "--text must be a column of each item's text" in out.output, out.output
    assert "lengths=" not in out.output and out.output.count("Error:") == 1


@pytest.mark.parametrize("variant", ["u2016", "|u", "cu", "(k)u"])
def test_unitizing_variant(spans_csv: Path, variant: str) -> None:
    """--unitizing-variant picks the coefficient of Krippendorff et al. (2016)."""
    out = run(
        spans_csv, "--measure", "unitizing-alpha", "--unitizing-variant", variant,
        "--format", "json",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)["measures"]["unitizing-alpha"]
    want = concord.unitizing_alpha(pd.DataFrame(ROWS, columns=COLUMNS), variant=variant)
    assert got["statistic"] == pytest.approx(want.statistic)
    assert got["coefficient"] == f"Krippendorff's unitizing alpha ({variant})"
    out = run(spans_csv, "--measure", "unitizing-alpha", "--unitizing-variant", "k")
    assert out.exit_code == 2
    assert "'k' is not one of 'u', 'u2016', '|u', 'cu', '(k)u'" in out.output


def test_unitizing_variant_names_the_nested_spans_rows(tmp_path: Path) -> None:
    """The 2016 variants refuse one rater's overlapping spans: the file's rows, the option."""
    path = tmp_path / "nested.csv"
    rows = [("d", "a", 0, 5, "PER"), ("d", "b", 0, 4, "PER"), ("d", "a", 3, 8, "LOC")]
    pd.DataFrame(rows, columns=COLUMNS[:5]).assign(text="abcdefghij").to_csv(path, index=False)
    out = run(path, "--measure", "unitizing-alpha", "--unitizing-variant", "cu")
    assert out.exit_code == 1 and "Traceback" not in out.output
    said = out.output.replace("\n", " ")
    assert "[0, 5) labelled 'PER' at row 2 and [3, 8) labelled 'LOC' at row 4" in said
    assert "use --unitizing-variant u, which takes each label on its own" in said
