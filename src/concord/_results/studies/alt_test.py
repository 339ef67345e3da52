"""The result of the Alt-Test: :class:`AltTestResult`, what :func:`concord.alt_test` returns."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._results.studies.studies_text import AltTestText

_PER_HUMAN = (
    "pvalues",
    "adjusted_pvalues",
    "wins",
    "advantage_probabilities",
    "n_items",
    "candidate_better",
    "ties",
    "human_better",
)


@dataclass(frozen=True, eq=False, repr=False)
class AltTestResult(AltTestText):
    """The Alt-Test of a candidate annotator against human annotators (Calderon et al. 2025).

    The per-human arrays are in the order of ``humans``, the humans tested.

    Attributes
    ----------
    statistic : float
        The headline: ω, the same as ``winning_rate``.
    winning_rate : float
        ω, the share of the tested humans the candidate beats: those whose
        hypothesis H0: mean(d) ≥ ε is rejected after the BY correction.
    advantage_probability : float
        ρ, the mean over the tested humans of ρ_j, the share of human j's
        items on which the candidate's alignment with the other humans is at
        least j's. It ranks candidates (higher is better).
    passed : bool
        ω ≥ 0.5: by the paper's rule, the candidate can replace the humans.
    epsilon, alpha : float
        The cost-benefit margin ε and the false discovery rate of the BY correction.
    metric : str
        "accuracy", "neg_rmse", or the name of the metric function.
    humans : tuple
        The humans tested (column names; 0, 1, … for an array).
    pvalues : numpy.ndarray
        Each human's one-sided p-value (paired t test of the d's against ε).
    adjusted_pvalues : numpy.ndarray
        The BY-adjusted p-values: ``wins`` is ``adjusted_pvalues <= alpha``.
    wins : numpy.ndarray of bool
        Whether the candidate beats each human.
    advantage_probabilities : numpy.ndarray
        ρ_j per human.
    n_items : numpy.ndarray of int
        Each human's items: annotated by the human, another human and the candidate.
    candidate_better, ties, human_better : numpy.ndarray of int
        Each human's items where the candidate's score was higher, equal, lower.
    skipped : tuple
        Humans with fewer than 30 items, not tested and not in ω.
    n_dropped : int
        Items not used: no candidate annotation, or fewer than two humans.
    """

    winning_rate: float
    advantage_probability: float
    passed: bool
    epsilon: float
    alpha: float
    metric: str
    humans: tuple[Any, ...]
    pvalues: np.ndarray
    adjusted_pvalues: np.ndarray
    wins: np.ndarray
    advantage_probabilities: np.ndarray
    n_items: np.ndarray
    candidate_better: np.ndarray
    ties: np.ndarray
    human_better: np.ndarray
    skipped: tuple[Any, ...] = ()
    n_dropped: int = 0

    def __post_init__(self) -> None:
        for name in _PER_HUMAN:
            getattr(self, name).setflags(write=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the fields as JSON-ready values: lists for arrays, None for nan."""
        out: dict[str, Any] = jsonable({f.name: getattr(self, f.name) for f in fields(self)})
        out["humans"] = [str(h) for h in self.humans]
        out["skipped"] = [str(h) for h in self.skipped]
        out["statistic"] = self.winning_rate
        return out

    def table(self) -> Any:
        """Return a pandas DataFrame, one row per tested human, indexed by the human."""
        pd = require("pandas", "pandas", "AltTestResult.table")

        columns = {
            "n_items": self.n_items,
            "candidate_better": self.candidate_better,
            "ties": self.ties,
            "human_better": self.human_better,
            "advantage_probability": self.advantage_probabilities,
            "pvalue": self.pvalues,
            "adjusted_pvalue": self.adjusted_pvalues,
            "candidate_wins": self.wins,
        }
        return pd.DataFrame(columns, index=pd.Index(list(self.humans), name="human"))

    def summary(self, digits: int = 2) -> str:
        """Return one sentence that states the outcome, ω and ρ.

        Examples
        --------
        A hand-made result: the candidate beats 5 of 8 humans.

        >>> import numpy as np
        >>> from concord._results.studies.alt_test import AltTestResult
        >>> z = np.zeros(8)
        >>> wins = np.array([1, 1, 1, 1, 1, 0, 0, 0], bool)
        >>> r = AltTestResult(0.625, 0.74, True, 0.1, 0.05, "accuracy", tuple(range(8)),
        ...                   z, z, wins, z, z, z, z, z)
        >>> r.summary()
        'The candidate passed the alt-test (ε = 0.10, BY-corrected FDR 0.05): it beat 5 of 8 human annotators (ω = 0.62) and its advantage probability is ρ = 0.74.'
        """  # noqa: E501
        verdict = "passed" if self.passed else "failed"
        return (
            f"The candidate {verdict} the alt-test (ε = {self.epsilon:.2f}, BY-corrected "
            f"FDR {self.alpha:.2f}): it beat {int(self.wins.sum())} of {len(self.humans)} human "
            f"annotators (ω = {self.winning_rate:.{digits}f}) and its advantage probability is "
            f"ρ = {self.advantage_probability:.{digits}f}."
        )

    def explain(self) -> str:
        """Say in words how the test was run and what it found, human by human."""
        lines = [
            f"Alt-Test (Calderon, Reichart & Dror 2025), metric {self.metric}, "
            f"ε = {self.epsilon}.",
            "Each human is left out in turn; on each of their items the candidate and the "
            "human are scored against the other humans, and d = (human ≥ candidate) − "
            "(candidate ≥ human).",
            f"A one-sided paired t test of mean(d) ≥ ε per human; Benjamini–Yekutieli "
            f"correction of the {len(self.humans)} p-values at FDR {self.alpha}.",
        ]
        for h, n, p, q, w, rho in zip(
            self.humans,
            self.n_items,
            self.pvalues,
            self.adjusted_pvalues,
            self.wins,
            self.advantage_probabilities,
            strict=True,
        ):
            who = "candidate wins" if w else "human holds"
            lines.append(f"  {h}: {n} items, ρ_j = {rho:.3f}, p = {p:.4g}, BY p = {q:.4g}: {who}")
        if self.skipped:
            names = ", ".join(str(s) for s in self.skipped)
            lines.append(f"Not tested (fewer than 30 items): {names}.")
        if self.n_dropped:
            lines.append(f"Unused items (no candidate or under two humans): {self.n_dropped}.")
        lines.append(
            f"ω = {self.winning_rate:.4f} ({int(self.wins.sum())} of {len(self.humans)}), "
            f"ρ = {self.advantage_probability:.4f}: "
            + ("passed (ω ≥ 0.5)." if self.passed else "failed (ω < 0.5).")
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"AltTestResult(winning_rate={self.winning_rate:.4g}, "
            f"advantage_probability={self.advantage_probability:.4g}, passed={self.passed}, "
            f"humans={len(self.humans)})"
        )
