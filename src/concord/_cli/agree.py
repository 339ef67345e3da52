"""``concord agree``: every multi-rater coefficient, read whole or counted chunk by chunk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from concord._cli import agree_ranks as ranks
from concord._cli import columns as cin
from concord._cli import inputs as inputs
from concord._cli import label_sets as label_sets
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import stream as stream
from concord._cli import terminal as terminal
from concord._coefficients.registry import REGISTRY, by_name
from concord._render import records as rec

# The coefficients ``concord agree`` reports before Krippendorff's alpha, in the registry's
# order: those of many raters that take --weights (alpha takes a level, and comes last).
FAMILY = tuple(c.name for c in REGISTRY if c.table in ("items", "raters"))
ALPHA = "krippendorff_alpha"

# --coefficients: the short names a command line wants, besides the function names
SHORT = {
    "percent": "percent_agreement",
    "fleiss": "fleiss_kappa",
    "conger": "conger_kappa",
    "light": "light_kappa",
    "gwet": "gwet_ac",
    "brennan": "brennan_prediger",
    "alpha": ALPHA,
}
_NAMES = {**SHORT, **{name: name for name in (*FAMILY, ALPHA)}}


def picked(value: str | None, option: str = "--coefficients") -> tuple[str, ...] | None:
    """Return the function names that --coefficients names, in the table's order (None: all).

    An unknown name is a usage error that lists the valid ones, naming
    ``option`` (``concord raters`` takes one name, with --coefficient).
    """
    if value is None:
        return None
    names = [n.strip().lower().replace("-", "_") for n in value.split(",") if n.strip()]
    unknown = [n for n in names if n not in _NAMES]
    if unknown or not names:
        listed = {**SHORT, **(ranks.SHORT if option.endswith("s") else {})}
        valid = ", ".join(f"{short} ({name})" for short, name in listed.items())
        got = ", ".join(map(repr, unknown)) or "nothing"
        what = "comma-separated names" if option.endswith("s") else "one name"
        raise click.BadParameter(
            f"got {got}; expected {what} among {valid}.", param_hint=f"'{option}'"
        )
    chosen = {_NAMES[n] for n in names}
    return tuple(n for n in (*FAMILY, ALPHA) if n in chosen)


coefficients_option = click.option(
    "--coefficients",
    metavar="A,B",
    help="Which coefficients, comma-separated (default: all): percent, fleiss, conger, "
    "light, gwet, brennan, alpha, or their function names; and, on numeric ratings, "
    "kendall-w, cronbach-alpha, mean-correlation, overall-concordance.",
)


def family() -> list[Callable[..., Any]]:
    """Return the functions of :data:`FAMILY`."""
    return [by_name(name).function for name in FAMILY]


def shared_weights(results: list[Any]) -> Any:
    """Return a result of the family whose weights and labels Krippendorff's alpha takes.

    Krippendorff's δ² for --weights that no level matches is the weights' matrix on the
    labels it was made for; every coefficient of the family carries the same one.
    """
    first = results[0]
    assert all(r.labels == first.labels for r in results[: len(FAMILY)])
    return first


def agreement_results(frame: Any, o: dict[str, Any]) -> list[Any]:
    """Every multi-rater coefficient of the rater columns: :func:`concord.agree`'s table."""
    import concord

    labels = None  # the typed read's block: read so only without --labels (inputs.ratings)
    if not inputs.is_block(frame):
        labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
    table = concord.agree(
        frame,
        coefficients=picked(o.get("coefficients")),
        weights=opt.weights(o),
        level=opt.alpha_level(o),
        labels=labels,
        form="wide",  # the file was read as wide on purpose (read.wide_columns checked it)
    )
    return list(table.results)


def block_shape(wide: Any) -> dict[str, Any]:
    """:func:`~concord._render.records.frame_shape` of the typed read's block (NaN: missing)."""
    import numpy as np

    values = wide.numeric
    missing = int(np.isnan(values).sum())
    return {
        "items": int(values.shape[0]),
        "raters": [str(c) for c in wide.raters],
        "ratings": int(values.size - missing),
        "missing_ratings": missing,
    }


def streamed(file: str, o: dict[str, Any], rows: int) -> tuple[list[Any], stream.Tally]:
    """Every coefficient of ``concord agree``, counted chunk by chunk.

    Returns the results in the in-memory order (alpha last) and what the chunks held.
    """
    import concord
    from concord._streaming.relevel import with_level

    src, columns = inputs.raters(file, o, rows)
    made: list[Any] = []
    weights = opt.weights(o)
    level = opt.alpha_level(o)  # None: the weights' matrix, known once the labels are
    names = picked(o.get("coefficients")) or (*FAMILY, ALPHA)
    # alpha alone still needs one of the family for the weights' matrix: the first, unshown
    kept = [n for n in FAMILY if n in names] or [FAMILY[0]]

    def start(frame: Any) -> list[tuple[Any, list[str] | None]]:
        labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
        made.extend(
            concord.accumulate(by_name(n).function, weights=weights, labels=labels) for n in kept
        )
        # the weights' matrix as alpha's level: count at the nominal level (the same
        # coincidences) and set the level once the labels are known
        made.append(
            concord.accumulate(concord.krippendorff_alpha, level=level or "nominal", labels=labels)
        )
        return [(acc, None) for acc in made]

    tally = stream.feed(src, columns, o, start)
    results = [acc.result() for acc in made[:-1]]
    alpha = made[-1]
    if level is None:
        alpha = with_level(alpha, shared_weights(results).weights)
    results.append(alpha.result())
    shown = [r for n, r in zip((*kept, ALPHA), results, strict=True) if n in names]
    return shown, tally


@click.command(
    epilog="""
\b
Examples:
  concord agree data/fleiss1971_diagnoses.csv
  concord agree data/essays.csv --raters rater1,rater2,rater3 --weights quadratic
  concord agree data/fleiss1971_diagnoses.csv --coefficients fleiss,alpha
  concord agree scores.csv --coefficients kendall-w,cronbach-alpha
  concord agree annotations.csv --item doc --rater annotator --rating label --format json
  concord agree topics.csv --label-sets --set-separator '|'
  concord agree export.json
  concord agree label_studio.json --control topics
"""
)
@opt.input_options
@opt.wide_options
@opt.weights_option("Disagreement weights of the kappa-type coefficients.")
@opt.level_option
@coefficients_option
@click.option(
    "--label-sets",
    is_flag=True,
    help="Each rating is a set of labels (multi-label annotation): report Krippendorff's "
    "alpha with the MASI distance (--level jaccard for Jaccard) and each label's alpha. "
    "Ratings read as lists (a JSON export) are label sets without this flag.",
)
@click.option(
    "--set-separator",
    default=label_sets.SEPARATOR,
    show_default=True,
    metavar="SEP",
    help="With --label-sets: the separator of the labels in one cell (pol|econ).",
)
@opt.chunk_option
@opt.inference_options
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def agree(file: str, **o: Any) -> list[dict[str, Any]]:
    """Every agreement coefficient of many raters in FILE, with SE, CI and p-value.

    Percent agreement, Fleiss', Conger's and Light's kappa, Gwet's AC1/AC2,
    Brennan-Prediger and Krippendorff's alpha, one row each (--coefficients
    picks some). Missing ratings (empty cells) are allowed. With --label-sets,
    Krippendorff's alpha with the MASI distance and the agreement on each label.
    """
    if o["label_sets"] or o["set_separator"] != label_sets.SEPARATOR:
        return _label_sets(file, o)
    ranked, others = ranks.chosen(o["coefficients"]), ranks.rest(o["coefficients"])
    if others != "":
        picked(others)  # a misspelt name fails before the file is read
    chunk = stream.chunk_rows(file, o)
    if ranked:
        if chunk:
            raise click.UsageError(
                f"{', '.join(ranked)} read the whole file: leave out --chunk-rows."
            )
        return _with_ranks(file, o, ranked, None if others == "" else others)
    if chunk:
        results, tally = streamed(file, o, chunk)
        shape = tally.shape()
    else:
        frame = inputs.ratings(file, o, wide=True)
        if inputs.is_block(frame):  # a CSV of plain numbers, read typed, without pandas
            results, shape = agreement_results(frame, o), block_shape(frame)
        elif label_sets.holds_sets(frame):  # lists from a JSON export: label sets
            return label_sets.report(file, frame, o)
        else:
            results, shape = agreement_results(frame, o), rec.frame_shape(frame)
    rows = [rec.summary(r, o["confidence_level"], o["ci_method"], o["seed"]) for r in results]
    if o["fmt"] == "json":
        terminal.echo(rec.dumps(out.agree_record(shape, results, rows)), as_json=True)
    elif o["fmt"] == "text":
        terminal.echo(out.agree_text(file, shape, results, rows))
    else:
        terminal.echo(out.table(rows, o["fmt"]))
    return rows


def _label_sets(file: str, o: dict[str, Any]) -> list[dict[str, Any]]:
    """``concord agree --label-sets``: the whole file (label sets are not counted in chunks)."""
    if not o["label_sets"]:
        raise click.UsageError("--set-separator needs --label-sets.")
    if o.get("chunk_rows"):  # a large file is read whole too: label sets are not streamed
        raise click.UsageError("--label-sets reads the whole file: leave out --chunk-rows.")
    # every cell as text: a set of label ids "1|2" beside a single "1" is one type of rating
    return label_sets.report(file, inputs.ratings(file, o, text=True), o)


def _with_ranks(
    file: str, o: dict[str, Any], ranked: tuple[str, ...], others: str | None
) -> list[dict[str, Any]]:
    """``concord agree`` with rank statistics: their rows after the coefficients' table."""
    level = o["confidence_level"]
    found = ranks.results(inputs.ratings(file, o, numbers=True), ranked, level)
    extra = ranks.rows(found, level)
    results: list[Any] = []
    rows: list[dict[str, Any]] = []
    shape: dict[str, Any] = {}
    if others is not None:
        frame = inputs.ratings(file, o)
        results = agreement_results(frame, {**o, "coefficients": others})
        rows = [rec.summary(r, level, o["ci_method"], o["seed"]) for r in results]
        shape = rec.frame_shape(frame)
    if o["fmt"] == "json":
        record = out.agree_record(shape, results, rows) if results else {}
        terminal.echo(rec.dumps({**record, "rank_statistics": extra}), as_json=True)
    elif o["fmt"] == "csv":
        terminal.echo(out.table([*rows, *extra], "csv"))
    else:
        table = (
            out.agree_text(file, shape, results, rows) if o["fmt"] == "text" and results else ""
        )
        parts = [table or out.table(rows, o["fmt"])] if results else []
        parts.append(out.table_of(ranks.shown(extra, level), o["fmt"]))
        if o["fmt"] == "text":
            parts.append("\n".join(r.summary() for r in found))
        terminal.echo("\n\n".join(parts))
    return [*rows, *extra]
