"""The rater columns a command's options name, read whole or in chunks.

Every command picks its columns here, once for both paths: ``--rater1``
and ``--rater2`` (or the only two columns there are), the wide form's
``--raters`` or ``--id``, or the long form's ``--item``, ``--rater`` and
``--rating``. Reading itself is :mod:`concord._cli.read`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import read as read
from concord._cli.reading import cells as cells
from concord._cli.reading import exports as exports
from concord._cli.reading import source as sources
from concord._cli.reading import typed as typed


def long_form(o: dict[str, Any]) -> cin.Long | None:
    """Return the long form's three columns, None for the wide form; two of three is an error."""
    given = [o.get(k) is not None for k in ("item", "rater", "rating")]
    if not any(given):
        return None
    if not all(given):
        raise click.UsageError("the long form needs all three of --item, --rater and --rating.")
    return cin.Long(o["item"], o["rater"], o["rating"])


def source(file: str, o: dict[str, Any], rows: int = 0) -> sources.Source:
    """Open FILE with the options' format, delimiter, encoding and missing markers."""
    return sources.Source(file, sources.options(file, o), rows)


def groups(
    columns: list[str], o: dict[str, Any], numbers: bool = False, text: bool = False
) -> list[cells.Group]:
    """Return the rating columns as one group: one type (numbers or text) for all of them.

    With ``numbers`` (scores, as the ICC takes), every cell must be a number; with
    ``text`` (label sets, ``1|2`` beside ``1``), every cell is read as text.
    """
    text = text or cin.labels_are_text(o.get("labels"))
    return [cells.Group(columns, text=text, numbers=numbers)]


def pair(file: str, o: dict[str, Any], rows: int = 0) -> tuple[sources.Source, list[str]]:
    """Open a wide-form FILE and return it with its --rater1 and --rater2 columns."""
    src = source(file, o, rows)
    return src, read.pair_columns(file, src.names(), o)


def raters(file: str, o: dict[str, Any], rows: int = 0) -> tuple[sources.Source, list[str]]:
    """Open a wide-form FILE and return it with its rater columns (--raters, --id or a guess)."""
    src = source(file, o, rows)
    return src, read.wide_columns(src, o)


def ratings(
    file: str, o: dict[str, Any], numbers: bool = False, text: bool = False, wide: bool = False
) -> Any:
    """Read FILE and return its rater columns (wide form, or pivoted from the long form).

    With ``numbers``, a rating that is not a number is an error naming its cell;
    with ``text``, every rating is read as text.
    An annotation tool's export (``.json``, ``.jsonl``, ``--input-format label-studio``)
    is read by :func:`concord.read_annotations` and pivoted.
    With ``wide``, a CSV of plain numbers that the typed read takes (no ``--labels``)
    comes back as a :class:`~concord._data.wide.Wide` of its float64 block, the same
    values as the frame, without pandas (:func:`is_block`).
    """
    if exports.is_export(file, o):
        return exports.ratings(file, o, numbers)
    src = source(file, o)  # a bad --input-format, --delimiter or --encoding first
    long = long_form(o)
    if long is not None:
        as_text = text or cin.labels_are_text(o.get("labels"))
        return read.long_form(src, long, as_text, numbers)
    columns = read.wide_columns(src, o)
    tried = wide and not (numbers or text) and o.get("labels") is None
    if tried and typed.applies(src, False):
        names = list(dict.fromkeys(columns))  # a column named twice is read once, as whole()
        values = typed.block(src, names)
        if values is not None:
            import numpy as np

            from concord._data.wide import Wide

            return Wide(tuple(names), np.arange(values.shape[0]), numeric=values)
    else:
        tried = False
    # the typed read tried and refused the file: the text path reads it (not the typed again)
    return cells.whole(src, groups(columns, o, numbers, text), fast=not tried)


def is_block(ratings: Any) -> bool:
    """Whether :func:`ratings` returned the typed read's block (a ``Wide``), not a frame."""
    from concord._data.wide import Wide

    return isinstance(ratings, Wide)


def two_raters(file: str, o: dict[str, Any]) -> tuple[Any, Any]:
    """Return the --rater1 and --rater2 columns (or the only two there are)."""
    if long_form(o) is not None or exports.is_export(file, o):
        frame = ratings(file, o)
        columns = read.pair_columns(file, [str(c) for c in frame.columns], o)
    else:
        src, columns = pair(file, o)
        frame = cells.whole(src, groups(columns, o))
    return frame[columns[0]], frame[columns[1]]


def chunks(
    src: sources.Source,
    columns: list[str],
    o: dict[str, Any],
    read_as: list[cells.Group] | None = None,
) -> Iterator[Any]:
    """Yield the columns chunk by chunk, with a progress bar; a column named twice is read once.

    ``read_as``: the groups a whole read of the command reads (default: one group of
    the columns, as :func:`groups` makes it).
    """
    if read_as is None:
        read_as = groups(list(dict.fromkeys(columns)), o)
    return cells.frames(src, read_as, bar=True)
