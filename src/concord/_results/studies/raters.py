"""What :func:`concord.rater_diagnostics` returns: one row per rater, and the pairwise matrix.

It computes nothing itself: every number is a result's or a count's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._results.studies.comparison import ComparisonResult
from concord._results.studies.studies_text import RatersText


@dataclass(frozen=True, eq=False, repr=False)
class RaterDiagnostics(RatersText):
    """Each rater of a panel: left out, against the others, and their categories.

    Attributes
    ----------
    coefficient : str
        The function name of the coefficient left out of (``"krippendorff_alpha"``).
    raters : tuple
        The raters' names (column names; 0, 1, … for an array).
    labels : tuple
        The categories, in order.
    full : result
        The coefficient of the whole panel.
    without : tuple of result
        The coefficient without each rater, in the order of ``raters``.
    changes : tuple of ComparisonResult
        Without the rater minus the whole panel, paired item by item: a
        positive change means the panel agrees more without that rater.
    versus_panel : tuple of KappaResult
        Each rater's Cohen's kappa against the other raters' reference label
        (their majority; the lower median when weighted).
    pairwise : numpy.ndarray
        Raters × raters Cohen's kappa over the items both rated (diagonal 1,
        nan where undefined).
    category_counts : numpy.ndarray
        Raters × categories: how often each rater used each category.
    panel_counts : numpy.ndarray
        The whole panel's ratings per category.
    confidence_level : float
        The level of the changes' intervals, and 1 − the flags' threshold.
    homogeneity : tuple of MarginalHomogeneityResult
        Each rater's Stuart–Maxwell test of marginal homogeneity against the
        other raters' majority label on the same items (rows: the rater;
        items whose majority ties are left out).
    """

    coefficient: str
    raters: tuple[Any, ...]
    labels: tuple[Any, ...]
    full: Any
    without: tuple[Any, ...]
    changes: tuple[ComparisonResult, ...]
    versus_panel: tuple[Any, ...]
    pairwise: np.ndarray
    category_counts: np.ndarray
    panel_counts: np.ndarray
    confidence_level: float = 0.95
    homogeneity: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        for array in (self.pairwise, self.category_counts, self.panel_counts):
            array.setflags(write=False)

    @property
    def flagged(self) -> tuple[Any, ...]:
        """The raters whose change is significant (p below 1 − ``confidence_level``).

        In either direction: :attr:`directions` says which. A rater whose
        removal lowers the coefficient is one of the panel's most consistent
        raters, not a problem.
        """
        alpha = 1 - self.confidence_level
        return tuple(r for r, c in zip(self.raters, self.changes, strict=True) if c.pvalue < alpha)

    @property
    def directions(self) -> tuple[str | None, ...]:
        """Each rater's flag with its direction, in the order of ``raters``.

        ``"disagrees"``: without the rater the panel agrees significantly
        more; ``"consistent"``: significantly less; None: no significant change.
        """
        alpha = 1 - self.confidence_level
        return tuple(
            None if not c.pvalue < alpha else "disagrees" if c.difference > 0 else "consistent"
            for c in self.changes
        )

    def flag_sentences(self) -> list[str]:
        """Say each significant change in words, with its direction (one sentence per rater).

        "without c the panel agrees more: c disagrees most" for the rater
        whose removal raises the coefficient most, "... agrees less: c is its
        most consistent rater" for the one whose removal lowers it most.
        """
        flagged = [c for c, way in zip(self.changes, self.directions, strict=True) if way]
        return [
            f"{head} ({c.difference:+.3f}, p = {c.pvalue:.2g})."
            for head, c in zip(self._flag_heads(), flagged, strict=True)
        ]

    def _flag_heads(self) -> list[str]:
        """Return each significant change's direction in words, without its numbers."""
        ways = self.directions
        changes = [float(c.difference) for c in self.changes]
        up = [changes[i] for i, way in enumerate(ways) if way == "disagrees"]
        down = [changes[i] for i, way in enumerate(ways) if way == "consistent"]
        heads = []
        for i, way in enumerate(ways):
            name = f"{self.raters[i]!s}"
            if way == "disagrees":
                what = "disagrees most" if changes[i] == max(up) else "disagrees with the others"
                heads.append(f"without {name} the panel agrees more: {name} {what}")
            elif way == "consistent":
                what = (
                    "its most consistent rater"
                    if changes[i] == min(down)
                    else "one of its consistent raters"
                )
                heads.append(f"without {name} the panel agrees less: {name} is {what}")
        return heads

    @property
    def marginals_flagged(self) -> tuple[Any, ...]:
        """The raters whose categories differ from the panel's (marginal homogeneity rejected)."""
        alpha = 1 - self.confidence_level
        tests = self.homogeneity
        return tuple(r for r, t in zip(self.raters, tests, strict=True) if t.pvalue < alpha)

    @property
    def category_shares(self) -> np.ndarray:
        """Raters × categories: each rater's share of their ratings in each category."""
        totals = self.category_counts.sum(axis=1, keepdims=True)
        out: np.ndarray = self.category_counts / np.where(totals > 0, totals, 1)
        return out

    @property
    def panel_shares(self) -> np.ndarray:
        """The whole panel's share of ratings in each category."""
        out: np.ndarray = self.panel_counts / max(int(self.panel_counts.sum()), 1)
        return out

    def _rows(self) -> list[dict[str, Any]]:
        alpha = 1 - self.confidence_level
        rows = []
        for i, rater in enumerate(self.raters):
            change = self.changes[i]
            low, high = change.confidence_interval(self.confidence_level)
            row: dict[str, Any] = {
                "rater": rater,
                "n_ratings": int(self.category_counts[i].sum()),
                "without": float(self.without[i].statistic),
                "change": float(change.difference),
                "change_se": float(change.standard_error),
                "change_low": float(low),
                "change_high": float(high),
                "pvalue": float(change.pvalue),
                "flagged": bool(change.pvalue < alpha),
                "direction": self.directions[i],
                "kappa_vs_panel": float(self.versus_panel[i].statistic),
            }
            if self.homogeneity:
                test = self.homogeneity[i]
                row["homogeneity_chi2"] = float(test.statistic)
                row["homogeneity_df"] = int(test.df)
                row["homogeneity_pvalue"] = float(test.pvalue)
                row["marginals_flagged"] = bool(test.pvalue < alpha)
            for label, share in zip(self.labels, self.category_shares[i], strict=True):
                row[f"share_{label}"] = float(share)
            rows.append(row)
        return rows

    def table(self) -> Any:
        """Return a pandas DataFrame, one row per rater, indexed by the rater's name.

        Columns: ``n_ratings``, ``without`` (the coefficient without the
        rater), ``change`` with ``change_se``, ``change_low``,
        ``change_high`` and ``pvalue``, ``flagged`` with its ``direction``
        (see :attr:`directions`), ``kappa_vs_panel``, the
        Stuart–Maxwell test of the rater's categories against the panel's
        (``homogeneity_chi2``, ``homogeneity_df``, ``homogeneity_pvalue``,
        and ``marginals_flagged``) and ``share_<label>``, the rater's share of
        each category (the panel's is :attr:`panel_shares`).
        """
        pd = require("pandas", "pandas", "RaterDiagnostics.to_frame")

        return pd.DataFrame(self._rows()).set_index("rater")

    def pairwise_frame(self) -> Any:
        """Return the pairwise kappa matrix as a DataFrame, raters on both axes."""
        pd = require("pandas", "pandas", "RaterDiagnostics.pairwise_frame")

        return pd.DataFrame(self.pairwise, index=list(self.raters), columns=list(self.raters))

    def to_dict(self) -> dict[str, Any]:
        """Return the diagnostics as plain JSON-ready data: the panel, the raters, the matrix."""
        out: dict[str, Any] = jsonable(
            {
                "coefficient": self.coefficient,
                "statistic": float(self.full.statistic),
                "confidence_level": self.confidence_level,
                "labels": list(self.labels),
                "panel_shares": self.panel_shares,
                "raters": self._rows(),
                "pairwise": self.pairwise,
            }
        )
        return out

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: the panel's coefficient, the rater who moves it most, the flags.

        ``str(result)`` is the short text table, one line per rater.
        """
        from concord._results.sentence import decimal

        changes = np.array([c.difference for c in self.changes])
        top = int(np.nanargmax(np.abs(changes))) if np.isfinite(changes).any() else 0
        at = f"{1 - self.confidence_level:g}"
        flagged = "; ".join(self._flag_heads()) or "none"
        marginals = ", ".join(map(str, self.marginals_flagged)) or "none"
        return (
            f"{self.name.split(':')[0]} of the {len(self.raters)} raters was "
            f"{decimal(self.full.statistic, digits)}; leaving out {self.raters[top]!s} moves it "
            f"most, by {changes[top]:+.{digits}f} (p = {self.changes[top].pvalue:.2g}). "
            f"Significant changes at {at}: {flagged}; categories unlike the panel's: "
            f"{marginals}."
        )

    def __str__(self) -> str:
        """Return a short text table: one line per rater."""
        lines = [f"{self.coefficient} of the panel: {self.full.statistic:.3f}"]
        lines.append(
            f"{'rater':>12} {'without':>8} {'change':>8} {'p':>8} {'κ vs panel':>11} {'MH p':>8}"
        )
        for row in self._rows():
            flag = ("  *" if row["flagged"] else "") + (
                "  †" if row.get("marginals_flagged") else ""
            )
            lines.append(
                f"{row['rater']!s:>12} {row['without']:8.3f} {row['change']:+8.3f} "
                f"{row['pvalue']:8.3g} {row['kappa_vs_panel']:11.3f} "
                f"{row.get('homogeneity_pvalue', float('nan')):8.3g}{flag}"
            )
        at = f"{1 - self.confidence_level:g}"
        if self.flagged:
            lines.append(f"* the change is significant at {at}; in words:")
            lines.extend(f"  {s}" for s in self.flag_sentences())
        if self.marginals_flagged:
            lines.append(
                f"† the rater's categories differ from the panel's at {at} (Stuart–Maxwell)"
            )
        return "\n".join(lines)

    def explain(self) -> str:
        """Say in words which rater moves the coefficient most, and how it was measured."""
        changes = np.array([c.difference for c in self.changes])
        top = int(np.nanargmax(np.abs(changes))) if np.isfinite(changes).any() else 0
        said = [f"  {s[0].upper()}{s[1:]}" for s in self.flag_sentences()]
        at = f"{1 - self.confidence_level:g}"
        return "\n".join(
            [
                f"{self.coefficient} of the {len(self.raters)} raters: {self.full.statistic:.4f}.",
                f"Leaving out {self.raters[top]!s} changes it most: to "
                f"{self.without[top].statistic:.4f} ({changes[top]:+.4f}).",
                "Each change pairs the per-item linearised terms of the panel with and "
                "without the rater (Gwet 2016), so its SE accounts for the shared items.",
                f"Significant changes at {at}:" if said else f"Significant changes at {at}: none.",
                *said,
                "κ vs panel is each rater's Cohen's kappa against the other raters' "
                "majority label (the lower median when weighted).",
                "MH p is the Stuart–Maxwell test of marginal homogeneity on the same "
                "items: the rater's category rates against the others' majority's. Categories "
                f"differ at {1 - self.confidence_level:g}: "
                f"{', '.join(map(str, self.marginals_flagged)) or 'none'}.",
            ]
        )

    def _named(self, way: str) -> list[Any]:
        return [r for r, w in zip(self.raters, self.directions, strict=True) if w == way]

    def __repr__(self) -> str:
        return (
            f"RaterDiagnostics(coefficient={self.coefficient!r}, raters={len(self.raters)}, "
            f"statistic={self.full.statistic:.4f}, "
            f"disagrees={self._named('disagrees')!r}, consistent={self._named('consistent')!r})"
        )
