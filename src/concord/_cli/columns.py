"""The command line's input options: formats, column names, the long form, labels.

Reading itself is :mod:`concord._cli.read`'s, one reader for whole files
and chunks; this module holds what both it and the commands need. Every
problem is a one-line :class:`click.ClickException` that names the file,
the column or the row and says how to fix it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

# a decimal number: what a numeric cell looks like (no nan, inf, 1_000 or thousands commas)
NUMBER = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
FORMATS = ("csv", "tsv", "parquet", "excel")
#: annotation tools' exports, read by concord.read_annotations (:mod:`.reading.annotations`)
EXPORTS = ("label-studio", "prodigy", "doccano", "argilla", "brat", "conll")
# suffixes of exports whose tool is detected from the content
_EXPORT_SUFFIXES = (".json", ".jsonl", ".ann", ".conll", ".iob", ".zip")
_SUFFIXES = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".xlsx": "excel",
    ".xls": "excel",
    ".xlsm": "excel",
}


def input_format(path: str, declared: str | None) -> str:
    """Return the format of ``path``: declared, from its suffix, or CSV for stdin."""
    if declared is not None:
        return declared
    if path == "-":
        return "csv"
    if is_export_path(path):
        return "export"
    suffix = Path(path.removesuffix(".gz")).suffix.lower()
    if suffix not in _SUFFIXES:
        raise click.ClickException(
            f"{path}: cannot tell the format from the suffix {suffix or '(none)'!r}. "
            f"Pass --input-format {'|'.join(FORMATS)} (or an annotation tool's: "
            f"{'|'.join(EXPORTS)})."
        )
    return _SUFFIXES[suffix]


def is_export_path(path: str) -> bool:
    """Return True for an annotation export: a JSON, JSONL, brat or CoNLL file, or a folder.

    A folder whose name has a table's suffix (``ratings.csv/``) is not one: it is
    refused as a folder where a file was expected.
    """
    suffix = Path(path).suffix.lower()
    return suffix in _EXPORT_SUFFIXES or (Path(path).is_dir() and suffix not in _SUFFIXES)


def split_names(text: str | None) -> list[str] | None:
    """Split a comma-separated option value; None stays None."""
    if text is None:
        return None
    return [t.strip() for t in text.split(",") if t.strip()]


def column(frame: Any, name: str, path: str, option: str) -> Any:
    """Return ``frame[name]``, or fail naming the option and listing the columns."""
    if name not in frame.columns:
        available = ", ".join(map(str, frame.columns))
        raise click.ClickException(
            f"{path}: no column {name!r} for {option}. Columns: {available}."
        )
    return frame[name]


@dataclass(frozen=True)
class Long:
    """The ``--item``, ``--rater`` and ``--rating`` columns of a long-form file."""

    item: str
    rater: str
    rating: str


def parse_labels(text: str | None, columns: list[Any]) -> list[Any] | None:
    """Split ``a,b,c`` into labels: numbers if every token is one, else text.

    Text labels make the reader read every rating as text (see
    :func:`concord._cli.read.labels_are_text`), so they match cell for cell;
    numeric labels match numeric ratings by value. Without ``--labels``, an
    ordered categorical column supplies its order.
    """
    if text is None:
        return _categorical_order(columns)
    tokens = split_names(text) or []
    if not labels_are_text(text):
        return [int(t) if re.fullmatch("[+-]?[0-9]+", t) else float(t) for t in tokens]
    if any(c.dtype.kind in "iufb" for c in columns):  # typed columns (Parquet)
        raise click.BadParameter(
            f"the rating columns are numeric but {text!r} is not a list of numbers.",
            param_hint="--labels",
        )
    return tokens


def labels_are_text(labels: str | None) -> bool:
    """With ``--labels`` that are not all numbers, every rating is read as text."""
    tokens = split_names(labels) or []
    return bool(tokens) and not all(re.fullmatch(NUMBER, t) for t in tokens)


def _categorical_order(columns: list[Any]) -> list[Any] | None:
    orders = {
        tuple(c.cat.categories)
        for c in columns
        if getattr(c.dtype, "name", "") == "category" and c.cat.ordered
    }
    if len(orders) > 1:
        raise click.ClickException(
            "the ordered categorical columns disagree on the order of their categories. "
            "Declare it with --labels."
        )
    return list(orders.pop()) if orders else None
