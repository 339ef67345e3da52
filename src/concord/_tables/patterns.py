"""Distinct rows with their frequencies: the exact, small table of many items.

An items × categories count table has few distinct rows (5 raters and 5
categories allow at most 252), so the table of distinct rows with their
frequencies is an exact compression: every sum over items is a sum over
patterns weighted by frequency, and resampling n items is one multinomial
draw over the patterns. The same holds for the rows of label codes, which
keep which rater gave which rating (Conger, Light).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_DENSE_CODES = 1 << 22  # below this many possible codes, count them with bincount ...
_DENSE_PER_CODE = 16  # ... if they are at most 16 per code counted (plus _DENSE_FLOOR)
_DENSE_FLOOR = 1 << 12  # else sorting the few codes is faster than a mostly empty table


@dataclass(frozen=True)
class Patterns:
    """Distinct rows (P × w non-negative ints) and how often each occurs (P,)."""

    rows: np.ndarray
    freq: np.ndarray

    @property
    def n(self) -> int:
        return int(self.freq.sum())

    def __post_init__(self) -> None:
        # one memory layout: BLAS sums the rows in one order, whichever path built them
        object.__setattr__(self, "rows", np.ascontiguousarray(self.rows))
        self.rows.setflags(write=False)
        self.freq.setflags(write=False)


def radix_fits(base: int, width: int) -> bool:
    """Return True when base**width codes fit in int64."""
    return bool(width * np.log2(max(base, 2)) < 62)


def encode(rows: np.ndarray, base: int) -> np.ndarray:
    """Mixed-radix codes Σ_j rows[:, j] · base**j of non-negative rows (base**width < 2**62)."""
    powers = base ** np.arange(rows.shape[1], dtype=np.int64)
    out: np.ndarray = rows.astype(np.int64) @ powers
    return out


def decode(codes: np.ndarray, base: int, width: int) -> np.ndarray:
    """Return the rows of mixed-radix ``codes``."""
    out = np.empty((codes.shape[0], width), dtype=np.int64)
    rest = codes.copy()
    for j in range(width):
        rest, out[:, j] = np.divmod(rest, base)
    return out


def from_codes(codes: np.ndarray, base: int, width: int) -> Patterns:
    """Patterns of the rows whose mixed-radix codes are ``codes`` (negative codes are skipped)."""
    codes = codes[codes >= 0]
    if base**width <= min(_DENSE_CODES, _DENSE_PER_CODE * codes.shape[0] + _DENSE_FLOOR):
        freq = np.bincount(codes, minlength=1)
        present = np.flatnonzero(freq)
        return Patterns(decode(present, base, width), freq[present])
    present, freq = np.unique(codes, return_counts=True)
    return Patterns(decode(present, base, width), freq.astype(np.int64))


def _count_keys(codes: np.ndarray, k: int) -> np.ndarray | None:
    """Each item's count row as a radix code, Σ of (r + 1)**code over its raters; None if wide."""
    base, width = codes.shape[1] + 1, k
    if not radix_fits(base, width):
        return None
    # the code -1 (missing) picks the last power: 0
    powers = np.append(base ** np.arange(width, dtype=np.int64), np.int64(0))
    keys: np.ndarray = powers[codes[:, 0]]
    for j in range(1, codes.shape[1]):
        keys += powers[codes[:, j]]
    return keys


def counted_patterns(codes: np.ndarray, k: int) -> tuple[Patterns, np.ndarray]:
    """:func:`merge` of the count rows of label ``codes`` with unit frequencies, without them.

    The patterns and each item's pattern, as ``merge(RatingMatrix.counts(),
    ones)`` gives them (:func:`_count_keys`' radix keys, counted with one
    bincount where their range is small, else sorted); merge of the n × k
    counts where the keys do not fit in int64.
    """
    keys = _count_keys(codes, k)
    if keys is None:
        n = codes.shape[0]
        cells = codes + np.arange(0, n * k, k, dtype=np.int64)[:, None]
        rows = np.bincount(cells[codes >= 0], minlength=n * k).reshape(n, k)
        return merge(rows, np.ones(n, dtype=np.int64))
    base = codes.shape[1] + 1
    size = base**k
    if size <= min(_DENSE_CODES, _DENSE_PER_CODE * keys.shape[0] + _DENSE_FLOOR):
        tally = np.bincount(keys, minlength=1)
        present = np.flatnonzero(tally)
        lookup = np.zeros(tally.shape[0], dtype=np.int64)
        lookup[present] = np.arange(present.shape[0])
        return Patterns(decode(present, base, k), tally[present]), lookup[keys]
    present, inverse, freq = np.unique(keys, return_inverse=True, return_counts=True)
    return Patterns(decode(present, base, k), freq.astype(np.int64)), inverse.reshape(-1)


def distinct(rows: np.ndarray) -> Patterns:
    """Patterns of a matrix of non-negative integers."""
    base = int(rows.max(initial=0)) + 1
    if radix_fits(base, rows.shape[1]):
        return from_codes(encode(rows, base), base, rows.shape[1])
    if base <= 256:  # wide rows of small codes: sort them as byte strings
        unique, freq = _unique_bytes(rows.astype(np.uint8, copy=False))
        return Patterns(unique, freq)
    unique, freq = np.unique(np.asarray(rows, dtype=np.int64), axis=0, return_counts=True)
    return Patterns(unique, freq.astype(np.int64))


def _unique_bytes(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_counts=True)`` of uint8 rows, as int64.

    Byte strings sort in the lexicographic order of their values, np.unique's
    order, and one string per row sorts faster than rows compared column by column.
    """
    keys = np.ascontiguousarray(rows).view(np.dtype((np.void, rows.shape[1]))).ravel()
    _, first, freq = np.unique(keys, return_index=True, return_counts=True)
    return rows[first].astype(np.int64), freq.astype(np.int64)


def merge(rows: np.ndarray, freq: np.ndarray) -> tuple[Patterns, np.ndarray]:
    """Patterns of rows that carry frequencies: equal rows add up.

    Returns the patterns, in the order :func:`distinct` gives the same rows,
    and for each input row the index of its pattern. Merging the patterns of
    two batches this way gives exactly the patterns of the batches together.
    """
    rows = np.asarray(rows, dtype=np.int64)
    base = int(rows.max(initial=0)) + 1
    if radix_fits(base, rows.shape[1]):
        codes, inverse = np.unique(encode(rows, base), return_inverse=True)
        unique = decode(codes, base, rows.shape[1])
    else:
        unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    total = np.zeros(unique.shape[0], dtype=np.int64)
    np.add.at(total, inverse, freq)
    return Patterns(unique, total), inverse
