"""The frozen result of :func:`concord.gamma`: γ, γ_cat, γ_k, per item, and the alignments."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common.jsonable import jsonable
from concord._common.text import number
from concord._results.protocol import Reported, row, tidy_frame

_SOURCE = "Mathet, Widlöcher & Métivier (2015); γ_cat, γ_k: Mathet (2017)"


@dataclass(frozen=True, eq=False, repr=False)
class GammaResult(Reported):
    """γ of Mathet, Widlöcher & Métivier (2015): agreement on units placed on a continuum.

    Attributes
    ----------
    statistic : float
        γ = 1 − observed disorder / expected disorder. Over several items the
        disorders are the items' disorders averaged with weights the items' mean
        numbers of spans per rater (the observed one is then the disorder of the
        best alignment of all items, no unit aligned across items).
    observed_disorder, expected_disorder : float
        The disorder of the best alignment, and its mean over the random continua.
    gamma_cat : float
        γ_cat: agreement on the labels of aligned spans (Mathet 2017), as
        pygamma-agreement 0.5.9.
    gamma_k : dict
        γ_k for each label, as pygamma-agreement 0.5.9 (nan when undefined).
    items, raters, labels : tuple
        Every item, rater and label of the input.
    item_gamma, item_observed, item_expected, item_gamma_cat : tuple of float
        Per item (nan for an item on which no one marked a span).
    item_samples : tuple of int
        The number of random continua behind each item's expected disorder.
    alpha, beta, precision_level : float
        The weights of the positional and categorical dissimilarities, and the
        relative precision asked of each expected disorder.
    """

    statistic: float
    observed_disorder: float
    expected_disorder: float
    gamma_cat: float
    gamma_k: dict[Any, float]
    items: tuple[Any, ...]
    raters: tuple[Any, ...]
    labels: tuple[Any, ...]
    item_gamma: tuple[float, ...]
    item_observed: tuple[float, ...]
    item_expected: tuple[float, ...]
    item_gamma_cat: tuple[float, ...]
    item_samples: tuple[int, ...]
    alpha: float
    beta: float
    precision_level: float
    # the spans (item, rater, start, end, label codes), one row each
    spans_: np.ndarray
    # the best alignments: per rater a row of spans_, -1 for an empty slot
    alignment_: np.ndarray
    alignment_item_: np.ndarray
    alignment_disorder_: np.ndarray
    # the user's column of the items, which per_item() keeps
    item_column: Any = field(default="item")

    name = "gamma"
    _figures_ = (("γ's best alignment of the item of lowest γ", "SpanAlignmentDisplay"),)

    def _figure_options_(self, name: str) -> dict[str, Any]:
        """Return the report figure's options: the item of lowest γ (first of equals, nan last)."""
        gammas = np.array(self.item_gamma, dtype=np.float64)
        defined = np.isfinite(gammas)
        at = int(np.argmin(np.where(defined, gammas, np.inf))) if defined.any() else 0
        return {"item": self.items[at]}

    @property
    def n_samples(self) -> int:
        """The number of random continua drawn, all items together."""
        return int(sum(self.item_samples))

    def __repr__(self) -> str:
        return (
            f"GammaResult(statistic={self.statistic:.6g}, observed_disorder="
            f"{self.observed_disorder:.6g}, expected_disorder={self.expected_disorder:.6g}, "
            f"gamma_cat={self.gamma_cat:.6g}, n_items={len(self.items)}, "
            f"n_raters={len(self.raters)})"
        )

    def __float__(self) -> float:
        return float(self.statistic)

    def alignment(self, item: Any = None) -> list[dict[str, Any]]:
        """Return the best alignment of one item (the first when None).

        One dict per unitary alignment: ``disorder`` and, for each rater, its
        span as (start, end, label) or None for an empty slot.
        """
        code = self._item_code(item)
        out = []
        for k in np.flatnonzero(self.alignment_item_ == code):
            entry: dict[str, Any] = {"disorder": float(self.alignment_disorder_[k])}
            for r, name in enumerate(self.raters):
                u = int(self.alignment_[k, r])
                s = self.spans_[u] if u >= 0 else None
                entry[name] = None if s is None else (int(s[2]), int(s[3]), self.labels[s[4]])
            out.append(entry)
        return out

    def _item_code(self, item: Any) -> int:
        if item is None:
            return 0
        if item not in self.items:
            from concord._common.errors import param_error

            param_error(
                "GammaResult.alignment", "item", f"one of the items {list(self.items)}", item
            )
        return self.items.index(item)

    def _rows_(self) -> list[dict[str, Any]]:
        n = len(self.items)
        rows = [
            row("gamma", self.statistic, n=n, observed_disorder=self.observed_disorder,
                expected_disorder=self.expected_disorder, n_samples=self.n_samples),
            row("gamma_cat", self.gamma_cat, n=n),
        ]  # fmt: skip
        rows += [row(f"gamma_k[{label}]", v, n=n) for label, v in self.gamma_k.items()]
        return rows

    def per_item(self) -> Any:
        """Return a DataFrame: per item γ, γ_cat, the disorders and the number of samples."""
        rows = [
            row("gamma", g, n=len(self.raters), item=i, observed_disorder=o,
                expected_disorder=e, gamma_cat=c, n_samples=s)
            for i, g, o, e, c, s in zip(
                self.items, self.item_gamma, self.item_observed, self.item_expected,
                self.item_gamma_cat, self.item_samples, strict=True,
            )
        ]  # fmt: skip
        frame = tidy_frame(rows)
        return frame.rename(columns={"item": self.item_column})

    def to_dict(self) -> dict[str, Any]:
        """Return the values as JSON-ready Python (nan as None): γ, γ_cat, γ_k, per item."""
        return dict(
            jsonable(
                {
                    **self._rows_()[0],
                    "gamma_cat": self.gamma_cat,
                    "gamma_k": {str(k): v for k, v in self.gamma_k.items()},
                    "alpha": self.alpha,
                    "beta": self.beta,
                    "precision_level": self.precision_level,
                    "items": [
                        {"item": i, "gamma": g, "observed_disorder": o,
                         "expected_disorder": e, "gamma_cat": c, "n_samples": s}
                        for i, g, o, e, c, s in zip(
                            self.items, self.item_gamma, self.item_observed,
                            self.item_expected, self.item_gamma_cat, self.item_samples,
                            strict=True,
                        )
                    ],
                }
            )
        )  # fmt: skip

    def summary(self) -> str:
        """Return one sentence: γ, the disorders and what they rest on."""
        if math.isnan(self.statistic):
            return "γ is undefined: no one marked a span on any item."
        where = "1 item" if len(self.items) == 1 else f"{len(self.items)} items"
        return (
            f"γ = {number(self.statistic, 3)} over {where} and {len(self.raters)} raters "
            f"(observed disorder {number(self.observed_disorder, 3)}, expected "
            f"{number(self.expected_disorder, 3)} from {self.n_samples} random continua); "
            f"γ_cat = {number(self.gamma_cat, 3)}."
        )

    def explain(self) -> str:
        """Return the computation step by step."""
        return "\n".join(
            [
                f"γ ({_SOURCE}), as pygamma-agreement 0.5.9 computes it.",
                f"1. d(u, v) = {number(self.alpha)}·((|Δstart| + |Δend|) / (len_u + len_v))² "
                f"+ {number(self.beta)}·[labels differ]; 1 for a span left alone.",
                "2. The best alignment of each item: unitary alignments (at most one span "
                "per rater) of least total disorder, found exactly; its disorder is the sum "
                "over unitary alignments of their mean pairwise d, over the mean number of "
                "spans per rater.",
                "3. The expected disorder: the mean disorder of random continua drawn with "
                "the item's numbers of spans, gaps, lengths and label frequencies "
                "(pygamma's StatisticalContinuumSampler); 30, then ⌈(1.96·cv / "
                f"{number(self.precision_level)})²⌉ in all.",
                *self._pooling(),
                f"{4 + (len(self.items) > 1)}. Observed {number(self.observed_disorder)}, "
                f"expected {number(self.expected_disorder)}: γ = 1 − observed / expected = "
                f"{number(self.statistic)}.",
            ]
        )

    def _pooling(self) -> list[str]:
        if len(self.items) == 1:
            return []
        return [
            f"4. {len(self.items)} items: each item's observed and expected disorders are "
            "averaged with weights its mean number of spans per rater (γ_cat, γ_k alike)."
        ]
