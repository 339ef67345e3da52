"""Krippendorff's alpha on label sets: the MASI and Jaccard distances, exact and vectorised.

A distance between two label sets A and B depends only on |A|, |B| and
|A ∩ B|, so every pair of values falls in one *class* (a, b, i) of at most
(s + 1)³ classes, s the largest set. Each set is a bitmask of its labels
(uint64 words); |A ∩ B| is the popcount of the masks' AND. Then

* n.. D_o = Σ_u Σ_{r≠s} δ(x_ur, x_us) / (m_u − 1) counts the rater pairs of
  each class and size m_u: O(items × raters²);
* n..(n.. − 1) D_e = Σ_ck n_c n_k δ_ck runs over the q distinct sets that
  occur, in blocks of rows (memory O(block · q), never q × q at once),

and α is exact: each class's δ is a Fraction, the class totals are integers.

δ is the distance itself, as NLTK's ``AnnotationTask.alpha`` uses its
``distance`` (Krippendorff's δ²; Passonneau 2006 uses MASI the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients.krippendorff.krippendorff_core import krippendorff_items
from concord._common.errors import describe, param_error
from concord._tables.patterns import Patterns

SET_LEVELS = ("masi", "jaccard")
_BLOCK = 1 << 21  # pairs of distinct sets per block of the expected disagreement
_GROUPS = 100  # blocks of the grouped jackknife
_BYTE_BITS = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)


def is_set_level(level: Any) -> bool:
    """Whether ``level`` names a distance between label sets."""
    return isinstance(level, str) and level in SET_LEVELS


def masi(a: int, b: int, i: int) -> Fraction:
    """MASI distance (Passonneau 2006) of sets of sizes a and b sharing i labels.

    1 − J·M with J = i/|A ∪ B| and M = 1 (equal sets), 2/3 (one inside the
    other), 1/3 (overlapping), 0 (disjoint): NLTK 3.9's ``masi_distance``
    (NLTK before 3.8 rounded M to 0.67 and 0.33). Two empty sets are at 0.
    """
    union = a + b - i
    if union == 0:
        return Fraction(0)
    if a == b == i:
        m = Fraction(1)
    elif i == min(a, b):
        m = Fraction(2, 3)
    elif i > 0:
        m = Fraction(1, 3)
    else:
        m = Fraction(0)
    return 1 - Fraction(i, union) * m


def jaccard(a: int, b: int, i: int) -> Fraction:
    """Jaccard distance (|A ∪ B| − |A ∩ B|) / |A ∪ B| (NLTK's ``jaccard_distance``); ∅, ∅: 0."""
    union = a + b - i
    return Fraction(union - i, union) if union else Fraction(0)


_DISTANCE = {"masi": masi, "jaccard": jaccard}


def popcount(x: np.ndarray) -> np.ndarray:
    """Return the number of set bits of each uint64, as int32."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        out: np.ndarray = np.bitwise_count(x).astype(np.int32)
        return out
    bytes_ = np.ascontiguousarray(x).view(np.uint8).reshape(*x.shape, 8)
    counted: np.ndarray = _BYTE_BITS[bytes_].sum(axis=-1).astype(np.int32)
    return counted


@dataclass(frozen=True)
class SetCodes:
    """The label sets as bitmasks: ``masks`` (q × words uint64), ``sizes`` (q,)."""

    masks: np.ndarray
    sizes: np.ndarray

    @property
    def side(self) -> int:
        """The base of the class keys: one more than the size of the largest set."""
        return int(self.sizes.max(initial=0)) + 1

    def keys(self, c: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Class keys (a·(s+1) + b)·(s+1) + i of the pairs of set codes c, k (broadcast)."""
        if self.masks.shape[1] == 1:  # up to 64 labels: one word
            words = self.masks[:, 0]
            inter = popcount(words[c] & words[k])
        else:
            inter = popcount(self.masks[c] & self.masks[k]).sum(axis=-1)
        side = self.side
        sizes = self.sizes.astype(np.int32)
        out: np.ndarray = sizes[c] * np.int32(side * side) + (sizes[k] * np.int32(side) + inter)
        return out

    def deltas(self, level: str) -> list[Fraction]:
        """δ of every class key."""
        side, distance = self.side, _DISTANCE[level]
        return [distance(a, b, i) for a in range(side) for b in range(side) for i in range(side)]


def set_codes(values: tuple[Any, ...], func: str, level: str) -> SetCodes:
    """Return the bitmasks of the label sets ``values``; a single label is an error."""
    bits: dict[Any, int] = {}
    for value in values:
        if not isinstance(value, frozenset):
            param_error(
                func,
                "level",
                "'nominal' or another level for single labels: "
                f"{level!r} is a distance between label sets",
                f"{level!r} with the single label {describe(value)}",
                raw=True,
                fix="Pass each rating as a set of labels (set, frozenset, list or tuple), "
                "e.g. {'a', 'b'}, or choose level='nominal'.",
            )
        for label in value:
            bits.setdefault(label, len(bits))
    words = max(1, -(-len(bits) // 64))
    masks = np.zeros((len(values), words), dtype=np.uint64)
    for c, value in enumerate(values):
        for label in value:
            b = bits[label]
            masks[c, b // 64] |= np.uint64(1 << (b % 64))
    sizes = np.array([len(v) for v in values], dtype=np.int64)
    return SetCodes(masks, sizes)


def codes_of_patterns(counts: Patterns) -> tuple[np.ndarray, np.ndarray]:
    """Return (codes, freq) of item count patterns: one row per pattern, −1 padded."""
    rows = np.asarray(counts.rows, dtype=np.int64)
    m = rows.sum(axis=1)
    width = max(int(m.max(initial=0)), 1)
    codes = np.full((rows.shape[0], width), -1, dtype=np.int64)
    which, cat = np.nonzero(rows)
    per = rows[which, cat]
    item = np.repeat(which, per)
    code = np.repeat(cat, per)
    start = np.concatenate([[0], np.cumsum(m)[:-1]])
    codes[item, np.arange(item.size) - start[item]] = code
    return codes, np.asarray(counts.freq, dtype=np.float64)


@dataclass(frozen=True)
class SetSums:
    """Class totals of one data set: α's two sums and Gwet's per-item terms come from them."""

    observed: np.ndarray  # per (m, class): rater pairs (unordered), weighted by freq
    expected: np.ndarray  # per class: Σ n_c n_k over ordered pairs of values
    present: np.ndarray  # per class: whether two distinct sets that occur fall in it
    n_c: np.ndarray  # pairable values per set
    n: float  # n.., the pairable values


def class_sums(sets: SetCodes, codes: np.ndarray, weight: np.ndarray) -> SetSums:
    """Count the pairs of each class: rater pairs by item size, and pairs of values."""
    rated = codes >= 0
    m = rated.sum(axis=1)
    pair = m >= 2
    codes, rated, m, weight = codes[pair], rated[pair], m[pair], weight[pair]
    n_keys, width = sets.side**3, codes.shape[1]
    observed = np.zeros((width + 1, n_keys))
    for r in range(width):
        for s in range(r + 1, width):
            both = rated[:, r] & rated[:, s]
            keys = sets.keys(codes[both, r], codes[both, s])
            observed += np.bincount(
                m[both] * n_keys + keys, weights=weight[both], minlength=(width + 1) * n_keys
            ).reshape(width + 1, n_keys)
    q = sets.sizes.size
    n_c = np.bincount(codes[rated], weights=np.repeat(weight, rated.sum(axis=1)), minlength=q)
    expected, present = np.zeros(n_keys), np.zeros(n_keys, dtype=bool)
    step, every = max(1, _BLOCK // max(q, 1)), np.arange(q)
    for start in range(0, q, step):
        rows = every[start : start + step]
        keys = sets.keys(rows[:, None], every[None, :])
        expected += np.bincount(
            keys.ravel(), weights=(n_c[rows, None] * n_c[None, :]).ravel(), minlength=n_keys
        )
        present |= np.bincount(keys.ravel(), minlength=n_keys) > 0
    return SetSums(observed, expected, present, n_c, float(n_c.sum()))


def exact_sums(sums: SetSums, deltas: list[Fraction]) -> tuple[Fraction, Fraction, Fraction]:
    """Return n.. D_o, n..(n.. − 1) D_e and max δ as Fractions (integer class totals)."""
    observed = Fraction(0)
    for m, key in zip(*np.nonzero(sums.observed), strict=True):
        observed += 2 * int(sums.observed[m, key]) * deltas[key] / (int(m) - 1)
    expected = sum(
        (int(sums.expected[key]) * deltas[key] for key in np.flatnonzero(sums.expected)),
        Fraction(0),
    )
    top = max((deltas[key] for key in np.flatnonzero(sums.present)), default=Fraction(0))
    return observed, expected, top


def float_alpha(sums: SetSums, delta: np.ndarray) -> float:
    """α in floating point from the class totals (the bootstrap's)."""
    n = sums.n
    m = np.arange(sums.observed.shape[0], dtype=np.float64)
    scale = np.where(m > 1, 2.0 / np.maximum(m - 1, 1), 0.0)
    observed = float(scale @ sums.observed @ delta)
    expected = float(sums.expected @ delta)
    if n < 2 or expected == 0:
        return float("nan")
    return 1 - (n - 1) * observed / expected


def item_variance(
    sets: SetCodes,
    codes: np.ndarray,
    freq: np.ndarray,
    delta: np.ndarray,
    sums: SetSums,
    top: float,
    population: float | None,
) -> float:
    """Gwet's (2014) variance of α with agreement 1 − δ/max δ (R irrCAC's ``krippen.alpha.raw``).

    Per item, Σ_k r_ik (r*_ik − 1) is Σ_{r≠s} a(x_r, x_s) and Σ_k r_ik π̄_k is
    Σ_r (Aπ)(x_r), with (Aπ)_c = 1 − Σ_l δ_cl π_l / max δ.
    """
    rated = codes >= 0
    m = rated.sum(axis=1)
    n_rated = int(freq[m >= 1].sum())
    keep = m >= 2
    codes, rated, m, freq = codes[keep], rated[keep], m[keep], freq[keep]
    if freq.sum() < 2 or top == 0:
        return float("nan")
    q = sets.sizes.size
    spread = np.empty(q)  # Σ_l δ_cl n_l
    step, every = max(1, _BLOCK // max(q, 1)), np.arange(q)
    for start in range(0, q, step):
        rows = every[start : start + step]
        spread[rows] = delta[sets.keys(rows[:, None], every[None, :])] @ sums.n_c
    a_pi = 1 - spread / (top * sums.n)
    pe = float(sums.n_c @ a_pi) / sums.n
    agree, chance = np.zeros(codes.shape[0]), np.zeros(codes.shape[0])
    width = codes.shape[1]
    for r in range(width):
        chance[rated[:, r]] += a_pi[codes[rated[:, r], r]]
        for s in range(r + 1, width):
            both = rated[:, r] & rated[:, s]
            keys = sets.keys(codes[both, r], codes[both, s])
            agree[both] += 2 * (1 - delta[keys] / top)
    return krippendorff_items(freq, m.astype(np.float64), agree, chance, pe, population, n_rated)


@dataclass(frozen=True)
class SetSampler:
    """Bootstrap of α on label sets: resample the items (weights over the rows of ``codes``)."""

    sets: SetCodes
    codes: np.ndarray
    freq: np.ndarray
    delta: np.ndarray

    def _alpha(self, weight: np.ndarray) -> float:
        return float_alpha(class_sums(self.sets, self.codes, weight), self.delta)

    def observed(self) -> float:
        """Return α of every item: the engine's own value, recomputed in floating point."""
        return self._alpha(self.freq)

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        from concord._inference.intervals import progress

        n = int(self.freq.sum())
        probs = self.freq / n
        out = np.empty(n_resamples)
        with progress(n_resamples, "bootstrap") as bar:
            for b in range(n_resamples):
                out[b] = self._alpha(rng.multinomial(n, probs).astype(np.float64))
                if bar is not None:
                    bar.update(1)
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return a grouped jackknife: α without each of up to 100 blocks of the rows."""
        rows = self.codes.shape[0]
        blocks = np.array_split(np.arange(rows), min(_GROUPS, rows))
        values, sizes = [], []
        for block in blocks:
            weight = self.freq.copy()
            weight[block] = 0
            values.append(self._alpha(weight))
            sizes.append(float(self.freq[block].sum()))
        return np.array(values), np.array(sizes)
