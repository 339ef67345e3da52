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
from concord._common import exact_rows
from concord._common.errors import describe, param_error
from concord._common.exact import fdot
from concord._inference.resampling import Resampled
from concord._tables.patterns import Patterns

SET_LEVELS = ("masi", "jaccard")
_BLOCK = 1 << 21  # pairs of distinct sets per block of the expected disagreement
_KEYS_MAX = 1 << 22  # class keys counted in a dense array up to this many, else sorted
_GROUPS = 100  # blocks of the grouped jackknife
_CACHED = 1 << 22  # the bootstrap keeps the q × q matrix of δ up to this many cells (32 MiB)
_BYTE_BITS = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)


def is_set_level(level: Any) -> bool:
    """Whether ``level`` names a distance between label sets."""
    return isinstance(level, str) and level in SET_LEVELS


def masi(a: int, b: int, i: int) -> Fraction:
    """MASI distance (Passonneau 2006) of sets of sizes a and b sharing i labels.

    1 − J·M with J = i/|A ∪ B| and M = 1 (equal sets), 2/3 (one inside the
    other), 1/3 (overlapping), 0 (disjoint): NLTK 3.10's ``masi_distance``
    (earlier NLTK rounded M to 0.67 and 0.33, nltk#3361). Two empty sets are at 0.
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
    """The label sets as bitmasks: ``masks`` (q × words uint64), ``sizes`` (q,), the distance."""

    masks: np.ndarray
    sizes: np.ndarray
    level: str

    @property
    def side(self) -> int:
        """The base of the class keys: one more than the size of the largest set."""
        return int(self.sizes.max(initial=0)) + 1

    @property
    def n_keys(self) -> int:
        """How many class keys there are: (s + 1)³."""
        return self.side**3

    def keys(self, c: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Class keys (a·(s+1) + b)·(s+1) + i of the pairs of set codes c, k (broadcast)."""
        if self.masks.shape[1] == 1:  # up to 64 labels: one word
            words = self.masks[:, 0]
            inter = popcount(words[c] & words[k])
        else:
            inter = popcount(self.masks[c] & self.masks[k]).sum(axis=-1)
        side = self.side
        kind = np.int32 if self.n_keys < 2**31 else np.int64
        sizes = self.sizes.astype(kind)
        out: np.ndarray = sizes[c] * kind(side * side) + (sizes[k] * kind(side) + inter)
        return out

    def split(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the sizes a, b and the shared labels i of class keys."""
        side = self.side
        return keys // (side * side), keys // side % side, keys % side

    def delta(self, keys: np.ndarray) -> np.ndarray:
        """δ of class keys in floating point (each a rational rounded once or twice)."""
        a, b, i = (x.astype(np.float64) for x in self.split(np.asarray(keys, dtype=np.int64)))
        union = a + b - i
        shared = np.divide(i, union, out=np.zeros_like(union), where=union > 0)
        if self.level == "jaccard":
            out: np.ndarray = np.where(union > 0, 1 - shared, 0.0)
            return out
        m = np.where(
            (a == b) & (b == i),
            1.0,
            np.where(i == np.minimum(a, b), 2 / 3, np.where(i > 0, 1 / 3, 0.0)),
        )
        out = np.where(union > 0, 1 - shared * m, 0.0)
        return out

    def exact(self, key: int) -> Fraction:
        """δ of one class key as a Fraction."""
        side, key = self.side, int(key)
        return _DISTANCE[self.level](key // (side * side), key // side % side, key % side)


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
    ints = [sum(1 << bits[label] for label in value) for value in values]
    every = (1 << 64) - 1
    masks = np.array(
        [[(v >> (64 * w)) & every for w in range(words)] for v in ints], dtype=np.uint64
    ).reshape(len(values), words)
    sizes = np.array([len(v) for v in values], dtype=np.int64)
    return SetCodes(masks, sizes, level)


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
    """Class totals of one data set (only the classes that occur): α's two sums come from them.

    ``observed``: rater pairs (unordered, weighted by freq) per item size m and class,
    keyed m · (s + 1)³ + class; ``expected``: Σ n_c n_k per class over ordered pairs of
    values. Each is (keys, totals), the totals integers held in floats (exact below 2⁵³).
    """

    observed: tuple[np.ndarray, np.ndarray]
    expected: tuple[np.ndarray, np.ndarray]
    n_c: np.ndarray  # pairable values per set
    n: float  # n.., the pairable values


def _blocks(q: int) -> list[np.ndarray]:
    step = max(1, _BLOCK // max(q, 1))
    return [np.arange(start, min(start + step, q)) for start in range(0, q, step)]


def _totals(keys: np.ndarray, weights: np.ndarray, dense: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the distinct keys and the sum of the weights of each (those with a weight)."""
    if dense <= _KEYS_MAX:
        summed = np.bincount(keys, weights=weights, minlength=dense)
        found = np.flatnonzero(summed)
        return found, summed[found]
    found, inverse = np.unique(keys, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=weights)
    keep = summed != 0
    return found[keep], summed[keep]


def _merge(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    keys = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
    weights = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0)
    found, inverse = np.unique(keys, return_inverse=True)
    return found, np.bincount(inverse.ravel(), weights=weights, minlength=found.size)


def expected_sums(sets: SetCodes, n_c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return Σ n_c n_k per class over the ordered pairs of sets (δ is symmetric: c ≤ k once)."""
    q = sets.sizes.size
    parts = []
    for rows in _blocks(q):
        cols = np.arange(int(rows[0]), q)
        keys = sets.keys(rows[:, None], cols[None, :])
        twice = np.where(cols[None, :] > rows[:, None], 2.0, (cols[None, :] == rows[:, None]))
        weights = (n_c[rows, None] * twice) * n_c[None, cols]
        parts.append(_totals(keys.ravel(), weights.ravel(), sets.n_keys))
    return _merge(parts)


def class_sums(sets: SetCodes, codes: np.ndarray, weight: np.ndarray) -> SetSums:
    """Count the pairs of each class: rater pairs by item size, and pairs of values."""
    rated = codes >= 0
    m = rated.sum(axis=1)
    pair = m >= 2
    codes, rated, m, weight = codes[pair], rated[pair], m[pair], weight[pair]
    width, n_keys = codes.shape[1], sets.n_keys
    keys, weights = [], []
    for r in range(width):
        for s in range(r + 1, width):
            both = rated[:, r] & rated[:, s]
            keys.append(m[both] * n_keys + sets.keys(codes[both, r], codes[both, s]))
            weights.append(weight[both])
    if keys:
        observed = _totals(np.concatenate(keys), np.concatenate(weights), (width + 1) * n_keys)
    else:
        observed = (np.zeros(0, dtype=np.int64), np.zeros(0))
    q = sets.sizes.size
    n_c = np.bincount(codes[rated], weights=np.repeat(weight, rated.sum(axis=1)), minlength=q)
    return SetSums(observed, expected_sums(sets, n_c), n_c, float(n_c.sum()))


def top_delta(sets: SetCodes, sums: SetSums) -> Fraction:
    """Return max δ over the pairs of distinct sets that occur (those of any item).

    δ ≤ 1, reached by two disjoint sets: when two pairable values are disjoint
    the answer is 1 without another pass over the q × q pairs.
    """
    keys = sums.expected[0]
    found = max((sets.exact(k) for k in keys[sets.delta(keys) >= 1]), default=Fraction(0))
    if found == 1:
        return found
    q = sets.sizes.size
    parts = [
        _totals(
            sets.keys(rows[:, None], np.arange(q)[None, :]).ravel(),
            np.ones(rows.size * q),
            sets.n_keys,
        )
        for rows in _blocks(q)
    ]
    return max((sets.exact(k) for k in _merge(parts)[0]), default=Fraction(0))


def exact_sums(sets: SetCodes, sums: SetSums) -> tuple[Fraction, Fraction]:
    """Return n.. D_o and n..(n.. − 1) D_e as Fractions (from integer class totals)."""
    observed = Fraction(0)
    n_keys = sets.n_keys
    for key, total in zip(*sums.observed, strict=True):
        m, cls = divmod(int(key), n_keys)
        observed += 2 * int(total) * sets.exact(cls) / (m - 1)
    expected = sum(
        (int(total) * sets.exact(int(k)) for k, total in zip(*sums.expected, strict=True)),
        Fraction(0),
    )
    return observed, expected


def item_variance(
    sets: SetCodes,
    codes: np.ndarray,
    freq: np.ndarray,
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
    every = np.arange(q)
    for rows in _blocks(q):
        block = sets.delta(sets.keys(rows[:, None], every[None, :]))
        spread[rows] = exact_rows.matvec_floats(block, sums.n_c)  # exact, rounded once
    a_pi = 1 - spread / (top * sums.n)
    pe = fdot(sums.n_c, a_pi) / sums.n  # an exact sum: the same on every CPU
    agree, chance = np.zeros(codes.shape[0]), np.zeros(codes.shape[0])
    width = codes.shape[1]
    for r in range(width):
        chance[rated[:, r]] += a_pi[codes[rated[:, r], r]]
        for s in range(r + 1, width):
            both = rated[:, r] & rated[:, s]
            keys = sets.keys(codes[both, r], codes[both, s])
            agree[both] += 2 * (1 - sets.delta(keys) / top)
    return krippendorff_items(freq, m.astype(np.float64), agree, chance, pe, population, n_rated)


class SetSampler(Resampled):
    """Bootstrap of α on label sets, vectorised over resamples of the items.

    The units are the pairable rows of ``codes`` (items, or a stream's item
    patterns with their ``freq``) and one more unit for the items that are
    not pairable (they move n but add nothing). Per unit, its Σ δ/(m − 1)
    over rater pairs is fixed; per resample, the values per set N (a
    resample × q matrix) give D_e through N Δ Nᵀ, by blocks of Δ's rows:
    O(resamples · q²) flops in BLAS. The jackknife leaves out each of up to
    100 blocks of units, as the continuous engine's does.
    """

    def __init__(self, sets: SetCodes, codes: np.ndarray, freq: np.ndarray) -> None:
        rated = codes >= 0
        pair = rated.sum(axis=1) >= 2
        self.sets = sets
        self.codes = codes[pair]
        self.freq = np.append(freq[pair], freq[~pair].sum()).astype(np.float64)
        m = rated[pair].sum(axis=1)
        self.pairs = np.zeros(self.codes.shape[0])  # Σ_{r≠s} δ / (m − 1) per unit
        for r in range(codes.shape[1]):
            for s in range(r + 1, codes.shape[1]):
                both = rated[pair][:, r] & rated[pair][:, s]
                keys = sets.keys(self.codes[both, r], self.codes[both, s])
                self.pairs[both] += 2 * sets.delta(keys) / (m[both] - 1)
        row, col = np.nonzero(self.codes >= 0)
        value = self.codes[row, col]
        order = np.argsort(value, kind="stable")
        self.rows, self.value = row[order], value[order]
        self.starts = np.flatnonzero(np.r_[True, np.diff(self.value) != 0])
        self._matrix: np.ndarray | None = None

    def frequencies(self) -> np.ndarray:
        return self.freq

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        units = counts[:, :-1]
        observed = units @ self.pairs
        per_set = np.zeros((counts.shape[0], self.sets.sizes.size))
        if self.rows.size:
            per_set[:, self.value[self.starts]] = np.add.reduceat(
                units[:, self.rows], self.starts, axis=1
            )
        n = per_set.sum(axis=1)
        expected = self._quadratic(per_set)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = 1 - (n - 1) * observed / expected
        return out

    def _quadratic(self, per_set: np.ndarray) -> np.ndarray:
        """Return N Δ Nᵀ's diagonal: Σ_ck N_c N_k δ_ck for each resample."""
        q = self.sets.sizes.size
        if q * q <= _CACHED:
            if self._matrix is None:
                every = np.arange(q)
                self._matrix = self.sets.delta(self.sets.keys(every[:, None], every[None, :]))
            cached: np.ndarray = np.einsum("bi,bi->b", per_set, per_set @ self._matrix)
            return cached
        out = np.zeros(per_set.shape[0])
        every = np.arange(q)
        for rows in _blocks(q):
            block = self.sets.delta(self.sets.keys(rows[:, None], every[None, :]))
            out += np.einsum("bi,bi->b", per_set[:, rows], per_set @ block.T)
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return a grouped jackknife: α without each of up to 100 blocks of the units."""
        units = self.freq.size
        blocks = np.array_split(np.arange(units), min(_GROUPS, units))
        counts = np.repeat(self.freq[None, :], len(blocks), axis=0)
        for b, block in enumerate(blocks):
            counts[b, block] = 0
        sizes = np.array([float(self.freq[block].sum()) for block in blocks])
        return self.statistic(counts), sizes
