"""Files larger than memory: read them in chunks and count each chunk into accumulators.

The file is read by :mod:`concord._cli.read`, the reader of whole files,
in chunks: CSV and TSV through pyarrow's streaming CSV reader, Parquet
through its record batches. Each chunk becomes a small DataFrame of the
rater columns, converted as a whole file's are, and is added to a
:func:`concord.accumulate` accumulator,
whose result is the in-memory result (the accumulators' contract). Memory
is bounded by the chunk, not the file. The CLI computes nothing itself here
either: it only feeds the library's accumulators.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import read as read
from concord._cli.options import alpha_level, family, groups, source
from concord._coefficients.registry import entry

# --chunk-rows auto: stream files larger than this, in chunks of this many rows
AUTO_BYTES = 100 << 20
AUTO_ROWS = 1_000_000
STREAMABLE = ("csv", "tsv", "parquet")


def chunk_rows(file: str, o: dict[str, Any]) -> int:
    """Return the chunk size to stream FILE with, or 0 to read it whole."""
    rows: int | None = o.get("chunk_rows")
    fmt = cin.input_format(file, o.get("input_format"))
    long = any(o.get(k) is not None for k in ("item", "rater", "rating"))
    if rows is None:  # auto: stream large wide-form files
        big = file != "-" and os.path.isfile(file) and os.path.getsize(file) > AUTO_BYTES
        rows = AUTO_ROWS if big and fmt in STREAMABLE and not long else 0
    if rows and fmt not in STREAMABLE:
        raise click.UsageError(
            f"--chunk-rows streams CSV, TSV and Parquet files; {file} is {fmt}. "
            "Convert it to CSV or Parquet, or leave out --chunk-rows to read it whole."
        )
    if rows and long:
        raise click.UsageError(
            "--chunk-rows streams wide-form files (one column per rater): a long-form item "
            "may span chunks. Pivot the file to one column per rater, or compute with "
            "concord.dask, which gathers each item's ratings first."
        )
    return rows


@dataclass
class Tally:
    """What the chunks held: rows (items), ratings and missing ratings."""

    raters: list[str]
    items: int = 0
    ratings: int = 0
    missing: int = 0
    chunks: int = 0

    def add(self, frame: Any) -> None:
        missing = int(frame.isna().to_numpy().sum())
        self.items += int(frame.shape[0])
        self.ratings += int(frame.size) - missing
        self.missing += missing
        self.chunks += 1

    def shape(self) -> dict[str, Any]:
        """Return the shape as :func:`concord._render.records.frame_shape` gives it."""
        return {
            "items": self.items,
            "raters": list(self.raters),
            "ratings": self.ratings,
            "missing_ratings": self.missing,
        }


def _feed(
    source: Any, columns: list[str], o: dict[str, Any], start: Callable[[Any], list[Any]]
) -> Tally:
    """Count every chunk into the accumulators ``start`` makes from the first chunk."""
    tally = Tally(columns)
    accumulators: list[Any] | None = None
    for frame in read.frames(source, groups(list(dict.fromkeys(columns)), o), bar=True):
        if accumulators is None:
            accumulators = start(frame)
        tally.add(frame)
        for acc in accumulators:
            if entry(acc.function).arity == 2:
                acc.update(frame[columns[0]], frame[columns[1]])
            else:
                acc.update(frame)
    if accumulators is None:
        raise click.ClickException(f"{source.name}: no rows to read.")
    if not tally.ratings:  # as a whole read says it
        raise click.ClickException(f"{source.name}: {read.NO_RATINGS}")
    return tally


def kappa(file: str, o: dict[str, Any], rows: int) -> tuple[Any, tuple[str, str]]:
    """Cohen's kappa of the --rater1 and --rater2 columns, counted chunk by chunk."""
    import concord

    src = source(file, o, rows)
    pair = read.pair_columns(file, src.names(), o)
    made: list[Any] = []

    def start(frame: Any) -> list[Any]:
        made.append(
            concord.accumulate(
                concord.cohen_kappa,
                weights=None if o["weights"] == "none" else o["weights"],
                labels=cin.parse_labels(o["labels"], [frame[c] for c in pair]),
                nan_policy=o["nan_policy"],
            )
        )
        return made

    _feed(src, pair, o, start)
    return made[0].result(), (pair[0], pair[1])


def agree(file: str, o: dict[str, Any], rows: int) -> tuple[list[Any], Tally]:
    """Every coefficient of ``concord agree``, counted chunk by chunk.

    Returns the results in the in-memory order (alpha last) and what the chunks held.
    """
    import concord

    src = source(file, o, rows)
    columns = read.wide_columns(src, o)
    made: list[Any] = []
    weights = None if o["weights"] == "none" else o["weights"]
    level = alpha_level(o)  # None: the weights' matrix, known once the labels are

    def start(frame: Any) -> list[Any]:
        labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
        made.extend(concord.accumulate(f, weights=weights, labels=labels) for f in family())
        # the weights' matrix as alpha's level: count at the nominal level (the same item
        # counts) and set the level once the labels are known
        alpha = concord.accumulate(
            concord.krippendorff_alpha, level=level or "nominal", labels=labels
        )
        made.append(alpha)
        return made

    tally = _feed(src, columns, o, start)
    results = [acc.result() for acc in made[:-1]]
    alpha = made[-1] if level is not None else made[-1]._with_options(level=results[1].weights)
    results.append(alpha.result())
    return results, tally
