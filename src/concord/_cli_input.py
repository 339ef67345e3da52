"""Files → rating columns for the command line: formats, wide and long form, labels.

Reading is pandas' (and pyarrow's for Parquet, openpyxl's for Excel); this
module only picks the reader, selects the columns the options name and turns
every problem into a one-line :class:`click.ClickException` that names the
file, the column or the row and says how to fix it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

FORMATS = ("csv", "tsv", "parquet", "excel")
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
    suffix = Path(path.removesuffix(".gz")).suffix.lower()
    if suffix not in _SUFFIXES:
        raise click.ClickException(
            f"{path}: cannot tell the format from the suffix {suffix or '(none)'!r}. "
            f"Pass --input-format {'|'.join(FORMATS)}."
        )
    return _SUFFIXES[suffix]


def read_table(path: str, fmt: str | None = None, *, as_text: bool = False) -> Any:
    """Read a whole file (or stdin for ``-``) into a DataFrame.

    ``as_text`` keeps every CSV/TSV cell as the string it is, to write the
    rows back unchanged.
    """
    import pandas as pd

    kind = input_format(path, fmt)
    text = {"dtype": str, "keep_default_na": False} if as_text else {}
    if kind in ("parquet", "excel") and path == "-":
        source: Any = sys.stdin.buffer
    else:
        source = sys.stdin if path == "-" else path
    readers = {
        "csv": lambda: pd.read_csv(source, **text),
        "tsv": lambda: pd.read_csv(source, sep="\t", **text),
        "parquet": lambda: pd.read_parquet(source),
        "excel": lambda: pd.read_excel(source),
    }
    try:
        return readers[kind]()
    except FileNotFoundError:
        raise click.ClickException(f"{path}: no such file.") from None
    except ImportError as exc:
        raise click.ClickException(
            f"{path}: reading {kind} needs {exc.name or 'an optional package'}; "
            'install it with pip install "concord-agreement[cli]".'
        ) from None
    except Exception as exc:  # every reader has its own errors: report them on one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise click.ClickException(f"{path}: cannot read it as {kind} ({first}).") from None


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


def wide_from_long(frame: Any, long: Long, path: str) -> Any:
    """Pivot (item, rater, rating) rows to one column per rater, raters in order of appearance."""
    for name, option in (
        (long.item, "--item"),
        (long.rater, "--rater"),
        (long.rating, "--rating"),
    ):
        column(frame, name, path, option)
    keys = frame[[long.item, long.rater]]
    repeated = keys.duplicated(keep=False)
    if repeated.any():
        row = int(repeated.to_numpy().nonzero()[0][1])
        item, rater = keys.iloc[row]
        raise click.ClickException(
            f"{path}: row {row + 2} rates item {item!r} by rater {rater!r} a second time. "
            "Keep one rating per (item, rater) pair."
        )
    wide = frame.pivot(index=long.item, columns=long.rater, values=long.rating)
    wide = wide[list(dict.fromkeys(frame[long.rater]))]
    wide.columns = [str(c) for c in wide.columns]
    return wide


def rater_columns(frame: Any, raters: list[str] | None, id_column: str | None, path: str) -> Any:
    """Select the wide-form rater columns: ``--raters``, or every column but ``--id``."""
    if raters is not None:
        return frame[[column(frame, r, path, "--raters").name for r in raters]]
    if id_column is not None:
        column(frame, id_column, path, "--id")
        return frame.drop(columns=[id_column])
    return frame


def parse_labels(text: str | None, columns: list[Any]) -> list[Any] | None:
    """Split ``a,b,c`` into labels with the type of the rating columns.

    Without ``--labels``, an ordered categorical column supplies its order.
    """
    if text is None:
        return _categorical_order(columns)
    tokens = split_names(text) or []
    if all(c.dtype.kind in "iufb" for c in columns):
        try:
            return [int(t) if t.lstrip("+-").isdigit() else float(t) for t in tokens]
        except ValueError:
            raise click.BadParameter(
                f"the rating columns are numeric but {text!r} is not a list of numbers.",
                param_hint="--labels",
            ) from None
    return tokens


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
