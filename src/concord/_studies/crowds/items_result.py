"""The result of :func:`concord.item_agreement`: one row per item, hardest first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common.exact import fmean
from concord._common.extras import require
from concord._results.protocol import lead_tidy
from concord._results.reported import Reported, record


@dataclass(frozen=True, repr=False)
class ItemAgreementResult(Reported):
    """Per-item agreement, hardest first (see :func:`concord.item_agreement`).

    Attributes
    ----------
    items : tuple
        The items' names, hardest first.
    n_ratings, agreement, majority_share, entropy : ndarray
        Per item: its number of ratings, its pairwise agreement p_a,i (nan for
        an item rated once), the share of its ratings in the majority label,
        and the entropy of its label shares (natural log, in nats).
    majority : tuple
        Per item, its most frequent label (the first in label order on ties).
    raters : tuple
        The raters' names, the columns of :meth:`disagreements`.
    ratings : ndarray of object (n_items, n_raters)
        Every rater's label per item (None where missing), in the same order.
    statistic : float
        The mean p_a,i over the items with two or more ratings (Fleiss's P̄).
    """

    items: tuple[Any, ...]
    n_ratings: np.ndarray
    agreement: np.ndarray
    majority: tuple[Any, ...]
    majority_share: np.ndarray
    entropy: np.ndarray
    raters: tuple[Any, ...]
    ratings: np.ndarray
    weighted: bool = False
    statistic: float = field(init=False)

    def __post_init__(self) -> None:
        paired = self.agreement[~np.isnan(self.agreement)]
        object.__setattr__(self, "statistic", fmean(paired) if paired.size else np.nan)

    @property
    def unanimous(self) -> np.ndarray:
        """Whether all of an item's ratings agree (items rated once count as unanimous)."""
        return self.majority_share == 1  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (
            f"ItemAgreementResult(n_items={len(self.items)}, mean_agreement={self.statistic:.4g}, "
            f"n_disagreements={int((~self.unanimous).sum())})"
        )

    def summary(self) -> str:
        """Return one sentence: how many items, the mean agreement, how many disagree."""
        n, split = len(self.items), int((~self.unanimous).sum())
        single = int(np.isnan(self.agreement).sum())
        kind = "weighted pairwise" if self.weighted else "pairwise"
        text = (
            f"Mean {kind} agreement per item {self.statistic:.3f} over {n - single} items; "
            f"{split} of {n} items without unanimous agreement"
        )
        if single:
            text += f"; {single} rated once (no pair, agreement nan)"
        return text + "."

    def explain(self) -> str:
        """Return how each column is computed."""
        return (
            f"{self.summary()}\nAgreement p_a,i (Fleiss 1971): the share of ordered pairs of an "
            "item's ratings that agree"
            + (", each pair weighted by its agreement weight 1 − W/max W" if self.weighted else "")
            + "; majority: the most frequent label (first in label order on ties) and its "
            "share; entropy: −Σ p log p of the label shares, natural log (nats). Hardest "
            "first: lowest agreement, then highest entropy."
        )

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            "item_agreement",
            self.statistic,
            len(self.items),
            weighted=self.weighted,
            n_disagreements=int((~self.unanimous).sum()),
            entropy_base="e",
        )

    def to_frame(self, confidence_level: float = 0.95) -> Any:
        """Return one row per item, hardest first (entropy in nats); the tidy columns lead.

        ``statistic`` is the item's pairwise agreement P_i, ``n`` its number of ratings.
        """
        pd = require("pandas", "pandas", "concord.item_agreement")

        frame = pd.DataFrame(
            {
                "item": list(self.items),
                "n_ratings": self.n_ratings,
                "agreement": self.agreement,
                "majority": list(self.majority),
                "majority_share": self.majority_share,
                "entropy": self.entropy,
            }
        )
        return lead_tidy(frame, "item_agreement", "agreement", "n_ratings")

    def disagreements(self) -> Any:
        """Return the items without unanimous agreement, every rater's label under their name.

        One row per item, hardest first: ``item``, ``agreement``, ``majority``,
        then one column per rater (None where the rater did not rate the item),
        ready to export for adjudication (``.to_csv(...)``).
        """
        pd = require("pandas", "pandas", "concord.item_agreement")

        keep = ~self.unanimous
        frame = pd.DataFrame(
            {
                "item": [name for name, k in zip(self.items, keep, strict=True) if k],
                "agreement": self.agreement[keep],
                "majority": [m for m, k in zip(self.majority, keep, strict=True) if k],
            }
        )
        for j, name in enumerate(self.raters):
            frame[str(name)] = pd.Series(self.ratings[keep, j], dtype=object)
        return frame
