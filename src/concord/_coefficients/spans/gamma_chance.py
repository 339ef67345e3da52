"""γ's expected disorder: random continua drawn as pygamma-agreement's default chance model.

pygamma-agreement 0.5.9's ``StatisticalContinuumSampler`` fits, on the observed
continuum, the mean and (population) standard deviation of

* the number of units per rater,
* the gaps: 0, the distance from each rater's unit to the rater's next one
  (negative when they overlap), and each rater's first start when it is > 0,
* the units' lengths,

and the labels' frequencies. A random continuum gives every rater
|int(N(n̄, s_n))| units (at least one for the first rater that would leave
the continuum empty), each placed a N(gap) after the rater's previous end (0
at first), N(len) long in absolute value (redrawn below 1e-6), with a label
drawn by frequency. The expected disorder is the mean disorder of the best
alignments of such continua: 30 of them, then as many more as Mathet et al.
(2015, §5.3) ask for a relative error ``precision_level`` at 95 % confidence,
⌈(1.96 · cv / precision_level)²⌉ in all, cv = sd/mean of the first 30.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from concord._coefficients.spans.gamma_align import Batch, make_batch
from concord._common.exact import fdot, fmean

FIRST_SAMPLES = 30
_SEGMENT_PRECISION = 1e-6  # pyannote.core's shortest segment


@dataclass(frozen=True)
class ChanceModel:
    """The fitted parameters of the statistical sampler."""

    n_raters: int
    units_mean: float
    units_sd: float
    gap_mean: float
    gap_sd: float
    length_mean: float
    length_sd: float
    label_codes: np.ndarray
    label_weights: np.ndarray


def fit(b: Batch, which: int) -> ChanceModel:
    """Return the chance model of continuum ``which`` of the batch ``b`` (at least one unit)."""
    mine = b.continuum == which
    rater, start, end, label = b.rater[mine], b.start[mine], b.end[mine], b.label[mine]
    gaps = [np.zeros(1)]
    for r in range(b.n_raters):
        s, e = start[rater == r], end[rater == r]
        gaps.append(s[1:] - e[:-1])
        if s.size and s[0] > 0:
            gaps.append(s[:1])
    gap = np.concatenate(gaps)
    counts = np.bincount(rater, minlength=b.n_raters)
    codes, freq = np.unique(label, return_counts=True)
    lengths = end - start
    return ChanceModel(
        n_raters=b.n_raters,
        units_mean=fmean(counts),
        units_sd=_sd(counts),
        gap_mean=fmean(gap),
        gap_sd=_sd(gap),
        length_mean=fmean(lengths),
        length_sd=_sd(lengths),
        label_codes=codes,
        label_weights=freq / freq.sum(),
    )


def _draw(m: ChanceModel, count: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Return ``count`` random continua of one model: (continuum, rater, start, end, label)."""
    n = m.n_raters
    k = np.abs(np.trunc(rng.normal(m.units_mean, m.units_sd, size=(count, n)))).astype(np.int64)
    k[:, 0] = np.maximum(k[:, 0], 1)  # the first rater never leaves the continuum empty
    group = np.repeat(np.arange(count * n), k.ravel())
    total = group.size
    gaps = rng.normal(m.gap_mean, m.gap_sd, size=total)
    lengths = np.abs(rng.normal(m.length_mean, m.length_sd, size=total))
    short = np.flatnonzero(lengths < _SEGMENT_PRECISION)
    while short.size:  # pyannote refuses shorter segments: pygamma draws again
        lengths[short] = np.abs(rng.normal(m.length_mean, m.length_sd, size=short.size))
        short = short[lengths[short] < _SEGMENT_PRECISION]
    steps = np.cumsum(gaps + lengths)
    first = np.concatenate(([0], np.cumsum(k.ravel())[:-1]))[group]
    before = np.where(first > 0, steps[np.maximum(first - 1, 0)], 0.0)
    ends = steps - before
    labels = rng.choice(m.label_codes, size=total, p=m.label_weights)
    return group // n, group % n, ends - lengths, ends, labels


def sample(
    models: list[ChanceModel], counts: list[int], rng: np.random.Generator
) -> tuple[Batch, np.ndarray]:
    """Return ``counts[i]`` random continua of each model, as one batch, and each one's model."""
    parts = []
    offset = 0
    for m, count in zip(models, counts, strict=True):
        if count == 0:
            continue
        c, r, s, e, lab = _draw(m, count, rng)
        parts.append((c + offset, r, s, e, lab))
        offset += count
    whose = np.repeat(np.arange(len(models)), counts)
    n = models[0].n_raters
    k, r, s, e, lab = (np.concatenate([p[i] for p in parts]) for i in range(5))
    return make_batch(k, r, s, e, lab, n_raters=n, n_continua=offset), whose


def _sd(x: np.ndarray) -> float:
    """Return the population standard deviation (numpy's), from exact sums: on any CPU alike."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return math.nan
    centred = x - fmean(x)
    return math.sqrt(fdot(centred, centred) / x.size)


def samples_needed(disorders: np.ndarray, precision_level: float) -> int:
    """Return how many samples in all the precision rule asks for, given the first ones.

    As pygamma-agreement: never fewer than were drawn, cv from numpy's
    population standard deviation.
    """
    mean = fmean(disorders)
    if mean == 0:
        return disorders.size
    cv = _sd(disorders) / mean
    return max(disorders.size, math.ceil((cv * 1.96 / precision_level) ** 2))
