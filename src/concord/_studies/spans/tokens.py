"""Token agreement: spans painted on the character or token grid, and any coefficient on it.

Each rater's spans are painted on the positions of each item (see
:mod:`concord._studies.spans.paint`): the characters ``[0, length)`` or the
whitespace tokens of the item's text. A position is a unit (an "item" of
the coefficient), each rater's category there a rating, and the
coefficient is computed on that grid as on any ratings.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import numpy as np

from concord._coefficients.krippendorff.krippendorff import krippendorff_alpha
from concord._coefficients.registry import entry
from concord._common.errors import check_option, describe, param_error
from concord._common.extras import require
from concord._data.spans import SpanTable, read_spans
from concord._studies.spans.paint import NO_LABEL, category_names, paint

_FUNC = "token_agreement"
_TOKEN = re.compile(r"\S+")


def token_ratings(
    spans: Any,
    /,
    *,
    lengths: Any = None,
    raters: Any = None,
    unit: str = "char",
    item: Any = "item",
    rater: Any = "rater",
    start: Any = "start",
    end: Any = "end",
    label: Any = "label",
) -> Any:
    """Return the spans painted on a grid: one row per item and position, one column per rater.

    The ratings :func:`token_agreement` computes its coefficient on, as a
    pandas DataFrame indexed by (item, position) whose columns are the
    raters, each a Categorical of the same categories: ``"(no label)"``,
    the labels, then the combinations of labels that overlap on a rater's
    position (``"LOC+ORG"``). Pass it to any coefficient, to an accumulator
    (``concord.accumulate(...).update(grid)``) or to :mod:`concord.dask`.

    Parameters
    ----------
    spans, lengths, raters, unit, item, rater, start, end, label
        As :func:`token_agreement` takes them.

    Returns
    -------
    pandas.DataFrame
        Indexed by (item, position) (``token`` for ``unit="token"``), one
        Categorical column per rater.

    Examples
    --------
    >>> import concord
    >>> spans = {"item": ["s1", "s1"], "rater": ["ann", "bob"], "start": [0, 0],
    ...          "end": [4, 3], "label": ["PER", "PER"], "text": ["Anna ran."] * 2}
    >>> grid = concord.token_ratings(spans)
    >>> grid["ann"].tolist()[:6]
    ['PER', 'PER', 'PER', 'PER', '(no label)', '(no label)']
    >>> concord.token_ratings(spans, unit="token")["bob"].tolist()
    ['PER', '(no label)']
    """
    unit = check_option("token_ratings", "unit", unit, ("char", "token"))
    table = read_spans(
        spans, item=item, rater=rater, start=start, end=end, label=label,
        lengths=lengths, raters=raters, func=_FUNC, need_lengths=unit == "char",
    )  # fmt: skip
    return _grid(table, unit)


def _grid(table: SpanTable, unit: str) -> Any:
    pd = require("pandas", "pandas", _FUNC)
    if unit == "char":
        assert table.lengths is not None
        sizes = table.lengths
        offsets = np.cumsum(sizes) - sizes
        first, last = offsets[table.item] + table.start, offsets[table.item] + table.end
    else:
        sizes, first, last = _tokens(table)
    names = category_names(table.labels, _FUNC)
    combos: dict[tuple[int, ...], int] = {}
    total = int(sizes.sum())
    painted = []
    for r in range(len(table.raters)):
        mine = table.rater == r
        painted.append(
            paint(total, first[mine], last[mine], table.label[mine], combos, len(names))
        )
    joined = ("+".join(sorted(names[i] for i in c)) for c in combos)
    categories = [NO_LABEL, *names, *joined]
    where = np.repeat(np.arange(len(table.items)), sizes)
    position = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    index = pd.MultiIndex.from_arrays(
        [pd.Categorical.from_codes(where, categories=table.items), position],
        names=[table.names["item"], "position" if unit == "char" else "token"],
    )
    columns = {
        r: pd.Categorical.from_codes(codes, categories=categories)
        for r, codes in zip(table.raters, painted, strict=True)
    }
    return pd.DataFrame(columns, index=index)


def _tokens(table: SpanTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the tokens per item and each span's first and last token (+1), globally.

    A span covers the tokens it shares at least one character with; a span
    over whitespace only covers none.
    """
    texts = table.texts
    if texts is None or any(t is None for t in texts):
        missing = table.items[0] if texts is None else table.items[texts.index(None)]
        param_error(
            _FUNC,
            "unit",
            "'char' unless every item has its text in a 'text' column ('token' splits it)",
            f"'token' with no text for item {describe(missing)}",
            raw=True,
            fix="Add a 'text' column (read_annotations gives one where the export has it).",
        )
    starts, ends, sizes, chars = [], [], [], 0
    offsets = np.zeros(len(texts), dtype=np.int64)
    for i, text in enumerate(texts):
        assert text is not None
        found = [(m.start() + chars, m.end() + chars) for m in _TOKEN.finditer(text)]
        offsets[i] = chars
        chars += len(text)
        sizes.append(len(found))
        starts += [s for s, _ in found]
        ends += [e for _, e in found]
    token_start, token_end = np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)
    first = offsets[table.item] + table.start
    last = offsets[table.item] + table.end
    lo = np.searchsorted(token_end, first, "right")  # the first token ending after the start
    hi = np.searchsorted(token_start, last, "left")  # the tokens starting before the end
    return np.array(sizes, dtype=np.int64), lo, np.maximum(hi, lo)


def token_agreement(
    spans: Any,
    /,
    *,
    lengths: Any = None,
    raters: Any = None,
    unit: str = "char",
    function: Any = krippendorff_alpha,
    item: Any = "item",
    rater: Any = "rater",
    start: Any = "start",
    end: Any = "end",
    label: Any = "label",
    **options: Any,
) -> Any:
    """Agreement on every character (or token): the spans painted on a grid, a coefficient on it.

    Each rater's spans are painted on the character grid ``[0, length)`` of
    each item (or on its whitespace tokens), "(no label)" a category of its
    own where no span covers a position, and ``function`` computes its
    coefficient with the positions as its items. Positions no one annotated
    count: that is where this differs from span F1.

    Parameters
    ----------
    spans : DataFrame or mapping of columns
        One row per span: item, rater, start, end (end exclusive), label,
        and a ``text`` column where the export has one (as
        :func:`concord.read_annotations` gives them).
    lengths : mapping, optional
        ``{item: length}`` in characters; by default ``len(text)``. An item
        in it that no one annotated is all "(no label)" for every rater.
    raters : list, optional
        The raters who annotated (declared). A rater who marked nothing on
        any item has no row in the table; listed here, that rater's column
        is all "(no label)". Default: the raters of the table. (It declares
        the spans' raters; it is not passed to ``function``.)
    unit : {"char", "token"}
        ``"char"``: one unit per character; ``"token"``: one per whitespace
        token of the ``text`` column, which takes the label of every span it
        shares a character with.
    function : callable, default concord.krippendorff_alpha
        Any coefficient of the family (:func:`concord.fleiss_kappa`,
        :func:`concord.gwet_ac`, ...; a two-rater one such as
        :func:`concord.cohen_kappa` for two raters).
    item, rater, start, end, label : str
        The columns.
    **options
        The function's own options (``level``, ``weights``, ...).

    Returns
    -------
    result
        ``function``'s own result, with its interval and everything it
        offers; its items are the positions. :func:`concord.token_ratings`
        gives the painted grid itself, for an accumulator or Dask.

    Notes
    -----
    Where spans of several labels of one rater overlap (nested entities), the
    position's category is that combination (``"LOC+ORG"``), a category of
    its own. The grid of a long corpus is large (one unit per character):
    ``unit="token"`` is smaller, and closer to how token-level κ is reported.

    Examples
    --------
    Two annotators of "Anna met Bo." (12 characters): ann marks "Anna" and
    "Bo" as PER, bob only "Anna". Counted by hand: 10 of the 12 characters
    agree, chance agreement (6·4 + 6·8) / 144 = 1/2, so Cohen's κ =
    (10/12 − 1/2) / (1 − 1/2) = 2/3.

    >>> import concord
    >>> spans = {"item": [1, 1, 1], "rater": ["ann", "ann", "bob"],
    ...          "start": [0, 9, 0], "end": [4, 11, 4], "label": ["PER"] * 3}
    >>> r = concord.token_agreement(spans, lengths={1: 12}, function=concord.cohen_kappa)
    >>> round(r.statistic, 4)
    0.6667
    """
    unit = check_option(_FUNC, "unit", unit, ("char", "token"))
    coefficient = entry(function, _FUNC)
    table = read_spans(
        spans, item=item, rater=rater, start=start, end=end, label=label,
        lengths=lengths, raters=raters, func=_FUNC, need_lengths=unit == "char",
    )  # fmt: skip
    if len(table.raters) < 2:
        param_error(
            _FUNC,
            "spans",
            "spans of at least two raters",
            "no spans" if not table.raters else f"only rater {describe(table.raters[0])}",
            raw=True,
            fix="Agreement compares raters: add the other raters' spans.",
        )
    grid = _grid(table, unit)
    if coefficient.arity == 2:
        if grid.shape[1] != 2:
            param_error(
                _FUNC,
                "function",
                "a coefficient of many raters for more than two raters",
                f"{coefficient.name} for {grid.shape[1]} raters",
                raw=True,
                fix="Use e.g. function=concord.fleiss_kappa, or spans of two raters.",
            )
        return function(grid.iloc[:, 0], grid.iloc[:, 1], **options)
    if "form" in inspect.signature(function).parameters:
        options.setdefault("form", "wide")
    return function(grid, **options)
