"""The state of an accumulator of continuous ratings: exact additive sums.

Lin's concordance and the Bland–Altman limits are functions of n, Σx, Σy,
Σx², Σy² and Σxy (:class:`~concord._tables.moments.Moments`), exact integers
times a power of two, so merging two streams adds them exactly and the merge
equals the one-shot sums bit for bit. There are no categories (``labels``
is empty) and no Poisson replicates: a stream keeps no pairs to resample.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from concord._common.errors import param_error
from concord._data.labels import Labels
from concord._tables.moments import Moments

_NO_LABELS = Labels((), ordered=True)


@dataclass(frozen=True)
class SumsCounts:
    """An accumulator's exact sums of paired continuous ratings."""

    sums: Moments
    labels: Labels = _NO_LABELS
    replicates: None = None

    @property
    def n(self) -> int:
        return self.sums.n

    @classmethod
    def of(cls, sums: Moments, draws: Any) -> SumsCounts:
        """Return the state of one batch's sums (Poisson replicates are refused earlier)."""
        return cls(sums)

    def merge(self, other: SumsCounts, where: tuple[str, str]) -> SumsCounts:
        """Return the sums of both streams."""
        if not isinstance(other, SumsCounts):  # pragma: no cover - same coefficient
            param_error(*where, "sums of continuous ratings", other, exc=TypeError)
        return SumsCounts(self.sums.merge(other.sums))

    def same(self, other: SumsCounts) -> bool:
        """Whether both hold the same sums (on a common power of two)."""
        exp = min(self.sums.exp, other.sums.exp)
        return self.sums.shifted(exp) == other.sums.shifted(exp)
