"""The result of :func:`concord.unitizing_alpha`: Krippendorff's uα, overall and per category."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._common.exact import fsum
from concord._common.jsonable import jsonable
from concord._common.text import number
from concord._results.protocol import Reported, row
from concord._results.spans.unitizing_text import family_lines

_NAME = "Krippendorff's unitizing alpha"
# what each variant's statistic is (Krippendorff 2004; Krippendorff et al. 2016)
_WHAT = {
    "u": "uα (Krippendorff 2004)",
    "u2016": "uα (Krippendorff et al. 2016; Krippendorff 2019, § 12.6)",
    "|u": "|uα, relevant against irrelevant matter (Krippendorff et al. 2016)",
    "cu": "cuα, the categories where units intersect (Krippendorff et al. 2016)",
    "(k)u": "cuα, with (k)uα of each category (Krippendorff et al. 2016)",
}


@dataclass(frozen=True, eq=False, repr=False)
class UnitizingAlphaResult(Reported):
    """Krippendorff's unitizing α of raters who marked units on continua.

    Returned by :func:`concord.unitizing_alpha`. Variant ``"u"``: for each
    category c, α_c = 1 − D_o,c / D_e,c; overall α = 1 − Σ_c D_o,c / Σ_c D_e,c
    (Krippendorff 2004, pp. 251–256; DKPro Statistics'
    ``KrippendorffAlphaUnitizingAgreement``). Variants ``"|u"``, ``"cu"``
    and ``"(k)u"`` (Krippendorff et al. 2016): ``statistic`` is |uα
    (no per-category values), or cuα with the (k)uα of each category in
    ``alphas`` (``"cu"`` and ``"(k)u"`` compute the same numbers).

    Attributes
    ----------
    statistic : float
        The overall α, |uα or cuα (nan, with a warning, when undefined).
    exact : fractions.Fraction or None
        The statistic exactly (None when undefined).
    variant : str
        ``"u"``, ``"u2016"``, ``"|u"``, ``"cu"`` or ``"(k)u"``.
    labels : tuple
        The categories, in the order they first appear.
    alphas : numpy.ndarray
        α_c (``"u"``) or (k)uα (``"cu"``, ``"(k)u"``) per category (nan where
        undefined; all nan for ``"u2016"`` and ``"|u"``, which pool the categories).
    observed, expected : numpy.ndarray
        D_o,c and D_e,c per category.
    units : numpy.ndarray
        The units of each category, all raters together (N_c).
    raters : tuple
        The raters (m of them).
    n_items : int
        The items (continua), laid end to end.
    length : int
        The length L of the laid-out continuum: the sum of the items' lengths.
    label_column : str
        The name of the spans' label column: the categories' column in
        ``to_frame()`` and ``to_dict()``.
    pooled : tuple of float, optional
        The statistic's (D_o, D_e) for the 2016 variants (None for ``"u"``,
        whose overall sums the categories' D_o,c and D_e,c).
    coverage : float, optional
        cuα and (k)uα: the share l*.. / l.. of the coincidences where units
        of two raters intersect, the part of the continua they judge.
    """

    statistic: float
    exact: Fraction | None
    variant: str
    labels: tuple[Any, ...]
    alphas: np.ndarray
    observed: np.ndarray
    expected: np.ndarray
    units: np.ndarray
    raters: tuple[Any, ...]
    n_items: int
    length: int
    label_column: str = "label"
    pooled: tuple[float, float] | None = None
    coverage: float | None = None

    def __post_init__(self) -> None:
        for values in (self.alphas, self.observed, self.expected, self.units):
            values.setflags(write=False)

    @property
    def name(self) -> str:
        return _NAME if self.variant == "u" else f"{_NAME} ({self.variant})"

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        variant = "" if self.variant == "u" else f"variant={self.variant!r}, "
        return (
            f"UnitizingAlphaResult({variant}statistic={self.statistic:.6g}, "
            f"labels={len(self.labels)}, "
            f"raters={len(self.raters)}, n_items={self.n_items}, length={self.length})"
        )

    def alpha(self, label: Any) -> float:
        """Return α_c (``"u"``) or (k)uα (``"cu"``, ``"(k)u"``) of one category."""
        if self.variant in ("u2016", "|u"):
            raise ValueError(
                f"variant {self.variant!r} pools the categories: it has no per-category α; "
                "use variant='(k)u' (or 'u') for one category's."
            )
        for c, a in zip(self.labels, self.alphas.tolist(), strict=True):
            if c == label:
                return float(a)
        known = ", ".join(repr(c) for c in self.labels)
        raise KeyError(f"{label!r} is not a category of these spans; they have {known}.")

    def summary(self) -> str:
        """Return one sentence: the variant's α, its categories' range, raters and length."""
        symbol = {"u": "α", "u2016": "α (2016)", "|u": "|uα"}.get(self.variant, "cuα")
        head = f"Krippendorff's unitizing {symbol} = {_shown(self.statistic)}"
        defined = [a for a in self.alphas.tolist() if math.isfinite(a)]
        each = "per category" if self.variant == "u" else "(k)uα per category"
        spread = (
            f" ({each} {_shown(min(defined))} to {_shown(max(defined))})"
            if (len(self.labels) > 1 or self.variant != "u") and defined
            else ""
        )
        cover = (
            f", judged on the {self.coverage:.1%} of the coincidences where units intersect"
            if self.coverage is not None
            else ""
        )
        return (
            f"{head}{spread} for {len(self.raters)} raters on {self.n_items} "
            f"item{'s' if self.n_items != 1 else ''} of total length {self.length}{cover}."
        )

    def explain(self) -> str:
        """Return D_o,c, D_e,c and α_c of each category and how the overall α follows."""
        if self.variant != "u":
            return "\n".join(family_lines(self, _WHAT[self.variant], _shown))
        m, big = len(self.raters), self.length
        lines = [
            f"{_NAME} (Krippendorff 2004) of m = {m} raters on a continuum of L = {big} "
            f"({self.n_items} item{'s' if self.n_items != 1 else ''} laid end to end):",
            "  D_o,c = 2 Σ_(rater pairs) Σ_(segments) δ² / (m (m − 1) L²): δ² = (Δbegin)² + "
            "(Δend)² for overlapping units, l² for a unit in the other's gap",
            "  D_e,c: every unit of c placed by chance in every gap at least as long "
            "(Krippendorff 2004, p. 254)",
        ]
        for c, o, e, a, n in zip(
            self.labels, self.observed, self.expected, self.alphas, self.units, strict=True
        ):
            lines.append(
                f"  {c!s}: N_c = {int(n)} unit{'' if n == 1 else 's'}, D_o = {number(o)}, "
                f"D_e = {number(e)}, "
                f"α_c = {_shown(a)}"
            )
        lines.append(
            f"α = 1 − Σ D_o,c / Σ D_e,c = 1 − {number(fsum(self.observed))} / "
            f"{number(fsum(self.expected))} = {_shown(self.statistic)}"
        )
        return "\n".join(lines)

    def _rows_(self) -> list[dict[str, Any]]:
        m = len(self.raters)
        observed, expected = (
            (fsum(self.observed), fsum(self.expected)) if self.pooled is None else self.pooled
        )
        extra: dict[str, Any] = {} if self.coverage is None else {"coverage": self.coverage}
        rows = [
            row(
                self.name,
                self.statistic,
                n=self.length,
                **{self.label_column: "(all)"},
                observed=observed,
                expected=expected,
                units=int(np.sum(self.units)),
                raters=m,
                **extra,
            )
        ]
        if self.variant in ("u2016", "|u"):  # the categories pooled: no row of their own
            return rows
        for c, a, o, e, n in zip(
            self.labels, self.alphas, self.observed, self.expected, self.units, strict=True
        ):
            rows.append(
                row(
                    self.name,
                    float(a),
                    n=self.length,
                    **{self.label_column: str(c)},
                    observed=float(o),
                    expected=float(e),
                    units=int(n),
                    raters=m,
                )
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Return JSON-ready values (nan is None): the tidy columns, then per category."""
        out = {
            **row(self.name, self.statistic, n=self.length),
            "variant": self.variant,
            "what": _WHAT[self.variant],
            "raters": [str(r) for r in self.raters],
            "n_items": self.n_items,
            "length": self.length,
            **({} if self.coverage is None else {"coverage": self.coverage}),
            "categories": [
                {k: v for k, v in r.items() if k not in ("coefficient", "n")}
                for r in self._rows_()[1:]
            ],
        }
        result: dict[str, Any] = jsonable(out)
        return result


def _shown(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.4f}"
