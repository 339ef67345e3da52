"""Annotation tools' exports on the command line: read, said, and pivoted to one column per rater.

A ``.json`` or ``.jsonl`` file (a folder, ``.ann`` or ``.conll`` too), or any file
with ``--input-format label-studio`` (``prodigy``, ``doccano``, ``argilla``, ``brat``,
``conll``), is read by :func:`concord.read_annotations`; a detected format and what the
export marks as skipped (cancelled, rejected) are said on stderr. Its long table
becomes the wide table every command takes: one row per item, one column per rater.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import terminal
from concord._readers import read as readers

FORMATS = tuple(readers.MODULES)
NAMES = {
    "label-studio": "Label Studio",
    "prodigy": "Prodigy",
    "doccano": "doccano",
    "argilla": "Argilla",
    "brat": "brat",
    "conll": "CoNLL",
}
# a CoNLL file's suffixes (a folder of such files holds one file per annotator)
_CONLL_SUFFIXES = (".conll", ".conllu", ".iob", ".iob2", ".bio")
# the formats whose reader checks each label against the declared ones (--labels)
_CHOICES = ("label-studio", "prodigy", "argilla")
# the option of each format that --control sets
_CONTROL = {"label-studio": "from_name", "argilla": "question"}
# the library's words in an export's error → the command line's (phrases naming options the
# command line does not have first, then the options it has under other names)
_WORDS = {
    "or name the record's user key with rater=": "or give the folder (or .zip) holding each "
    "user's USERNAME.jsonl",
    ": remove the duplicate, or name each record's user with rater=.": ": remove the duplicate.",
    ", or pass text_key= naming the text field.": ".",
    "from_name=": "--control",
    "question=": "--control",
    "format=": "--input-format",
    "raters=": "--raters",
    "choices=": "--labels",
}


def is_export(file: str, o: dict[str, Any]) -> bool:
    """Whether FILE is read as an annotation export: by --input-format, else by its suffix."""
    declared = o.get("input_format")
    if declared is not None:
        return declared in FORMATS
    return file != "-" and cin.is_export_path(file)


def spans(file: str, o: dict[str, Any]) -> Any:
    """Read a span export (Label Studio labels, Prodigy ner, doccano, brat, CoNLL) for spans."""
    frame = long_table(file, o, columns=False)
    if "start" not in frame.columns:
        raise click.ClickException(
            f"{file} holds one label per item, not spans: measure its labels with concord agree."
        )
    kept = ["item", "rater", "label", "start", "end"] + (["text"] if "text" in frame else [])
    return frame[kept]


def long_table(file: str, o: dict[str, Any], columns: bool = True) -> Any:
    """Read the export into the library's long table; say the detected format and the skips.

    ``columns``: the command's column options (--item, --rater, --rating, --id) would
    name columns of a table, and are refused.
    """
    for option in ("item", "rater", "rating", "id_column") if columns else ():
        if o.get(option) is not None:
            flag = "--id" if option == "id_column" else f"--{option}"
            raise click.UsageError(
                f"{flag} names a column of a table; {file} is an annotation export, whose "
                "items, raters and labels are read from it. Leave out " + flag + "."
            )
    fmt = o.get("input_format")
    source: Any = file
    per_file = _conll_files(file) if fmt in (None, "conll") else None
    if per_file is not None:  # one CoNLL file per annotator: the files name the raters
        fmt, source = "conll", per_file
        terminal.echo(
            f"note: reading {file} as CoNLL files, one per annotator named by its file name.",
            err=True,
        )
    try:
        if fmt is None:
            fmt, source = readers.detect(file)
            article = "an" if NAMES[fmt][0] in "AEIOU" else "a"
            terminal.echo(
                f"note: reading {file} as {article} {NAMES[fmt]} export "
                f"(pass --input-format {fmt} to say so).",
                err=True,
            )
        elif file == "-":
            source = sys.stdin.buffer
        frame = readers.module(fmt).read(source, **_options(fmt, o))
    except ValueError as exc:  # the readers' faults: each names the export and the record
        said = str(exc)
        for words, option in _WORDS.items():
            said = said.replace(words, option)
        raise click.ClickException(said) from None
    _say_skipped(frame.attrs.get("skipped") or {}, fmt)
    return frame


def _conll_files(file: str) -> list[str] | None:
    """Return a folder's CoNLL files (one per annotator), sorted; None for anything else.

    Only a folder holding nothing but such files (and no sub-folder) is one: doccano's
    and brat's folders are detected by the reader.
    """
    from pathlib import Path

    folder = Path(file)
    if file == "-" or not folder.is_dir():
        return None
    entries = [p for p in folder.iterdir() if not p.name.startswith(".")]
    conll = [p for p in entries if p.is_file() and p.suffix.lower() in _CONLL_SUFFIXES]
    if not conll or len(conll) != len(entries):
        return None
    return [str(p) for p in sorted(conll)]


def _options(fmt: str, o: dict[str, Any]) -> dict[str, Any]:
    if fmt == "conll" and o.get("raters"):  # --raters: the annotators of the last columns
        return {"raters": cin.split_names(o["raters"])}
    found = _choices(fmt, o)
    control = o.get("control")
    if control is None:
        return found
    if fmt not in _CONTROL:
        raise click.UsageError(
            "--control picks a Label Studio control or an Argilla question; "
            f"a {NAMES[fmt]} export has none. Leave it out."
        )
    return {**found, _CONTROL[fmt]: control}


def _choices(fmt: str, o: dict[str, Any]) -> dict[str, Any]:
    """Return ``choices=`` from --labels (a label outside them names its record), else {}.

    A label that reads as a number is also that number: a rating control's labels are.
    """
    labels = cin.split_names(o.get("labels"))
    if not labels or fmt not in _CHOICES:
        return {}
    allowed: set[Any] = set(labels)
    for label in labels:
        with contextlib.suppress(ValueError):
            number = float(label)
            allowed.add(int(number) if number.is_integer() else number)
    return {"choices": allowed}


def _say_skipped(skipped: dict[str, int], fmt: str) -> None:
    if skipped:
        counts = ", ".join(f"{n} {reason}" for reason, n in skipped.items())
        terminal.echo(
            f"note: left out what the {NAMES[fmt]} export marks as no answer: {counts}.",
            err=True,
        )


def ratings(file: str, o: dict[str, Any], numbers: bool = False) -> Any:
    """Read the export; return one row per item and one column per rater (--raters: some)."""
    import numpy as np
    import pandas as pd

    frame = long_table(file, o)
    if "start" in frame.columns:
        raise click.ClickException(
            f"{file} holds spans (start, end), not one label per item: measure them with "
            "concord spans."
        )
    if frame.empty:
        raise click.ClickException(f"{file} holds no answer to measure.")
    try:
        item, items = pd.factorize(frame["item"], sort=True)
    except TypeError:  # ids of mixed types: the export's order
        item, items = pd.factorize(frame["item"])
    rater, raters = pd.factorize(frame["rater"])
    labels = frame["label"].to_numpy(dtype=object)
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in labels)
    if numbers and not numeric:
        bad = next(v for v in labels if not isinstance(v, int | float) or isinstance(v, bool))
        raise click.ClickException(f"{file}: the label {bad!r} is not a number; scores are.")
    wide = np.full((int(item.max()) + 1, len(raters)), np.nan if numeric else None, object)
    wide[item, rater] = labels
    out = pd.DataFrame(wide, columns=[str(r) for r in raters], index=items)
    out = out.astype(float) if numeric else out
    chosen = cin.split_names(o.get("raters"))
    if chosen:
        missing = [c for c in chosen if c not in out.columns]
        if missing:
            raise click.ClickException(
                f"{file}: no rater {missing[0]!r} for --raters. Raters: {', '.join(out.columns)}."
            )
        out = out[chosen]
    return out
