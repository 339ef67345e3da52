"""The tables and text of :class:`SpanAgreementResult`: per pair, label and item, disagreements.

Everything here is computed from the result's counts: spans per rater, item
and label (R, I, L) and matched spans per pair of raters, item and label
(P, I, L).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.extras import require
from concord._results.protocol import row


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)
    return out


def _mean(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """Return the mean over ``axis`` of the defined values (nan where none is)."""
    defined = np.isfinite(values)
    total = np.where(defined, values, 0.0).sum(axis=axis)
    out: np.ndarray = _ratio(total, defined.sum(axis=axis).astype(np.float64))
    return out


def pair_counts(result: Any) -> dict[str, np.ndarray]:
    """Return each pair's counts per label (P, L): matched, first rater's, second rater's."""
    c = result.counts
    first = np.array([a for a, _ in c.pairs], dtype=np.intp)
    second = np.array([b for _, b in c.pairs], dtype=np.intp)
    per_rater = c.counts.sum(axis=1)  # (R, L)
    return {"m": c.matched.sum(axis=1), "n1": per_rater[first], "n2": per_rater[second]}


def by_pair(result: Any) -> Any:
    pd = require("pandas", "pandas", "SpanAgreementResult.by_pair")
    return pd.DataFrame(_pairs(result)).set_index(["rater1", "rater2"])


def _pairs(result: Any) -> list[dict[str, Any]]:
    k = pair_counts(result)
    m, n1, n2 = (k[key].sum(axis=1) for key in ("m", "n1", "n2"))
    labels_f1 = _ratio(2 * k["m"], (k["n1"] + k["n2"]).astype(np.float64))
    macro = _mean(labels_f1, axis=1)
    rows = []
    for p, (a, b) in enumerate(result.counts.pairs):
        rows.append(
            {
                "rater1": result.raters[a],
                "rater2": result.raters[b],
                "matched": int(m[p]),
                "n1": int(n1[p]),
                "n2": int(n2[p]),
                "precision": float(_ratio(m[p : p + 1], n2[p : p + 1])[0]),
                "recall": float(_ratio(m[p : p + 1], n1[p : p + 1])[0]),
                "f1": float(_ratio(2 * m[p : p + 1], n1[p : p + 1] + n2[p : p + 1])[0]),
                "macro_f1": float(macro[p]),
            }
        )
    return rows


def pair_rows(result: Any) -> list[dict[str, Any]]:
    """Return the tidy rows of the pairs of raters."""
    out = []
    for r in _pairs(result):
        rest = {k: v for k, v in r.items() if k != "f1"}
        rest["rater1"], rest["rater2"] = str(rest["rater1"]), str(rest["rater2"])
        out.append(row("span F1 of a pair", r["f1"], n=result.n_items, **rest))
    return out


def _labels(result: Any) -> list[dict[str, Any]]:
    if result.by is None:
        return []
    k = pair_counts(result)
    f1 = _mean(_ratio(2 * k["m"], (k["n1"] + k["n2"]).astype(np.float64)))
    precision, recall = _mean(_ratio(k["m"], k["n2"])), _mean(_ratio(k["m"], k["n1"]))
    spans = result.counts.counts.sum(axis=(0, 1))
    return [
        {
            "label": label,
            "spans": int(spans[i]),
            "matched": int(k["m"][:, i].sum()),
            "precision": float(precision[i]),
            "recall": float(recall[i]),
            "f1": float(f1[i]),
        }
        for i, label in enumerate(result.labels)
    ]


def by_label(result: Any) -> Any:
    pd = require("pandas", "pandas", "SpanAgreementResult.by_label")
    if result.by is None:
        from concord._common.errors import param_error

        param_error(
            "SpanAgreementResult.by_label",
            "by",
            "'label' in span_agreement for per-label F1",
            None,
            fix="Spans were matched whatever their labels (by=None); call span_agreement "
            "with by='label'.",
        )
    frame = pd.DataFrame(_labels(result)).set_index("label")
    frame.index.name = result.spans.names["label"]
    return frame


def label_rows(result: Any) -> list[dict[str, Any]]:
    """Return the tidy rows of the labels (none when labels were ignored)."""
    return [
        row("span F1 of a label", r["f1"], **{k: v for k, v in r.items() if k != "f1"})
        for r in _labels(result)
    ]


def _item_f1(result: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return per item: spans, matched spans (over the pairs) and the mean F1 over the pairs."""
    c = result.counts
    totals = c.totals().sum(axis=2)  # (P, I)
    matched = c.matched.sum(axis=2)
    f1 = _mean(_ratio(2 * matched, totals.astype(np.float64)))
    return c.counts.sum(axis=(0, 2)), matched.sum(axis=0), f1


def by_item(result: Any) -> Any:
    pd = require("pandas", "pandas", "SpanAgreementResult.by_item")
    spans, matched, f1 = _item_f1(result)
    name = result.spans.names["item"]
    frame = pd.DataFrame({name: result.spans.items, "spans": spans, "matched": matched, "f1": f1})
    return frame.set_index(name)


def worst_items(result: Any, n: int) -> list[dict[str, Any]]:
    """Return the ``n`` items of lowest F1 (undefined F1 last, then by order), worst first."""
    spans, matched, f1 = _item_f1(result)
    order = np.lexsort((np.arange(f1.size), np.where(np.isfinite(f1), f1, np.inf)))
    return [
        {
            result.spans.names["item"]: result.spans.items[i],
            "spans": int(spans[i]),
            "matched": int(matched[i]),
            "f1": float(f1[i]),
        }
        for i in order[:n].tolist()
    ]


def _unmatched(result: Any) -> dict[str, np.ndarray]:
    """Return the unmatched spans in the order of the table: span, other rater, other span."""
    t, found = result.spans, result.disagreeing()
    span, other, pair = found["span"], found["other"], found["pair"]
    pairs = np.array(result.counts.pairs, dtype=np.intp).reshape(-1, 2)
    mine = t.rater[span]
    theirs = np.where(pairs[pair, 0] == mine, pairs[pair, 1], pairs[pair, 0])
    order = np.lexsort((pair, mine, t.end[span], t.start[span], t.item[span]))
    return {"span": span[order], "other": other[order], "theirs": theirs[order]}


def _pick(values: tuple[Any, ...] | list[Any], codes: np.ndarray) -> list[Any]:
    return [values[c] for c in codes.tolist()]


def disagreements(result: Any) -> Any:
    pd = require("pandas", "pandas", "SpanAgreementResult.disagreements")
    t, u = result.spans, _unmatched(result)
    span, other, theirs = u["span"], u["other"], u["theirs"]
    has = other >= 0
    at = np.where(has, other, 0)
    names = t.names
    frame = pd.DataFrame(
        {
            names["item"]: _pick(t.items, t.item[span]),
            names["rater"]: _pick(t.raters, t.rater[span]),
            names["start"]: t.start[span],
            names["end"]: t.end[span],
            names["label"]: _pick(t.labels, t.label[span]),
            "other_rater": _pick(t.raters, theirs),
            "other_start": pd.array(t.start[at], dtype="Int64", copy=True),
            "other_end": pd.array(t.end[at], dtype="Int64", copy=True),
            "other_label": [t.labels[t.label[o]] if o >= 0 else None for o in other.tolist()],
        }
    )
    frame.loc[~has, ["other_start", "other_end"]] = pd.NA
    return frame


def disagreement_rows(result: Any, n: int) -> tuple[list[dict[str, Any]], int]:
    """Return the first ``n`` spans to adjudicate as display rows, and how many there are.

    The rows of :func:`disagreements` without pandas: the span, then the other
    rater's span that overlaps it most ("none" where no span does).
    """
    t, u = result.spans, _unmatched(result)
    names, out = t.names, []
    for s, o, r in zip(*(u[k][:n].tolist() for k in ("span", "other", "theirs")), strict=True):
        other = "none" if o < 0 else f"[{t.start[o]}, {t.end[o]}) {t.labels[t.label[o]]}"
        out.append(
            {
                names["item"]: str(t.items[t.item[s]]),
                names["rater"]: str(t.raters[t.rater[s]]),
                "span": f"[{t.start[s]}, {t.end[s]})",
                names["label"]: str(t.labels[t.label[s]]),
                "other rater": str(t.raters[r]),
                "other rater's span": other,
            }
        )
    return out, int(u["span"].size)


def explain(result: Any) -> str:
    """Say how the F1 was formed, with each pair's counts."""
    kind = result._matching()
    same = " with the same label" if result.by else " (labels ignored)"
    lines = [
        f"Each pair's spans were matched one-to-one, as many as possible ({kind} on the same "
        f"item{same}; maximum bipartite matching, so the order of the rows does not matter).",
        "Per pair: precision = matched / spans of rater2, recall = matched / spans of rater1 "
        "(rater1 the reference), F1 = 2·matched / (spans of both), counts summed over items.",
        f"Micro F1 pools the labels; macro F1 averages the per-label F1 over the labels either "
        f"rater used. Over {len(result.counts.pairs)} pair(s) of raters: micro "
        f"{result.statistic:.4f}, macro {result.macro:.4f}.",
    ]
    for r in _pairs(result):
        lines.append(
            f"  {r['rater1']} vs {r['rater2']}: {r['matched']} matched of {r['n1']} and "
            f"{r['n2']} spans: precision {r['precision']:.4f}, recall {r['recall']:.4f}, "
            f"F1 {r['f1']:.4f}, macro {r['macro_f1']:.4f}"
        )
    lines.append(
        f"The interval is a percentile bootstrap over the {result.n_items} items "
        f"({result.n_resamples} resamples); the SE is the jackknife's over items."
    )
    return "\n".join(lines)


def text(result: Any) -> str:
    """Return a short text table: the means, then one line per pair of raters."""
    low, high = result.confidence_interval()
    lines = [
        f"span F1 ({result._matching()}): micro {result.statistic:.3f} "
        f"[{low:.3f}, {high:.3f}], macro {result.macro:.3f}  n={result.n_items} items"
    ]
    for r in _pairs(result):
        lines.append(
            f"{r['rater1']!s:>12} vs {r['rater2']!s:<12} P {r['precision']:.3f}  "
            f"R {r['recall']:.3f}  F1 {r['f1']:.3f}"
        )
    return "\n".join(lines)


# rows of the report's tables of the worst items and of the spans to adjudicate
_SHOWN = 5
_ADJUDICATE = 8


def section(result: Any) -> Any:
    """Return the report's section: micro and macro F1 and F1 per label, then three tables.

    The tables: each pair of raters, the items of lowest F1 and the first
    spans to adjudicate (no pandas needed).
    """
    from concord._results.protocol import ReportSection, display_rows

    head = [r for r in result._rows_() if r["coefficient"] != "span F1 of a pair"]
    worst = worst_items(result, _SHOWN)
    for w in worst:
        w["F1"] = w.pop("f1")
    spans, total = disagreement_rows(result, _ADJUDICATE)
    shown = f"the first {len(spans)} of {total}" if total > len(spans) else f"all {total}"
    tables = (
        ("Each pair of raters (rater1 the reference)", display_rows(pair_rows(result))),
        (f"The {len(worst)} items of lowest F1 (mean over pairs)", display_rows(worst)),
        (f"Spans to adjudicate: {shown} unmatched spans", display_rows(spans)),
    )
    return ReportSection(
        title=result._title_,
        sentence=result.summary(),
        rows=display_rows(head),
        explanation=result.explain(),
        tables=tables,
    )
