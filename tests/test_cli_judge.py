"""``concord judge`` and the judge study, through click's test runner.

Expected values: the library's own results on the same columns (the command
is glue over concord.alt_test, concord.cohen_kappa, concord.diagnostic_accuracy
and concord.intra_rater, whose references are in their own tests: the Alt-Test
paper's notebook, R irr, R epiR), and hand counts for the bias, the majority
and the per-item agreement (Fleiss 1971: p_a,i = Σ n_ic(n_ic − 1) / (n_i(n_i − 1))).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._studies.judges.study import bias, judge_study, majority


def labels_frame(n: int = 120, seed: int = 5) -> pd.DataFrame:
    """A seeded toy study: gold, three humans, a judge that leans to 'toxic', a second run."""
    rng = np.random.default_rng(seed)
    gold = rng.choice(["safe", "toxic"], n, p=[0.7, 0.3])

    def annotate(p_wrong: float, lean: float = 0.0) -> np.ndarray:
        said = np.where(rng.random(n) < p_wrong, rng.choice(["safe", "toxic"], n), gold)
        return np.where((said == "safe") & (rng.random(n) < lean), "toxic", said)

    return pd.DataFrame(
        {
            "doc": [f"d{i:03d}" for i in range(n)],
            "gold": gold,
            "a": annotate(0.2),
            "b": annotate(0.2),
            "c": annotate(0.3),
            "judge": annotate(0.1, 0.15),
            "judge2": annotate(0.1, 0.15),
        }
    )


@pytest.fixture
def labels_csv(tmp_path):
    path = tmp_path / "labels.csv"
    labels_frame().to_csv(path, index=False)
    return str(path)


def run(*args: str):
    return CliRunner().invoke(main, ["judge", *args])


def test_json_holds_every_section_and_equals_the_library(labels_csv):
    out = run(
        labels_csv,
        "--humans",
        "a,b,c",
        "--candidate",
        "judge",
        "--gold",
        "gold",
        "--repeats",
        "judge2",
        "--id",
        "doc",
        "--positive",
        "toxic",
        "--format",
        "json",
    )
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)["judge"]
    frame = labels_frame()
    alt = concord.alt_test(frame[["a", "b", "c"]], frame["judge"], epsilon=0.1)
    assert got["alt_test"]["winning_rate"] == alt.winning_rate
    kappa = concord.cohen_kappa(frame["gold"], frame["judge"]).statistic
    assert got["statistic"] == pytest.approx(kappa) == got["kappas"]["judge"]["statistic"]
    assert got["kappas"]["b"]["statistic"] == pytest.approx(
        concord.cohen_kappa(frame["gold"], frame["b"]).statistic
    )
    accuracy = concord.diagnostic_accuracy(frame["gold"], frame["judge"], positive="toxic")
    assert got["accuracy"]["counts"] == {
        "TP": accuracy.TP,
        "FP": accuracy.FP,
        "FN": accuracy.FN,
        "TN": accuracy.TN,
    }
    self_kappa = concord.cohen_kappa(frame["judge"], frame["judge2"]).statistic
    assert got["self_consistency"]["statistic"] == pytest.approx(self_kappa)
    wrong = frame[frame.judge != frame.gold]
    assert [d["item"] for d in got["disagreements"]] == list(wrong.doc)
    assert len(got["hardest"]) == 10


def test_text_says_the_bias_in_words(labels_csv):
    out = run(labels_csv, "--humans", "a,b,c", "--candidate", "judge")
    assert out.exit_code == 0, out.output
    frame = labels_frame()
    crowd = pd.Series(majority(frame[["a", "b", "c"]].itertuples(index=False)))
    said, ref = (frame.judge == "toxic").sum(), (crowd == "toxic").sum()
    assert f"labels 'toxic' {said / ref - 1:.0%} more often than the humans" in out.stdout
    assert "reference: the humans' majority" in out.stdout
    assert "(each human against the majority of the other humans)" in out.stdout
    assert "Self-consistency" not in out.stdout  # a single run: no section


def test_disagreements_csv_lists_every_rater_by_name(labels_csv, tmp_path):
    target = tmp_path / "review.csv"
    out = run(
        labels_csv,
        "--humans",
        "a,b,c",
        "--candidate",
        "judge",
        "--gold",
        "gold",
        "--id",
        "doc",
        "--disagreements",
        str(target),
    )
    assert out.exit_code == 0, out.output
    review = pd.read_csv(target)
    assert list(review.columns) == ["item", "reference", "a", "b", "c", "judge"]
    frame = labels_frame().set_index("doc")
    assert (review.judge != review.reference).all()
    assert list(review.item) == list(frame.index[frame.judge != frame.gold])
    again = run(
        labels_csv, "--humans", "a,b,c", "--candidate", "judge", "--disagreements", str(target)
    )
    assert again.exit_code != 0 and "--overwrite" in again.output


def test_a_missing_column_names_the_option(labels_csv):
    out = run(labels_csv, "--humans", "a,x", "--candidate", "judge")
    assert out.exit_code != 0
    assert "no column 'x' for --humans" in out.output and "Traceback" not in out.output


def test_a_judge_that_never_says_positive_is_a_note_not_a_crash(tmp_path):
    path = tmp_path / "never.csv"
    frame = labels_frame().assign(judge="safe")
    frame.to_csv(path, index=False)
    out = run(
        str(path),
        "--humans",
        "a,b,c",
        "--candidate",
        "judge",
        "--gold",
        "gold",
        "--positive",
        "toxic",
    )
    assert out.exit_code == 0, out.output
    assert "the ppv is undefined (nan) because the rating never says 'toxic'" in out.stderr
    assert "never labels 'toxic'" in out.stdout
    assert "sensitivity                                   0.000" in out.stdout


def test_gold_with_a_category_the_judge_never_uses():
    frame = labels_frame()
    frame.loc[:9, "gold"] = "unclear"  # gold uses a third category; nobody else does
    with pytest.warns(concord.UndefinedKappaWarning, match="precision of 'unclear'"):
        s = judge_study(frame, humans=["a", "b", "c"], candidate="judge", gold="gold")
    assert math.isnan(s.accuracy.per_class["precision"][2, 0])
    assert s.accuracy.per_class["recall"][2, 0] == 0.0
    assert "unclear" not in {b.label for b in s.bias}  # bias is against the humans


def test_humans_that_tie_give_no_reference_and_are_counted():
    frame = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["x", "x", "y", "y"], "j": list("xxyy")})
    assert majority(frame[["a", "b"]].itertuples(index=False)) == ["x", None, None, "y"]
    s = judge_study(frame, humans=["a", "b"], candidate="j")
    assert s.n_no_reference == 2
    assert isinstance(s.alt_test, str)  # fewer than 30 items: the Alt-Test's own error
    # ties everywhere: every item's p_a,i among a, b, j is (2·1)/(3·2) = 1/3 or 1
    assert [i.agreement for i in s.hardest] == [1 / 3, 1 / 3, 1.0, 1.0]
    assert s.hardest[0].entropy == pytest.approx(-(2 / 3) * math.log(2 / 3) - math.log(1 / 3) / 3)


def test_raters_with_no_overlap_say_why_there_is_no_kappa():
    frame = labels_frame(n=40)
    frame.loc[:19, "c"] = None
    frame.loc[20:, "judge"] = None
    frame.loc[:19, ["a", "b"]] = None  # c and the judge share no item with a human majority
    s = judge_study(frame, humans=["a", "b", "c"], candidate="judge", gold="gold")
    assert s.kappas["judge"].n == 20
    human = judge_study(frame.iloc[:20], humans=["a", "b", "c"], candidate="judge")
    assert human.kappas["judge"] == "0 item(s) with both labels"
    assert math.isnan(human.statistic)
    assert "not computed: 0 item(s) with both labels" in human.explain()


def test_bias_words():
    ref = ["toxic"] * 10 + ["safe"] * 10 + [None]
    judge = ["toxic"] * 10 + ["toxic"] * 3 + ["safe"] * 7 + ["safe"]
    words = {b.label: b.words for b in bias(ref, judge, "the humans")}
    assert words == {
        "safe": "labels 'safe' 30% less often than the humans",
        "toxic": "labels 'toxic' 30% more often than the humans",
    }
    assert bias(["a", "a"], ["b", "a"], "the humans")[1].words == (
        "labels 'b' 1 time, where the humans never do"
    )


def test_study_repr_is_short():
    s = judge_study(labels_frame(), humans=["a", "b", "c"], candidate="judge", gold="gold")
    assert repr(s).startswith("JudgeStudy('judge', humans=3, kappa=0.7")
    json.dumps(s.to_dict())
    assert "<pre>" in s._repr_html_() and "&#x27;judge&#x27;" in s._repr_html_()


def test_the_study_speaks_the_result_protocol():
    from concord._results.protocol import COLUMNS

    frame = labels_frame()
    s = judge_study(frame, humans=["a", "b", "c"], candidate="judge", gold="gold")
    tidy = s.to_frame()
    assert tuple(tidy.columns[: len(COLUMNS)]) == COLUMNS
    # one row per rater's kappa against gold (the library's own), then the Alt-Test's ω
    for name in ["a", "b", "c", "judge"]:
        got = tidy[tidy.rater == name].iloc[0]
        k = concord.cohen_kappa(frame["gold"], frame[name])
        assert got.statistic == pytest.approx(k.statistic, abs=1e-12)
        assert (got.ci_low, got.ci_high) == pytest.approx(tuple(k.confidence_interval()))
    alt = concord.alt_test(frame[["a", "b", "c"]], frame["judge"], epsilon=0.1)
    assert tidy.iloc[-1].statistic == alt.winning_rate
    section = s._report_section_()
    assert section.sentence == s.summary() and section.explanation == s.explain()
    assert section.title == "Judge 'judge' against gold"


def test_html_writes_the_study_into_the_report(labels_csv, tmp_path):
    from markupsafe import escape

    target = tmp_path / "judge.html"
    args = [labels_csv, "--humans", "a,b,c", "--candidate", "judge", "--html", str(target)]
    out = run(*args)
    assert out.exit_code == 0, out.output
    page = target.read_text(encoding="utf-8")
    s = judge_study(labels_frame(), humans=["a", "b", "c"], candidate="judge")
    assert '<section class="result">' in page
    assert str(escape(s.summary())) in page
    assert "kappa: judge against the humans&#39; majority" in page
    assert "<script" not in page
    again = run(*args)
    assert again.exit_code != 0 and "--overwrite" in again.output
    assert run(*args, "--overwrite").exit_code == 0


def test_hardest_items_and_disagreements_are_item_agreements():
    # the study's per-item numbers are concord.item_agreement's on the humans and the judge
    frame = labels_frame()
    s = judge_study(frame, humans=["a", "b", "c"], candidate="judge", gold="gold", top=120)
    ia = concord.item_agreement(frame[["a", "b", "c", "judge"]].astype(object))
    assert [i.item for i in s.hardest] == list(ia.items)  # hardest first, as it orders them
    assert [i.agreement for i in s.hardest] == list(ia.agreement)
    assert [i.entropy for i in s.hardest] == list(ia.entropy)
    assert [i.majority for i in s.hardest] == list(ia.majority)
    assert [i.share for i in s.hardest] == list(ia.majority_share)
    rows = dict(zip(ia.items, ia.ratings, strict=True))
    for i in s.disagreements:
        assert list(i.ratings.values()) == list(rows[i.item])


def test_a_tied_items_majority_is_the_first_category_in_label_order():
    # item_agreement's documented rule, whatever the columns' order (2 'y' and 2 'x')
    frame = pd.DataFrame({"a": ["y", "x"], "b": ["y", "x"], "c": ["x", "y"], "j": ["x", "y"]})
    s = judge_study(frame, humans=["a", "b", "c"], candidate="j", top=5)
    assert [i.majority for i in s.hardest] == ["x", "x"]
    assert [i.agreement for i in s.hardest] == [1 / 3, 1 / 3]  # (2·1 + 2·1) / (4·3)


def test_an_item_nobody_rated_has_no_numbers():
    frame = pd.DataFrame({"a": ["x", None, "y"], "b": ["x", None, "y"], "j": ["x", None, "x"]})
    s = judge_study(frame, humans=["a", "b"], candidate="j")
    assert [i.item for i in s.hardest] == [2, 0]  # item 1 has no rating: not among them
    assert [i.item for i in s.disagreements] == [2]


def test_the_judge_study_renders_in_chromium_with_names_kept_as_text(browser, tmp_path):
    from concord.report import to_html

    evil = "<script>document.title='pwned'</script>"
    frame = labels_frame().rename(columns={"a": evil})
    s = judge_study(frame, humans=[evil, "b", "c"], candidate="judge", gold="gold")
    page = tmp_path / "judge.html"
    page.write_text(to_html([s], title="Judge", plots=False), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.title == "Judge"  # the planted script never ran
    assert browser.execute_script("return document.scripts.length") == 0
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = browser.find_element("id", "results").text
    assert s.summary() in text and f"Cohen's kappa: {evil} against gold" in text
