"""Files → rating columns for the command line: one reader, whole or in chunks.

Every CSV or TSV file (and stdin, copied to a temporary file first) goes
through pyarrow's CSV parser with every cell read as the bytes it is; Excel
cells become the same strings, Parquet keeps its own column types. Each
chunk then goes through one conversion, the same for every chunk, so the
columns a file gives do not depend on its size or on ``--chunk-rows``. A
whole read is the same reader with one chunk.

:mod:`concord._cli.reading.source` parses files into raw cells, :mod:`concord._cli.reading.cells`
converts them into typed columns; this module chooses the columns to read.
``concord kappa`` reads a small plain CSV or TSV file without pandas or
pyarrow (:mod:`concord._cli.reading.small`), into the same columns, and
leaves everything else, errors included, to this reader. A whole CSV of
plain numbers is read typed (:mod:`concord._cli.reading.typed`), into the
same columns too; any other file, and every error, takes the cell-by-cell path.

The rules (docs/guide/command-line.md, "Reading files"):

* a missing rating is an empty cell (blank after trimming spaces), or a
  cell equal to one of the ``--na-values``. A text rating that looks like a
  missing-value marker (``NA``, ``N/A``, ``null``, ``None``, ``nan``, ``-``,
  ...; :data:`concord._cli.reading.cells.MARKERS`) is an error naming its cell
  unless ``--na-values`` or ``--labels`` says what it is: neither dropping
  it nor counting it as a category is right silently;
* the rating columns have one type for the whole file: numbers, or text. A
  number among text, or text among numbers, is an error that names both
  cells. With ``--labels`` that are not all numbers, every rating is text;
* bytes that are not valid in ``--encoding`` (UTF-8 by default), rows with
  too few or too many fields, a file that parses into one column and
  duplicate column names are errors naming the row, line or column;
* text categories go to the library as pandas Categoricals of Python
  strings, never as fixed-width numpy strings.

Rows are counted as in the file, the header being row 1 (the line number
when no quoted cell spans lines; Excel's own row number).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli.reading.cells import Converter, Group, whole
from concord._cli.reading.source import Source, _fail, _one_column, options
from concord._data.long import first_repeat

# column names that are item ids, not raters (case-insensitive; also *_id, *-id, "* id")
ID_NAMES = frozenset(
    [
        *("id", "uid", "key", "index", "idx", "item", "items", "item_id", "unit", "units"),
        *("subject", "subjects", "participant", "patient", "patients", "case", "cases"),
        *("doc", "docs", "document", "documents", "text", "sentence", "essay", "record"),
        *("row", "name", "sample"),
    ]
)
_ID_SUFFIX = re.compile(r"(?:^|[_\-\s.])(?:id|uid|key)$", re.IGNORECASE)
# an all-distinct column is an id when the first rows hold at least this many values
DISTINCT_MIN = 20


# --- columns: ids, raters, the long form --------------------------------------------------------


def looks_like_id(name: str) -> bool:
    """Return True for a column name that names items, not a rater (id, patient, essay_id …)."""
    return name.strip().casefold() in ID_NAMES or bool(_ID_SUFFIX.search(name.strip()))


def id_candidates(source: Source, names: list[str]) -> list[str]:
    """Columns that look like item ids: by name, or all distinct over the first rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    by_name = [n for n in names if looks_like_id(n)]
    sample = source.sample(names)
    distinct = []
    for n in names:
        values = sample.column(n)
        if len(values) < DISTINCT_MIN or values.null_count:
            continue
        textual = pa.types.is_binary(values.type) or pa.types.is_string(values.type)
        if textual and pc.min(pc.binary_length(values)).as_py() == 0:
            continue  # an empty cell: a missing rating, not an id
        if pc.count_distinct(values).as_py() == len(values):
            distinct.append(n)
    return [n for n in names if n in by_name or n in distinct]


def text_frame(file: str, o: dict[str, Any]) -> Any:
    """Return every column of FILE as text (empty cells as ""), to write rows back unchanged."""
    import pyarrow as pa

    source = Source(file, options(file, o))
    names = source.names()
    table = next(source.tables(names))
    convert = Converter(file, source.opts, [])
    columns = {}
    for n in names:
        values = table.column(n)
        if pa.types.is_binary(values.type):
            values = convert._decoded(values, n)
        columns[n] = values.to_pandas()
    import pandas as pd

    return pd.DataFrame(columns)


def select(names: Sequence[str], wanted: Sequence[str], path: str, option: str) -> list[str]:
    """Check that the columns exist; fail naming the option and listing the columns."""
    for i, name in enumerate(wanted):
        if name not in names:
            raise _fail(path, f"no column {name!r} for {option}. Columns: {', '.join(names)}.")
        if name in wanted[:i]:  # a rater counted twice would inflate the agreement
            raise click.UsageError(f"{option} names {name!r} twice; name each column once.")
    return list(wanted)


def wide_columns(source: Source, o: dict[str, Any]) -> list[str]:
    """Return the wide-form rater columns: --raters, all but --id, or all but an id column.

    Without either option, a column named like an id (or whose first rows
    are all distinct) is the item id, said on stderr; two such columns, or
    one that would leave fewer than two raters, need --raters or --id.
    """
    names = source.names()
    raters = cin.split_names(o.get("raters"))
    if raters == []:  # "" or ",": no column at all, not a file without rows
        raise click.BadParameter(
            f"names no column. List the rater columns, e.g. --raters a,b. Columns: "
            f"{', '.join(map(str, names))}.",
            param_hint="'--raters'",
        )
    if raters is not None:
        return select(names, raters, source.name, "--raters")
    if o.get("id_column") is not None:
        select(names, [o["id_column"]], source.name, "--id")
        return [n for n in names if n != o["id_column"]]
    if len(names) < 2:
        raise _fail(source.name, _one_column(names[0] if names else "", source.opts.delimiter))
    _not_spans(source.name, names)
    _not_long(source, names)
    ids = id_candidates(source, names)
    if not ids:
        return names
    if len(ids) > 1 or len(names) < 3:
        raise click.UsageError(
            f"{source.name}: column{'s' if len(ids) > 1 else ''} {', '.join(map(repr, ids))} "
            "look like item ids (an id's name, or every value distinct), not raters. Name "
            "the raters with --raters a,b,c, or the id column with --id."
        )
    click.echo(
        f"note: treating column {ids[0]!r} as the item id (pass --raters to choose the "
        "rater columns, or --id to name it).",
        err=True,
    )
    return [n for n in names if n != ids[0]]


def _not_spans(path: str, names: list[str]) -> None:
    """Refuse a table of spans (columns start and end) read as one column per rater."""
    if {"start", "end"} <= {str(n).lower() for n in names}:
        raise click.UsageError(
            f"{path} looks like a table of spans (columns start and end), not one column per "
            f"rater. Measure it with: concord spans {path} (and its HTML report with --html "
            "report.html); if each column really is a rater, name them with --raters."
        )


def _not_long(source: Source, names: list[str]) -> None:
    """Refuse a file that looks long (item, rater, rating columns) read as one column per rater.

    The first rows decide (:func:`concord._data.form.long_roles`), and the
    whole file where a column holds one value there (a file sorted by rater
    shows one rater in its first rows); ``--raters`` or ``--id`` say the file
    is wide and skip this.
    """
    from concord._data.form import MAX_COLUMNS, long_roles

    if not 3 <= len(names) <= MAX_COLUMNS:
        return
    values = _cells(source.sample(names), names)
    roles = long_roles(names, values)
    if roles is None and any(len(set(v.tolist()) - {None}) == 1 for v in values):
        import pyarrow as pa

        roles = long_roles(names, _cells(pa.concat_tables(source.tables(names)), names))
    if roles is None:
        return
    item, rater, rating = roles
    raise click.UsageError(
        f"{source.name} looks like a long table, one row per rating: column {item!r} repeats "
        f"its values (items), column {rater!r} holds names found in no other column (raters), "
        f"and column {rating!r} the ratings. Read as one column per rater it would make each "
        f"column a rater. Pass --item {item} --rater {rater} --rating {rating}; if each "
        "column really is a rater, name them with --raters (or the id column with --id)."
    )


def _cells(table: Any, names: list[str]) -> list[Any]:
    """Return the raw cells of each column as an object array, None for an empty cell."""
    import numpy as np

    out = []
    for n in names:
        cells = [None if v in (b"", "") else v for v in table.column(n).to_pylist()]
        column = np.empty(len(cells), dtype=object)
        column[:] = cells
        out.append(column)
    return out


def pair_columns(path: str, names: list[str], o: dict[str, Any]) -> list[str]:
    """Return the --rater1 and --rater2 columns, or the only two columns there are."""
    if o["rater1"] is None and o["rater2"] is None and len(names) == 2:
        return names
    if o["rater1"] is None or o["rater2"] is None:
        raise click.UsageError(
            f"name the raters with --rater1 and --rater2 ({path}: {', '.join(names)})."
        )
    first = select(names, [o["rater1"]], path, "--rater1")
    if o["rater2"] == o["rater1"]:
        raise click.UsageError(
            f"--rater1 and --rater2 both name {o['rater1']!r}; name two different raters."
        )
    return first + select(names, [o["rater2"]], path, "--rater2")


def long_form(source: Source, long: cin.Long, text: bool, numbers: bool = False) -> Any:
    """Read (item, rater, rating) rows whole; return one column per rater, raters in order.

    An empty item or rater cell, or a second rating of an item by a rater, is
    an error naming its row; with ``numbers``, so is a rating that is not a
    number. Items keep their sorted order, raters the order
    in which they first appear.
    """
    import pandas as pd

    names = source.names()
    for name, option in (
        (long.item, "--item"),
        (long.rater, "--rater"),
        (long.rating, "--rating"),
    ):
        select(names, [name], source.name, option)
    table = next(source.tables(list(dict.fromkeys([long.item, long.rater, long.rating]))))
    convert = Converter(source.name, source.opts, [Group([long.rating], text, numbers)])
    keys = [
        _key(convert, table.column(c), c, what)
        for c, what in ((long.item, "item"), (long.rater, "rater"))
    ]
    ratings = convert(table.select([long.rating]))[long.rating]
    item, items = pd.factorize(keys[0], sort=True)
    rater, raters = pd.factorize(keys[1])
    row = first_repeat(item, rater, len(raters))
    if row is not None:
        raise _fail(
            source.name,
            f"row {row + 2} rates item {keys[0][row]!r} by rater {keys[1][row]!r} a second "
            "time. Keep one rating per (item, rater) pair.",
        )
    return _pivot(ratings, item, rater, len(items), [str(r) for r in raters])


def _key(convert: Converter, values: Any, name: str, what: str) -> Any:
    """Return an item or rater column as strings; an empty cell is an error naming its row."""
    import pyarrow.compute as pc

    _, cells = convert._strings(values, name)
    if cells.null_count:
        row = pc.index(pc.is_null(cells), True).as_py()
        raise _fail(
            convert.path,
            f"row {row + 2} has no {what}: column {name!r} is empty there. Every rating "
            f"needs its item and its rater; fill in the {what} or drop the row.",
        )
    return cells.to_pandas().to_numpy(dtype=object)


def _pivot(ratings: Any, item: Any, rater: Any, n_items: int, raters: list[str]) -> Any:
    """Place each rating at (item, rater); unrated cells are missing."""
    import numpy as np
    import pandas as pd

    if isinstance(ratings.dtype, pd.CategoricalDtype):
        cat = ratings.array
        codes = np.full((n_items, len(raters)), -1, dtype=np.int64)
        codes[item, rater] = cat.codes
        dtype = pd.CategoricalDtype(cat.categories, ordered=cat.ordered)
        return pd.DataFrame(
            {r: pd.Categorical.from_codes(codes[:, j], dtype=dtype) for j, r in enumerate(raters)}
        )
    if ratings.dtype.kind == "f":
        wide = np.full((n_items, len(raters)), np.nan)
    else:
        wide = np.full((n_items, len(raters)), None, dtype=object)
    wide[item, rater] = ratings.to_numpy()
    return pd.DataFrame(wide, columns=raters)


def columns(
    file: str, o: dict[str, Any], wanted: dict[str, str | None], numbers: bool = False
) -> Any:
    """Read the columns the options name ({option: column}), each column its own type.

    The first is a rating column (read as text with text ``--labels``); the
    others are read by their cells alone. With ``numbers`` (scores), every
    cell must be a number.
    """
    return whole(*column_groups(file, o, wanted, numbers=numbers))


def column_groups(
    file: str,
    o: dict[str, Any],
    wanted: dict[str, str | None],
    rows: int = 0,
    numbers: bool = False,
) -> tuple[Source, list[Group]]:
    """Open FILE (in chunks of ``rows``; 0: whole) and return the groups :func:`columns` reads."""
    source = Source(file, options(file, o), rows)
    names = source.names()
    chosen = [select(names, [c], file, option)[0] for option, c in wanted.items() if c]
    groups = [
        Group([c], text=i == 0 and cin.labels_are_text(o.get("labels")), numbers=numbers)
        for i, c in enumerate(dict.fromkeys(chosen))
    ]
    return source, groups


def score_columns(
    file: str, o: dict[str, Any], scores: dict[str, list[str]], labels: list[str]
) -> Any:
    """Read numeric score columns ({option: [columns]}) and label columns, the whole file.

    A score cell that is not a number is an error naming its row; the label
    columns (``concord evaluate --group``) are read by their cells alone.
    """
    source = Source(file, options(file, o), 0)
    names = source.names()
    chosen = [c for option, cols in scores.items() for c in select(names, cols, file, option)]
    groups = [Group([c], numbers=True) for c in dict.fromkeys(chosen)]
    rest = [c for c in select(names, labels, file, "--group") if c not in chosen]
    # group labels are names, not ratings: "NA" there is a group's name (evaluate has no --labels)
    return whole(source, groups + [Group([c], markers=False) for c in rest])
