"""γ of every item on plain arrays: best alignments, chance samples, γ_cat and γ_k.

The pieces are in :mod:`.gamma_align` (best alignments), :mod:`.gamma_chance`
(pygamma-agreement's default chance model and its number of samples) and
:mod:`.gamma_cat` (the γ_cat and γ_k disorders). All items, and all random
continua of one round, are solved as one batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from concord._coefficients.spans.gamma_align import (
    Batch,
    best_alignments,
    disorders,
    owner_of,
)
from concord._coefficients.spans.gamma_cat import category_disorders
from concord._coefficients.spans.gamma_chance import FIRST_SAMPLES, fit, sample, samples_needed
from concord._common.exact import fmean

# random continua solved together: large enough to share numpy's overheads, small enough
# that padding each rater's units to the batch's longest list stays cheap
_BATCH = 300


@dataclass(frozen=True)
class ItemGamma:
    """γ of one continuum, with what the result and the display need."""

    alignment: np.ndarray  # unitary alignments: per rater a unit index of the batch, -1 empty
    unitary_disorders: np.ndarray
    observed: float
    chance: np.ndarray  # the disorder of each random continuum
    observed_cat: np.ndarray  # [γ_cat disorder, γ_k disorder per label]
    chance_cat: np.ndarray  # the same for each random continuum, one row each

    @property
    def expected(self) -> float:
        return fmean(self.chance)

    @property
    def gamma(self) -> float:
        """1 − observed / expected; nan when the expected disorder is 0 (0/0 included)."""
        return 1.0 - self.observed / self.expected if self.expected > 0 else math.nan

    def gamma_cat_k(self) -> np.ndarray:
        """Return [γ_cat, γ_k per label] as pygamma-agreement 0.5.9; nan where undefined.

        A disorder of 0 gives 1 where the expected disorder is not 0; γ_cat is
        0 when only its expected disorder is 0 and γ_k is then undefined
        (pygamma-agreement divides by zero). Both disorders 0 is undefined
        (nan; pygamma-agreement says 1), concord's policy for 0/0.
        """
        obs = self.observed_cat
        exp = self.chance_cat.mean(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(obs == 0, 1.0, 1.0 - obs / np.where(exp == 0, np.nan, exp))
        if obs[0] != 0 and exp[0] == 0:
            out[0] = 0.0
        out[(obs == 0) & (exp == 0)] = np.nan
        return np.asarray(out, dtype=np.float64)


def _chunks(counts: list[int]) -> list[tuple[int, int]]:
    """Return runs of items whose random continua make batches of about _BATCH (at least one)."""
    out, lo, held = [], 0, 0
    for i, c in enumerate(counts):
        held += c
        if held >= _BATCH:
            out.append((lo, i + 1))
            lo, held = i + 1, 0
    if held:
        out.append((lo, len(counts)))
    return out


def gamma_items(
    b: Batch,
    *,
    alpha: float,
    beta: float,
    precision_level: float,
    rng: np.random.Generator,
    n_labels: int,
) -> list[ItemGamma | None]:
    """Return γ of each continuum of ``b`` (None for a continuum without units)."""
    rows, costs = best_alignments(b, alpha, beta)
    observed = disorders(b, rows, costs)
    observed_cat = category_disorders(b, rows, alpha, n_labels)
    owner = owner_of(b, rows)
    live = np.flatnonzero(b.units_per_continuum() > 0)
    models = [fit(b, int(i)) for i in live]
    chance: list[list[float]] = [[] for _ in live]
    chance_cat: list[list[np.ndarray]] = [[] for _ in live]
    counts = [FIRST_SAMPLES] * live.size
    for _ in range(2):  # the first 30 of each item, then the rule's remainder
        for lo, hi in _chunks(counts):
            sb, whose = sample(models[lo:hi], counts[lo:hi], rng)
            srows, scosts = best_alignments(sb, alpha, beta)
            dis = disorders(sb, srows, scosts)
            cat = category_disorders(sb, srows, alpha, n_labels)
            for k, who in enumerate((whose + lo).tolist()):
                chance[who].append(float(dis[k]))
                chance_cat[who].append(cat[k])
        counts = [samples_needed(np.array(d), precision_level) - len(d) for d in chance]
    out: list[ItemGamma | None] = [None] * b.n_continua
    for k, i in enumerate(live.tolist()):
        mine = owner == i
        out[i] = ItemGamma(
            alignment=rows[mine],
            unitary_disorders=costs[mine],
            observed=float(observed[i]),
            chance=np.array(chance[k]),
            observed_cat=observed_cat[i],
            chance_cat=np.array(chance_cat[k]),
        )
    return out
