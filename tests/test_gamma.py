"""concord.gamma: γ of Mathet, Widlöcher & Métivier (2015) as pygamma-agreement 0.5.9 computes it.

Reference values: pygamma-agreement 0.5.9 run on its own example data
(tests/data/gamma, copied from its repository's tests/data, MIT licence) by
tests/reference/gamma/make_pygamma_reference.py, committed as
tests/reference/gamma/pygamma_0_5_9.json; and the ranges of pygamma's own
tests (tests/test_gammas.py of pygamma-agreement 0.5.9).
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

import concord
from concord._coefficients.spans import gamma_blocks
from concord._coefficients.spans.gamma_align import best_alignments, disorders, make_batch
from concord._coefficients.spans.gamma_chance import samples_needed

HERE = Path(__file__).parent
DATA = HERE / "data" / "gamma"
REFERENCE = json.loads((HERE / "reference" / "gamma" / "pygamma_0_5_9.json").read_text())


def _table(name: str) -> dict[str, list[object]]:
    """A pygamma CSV (annotator, label, start, end; no header) as one item's spans."""
    rows = list(csv.reader((DATA / name).open()))
    return {
        "item": ["doc"] * len(rows),
        "rater": [r[0] for r in rows],
        "label": [r[1] for r in rows],
        "start": [int(float(r[2])) for r in rows],
        "end": [int(float(r[3])) for r in rows],
    }


def _case(name: str, alpha: float) -> dict[str, object]:
    return next(c for c in REFERENCE["cases"] if c["file"] == name and c["alpha"] == alpha)


CASES = [(c["file"], c["alpha"]) for c in REFERENCE["cases"]]


# --- the acceptance: AlexPaulSuzan, alpha = 3 --------------------------------------------


def test_alex_paul_suzan_best_alignment_is_pygammas():
    """pygamma-agreement tests/test_gammas.py: 6 unitary alignments, disorder ≈ 0.96."""
    r = concord.gamma(_table("AlexPaulSuzan.csv"), alpha=3, precision_level=0.05, rng=1)
    assert len(r.alignment()) == 6
    assert r.observed_disorder == pytest.approx(0.96, rel=0.01)
    ref = _case("AlexPaulSuzan.csv", 3.0)
    assert r.observed_disorder == pytest.approx(ref["observed_disorder"], abs=1e-6)
    # the same unitary alignments as pygamma's (its MIP solver's choice among ties too)
    ours = sorted(
        tuple(sorted((k, v) for k, v in u.items() if k != "disorder" and v is not None))
        for u in r.alignment()
    )
    theirs = sorted(
        tuple(sorted((a, (int(s), int(e), lab)) for a, s, e, lab in u if s is not None))
        for u in ref["alignment"]
    )
    assert ours == theirs


@pytest.mark.parametrize(("name", "alpha"), CASES)
def test_observed_disorder_and_alignment_size_match_pygamma(name, alpha):
    ref = _case(name, alpha)
    table = _table(name)
    r = concord.gamma(table, alpha=alpha, precision_level=0.2, rng=0)
    assert r.observed_disorder == pytest.approx(ref["observed_disorder"], abs=2e-5)
    assert len(r.alignment()) == ref["n_unitary_alignments"]


@pytest.mark.parametrize(("name", "alpha"), [c for c in CASES if c[0] != "3by100.csv"])
def test_gamma_matches_pygamma_within_its_precision(name, alpha):
    """γ, γ_cat, γ_k against the mean of pygamma's runs (numpy seeds in the JSON).

    The expected disorder has relative precision ``precision_level`` at 95 %
    (both programs), so γ differs by about (1 − γ)·2·precision at most; γ_k's
    chance disorders are not controlled by that rule, so they get more room.
    """
    ref = _case(name, alpha)
    runs = ref["runs"]
    r = concord.gamma(_table(name), alpha=alpha, precision_level=ref["precision_level"], rng=7)
    mean = np.mean([x["gamma"] for x in runs])
    room = 3 * abs(1 - mean) * ref["precision_level"] + 0.01
    assert r.statistic == pytest.approx(mean, abs=room)
    assert r.expected_disorder == pytest.approx(
        np.mean([x["expected_disorder"] for x in runs]), rel=3 * ref["precision_level"]
    )
    assert r.gamma_cat == pytest.approx(np.mean([x["gamma_cat"] for x in runs]), abs=0.03)
    for label, value in r.gamma_k.items():
        theirs = [x["gamma_k"][label] for x in runs if x["gamma_k"][label] is not None]
        assert value == pytest.approx(np.mean(theirs), abs=0.08), label


def test_3by100_within_pygammas_own_test_ranges():
    """pygamma-agreement tests/test_gammas.py::test_gamma_3by100 (alpha = 3).

    pygamma's ranges are for its own random stream (30 samples, numpy seed 4772);
    ours is another stream, so each range gets 0.01 more on either side.
    """
    r = concord.gamma(_table("3by100.csv"), alpha=3, precision_level=0.02, rng=4772)
    assert len(r.alignment()) == 127
    ranges = {"gamma": (0.79, 0.81), "gamma_cat": (0.89, 0.91)}
    ranges |= {"Adj": (0.81, 0.83), "Noun": (0.88, 0.90), "Verb": (0.69, 0.71)}
    ranges["Prep"] = (0.96, 1.0)
    values = {"gamma": r.statistic, "gamma_cat": r.gamma_cat, **r.gamma_k}
    for name, (low, high) in ranges.items():
        assert low - 0.01 <= values[name] <= high + 0.01, name


# --- the alignment is exact --------------------------------------------------------------


def _brute_force(rater, start, end, label, n, alpha, beta):
    """Least disorder over every partition into n-tuples (all tuples, no pruning)."""
    units = list(range(len(rater)))
    per = [[u for u in units if rater[u] == r] + [None] for r in range(n)]
    pairs = n * (n - 1) / 2

    def d(u, v):
        pos = (abs(start[u] - start[v]) + abs(end[u] - end[v])) / (
            (end[u] - start[u]) + (end[v] - start[v])
        )
        return alpha * pos * pos + beta * (label[u] != label[v])

    tuples = []
    for t in itertools.product(*per):
        real = [u for u in t if u is not None]
        if not real:
            continue
        cost = sum(
            1.0 if (a is None or b is None) else d(a, b) for a, b in itertools.combinations(t, 2)
        )
        tuples.append((frozenset(real), cost / pairs))

    def best(left):
        if not left:
            return 0.0
        low = min(left)
        return min(c + best(left - t) for t, c in tuples if low in t and t <= left)

    return best(frozenset(units)) / (len(units) / n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_best_alignment_equals_brute_force(n):
    rng = np.random.default_rng(n)
    for _ in range(25 if n < 4 else 8):
        k = rng.integers(1, 4 if n < 4 else 3, size=n)
        rater = np.repeat(np.arange(n), k)
        start = rng.integers(0, 30, size=rater.size).astype(float)
        end = start + rng.integers(1, 12, size=rater.size)
        label = rng.integers(0, 2, size=rater.size)
        alpha = float(rng.choice([1.0, 3.0]))
        b = make_batch(np.zeros(rater.size, int), rater, start, end, label, n, 1)
        rows, costs = best_alignments(b, alpha, 1.0)
        want = _brute_force(b.rater, b.start, b.end, b.label, n, alpha, 1.0)
        assert disorders(b, rows, costs)[0] == pytest.approx(want, abs=1e-9)
        used = np.sort(rows[rows >= 0])
        assert np.array_equal(used, np.arange(b.n_units))  # every unit exactly once


@pytest.mark.parametrize("n", [2, 3])
def test_scipy_fallbacks_give_the_same_alignment(monkeypatch, n):
    """Blocks too large for the exact search go to linear_sum_assignment (2) or HiGHS (3+)."""
    rng = np.random.default_rng(10 + n)
    k = rng.integers(8, 14, size=n)
    rater = np.repeat(np.arange(n), k)
    start = np.sort(rng.integers(0, 120, size=rater.size)).astype(float)
    end = start + rng.integers(3, 15, size=rater.size)
    label = rng.integers(0, 3, size=rater.size)
    b = make_batch(np.zeros(rater.size, int), rater, start, end, label, n, 1)
    exact = disorders(b, *best_alignments(b, 2.0, 1.0))
    monkeypatch.setattr(gamma_blocks, "_MAX_STATES", 0)
    fallback = disorders(b, *best_alignments(b, 2.0, 1.0))
    assert fallback == pytest.approx(exact, abs=1e-9)


# --- the chance model and the pooled γ ---------------------------------------------------


def test_precision_rule_is_pygammas():
    """pygamma: ⌈(1.96 · sd/mean / precision)²⌉ in all (population sd), never fewer."""
    d = np.array([1.0, 2.0, 3.0] * 10)
    cv = np.std(d) / np.mean(d)
    assert samples_needed(d, 0.05) == math.ceil((cv * 1.96 / 0.05) ** 2)
    assert samples_needed(d, 0.9) == 30


def test_several_items_pool_the_disorders_by_spans_per_rater():
    one = _table("AlexPaulSuzan.csv")
    two = _table("example_figure10.csv")
    both = {k: one[k] + ([f"x{v}" for v in two[k]] if k == "item" else two[k]) for k in one}
    # the raters differ between the files: every rater of the table rates every item
    r = concord.gamma(both, alpha=3, precision_level=0.05, rng=3)
    assert r.items == ("doc", "xdoc")
    w = np.array([16 / 6, 6 / 6])  # mean spans per rater: 16 and 6 spans over 6 raters
    obs = np.array(r.item_observed)
    assert r.observed_disorder == pytest.approx(np.sum(w * obs) / np.sum(w))
    exp = np.array(r.item_expected)
    assert r.statistic == pytest.approx(1 - np.sum(w * obs) / np.sum(w * exp))
    assert len(r.per_item()) == 2


def test_same_seed_same_result_and_identical_raters_agree():
    table = _table("AlexPaulSuzan.csv")
    a = concord.gamma(table, rng=5, precision_level=0.1)
    b = concord.gamma(table, rng=np.random.default_rng(5), precision_level=0.1)
    assert a.statistic == b.statistic and a.n_samples == b.n_samples
    alex = {k: v[:6] for k, v in _table("AlexPaulSuzan.csv").items()}  # Alex's 6 spans
    same = {k: v * 2 for k, v in alex.items()}
    same["rater"] = ["p"] * 6 + ["q"] * 6
    r = concord.gamma(same, rng=0, precision_level=0.1)
    assert r.observed_disorder == 0 and r.statistic == 1 and r.gamma_cat == 1


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("alpha", -1, "'alpha'"),
        ("beta", "x", "'beta'"),
        ("precision_level", 0, "'precision_level'"),
        ("precision_level", 1.0, "'precision_level'"),
        ("rng", "seed", "'rng'"),
    ],
)
def test_bad_options_are_one_line_errors(option, value, words):
    with pytest.raises((ValueError, TypeError), match=words):
        concord.gamma(_table("example_figure10.csv"), **{option: value})


def test_one_rater_is_refused():
    t = {k: v[:6] for k, v in _table("AlexPaulSuzan.csv").items()}  # Alex's spans alone
    with pytest.raises(ValueError, match="at least two raters"):
        concord.gamma(t)


def test_bad_spans_are_refused_by_the_reader():
    t = _table("example_figure10.csv")
    t["end"][0] = t["start"][0]
    with pytest.raises(ValueError, match="row"):
        concord.gamma(t)


def test_alignment_of_an_unknown_item_is_refused():
    r = concord.gamma(_table("example_figure10.csv"), rng=0, precision_level=0.2)
    with pytest.raises(ValueError, match="'item'"):
        r.alignment("nope")


def test_result_protocol_and_json():
    r = concord.gamma(_table("AlexPaulSuzan.csv"), alpha=3, rng=0, precision_level=0.1)
    data = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert data["coefficient"] == "gamma" and data["statistic"] == pytest.approx(r.statistic)
    assert set(data["gamma_k"]) == {"1", "2", "3", "4", "5", "6", "7"}
    frame = r.to_frame()
    assert list(frame["coefficient"][:2]) == ["gamma", "gamma_cat"]
    assert "γ =" in r.summary() and "observed" in r.explain()
    assert float(r) == r.statistic and "GammaResult(" in repr(r)


def test_an_intractable_search_is_refused(monkeypatch):
    """Like pygamma-agreement's assertion: too many possible unitary alignments is an error."""
    from concord._coefficients.spans import gamma_align

    monkeypatch.setattr(gamma_align, "_MAX_CELLS", 10)
    with pytest.raises(ValueError, match="Raise alpha"):
        concord.gamma(_table("AlexPaulSuzan.csv"), alpha=0.0)


def test_without_scipy_one_line_names_the_extra(monkeypatch):
    """Large blocks of spans are solved by scipy: gamma asks for it on every call."""
    import sys

    for name in ("scipy", "scipy.optimize", "scipy.sparse"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError) as caught:
        concord.gamma(_table("example_figure10.csv"))
    assert str(caught.value) == 'concord.gamma needs scipy: pip install "concord-agreement[stats]"'


def test_items_where_no_two_spans_can_be_aligned():
    """Each item has one rater's spans only: every span is alone (γ_cat's disorder 0 → 1).

    It failed (an int bincount) when no pair of spans was aligned anywhere.
    """
    t = {
        "item": ["a", "a", "b"],
        "rater": ["x", "x", "y"],
        "start": [0, 10, 3],
        "end": [5, 20, 9],
        "label": ["P", "L", "P"],
    }
    r = concord.gamma(t, rng=0, precision_level=0.1)
    assert r.item_observed == (2.0, 2.0)  # each span alone costs 1; 1 span per rater
    assert r.alignment("b") == [{"disorder": 1.0, "x": None, "y": (3, 9, "P")}]
    assert r.gamma_cat == 1.0 and math.isfinite(r.statistic)


def _milp_over_every_tuple(b, alpha):
    """pygamma's programme: every n-tuple a binary variable, each unit covered once (HiGHS)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    n = b.n_raters
    per = [[*np.flatnonzero(b.rater == r).tolist(), None] for r in range(n)]
    cols, costs = [], []
    for t in itertools.product(*per):
        real = [u for u in t if u is not None]
        if not real:
            continue
        total = 0.0
        for x, y in itertools.combinations(t, 2):
            if x is None or y is None:
                total += 1.0
            else:
                pos = (abs(b.start[x] - b.start[y]) + abs(b.end[x] - b.end[y])) / (
                    (b.end[x] - b.start[x]) + (b.end[y] - b.start[y])
                )
                total += alpha * pos * pos + (b.label[x] != b.label[y])
        cols.append(real)
        costs.append(total / (n * (n - 1) / 2))
    a = np.zeros((b.n_units, len(cols)))
    for j, real in enumerate(cols):
        a[real, j] = 1
    res = milp(costs, constraints=LinearConstraint(a, 1, 1), integrality=np.ones(len(cols)),
               bounds=Bounds(0, 1))  # fmt: skip
    return res.fun / (b.n_units / n)


def test_best_alignment_equals_the_full_programme_on_larger_continua():
    rng = np.random.default_rng(99)
    for _ in range(6):
        k = rng.integers(5, 9, size=3)
        rater = np.repeat(np.arange(3), k)
        start = rng.integers(0, 80, size=rater.size).astype(float)
        end = start + rng.integers(2, 15, size=rater.size)
        label = rng.integers(0, 3, size=rater.size)
        b = make_batch(np.zeros(rater.size, int), rater, start, end, label, 3, 1)
        ours = disorders(b, *best_alignments(b, 1.0, 1.0))[0]
        assert ours == pytest.approx(_milp_over_every_tuple(b, 1.0), abs=1e-7)


def test_per_item_keeps_the_users_item_column():
    """per_item() named the column 'item' whatever the user called it."""
    t = {
        "doc": ["a", "a", "b", "b"],
        "rater": ["x", "y", "x", "y"],
        "start": [0, 1, 3, 3],
        "end": [5, 5, 9, 9],
        "label": ["P", "P", "P", "P"],
    }
    with pytest.warns(concord.UndefinedKappaWarning, match="γ_cat, γ_k of 'P'"):
        r = concord.gamma(t, item="doc", rng=0, precision_level=0.1)  # one label: γ_cat 0/0
    frame = r.per_item()
    assert "doc" in frame.columns and "item" not in frame.columns
    assert frame["doc"].tolist() == ["a", "b"]


def test_no_chance_disorder_is_undefined_with_a_warning():
    """Observed and expected disorders both 0: nan with a warning (it said γ = 1, as pygamma).

    Both raters mark the one span of the item: every random continuum is the same, so the
    expected disorder is 0 as well as the observed one, for γ, γ_cat and γ_k.
    """
    same = {"item": ["d", "d"], "rater": ["p", "q"], "start": [0, 0], "end": [10, 10],
            "label": ["A", "A"]}  # fmt: skip
    with pytest.warns(concord.UndefinedKappaWarning, match="γ, γ_cat, γ_k of 'A'") as caught:
        r = concord.gamma(same, rng=0, precision_level=0.1)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert r.observed_disorder == 0 and r.expected_disorder == 0
    assert math.isnan(r.statistic) and math.isnan(r.gamma_cat) and math.isnan(r.gamma_k["A"])
    assert math.isnan(r.item_gamma[0])
    assert json.dumps(r.to_dict(), allow_nan=False) and "undefined" in r.summary()


def test_one_item_without_chance_disorder_is_named():
    """The pooled γ is defined; the item whose expected disorder is 0 has nan, and is named."""
    rows = {"item": ["d", "d", "e", "e", "e"], "rater": ["p", "q", "p", "q", "q"],
            "start": [0, 0, 0, 2, 9], "end": [10, 10, 5, 6, 12], "label": ["A"] * 5}  # fmt: skip
    with pytest.warns(concord.UndefinedKappaWarning, match="γ of item 'd'"):
        r = concord.gamma(rows, rng=0, precision_level=0.1)
    assert math.isnan(r.item_gamma[0]) and math.isfinite(r.statistic)
