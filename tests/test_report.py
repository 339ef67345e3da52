"""The HTML report: contents, escaping of user strings, self-containedness, `concord report`."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._render import records as rec
from concord.report import to_html

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")

DIAGNOSES = "tests/reference/multi/fleiss1971_diagnoses.csv"
EVIL = "<script>alert(1)</script>"


class Tags(HTMLParser):
    """Collect every start tag and attribute of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += attrs

    def handle_data(self, data):
        self.text.append(data)


def parse(page: str) -> Tags:
    parser = Tags()
    parser.feed(page)
    return parser


def words(page: str) -> str:
    """Return the page's text with runs of white space as single spaces."""
    return " ".join("".join(parse(page).text).split())


@pytest.fixture(scope="module")
def diagnoses():
    frame = pd.read_csv(DIAGNOSES)
    results = [concord.fleiss_kappa(frame), concord.gwet_ac(frame), concord.light_kappa(frame)]
    return frame, results, to_html(results, data=frame, command="concord report d.csv")


def test_summary_table_shows_the_results_numbers(diagnoses):
    _, results, page = diagnoses
    text = " ".join(parse(page).text)
    for r in results:
        row = rec.display_rows([rec.summary(r, 0.95, None, 0)])[0]
        assert row["value"] in text and row["95% CI"] in text
    assert "0.4302" in text  # Fleiss (1971) diagnoses: R irr::kappam.fleiss gives 0.430
    assert "moderate (Landis & Koch 1977)" in text  # the interpretation names its scale
    alpha = to_html([concord.krippendorff_alpha(pd.read_csv(DIAGNOSES))])
    assert "unacceptable (Krippendorff 2004)" in " ".join(parse(alpha).text)
    assert "30 items, 6 raters, 180 ratings (0 missing)" in words(page)


def test_sections_explain_and_cite(diagnoses):
    _, results, page = diagnoses
    for r in results:
        assert f"<h3>{r.name.replace(chr(39), '&#39;')}</h3>" in page
    assert "Step by step" in page and "Inference: <code>standard_error</code> is Gwet" in page
    assert "Fleiss, J. L. (1971). Measuring nominal scale agreement" in page
    assert "Light, R. J. (1971)" in page
    assert f"concord {concord.__version__}" in page and "concord report d.csv" in page


def test_the_page_is_self_contained(diagnoses):
    _, _, page = diagnoses
    tags = parse(page)
    assert not tags.tags & {"script", "img", "link", "iframe", "object", "embed"}
    for name, value in tags.attributes:
        assert not name.startswith("on")
        if name in ("src", "href", "xlink:href"):
            # an anchor, or the PNG matplotlib inlines for a heatmap's cells
            assert value is not None and value.startswith(("#", "data:image/png;base64,")), name
    assert "@import" not in page
    assert all(target.startswith("#") for target in re.findall(r"url\(([^)]*)\)", page))
    # the forest of the coefficients, the pairwise matrix and the raters' forest; no
    # bootstrap histogram per coefficient (the forest shows every interval)
    assert page.count("<svg") == 1 + 2


def test_plots_can_be_left_out():
    r = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2], weights="quadratic")
    page = to_html(r, plots=False)
    assert "<svg" not in page and "Step by step" in page


def test_weight_matrix_is_drawn_once():
    ratings = np.array([[1, 2, 2], [3, 3, 2], [2, 2, 2], [1, 1, 2], [3, 2, 3]])
    results = [f(ratings, weights="quadratic") for f in (concord.fleiss_kappa, concord.gwet_ac)]
    page = to_html(results, n_resamples=200)
    assert page.count("Weight matrix W (quadratic)") == 1 and page.count("<svg") == 1 + 1


def test_user_strings_are_escaped():
    gold = [EVIL, "b&c", "--><i>x</i>", EVIL, "b&c"]
    model = [EVIL, "b&c", "b&c", EVIL, "--><i>x</i>"]
    r = concord.cohen_kappa(gold, model)
    page = to_html(
        r,
        data={"<img src=x onerror=alert(2)>": gold, "rater 2": model},
        title=EVIL,
        command=f"concord report {EVIL}.csv",
        n_resamples=200,
    )
    tags = parse(page)
    assert not tags.tags & {"script", "img", "i"}
    assert not any(name.startswith("on") for name, _ in tags.attributes)
    text = "".join(tags.text)
    assert EVIL in text and "<img src=x onerror=alert(2)>" in text and "b&c" in text
    # inside the SVG, matplotlib writes each label into an XML comment, escaped
    for comment in re.findall(r"<!--(.*?)-->", page, flags=re.DOTALL):
        assert "<" not in comment and "-->" not in comment


def test_cli_report_two_raters(tmp_path):
    out_file = tmp_path / "essays.html"
    args = ["report", "data/essays.csv", "--rater1", "truth", "--rater2", "model_grade"]
    out = CliRunner().invoke(main, [*args, "--weights", "quadratic", "-o", str(out_file)])
    assert out.exit_code == 0, out.output
    page = out_file.read_text()
    frame = pd.read_csv("data/essays.csv")
    r = concord.cohen_kappa(frame["truth"], frame["model_grade"], weights="quadratic")
    assert f"{r.statistic:.4f}" in page and "Observed matrix O" in page
    assert "Where the kappa is lost" in page and "Agreement in essays.csv" in page
    # under the table, the sentence of summary(), escaped as the template escapes
    from markupsafe import escape

    assert f'<p class="sentence">{escape(r.summary())}</p>' in page


def test_cli_report_many_raters_long_form(tmp_path):
    long = tmp_path / "long.csv"
    long.write_text(
        "doc,who,label\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n3,a,y\n3,b,y\n3,c,y\n4,c,x\n4,a,x\n"
    )
    out_file = tmp_path / "long.html"
    args = ["report", str(long), "--item", "doc", "--rater", "who", "--rating", "label"]
    out = CliRunner().invoke(main, [*args, "-o", str(out_file), "--title", "Pilot", "--no-plots"])
    assert out.exit_code == 0, out.output
    page = out_file.read_text()
    assert "<title>Pilot</title>" in page and "Krippendorff&#39;s alpha" in page
    assert "4 items, 3 raters, 9 ratings (3 missing)" in words(page)


def test_cli_report_errors_are_one_line(tmp_path):
    args = ["report", "data/essays.csv", "--raters", "nope", "-o", str(tmp_path / "r.html")]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 1 and "no column 'nope' for --raters" in out.output


def test_the_page_answers_the_leads_questions_first(diagnoses):
    frame, results, page = diagnoses
    text = " ".join(" ".join(parse(page).text).split())
    # the contents, in the page's order, before the coefficients' own sections
    anchors = re.findall(r'<li><a href="#([\w-]+)">', page)
    assert anchors == ["summary", "data", "coefficients", "raters", "categories", "flags",
                       "details"]  # fmt: skip
    order = [page.index(f'id="{a}"') for a in anchors]
    assert order == sorted(order)
    # the summary says the headline (the first result here: no alpha) with its interval
    fleiss = rec.display_rows([rec.summary(results[0], 0.95, None, 0)])[0]
    summary = text[text.index("Summary") : text.index("30 items")]
    assert fleiss["value"][:4] in summary and "95% CI" in summary
    # the raters' table is concord.rater_diagnostics on the same panel, column names kept
    d = concord.rater_diagnostics(frame, function=concord.fleiss_kappa)
    for name, without in zip(d.raters, d.without, strict=True):
        assert f"{name} {rec.number(without.statistic)}" in text
    # the categories' table is concord.specific_agreement's
    s = concord.specific_agreement(frame, labels=list(results[0].labels))
    assert f"{s.labels[0]} {rec.number(float(s.agreement[0]))}" in text
    for rater in d.flagged:  # each flag says its direction in words
        assert f"Without {rater} the panel agrees" in text


def test_two_rater_axes_carry_the_column_names():
    gold = [1, 2, 3, 3, 2, 1, 2, 3]
    model = [1, 2, 3, 2, 2, 1, 3, 3]
    r = concord.cohen_kappa(gold, model, weights="quadratic")
    page = to_html(r, data={"gold label": gold, "the model": model}, n_resamples=50)
    assert "Observed matrix O (rows: gold label)" in page
    # matplotlib writes each text of the SVG into a comment: the axis names
    comments = " ".join(re.findall(r"<!--(.*?)-->", page, flags=re.DOTALL))
    assert "gold label" in comments and "the model" in comments
    assert "rater1" not in comments and "rater2" not in comments


def test_a_probabilistic_reading_is_used_where_results_give_one():
    from concord._render import questions

    class Reading:
        coefficient = "fleiss_kappa"

        def interpret(self, scale=None, probabilistic=False):
            return "substantial with probability 0.71" if probabilistic else "substantial"

    assert questions.probabilistic(Reading()) == "substantial with probability 0.71"
    # Fleiss (1971): κ 0.43 with its SE, read on Landis & Koch by Gwet's (2014) probabilities
    r = concord.fleiss_kappa(pd.read_csv(DIAGNOSES))
    assert questions.probabilistic(r) == str(r.interpret(probabilistic=True))
    assert questions.probabilistic(r).startswith("moderate with probability")


ESSAY_RATERS = ("data/essays.csv", "--raters", "rater1,rater2,rater3", "--no-plots")


def test_cli_report_percent_agreement_alone(tmp_path):
    # percent agreement has no benchmark scale: the page reads it on none, it does not fail
    out_file = tmp_path / "percent.html"
    args = ["report", *ESSAY_RATERS, "--coefficients", "percent", "-o", str(out_file)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    text = words(out_file.read_text())
    frame = pd.read_csv("data/essays.csv")[["rater1", "rater2", "rater3"]]
    r = concord.percent_agreement(frame)
    assert f"Percent agreement {r.statistic:.4f}" in text
    assert "none (not chance-corrected)" in text and "Read against the benchmarks" not in text


def test_cli_report_takes_the_rank_and_score_statistics(tmp_path):
    # the names --coefficients lists (as concord agree takes them) are all taken
    out_file = tmp_path / "ranks.html"
    chosen = "fleiss,kendall,cronbach,meancor,occc"
    args = ["report", *ESSAY_RATERS, "--coefficients", chosen, "-o", str(out_file)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    text = words(out_file.read_text())
    frame = pd.read_csv("data/essays.csv")[["rater1", "rater2", "rater3"]]
    made = [
        concord.kendall_w(frame),
        concord.cronbach_alpha(frame),
        concord.mean_correlation(frame),
        concord.overall_concordance(frame),
    ]
    for r in made:  # each its own section, titled by its name, with its value
        name = r.to_dict()["coefficient"]
        assert f"{name}{r.statistic:.4f}" in text  # the table's first row (cells run together)
    assert f"{concord.fleiss_kappa(frame).statistic:.4f}" in text
    alone = tmp_path / "kendall.html"
    args = ["report", *ESSAY_RATERS, "--coefficients", "kendall-w", "-o", str(alone)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    text = words(alone.read_text())
    assert f"{made[0].statistic:.4f}" in text and "nan0" not in text  # no category "nan"
