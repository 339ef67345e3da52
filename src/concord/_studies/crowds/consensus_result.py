"""The result of :func:`concord.consensus`: one label per item, posteriors, rater confusions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._results.protocol import lead_tidy
from concord._results.reported import Reported, record

TIE_RULE = "a tie goes to the first tied category in label order"


@dataclass(frozen=True, repr=False)
class ConsensusResult(Reported):
    """Consensus labels from many raters (majority vote or Dawid & Skene's EM).

    Attributes
    ----------
    method : str
        ``"majority"`` or ``"dawid-skene"``.
    labels : tuple
        The consensus label of each item, in ``items`` order.
    items : tuple
        The items' names (the long form's item column, a DataFrame's index, or
        row numbers); items no rater rated are left out.
    categories : tuple
        The categories, in label order (the posteriors' columns).
    posteriors : ndarray (n_items, k)
        Each item's probability of each category: the vote shares for the
        majority, the EM posteriors for Dawid-Skene.
    confusions : dict
        One k×k matrix per rater: row = true (consensus) class, column = the
        rater's label, each row summing to 1 (a class the consensus never
        chose has a row of nan for the majority).
    rater_accuracy : dict
        Per rater, the share of their ratings that agree with the consensus:
        for Dawid-Skene the mean posterior of the labels they gave.
    priors : ndarray (k,)
        The share of items in each class (the mean posterior).
    tied : ndarray of bool
        Items whose top posterior is shared by two or more categories
        (:data:`TIE_RULE` chose their label).
    statistic : float
        The mean posterior of the chosen labels: how sure the consensus is.
    """

    method: str
    labels: tuple[Any, ...]
    items: tuple[Any, ...]
    categories: tuple[Any, ...]
    posteriors: np.ndarray
    confusions: dict[Any, np.ndarray]
    rater_accuracy: dict[Any, float]
    priors: np.ndarray
    tied: np.ndarray
    n_iter: int = 0
    converged: bool = True
    statistic: float = field(init=False)

    def __post_init__(self) -> None:
        chosen = self.posteriors.max(axis=1) if self.posteriors.size else np.zeros(0)
        object.__setattr__(self, "statistic", float(chosen.mean()) if chosen.size else np.nan)

    @property
    def n_items(self) -> int:
        return len(self.items)

    def __repr__(self) -> str:
        return (
            f"ConsensusResult(method={self.method!r}, n_items={self.n_items}, "
            f"n_raters={len(self.confusions)}, mean_posterior={self.statistic:.4g})"
        )

    def _method_words(self) -> str:
        if self.method == "majority":
            return "majority vote"
        state = "converged" if self.converged else "stopped without converging"
        return f"Dawid-Skene EM ({state} after {self.n_iter} iterations)"

    def summary(self) -> str:
        """Return one sentence: method, items, raters, how sure, how many ties."""
        ties = int(self.tied.sum())
        return (
            f"Consensus by {self._method_words()} over {self.n_items} items from "
            f"{len(self.confusions)} raters: the chosen labels' mean posterior is "
            f"{self.statistic:.3f}; {ties} item{'s' if ties != 1 else ''} tied ({TIE_RULE})."
        )

    def explain(self) -> str:
        """Return how the labels were computed."""
        if self.method == "majority":
            how = (
                "Each item's posterior is its vote shares; its label is the most voted "
                f"category ({TIE_RULE}). A rater's confusion matrix counts their labels "
                "against the consensus labels, each row divided by its total."
            )
        else:
            how = (
                "Dawid & Skene (1979): each rater has a k×k matrix of error rates "
                "P(label | true class) and the classes have priors; EM starts from the "
                "vote shares (as crowd-kit does), alternates posteriors (E) and rates and "
                "priors (M), with rates of the labels a rater used floored at 1e-10 "
                "(crowd-kit's floor against 0/0). EM finds a local optimum of the "
                f"likelihood, not necessarily the global one. Labels: the top posterior "
                f"({TIE_RULE})."
            )
        return f"{self.summary()}\n{how}"

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            "consensus",
            self.statistic,
            self.n_items,
            method=self.method,
            n_raters=len(self.confusions),
            n_tied=int(self.tied.sum()),
            n_iter=self.n_iter,
            converged=self.converged,
            categories=list(self.categories),
            priors=[float(p) for p in self.priors],
            rater_accuracy=dict(self.rater_accuracy),
        )

    def to_frame(self, confidence_level: float = 0.95) -> Any:
        """Return one row per item: item, label, its posterior, tied, each category's posterior.

        The tidy columns lead, as in every result's frame: ``statistic`` is the
        chosen label's posterior.
        """
        pd = require("pandas", "pandas", "concord.consensus")

        frame = pd.DataFrame(
            {
                "item": list(self.items),
                "label": list(self.labels),
                "posterior": self.posteriors.max(axis=1),
                "tied": self.tied,
            }
        )
        for j, category in enumerate(self.categories):
            frame[f"p({category})"] = self.posteriors[:, j]
        return lead_tidy(frame, f"consensus ({self.method})", "posterior")

    def confusion_frame(self, rater: Any) -> Any:
        """Return one rater's confusion matrix as a DataFrame (rows: true class)."""
        pd = require("pandas", "pandas", "concord.consensus")

        names = list(self.categories)
        return pd.DataFrame(
            self.confusions[rater],
            index=pd.Index(names, name="true"),
            columns=pd.Index(names, name="rated"),
        )
