"""concord.gamma: γ of Mathet, Widlöcher & Métivier (2015) for spans on items.

γ aligns the raters' spans (each unitary alignment takes at most one span of
each rater), measures the disorder of the best alignment with a combined
positional and categorical dissimilarity, and compares it with the disorder of
random continua: γ = 1 − observed / expected. The definitions and the chance
model are pygamma-agreement 0.5.9's (see :mod:`.gamma_align`,
:mod:`.gamma_chance`, :mod:`.gamma_cat`); the alignment is found exactly
without a MIP solver.

Several items: each item is a continuum of its own, with its own best
alignment and its own chance model (pygamma-agreement works on one continuum).
The pooled γ weights each item's observed and expected disorders by its mean
number of spans per rater, n̄_i:

    γ = 1 − Σ n̄_i D_o,i / Σ n̄_i D_e,i

so its observed disorder is exactly that of the best alignment of all items
side by side (no span is aligned across items) and its expected disorder the
same weighted mean of the items' chance disorders. γ_cat and γ_k are pooled
the same way, γ_k of a label over the items where someone used it. An item on
which no one marked a span has no γ (nan) and no weight; every rater of the
table counts as a rater of every item (a rater with no span on an item said
"nothing here").
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.spans.gamma_align import make_batch
from concord._coefficients.spans.gamma_core import ItemGamma, gamma_items
from concord._common.errors import UndefinedKappaWarning, param_error
from concord._common.exact import fdot, fsum
from concord._common.extras import require
from concord._data.spans import read_spans
from concord._results.spans.gamma import GammaResult

_FUNC = "gamma"


def _check_number(name: str, value: Any, *, low: float, high: float, open_low: bool) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    x = float(value) if ok else math.nan
    inside = (x > low if open_low else x >= low) and x < high
    if not (ok and inside):
        side = "(" if open_low else "["
        param_error(_FUNC, name, f"a number in {side}{low:g}, {high:g})", value)
    return x


def gamma(
    spans: Any,
    /,
    *,
    alpha: float = 1.0,
    beta: float = 1.0,
    precision_level: float = 0.01,
    rng: Any = None,
    raters: Any = None,
    item: Any = "item",
    rater: Any = "rater",
    start: Any = "start",
    end: Any = "end",
    label: Any = "label",
) -> GammaResult:
    """γ of Mathet, Widlöcher & Métivier (2015): agreement on where spans are and what they say.

    Parameters
    ----------
    spans : table
        One row per span: item, rater, start, end (exclusive), label (see
        :func:`concord.read_annotations`); column names are overridable.
    alpha, beta : float
        Weights of the positional and the categorical dissimilarity (≥ 0).
    precision_level : float
        Relative precision of the expected disorder at 95 % confidence, in
        (0, 1): 30 random continua, then as many as Mathet et al. (2015, §5.3)
        ask for (pygamma-agreement's rule).
    rng : None, int or numpy.random.Generator
        Seed of the random continua.
    raters : list, optional
        The raters who annotated (declared). A rater who marked nothing on
        any item has no row in the table; listed here, that rater said
        "nothing here" on every item (each other rater's unit aligned with
        that rater's empty unit costs delta_empty). Default: the raters of
        the table.

    Returns
    -------
    GammaResult
        γ, γ_cat and γ_k per label, per item, and each item's best alignment
        (:meth:`GammaResult.alignment`, :class:`concord.plot.SpanAlignmentDisplay`).

    Notes
    -----
    γ = 1 − D_o / D_e is undefined where the expected disorder D_e is 0 (the
    random continua are all as ordered as can be, e.g. every rater marks one
    span over the whole item): γ, γ_cat, γ_k or an item's γ is then nan with
    an :class:`concord.UndefinedKappaWarning`, also when the observed
    disorder is 0 too, where pygamma-agreement says 1 (concord's policy
    for 0/0). γ_cat whose expected disorder alone is 0 is 0, as
    pygamma-agreement's.

    Examples
    --------
    pygamma-agreement's AlexPaulSuzan example (its tests/data, MIT) with
    alpha = 3: the best alignment has 6 unitary alignments and disorder 0.96.

    >>> import concord
    >>> rows = [("Alex", 1, 2, 9), ("Alex", 2, 11, 17), ("Alex", 5, 24, 30),
    ...         ("Alex", 6, 32, 36), ("Alex", 6, 36, 44), ("Alex", 7, 44, 60),
    ...         ("Paul", 1, 2, 9), ("Paul", 3, 11, 17), ("Paul", 5, 19, 25),
    ...         ("Paul", 6, 32, 44), ("Suzan", 1, 2, 9), ("Suzan", 4, 11, 17),
    ...         ("Suzan", 5, 21, 27), ("Suzan", 6, 32, 36), ("Suzan", 6, 36, 40),
    ...         ("Suzan", 6, 40, 44)]
    >>> table = {"item": ["doc"] * 16, "rater": [r[0] for r in rows],
    ...          "label": [str(r[1]) for r in rows], "start": [r[2] for r in rows],
    ...          "end": [r[3] for r in rows]}
    >>> result = concord.gamma(table, alpha=3, precision_level=0.05, rng=0)
    >>> len(result.alignment()), round(result.observed_disorder, 4)
    (6, 0.9606)
    >>> 0.35 < result.statistic < 0.5
    True
    """
    a = _check_number("alpha", alpha, low=0.0, high=math.inf, open_low=False)
    b = _check_number("beta", beta, low=0.0, high=math.inf, open_low=False)
    p = _check_number("precision_level", precision_level, low=0.0, high=1.0, open_low=True)
    generator = _generator(rng)
    # a large block of spans is solved by scipy: ask for it always, not only when one comes
    require("scipy.optimize", "stats", "concord.gamma")
    table = read_spans(
        spans, item=item, rater=rater, start=start, end=end, label=label, raters=raters,
        func=_FUNC,
    )  # fmt: skip
    if len(table.raters) < 2:
        param_error(
            _FUNC, "spans", "spans of at least two raters", f"the spans of {table.raters!r}",
            raw=True, fix="γ compares raters: add the other raters' spans.",
        )  # fmt: skip
    batch = make_batch(
        table.item, table.rater, table.start, table.end, table.label,
        n_raters=len(table.raters), n_continua=len(table.items),
    )  # fmt: skip
    per_item = gamma_items(
        batch, alpha=a, beta=b, precision_level=p, rng=generator, n_labels=len(table.labels)
    )
    weights = batch.units_per_continuum() / len(table.raters)
    return _result(table, batch, per_item, weights, a, b, p)


def _generator(rng: Any) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, int | np.integer) and not isinstance(rng, bool)):
        return np.random.default_rng(rng)
    param_error(_FUNC, "rng", "None, an int seed or a numpy.random.Generator", rng)


def _pooled(obs: np.ndarray, exp: np.ndarray, w: np.ndarray, cat: bool) -> float:
    """Return 1 − Σ w·obs / Σ w·exp over the items that have the value, as pygamma for one.

    An expected disorder of 0 is undefined (nan), the observed one 0 too
    (pygamma-agreement says 1 there); γ_cat with only its expected disorder 0
    is 0, as pygamma-agreement's.
    """
    ok = np.isfinite(obs) & np.isfinite(exp)
    if not ok.any():
        return math.nan
    o, e = fdot(w[ok], obs[ok]), fdot(w[ok], exp[ok])
    if e == 0:
        return 0.0 if cat and o != 0 else math.nan
    return 1.0 - o / e


def _no_chance(obs: np.ndarray, exp: np.ndarray) -> bool:
    """Whether the items that have the value expect no disorder at all (γ then undefined)."""
    ok = np.isfinite(obs) & np.isfinite(exp)
    return bool(ok.any()) and not np.any(exp[ok] != 0)


def _undefined(
    table: Any, obs: np.ndarray, exp: np.ndarray, obs_cat: np.ndarray, exp_cat: np.ndarray,
    cats: list[float],
) -> list[str]:  # fmt: skip
    """Name the values that are nan because their expected disorder is 0."""
    names = ["γ"] if _no_chance(obs, exp) else []
    if math.isnan(cats[0]) and _no_chance(obs_cat[:, 0], exp_cat[:, 0]):
        names.append("γ_cat")
    names += [
        f"γ_k of {c!r}"
        for k, c in enumerate(table.labels, 1)
        if math.isnan(cats[k]) and _no_chance(obs_cat[:, k], exp_cat[:, k])
    ]
    alone = [i for i in range(len(table.items)) if np.isfinite(obs[i]) and exp[i] == 0]
    if alone and names[:1] != ["γ"]:
        names.append(f"γ of item {', '.join(repr(table.items[i]) for i in alone)}")
    return names


def _warn(names: list[str]) -> None:
    if names:
        warnings.warn(
            f"{_FUNC}: undefined (nan): {', '.join(names)}. The expected disorder is 0 (every "
            "random continuum is as ordered as the raters' spans), so 1 − D_o / D_e has no "
            "value.",
            UndefinedKappaWarning,
            stacklevel=4,
        )


def _result(
    table: Any, batch: Any, per_item: list[ItemGamma | None], weights: np.ndarray,
    a: float, b: float, p: float,
) -> GammaResult:  # fmt: skip
    n_items, width = len(table.items), 1 + len(table.labels)
    obs, exp = np.full(n_items, np.nan), np.full(n_items, np.nan)
    obs_cat, exp_cat = np.full((n_items, width), np.nan), np.full((n_items, width), np.nan)
    item_gamma, item_cat = np.full(n_items, np.nan), np.full(n_items, np.nan)
    samples = np.zeros(n_items, dtype=np.int64)
    for i, g in enumerate(per_item):
        if g is None:
            continue
        obs[i], exp[i], samples[i] = g.observed, g.expected, g.chance.size
        obs_cat[i], exp_cat[i] = g.observed_cat, g.chance_cat.mean(axis=0)
        item_gamma[i], item_cat[i] = g.gamma, g.gamma_cat_k()[0]
    # γ_k of a label pools the items where someone used the label
    used = np.zeros((n_items, width), dtype=bool)
    used[:, 0] = True
    used[batch.continuum, 1 + batch.label] = True
    obs_cat[~used] = np.nan
    cats = [_pooled(obs_cat[:, k], exp_cat[:, k], weights, k == 0) for k in range(width)]
    _warn(_undefined(table, obs, exp, obs_cat, exp_cat, cats))
    live = [g for g in per_item if g is not None]
    rows = np.vstack([g.alignment for g in live]) if live else np.zeros((0, len(table.raters)))
    spans = np.column_stack((batch.continuum, batch.rater, batch.start, batch.end, batch.label))
    ok = np.isfinite(obs)
    return GammaResult(
        statistic=_pooled(obs, exp, weights, False),
        observed_disorder=fdot(weights[ok], obs[ok]) / fsum(weights[ok])
        if ok.any() else math.nan,
        expected_disorder=fdot(weights[ok], exp[ok]) / fsum(weights[ok])
        if ok.any() else math.nan,
        gamma_cat=cats[0],
        gamma_k=dict(zip(table.labels, cats[1:], strict=True)),
        items=tuple(table.items), raters=tuple(table.raters), labels=tuple(table.labels),
        item_column=table.names["item"],
        item_gamma=tuple(item_gamma.tolist()), item_observed=tuple(obs.tolist()),
        item_expected=tuple(exp.tolist()), item_gamma_cat=tuple(item_cat.tolist()),
        item_samples=tuple(int(s) for s in samples),
        alpha=a, beta=b, precision_level=p,
        spans_=spans.astype(np.int64),
        alignment_=rows.astype(np.int64),
        alignment_item_=batch.continuum[rows.max(axis=1)] if rows.size else np.zeros(0, int),
        alignment_disorder_=np.concatenate([g.unitary_disorders for g in live])
        if live else np.zeros(0),
    )  # fmt: skip
