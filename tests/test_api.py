"""The public API contract: names, import cost, and the result object's conventions."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import concord

# the contract itself is tests/reference/api_snapshot.txt (tests/test_api_snapshot.py)
PUBLIC = set(concord.__all__)


def test_all_is_the_contract():
    for name in concord.__all__:
        assert hasattr(concord, name)


def test_every_public_callable_has_a_numpydoc_docstring_with_examples():
    for name in concord.__all__:
        obj = getattr(concord, name)
        if callable(obj) and not isinstance(obj, type):
            doc = inspect.getdoc(obj) or ""
            for section in ("Parameters", "Returns", "Examples"):
                assert section in doc, f"{name} lacks {section}"


@pytest.mark.parametrize(
    "name",
    [n for n in sorted(PUBLIC) if n[0].islower() and n != "__version__" and n != "weight_matrix"],
)
def test_data_positional_only_options_keyword_only(name):
    params = list(inspect.signature(getattr(concord, name)).parameters.values())
    kinds = [p.kind for p in params]
    data = (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.VAR_POSITIONAL,
    )  # homogeneity(*results)
    first_option = next((i for i, k in enumerate(kinds) if k not in data), len(kinds))
    assert first_option >= 1
    keyword = (
        inspect.Parameter.KEYWORD_ONLY,
        inspect.Parameter.VAR_KEYWORD,
    )  # accumulate(**options)
    assert all(k in keyword for k in kinds[first_option:])


def test_import_needs_numpy_only():
    code = (
        "import sys, concord, concord.plot, concord.report; heavy = ['pandas', 'matplotlib', "
        "'scipy', 'dask', 'numba', 'click', 'sklearn', 'jinja2', 'tqdm', 'pyarrow']; "
        "print([m for m in heavy if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.fixture
def result():
    return concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 2, 3, 3], weights="quadratic")


def test_result_is_frozen(result):
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.statistic = 0.5
    with pytest.raises(ValueError, match="read-only"):
        result.observed[0, 0] = 7


def test_result_conventions(result):
    assert float(result) == result.statistic
    assert result.n == result.n_items == 5
    assert result.labels == (1, 2, 3)
    assert result.observed.dtype == np.int64
    assert result.expected.sum() == pytest.approx(result.observed.sum())
    assert result.weighting == "quadratic"
    assert np.all(np.diag(result.weights) == 0) and result.weights.max() == 1
    p_o, p_e = result.observed_agreement, result.chance_agreement
    assert result.statistic == pytest.approx((p_o - p_e) / (1 - p_e), rel=1e-14)
    assert repr(result) == "KappaResult(statistic=0.642857, weighting='quadratic', n=5, k=3)"


def test_explain_shows_every_step(result):
    # by hand: W = (i - j)²/4; ΣW·O = 0.25 + 0.25; row and column totals (1, 2, 2), so
    # ΣW·E = (0.25·2 + 1·2 + 0.25·2 + 0.25·4 + 1·2 + 0.25·4) / 5 = 1.4 and κ = 1 − 0.5/1.4
    text = result.explain()
    for fragment in (
        "Observed matrix O",
        "Weight matrix W",
        "Expected matrix E",
        "ΣW·O = 0.5",
        "ΣW·E = 1.4",
        "κ = 1 − ΣW·O / ΣW·E = 1 − 0.5 / 1.4 = 0.642857",
        "p_o = 0.9, p_e = 0.72",
        "Interpretation (Landis & Koch 1977): substantial",
    ):
        assert fragment in text


@pytest.mark.parametrize(
    ("scale", "value", "label"),
    [
        ("landis-koch", -0.01, "poor"),
        ("landis-koch", 0.0, "slight"),
        ("landis-koch", 0.2, "slight"),
        ("landis-koch", 0.21, "fair"),
        ("landis-koch", 0.6, "moderate"),
        ("landis-koch", 0.8, "substantial"),
        ("landis-koch", 0.81, "almost perfect"),
        ("landis-koch", 1.0, "almost perfect"),
        ("fleiss", 0.39, "poor"),
        ("fleiss", 0.4, "fair to good"),
        ("fleiss", 0.75, "fair to good"),
        ("fleiss", 0.76, "excellent"),
        ("altman", 0.2, "poor"),
        ("altman", 0.41, "moderate"),
        ("altman", 0.8, "good"),
        ("altman", 0.9, "very good"),
        ("cicchetti", 0.59, "fair"),
        ("cicchetti", 0.6, "good"),
        ("cicchetti", 0.75, "excellent"),
        ("krippendorff", 0.666, "unacceptable"),
        ("krippendorff", 0.667, "tentative"),
        ("krippendorff", 0.8, "acceptable"),
    ],
)
def test_interpretation_scales(scale, value, label):
    from concord._results.interpret import interpret

    assert interpret(value, scale, "test") == label


KRIPPENDORFF_C = [  # Krippendorff (2011)'s data: 4 observers, 12 units; α = 0.743 (nominal)
    [1, 1, np.nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [np.nan, 5, 5, 5], [np.nan, np.nan, 1, 1],
    [np.nan, np.nan, 3, np.nan],
]  # fmt: skip


def test_each_coefficient_has_its_own_default_scale():
    # α on Krippendorff's (2004, p. 241) rule: 0.743 supports tentative conclusions only,
    # where Landis & Koch would call it "substantial"
    alpha = concord.krippendorff_alpha(KRIPPENDORFF_C)
    assert alpha.interpret() == "tentative"
    assert alpha.interpret("landis-koch") == "substantial"
    assert "Interpretation (Krippendorff 2004): tentative" in alpha.explain()
    # the kappa-type coefficients keep Landis & Koch (1977)
    fleiss = concord.fleiss_kappa(KRIPPENDORFF_C)
    assert fleiss.interpret() == "substantial"
    assert "Interpretation (Landis & Koch 1977): substantial" in fleiss.explain()
    assert concord.cohen_kappa([1, 2, 2, 1], [1, 2, 2, 2]).interpret() == "moderate"
    # percent agreement (0.82 here) is not chance-corrected: no scale unless asked for
    pa = concord.percent_agreement(KRIPPENDORFF_C)
    with pytest.raises(ValueError, match="No published benchmark scale is made for percent"):
        pa.interpret()
    assert pa.interpret("landis-koch") == "almost perfect"
    assert "Interpretation: none (no benchmark scale" in pa.explain()


def _extra_requirements(extras: dict[str, list[str]], name: str) -> set[str]:
    """Return the distributions an extra installs, following concord-agreement[...] references."""
    import re

    found: set[str] = set()
    for requirement in extras[name]:
        nested = re.fullmatch(r"concord-agreement\[(.+)\]", requirement)
        if nested:
            for inner in nested.group(1).split(","):
                found |= _extra_requirements(extras, inner.strip())
        else:
            found.add(re.split(r"[<>=!~\[;]", requirement, maxsplit=1)[0].strip().lower())
    return found


def test_each_extra_installs_what_its_feature_imports():
    # `make demo` installs only the demo extra: a module the CLI or the report imports
    # lazily (scipy for t intervals, say) must be in it, or the demo fails on a fresh machine
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    root = Path(__file__).resolve().parents[1]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    needs = {
        "stats": {"scipy"},
        "cli": {"click", "pandas", "pyarrow", "openpyxl", "tabulate", "tqdm", "scipy"},
        "plot": {"matplotlib"},
        "report": {"matplotlib", "jinja2", "scipy"},
        "dask": {"dask", "distributed"},
        "array": {"array-api-compat"},
        "fast": {"numba"},
    }
    needs["demo"] = needs["fast"] | needs["cli"] | needs["report"]
    for extra, modules in needs.items():
        missing = modules - _extra_requirements(extras, extra)
        assert not missing, f"the {extra} extra lacks {sorted(missing)}"
