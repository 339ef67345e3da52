"""Renamed names that still work: a FutureWarning points to the new one.

The result protocol (:mod:`concord._results.protocol`) renamed a few
things so that every result speaks alike: ``BlandAltmanResult.limits`` (the
coverage) is ``coverage``, and the ICC forms' ``icc`` key and column is
``statistic``. The old names read on, with a warning, until they are removed.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from concord._common.extras import require


def deprecated(old: str, new: str, owner: str) -> None:
    """Warn that ``owner.old`` is now ``owner.new`` (a FutureWarning: users see it)."""
    warnings.warn(
        f"{owner}.{old} is deprecated and will be removed; use {owner}.{new} (the same value).",
        FutureWarning,
        stacklevel=3,
    )


class RenamedRecord(dict[str, Any]):
    """A record in which an old key still reads, with a FutureWarning, as its new one."""

    def __init__(self, data: Mapping[str, Any], renamed: Mapping[str, str], owner: str) -> None:
        super().__init__(data)
        self._renamed = dict(renamed)
        self._owner = owner

    def __missing__(self, key: str) -> Any:
        new = self._renamed.get(key)
        if new is None:
            raise KeyError(key)
        warnings.warn(
            f"the key {key!r} of {self._owner} is deprecated and will be removed; "
            f"use {new!r} (the same value).",
            FutureWarning,
            stacklevel=2,
        )
        return self[new]


def renamed_frame(frame: Any, renamed: Mapping[str, str], owner: str) -> Any:
    """Return ``frame`` whose old column names still read, with a FutureWarning, as the new."""
    cls = _renamed_frame_class()
    out = cls(frame)
    out.attrs["concord_renamed"] = dict(renamed)
    out.attrs["concord_owner"] = owner
    return out


_CLASS: list[Any] = []


def _renamed_frame_class() -> Any:
    if _CLASS:
        return _CLASS[0]
    pd = require("pandas", "pandas", "a result's DataFrame")

    class RenamedFrame(pd.DataFrame):  # type: ignore[misc,name-defined]
        """A DataFrame in which a renamed column still reads under its old name."""

        @property
        def _constructor(self) -> Any:
            return pd.DataFrame

        def __getitem__(self, key: Any) -> Any:
            renamed = self.attrs.get("concord_renamed", {})
            if isinstance(key, str) and key in renamed and key not in self.columns:
                warnings.warn(
                    f"the column {key!r} of {self.attrs.get('concord_owner')} is deprecated "
                    f"and will be removed; use {renamed[key]!r} (the same values).",
                    FutureWarning,
                    stacklevel=2,
                )
                key = renamed[key]
            return super().__getitem__(key)

    _CLASS.append(RenamedFrame)
    return RenamedFrame
