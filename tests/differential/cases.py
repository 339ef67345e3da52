"""Seeded random data sets for the differential test (tests/differential/).

Every data set comes from ``numpy.random.default_rng([SEED, kind number, i])``, so
each is reproducible on its own: ``case("pairs-int", 7)`` is always the same data.
``CONCORD_FUZZ=1`` (``make fuzz``) draws the full run, ``CONCORD_FUZZ_N`` data sets per
kind (150 by default, fewer for the large kinds: about 2,000 in all); otherwise the quick
slice of ``make test`` draws ``QUICK`` per kind (58 in all). The full run's data sets
include the quick slice's.

Kinds: two raters on categories (``pairs-*``), several raters on categories
(``items-*``) and continuous scores (``scores-*``). Missing ratings are ``None``
(text labels, Python lists) or ``nan`` (numbers, float arrays).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SEED = 20240524
FUZZ = os.environ.get("CONCORD_FUZZ") == "1"

WORDS = ("absent", "mild", "moderate", "severe", "critical", "fatal", "gone", "hidden")


@dataclass(frozen=True)
class Case:
    """One data set: ``ratings`` is (n, r) for items and scores, ``pairs`` the two raters."""

    kind: str
    index: int
    ratings: Any = None  # list of rows (categories) or float ndarray (scores)
    labels: tuple[Any, ...] | None = None  # declared categories, in order, or None
    numeric: bool = True  # labels are numbers (their values are the weights' scores)
    sample_weight: tuple[Any, ...] | None = None
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.kind}#{self.index}"

    @property
    def pairs(self) -> tuple[list[Any], list[Any]]:
        return [row[0] for row in self.ratings], [row[1] for row in self.ratings]

    def categories(self) -> list[Any]:
        """The declared labels, else the sorted values seen (concord's order)."""
        if self.labels is not None:
            return list(self.labels)
        seen = {v for row in self.ratings for v in row if v is not None}
        return sorted(seen)


def _scale(rng: np.random.Generator, k: int, numeric: bool) -> list[Any]:
    """k ordered categories: integers with gaps (1..12) or words in a shuffled order."""
    if numeric:
        return sorted(int(v) for v in rng.choice(np.arange(1, 13), size=k, replace=False))
    return [str(w) for w in rng.permutation(WORDS)[:k]]


def _rate(rng: np.random.Generator, truth: np.ndarray, k: int, skill: float) -> np.ndarray:
    """A rater's category positions: the truth with probability ``skill``, else a neighbour."""
    noise = rng.integers(-2, 3, size=truth.shape)
    out = np.where(rng.random(truth.shape) < skill, truth, np.clip(truth + noise, 0, k - 1))
    return out


def _categorical(rng: np.random.Generator, n: int, r: int, k: int, numeric: bool) -> tuple:
    scale = _scale(rng, k, numeric)
    weights = rng.dirichlet(np.full(k, rng.choice([0.3, 1.0, 5.0])))
    truth = rng.choice(k, size=n, p=weights)
    skills = rng.uniform(0.2, 0.95, size=r)
    codes = np.column_stack([_rate(rng, truth, k, s) for s in skills])
    rows = [[scale[c] for c in row] for row in codes.tolist()]
    return rows, scale


def _holes(rng: np.random.Generator, rows: list[list[Any]], share: float) -> None:
    """Blank ``share`` of the ratings, keeping a rating of every rater somewhere."""
    n, r = len(rows), len(rows[0])
    for i in range(n):
        for j in range(r):
            if rng.random() < share and i != j % n:
                rows[i][j] = None


def _declared(rng: np.random.Generator, scale: list[Any], rows: list[list[Any]], numeric: bool):
    """Declared labels (sometimes with an unused category), or None for numbers."""
    if not numeric or rng.random() < 0.5:
        extra = [max(scale) + 3] if numeric else ["zz-unused"]
        return tuple(scale + extra) if rng.random() < 0.3 else tuple(scale)
    return None


def _pairs(rng: np.random.Generator, kind: str, index: int) -> dict[str, Any]:
    large = kind == "pairs-large"
    n = int(rng.integers(300, 3000)) if large else int(rng.integers(4, 40))
    k = int(rng.integers(5, 9)) if large else int(rng.integers(2, 6))
    numeric = kind != "pairs-text" and (kind != "pairs-missing" or index % 2 == 0)
    rows, scale = _categorical(rng, n, 2, k, numeric)
    if kind == "pairs-missing":
        _holes(rng, rows, 0.2)
    if kind == "pairs-degenerate":  # one rater constant, or both, or perfect agreement
        shape = index % 3
        for row in rows:
            row[1] = scale[0] if shape < 2 else row[0]
            row[0] = scale[-1] if shape == 1 else row[0]
    out: dict[str, Any] = {"ratings": rows, "numeric": numeric}
    out["labels"] = _declared(rng, scale, rows, numeric)
    if kind == "pairs-missing" and not numeric:
        out["labels"] = tuple(scale)  # omit without labels is item 10's case (pairs-omit)
    if kind == "pairs-weighted":
        whole = rng.random() < 0.5
        # whole weights, or decimals (0.01 to 5, most not dyadic: not exact in binary)
        draws = rng.integers(1, 5, size=n) if whole else rng.integers(1, 501, size=n) / 100
        out["sample_weight"] = tuple(draws.tolist())
        out["notes"] = {"whole": whole}
    return out


def _omit(rng: np.random.Generator) -> dict[str, Any]:
    """Issue 24 item 10: a middle category occurs only in pairs that omit drops."""
    n, k = int(rng.integers(8, 30)), int(rng.integers(3, 6))
    rows, scale = _categorical(rng, n, 2, k, True)
    middle = scale[1]
    for row in rows:  # the middle category only in the dropped pairs
        row[:] = [scale[0] if v == middle else v for v in row]
    rows += [[middle, None], [None, middle]]
    return {"ratings": rows, "numeric": True, "labels": None}


def _items(rng: np.random.Generator, kind: str, index: int) -> dict[str, Any]:
    large = kind == "items-large"
    n = int(rng.integers(200, 1500)) if large else int(rng.integers(3, 30))
    r = int(rng.integers(3, 7))
    k = int(rng.integers(5, 9)) if large else int(rng.integers(2, 6))
    numeric = kind != "items-text"
    rows, scale = _categorical(rng, n, r, k, numeric)
    if kind in ("items-missing", "items-text", "items-large"):
        _holes(rng, rows, float(rng.choice([0.1, 0.3])))
    if kind == "items-degenerate":  # all but one rating in one category
        for row in rows:
            row[:] = [scale[0]] * r
        rows[0][0] = scale[-1]
    return {"ratings": rows, "numeric": numeric, "labels": _declared(rng, scale, rows, numeric)}


def _scores(rng: np.random.Generator, kind: str, index: int) -> dict[str, Any]:
    n, r = int(rng.integers(4, 40)), int(rng.integers(2, 6))
    if kind == "scores-many" or (kind == "scores-far" and index % 2):
        n, r = int(rng.integers(100, 200)), 3  # > 256 distinct values: α's decomposition
    truth = rng.normal(size=(n, 1))
    bias = rng.normal(scale=0.3, size=(1, r))
    noise = rng.normal(scale=float(rng.choice([0.1, 0.5, 1.0])), size=(n, r))
    z = truth + bias + noise
    if kind == "scores-int":
        return {"ratings": np.clip(np.round(z * 3 + 10), 0, None)}  # ratio: non-negative
    if kind in ("scores-decimal", "scores-many"):
        return {"ratings": np.abs(np.round(z * 2 + 5, 3))}
    offset, sd = [(1e6, 0.01), (1e4, 0.5), (1e8, 1.0)][int(rng.integers(3))]
    return {"ratings": np.round(offset + sd * z, 3), "notes": {"offset": offset}}


KINDS = {
    "pairs-int": _pairs,
    "pairs-text": _pairs,
    "pairs-missing": _pairs,
    "pairs-degenerate": _pairs,
    "pairs-large": _pairs,
    "pairs-weighted": _pairs,
    "pairs-omit": lambda rng, kind, index: _omit(rng),
    "items-int": _items,
    "items-missing": _items,
    "items-text": _items,
    "items-degenerate": _items,
    "items-large": _items,
    "scores-int": _scores,
    "scores-decimal": _scores,
    "scores-many": _scores,
    "scores-far": _scores,
}
QUICK = {"pairs-large": 1, "items-large": 1, "scores-many": 1, "pairs-degenerate": 3}
FULL = {"pairs-large": 20, "items-large": 15, "scores-many": 30}
PER_KIND = int(os.environ.get("CONCORD_FUZZ_N", "150"))  # the full run's data sets per kind


def count(kind: str) -> int:
    """How many data sets of ``kind`` this run draws (the quick slice's are the first)."""
    return min(FULL.get(kind, PER_KIND), PER_KIND) if FUZZ else QUICK.get(kind, 4)


@functools.cache
def case(kind: str, index: int) -> Case:
    """The ``index``-th data set of ``kind``."""
    rng = np.random.default_rng([SEED, list(KINDS).index(kind), index])
    return Case(kind=kind, index=index, **KINDS[kind](rng, kind, index))


def cases(*kinds: str) -> list[Case]:
    """Every data set of the ``kinds`` for this run (quick slice or full)."""
    return [case(kind, i) for kind in kinds for i in range(count(kind))]
