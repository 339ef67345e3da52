"""An accumulator's long-form batches: each pivoted, with the items and raters seen so far.

``accumulate(fleiss_kappa, item="doc", rater="annotator", rating="label")``
pivots every ``update`` batch (:func:`concord._data.long.pivot`). Raters keep
the order of their first appearance over all batches; a rater new in a later
batch is added as a column the earlier items did not rate. An item's
ratings must all come in one batch (as in the wide form, where an item is
one row): an item met in an earlier batch would otherwise count as two
items, so it is an error naming it. For that the accumulator keeps a 64-bit
fingerprint of every item it has counted (8 bytes an item); merging two
accumulators that hold a common item is an error too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from concord._coefficients.registry import Coefficient
from concord._common.errors import describe, param_error
from concord._data.long import Wide, keys, pivot


@dataclass(frozen=True)
class LongForm:
    """The long form's columns, the raters so far and the sorted fingerprints of the items."""

    names: tuple[Any, Any, Any]
    raters: tuple[Any, ...] = ()
    seen: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))

    @classmethod
    def of(cls, coef: Coefficient, item: Any, rater: Any, rating: Any) -> LongForm | None:
        """Return the long form ``accumulate`` was given: all three columns or none."""
        given = keys("accumulate", item, rater, rating)
        if given is not None and coef.arity != 1:
            param_error(
                "accumulate",
                "item",
                f"None for {coef.name}, which takes two raters' ratings",
                item,
                fix="The long form is for the many-rater functions.",
            )
        return None if given is None else cls(given)

    def pivot(self, data: Any) -> tuple[Wide, LongForm]:
        """Pivot a batch; return it and the long form once it is counted."""
        func = "Accumulator.update"
        wide = pivot(data, self.names, func, raters=self.raters)
        prints = fingerprints(wide.items)
        again = np.isin(prints, self.seen)
        if again.any():
            item = wide.items[int(np.argmax(again))]
            item = item.item() if isinstance(item, np.generic) else item
            param_error(
                func,
                "ratings",
                "rows of items not counted before (all of an item's ratings in one batch)",
                f"item {describe(item)} again, which an earlier batch rated",
                raw=True,
                fix="Batch the rows by item, e.g. sort them by item before splitting.",
            )
        return wide, replace(self, raters=wide.raters, seen=np.union1d(self.seen, prints))

    def merged(self, other: LongForm) -> LongForm:
        """Return the long form of two merged accumulators: all their raters and items."""
        common = np.intersect1d(self.seen, other.seen)
        if common.size:
            param_error(
                "Accumulator.merge",
                "other",
                "an accumulator of other items",
                f"one that counted {common.size:,} of the same items",
                raw=True,
                fix="Count each item's rows in one accumulator.",
            )
        raters = self.raters + tuple(r for r in other.raters if r not in self.raters)
        return replace(self, raters=raters, seen=np.union1d(self.seen, other.seen))


def fingerprints(items: np.ndarray) -> np.ndarray:
    """Return a 64-bit hash of each item id, the same in every process."""
    try:
        import pandas as pd
    except ImportError:  # one hash per distinct item, not per row
        digest = (
            hashlib.blake2b(repr((type(v).__name__, v)).encode(), digest_size=8).digest()
            for v in items.tolist()
        )
        return np.frombuffer(b"".join(digest), dtype=np.uint64)
    return np.asarray(pd.util.hash_array(np.asarray(items)), dtype=np.uint64)
