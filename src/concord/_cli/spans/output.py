"""The output of ``concord spans``: the measures' table, span F1 per pair and label, files."""

from __future__ import annotations

from typing import Any

from concord._cli import output as out
from concord._cli import terminal as terminal
from concord._render import records as rec


def write(r: Any, o: dict[str, Any]) -> None:
    frame = r.disagreements()
    with out.replacing(o["output"], "-o", overwrite=o["overwrite"]) as fh:
        fh.write(frame.to_csv(index=False, lineterminator="\n"))
    terminal.echo(f"wrote {o['output']} ({len(frame)} unmatched spans)", err=True)


def write_html(file: str, results: dict[str, Any], o: dict[str, Any]) -> None:
    """Write the measures' report: each measure's section (``concord.report.to_html``)."""
    import shlex
    import sys
    from pathlib import Path

    from concord.report import to_html

    html = to_html(
        list(results.values()),  # each section titled by its measure's name
        title=f"Span agreement in {Path(file).name}",
        command=shlex.join(["concord", *sys.argv[1:]]),
        plots=_can_draw(),
    )
    with out.replacing(o["html"], "--html", overwrite=o["overwrite"]) as fh:
        fh.write(html)
    terminal.echo(f"wrote {o['html']} ({len(html) / 1024:.0f} KiB)", err=True)


def _raters(table: Any, results: dict[str, Any]) -> list[str]:
    """Return the raters the measures counted (--raters adds those without spans)."""
    for r in results.values():
        if isinstance(getattr(r, "raters", None), tuple):
            return [str(x) for x in r.raters]
    return [str(r) for r in dict.fromkeys(table["rater"])]


def _can_draw() -> bool:
    """Whether the report can draw its figures (γ's best alignment): matplotlib is installed."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def shown(
    file: str,
    table: Any,
    chosen: list[str],
    results: dict[str, Any],
    rows: list[dict[str, Any]],
    fmt: str,
) -> str:
    data: dict[str, Any] = {
        "spans": len(table),
        "items": int(table["item"].nunique()),
        "raters": _raters(table, results),
        "labels": [str(v) for v in dict.fromkeys(table["label"])],
    }
    if fmt == "json":
        measures = {name: results[name].to_dict() for name in chosen}
        return rec.dumps({"data": data, "measures": measures})
    if fmt == "csv":
        frames = [results[name].to_frame().assign(measure=name) for name in chosen]
        import pandas as pd

        return str(pd.concat(frames).to_csv(index=False, lineterminator="\n")).rstrip("\n")
    head = (
        f"{file}: {data['spans']} spans, {data['items']} items, {len(data['raters'])} raters, "
        f"{len(data['labels'])} labels"
    )
    shown = [
        {
            "measure": row["measure"],
            "coefficient": row["coefficient"],
            "value": rec.number(row["statistic"]),
            "CI": f"[{rec.number(row['ci_low'])}, {rec.number(row['ci_high'])}]",
        }
        for row in rows
    ]
    parts = [head, "", out.table_of(shown, fmt)]
    if "f1" in results:
        parts += ["", "span F1 per pair of raters", _frame(results["f1"].by_pair(), fmt)]
        if results["f1"].by is not None:
            parts += ["", "span F1 per label", _frame(results["f1"].by_label(), fmt)]
    parts += ["", *(results[name].summary() for name in chosen)]
    return "\n".join(parts)


def _frame(frame: Any, fmt: str) -> str:
    shown = [
        {k: rec.number(v) if isinstance(v, float) else str(v) for k, v in row.items()}
        for row in frame.reset_index().to_dict(orient="records")
    ]
    return out.table_of(shown, fmt)
