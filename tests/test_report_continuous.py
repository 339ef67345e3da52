"""The report's "Continuous ratings" section: ICC, Lin's CCC and Bland–Altman, escaped.

Data: Bland & Altman (1986), Lancet 327(8476), 307-310, Table 1 (PEFR, l/min); the
values shown are the library's (tests/test_continuous.py checks them against the paper).
"""

from __future__ import annotations

import numpy as np
import pytest

import concord
from concord._render import records as rec
from concord.report import to_html

from .test_report import EVIL, parse, words

pytest.importorskip("jinja2")

WRIGHT = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
MINI = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]


@pytest.fixture(scope="module")
def results():
    ratings = np.column_stack([WRIGHT, MINI])
    return {
        "Bland–Altman": concord.bland_altman(WRIGHT, MINI, proportional=True),
        "Lin": concord.concordance_correlation(WRIGHT, MINI),
        "ICC": concord.icc(ratings),
    }


def test_the_section_shows_each_result_s_numbers(results):
    page = to_html([], continuous=results, plots=False)
    text = words(page)
    assert "Continuous ratings" in text
    assert 'id="coefficients"' not in page  # no categorical results: no empty table
    ba, ccc, icc = results.values()
    for value in (ba.bias, ba.sd, ba.lower_limit, ba.upper_interval.high, ba.slope):
        assert rec.number(value) in text
    assert rec.number(ba.lower_interval_approximate.low) in text  # both intervals of a limit
    assert f"[{rec.number(ccc.interval.low)}, {rec.number(ccc.interval.high)}]" in text
    low, high = icc.confidence_interval()
    assert f"{icc.name} ({icc.shrout_fleiss})" in text
    assert f"[{rec.number(low)}, {rec.number(high)}]" in text
    assert " ".join(ba.explain().split()) in text  # the step-by-step, whole


def test_beside_the_categorical_results():
    kappa = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2])
    page = to_html(kappa, continuous=concord.concordance_correlation(WRIGHT, MINI), plots=False)
    assert page.index('id="coefficients"') < page.index('id="continuous"')
    assert "Lin's concordance correlation" in words(page)  # the result's own name as the title


def test_titles_are_escaped(results):
    page = to_html([], continuous={EVIL: results["Lin"]}, plots=False)
    assert EVIL not in page and "&lt;script&gt;" in page
    assert "script" not in parse(page).tags


def test_no_section_without_continuous_results():
    kappa = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2])
    assert 'id="continuous"' not in to_html(kappa, plots=False)


def test_other_results_are_refused():
    kappa = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2])
    with pytest.raises(TypeError, match="IccResult, CccResult or BlandAltmanResult"):
        to_html([], continuous=[kappa], plots=False)
