"""The cut-point file that ``concord thresholds --save`` writes, and its checked reading.

A cut-point file is a JSON object::

    {"format": "concord-thresholds/1", "labels": [1, 2, 3], "thresholds": [1.5, "inf"], ...}

``labels`` are the k grades in order, ``thresholds`` the k − 1 non-decreasing
cut points; an infinite cut point (an empty end grade) is the string ``"inf"``
or ``"-inf"``. The other keys (``weights``, ``statistic``, ``cross_validated``,
``concord``) record how the cut points were fitted and are not read back.

The file may be edited by hand, so :func:`parse` checks everything grading
relies on and raises a ValueError naming the file and the key at fault::

    >>> parse('{"format": "concord-thresholds/1", "labels": ["lo", "hi"], '
    ...       '"thresholds": [0.5]}', "cuts.json")
    (array([0.5]), ['lo', 'hi'])
    >>> parse('{"format": "concord-thresholds/1", "labels": [1, 2, 3, 4], '
    ...       '"thresholds": [1.0, 3.0, 2.5]}', "cuts.json")
    Traceback (most recent call last):
    ...
    ValueError: cuts.json: 'thresholds' must be non-decreasing; got 2.5 after 3.0 (position 3).
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from concord._thresholds import dinkelbach

FORMAT = "concord-thresholds/1"
_INFINITE = {"inf": math.inf, "-inf": -math.inf}


def load(path: str) -> tuple[np.ndarray, list[Any]]:
    """Read a cut-point file: its cut points (float64) and its labels.

    Raises
    ------
    ValueError
        One sentence naming ``path`` and what is wrong: unreadable, not JSON,
        or any fault :func:`parse` finds.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read it ({exc.strerror or exc}).") from None
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path}: not UTF-8 text (byte {exc.start}); it should be JSON."
        ) from None
    return parse(text, path)


def grade(scores: np.ndarray, cuts: np.ndarray, labels: list[Any]) -> np.ndarray:
    """Return the grade of each score under a file's cut points: its label, as the file wrote it.

    A score's grade is the label after the cut points strictly below it, as
    :meth:`concord.ThresholdResult.apply` grades; the labels are kept as the
    JSON gave them (objects: 1 stays 1 beside 2.5), so rows written back
    show them unchanged.
    """
    out: np.ndarray = np.asarray(labels, dtype=object)[dinkelbach.grade(scores, cuts)]
    return out


def parse(text: str, path: str) -> tuple[np.ndarray, list[Any]]:
    """Check the JSON text of a cut-point file and return (cut points, labels).

    The checks: valid JSON holding one object without repeated keys, the
    known ``format``, at least two unique ``labels`` (strings or finite
    numbers), and one number fewer in ``thresholds``, non-decreasing and not
    NaN (so ``-inf`` can only lead and ``inf`` only trail).
    """
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})."
        ) from None
    except _RepeatedKey as exc:
        raise ValueError(f"{path}: the key {exc.args[0]!r} appears twice.") from None
    if not isinstance(data, dict):
        raise ValueError(
            f"{path}: the top level must be a JSON object {{...}}; got {_kind(data)}."
        )
    if data.get("format") != FORMAT:
        got = "no 'format' key" if "format" not in data else json.dumps(data["format"])
        raise ValueError(f"{path}: 'format' must be {json.dumps(FORMAT)}; got {got}.")
    labels = _labels(data, path)
    return _thresholds(data, path, len(labels)), labels


class _RepeatedKey(Exception):
    """A JSON object names a key twice (json keeps the last one silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key)
        out[key] = value
    return out


def _kind(value: Any) -> str:
    """Name a JSON value's type, as the file's author wrote it."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    for kind, name in ((dict, "an object"), (list, "an array"), (str, "a string")):
        if isinstance(value, kind):
            return name
    return f"the number {_show(value)}"


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, float) else repr(value).replace("nan", "NaN")


def _array(data: dict[str, Any], key: str, path: str, what: str) -> list[Any]:
    if key not in data:
        raise ValueError(f"{path}: the key {key!r} is missing; it lists {what}.")
    value = data[key]
    if not isinstance(value, list):
        raise ValueError(f"{path}: {key!r} must be an array of {what}; got {_kind(value)}.")
    return value


def _labels(data: dict[str, Any], path: str) -> list[Any]:
    labels = _array(data, "labels", path, "the grades in order")
    if len(labels) < 2:
        raise ValueError(f"{path}: 'labels' must name at least two grades; got {len(labels)}.")
    seen: dict[Any, int] = {}
    for position, label in enumerate(labels, start=1):
        if isinstance(label, bool) or not isinstance(label, str | int | float):
            raise ValueError(
                f"{path}: 'labels' must hold strings or numbers; "
                f"got {_kind(label)} (position {position})."
            )
        if isinstance(label, float) and not math.isfinite(label):
            raise ValueError(
                f"{path}: 'labels' must be finite; got {_show(label)} (position {position})."
            )
        if label in seen:
            raise ValueError(
                f"{path}: 'labels' must be unique; {_show(label)} is at positions "
                f"{seen[label]} and {position}."
            )
        seen[label] = position
    return labels


def _number(value: Any, path: str, position: int) -> float:
    if isinstance(value, str) and value in _INFINITE:
        return _INFINITE[value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(
            f'{path}: \'thresholds\' must hold numbers (or "inf", "-inf" for an empty end '
            f"grade); got {_kind(value)} (position {position})."
        )
    if math.isnan(value):
        raise ValueError(f"{path}: 'thresholds' must not be NaN (position {position}).")
    return float(value)


def _thresholds(data: dict[str, Any], path: str, k: int) -> np.ndarray:
    raw = _array(data, "thresholds", path, "the cut points in increasing order")
    if len(raw) != k - 1:
        raise ValueError(
            f"{path}: 'thresholds' must hold one cut point fewer than 'labels' "
            f"({k} labels, so {k - 1}); got {len(raw)}."
        )
    cuts = [_number(value, path, position) for position, value in enumerate(raw, start=1)]
    for position in range(1, len(cuts)):
        if cuts[position] < cuts[position - 1]:
            raise ValueError(
                f"{path}: 'thresholds' must be non-decreasing; got {_show(raw[position])} after "
                f"{_show(raw[position - 1])} (position {position + 1})."
            )
    return np.array(cuts, dtype=np.float64)
