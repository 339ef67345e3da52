"""Results → the command line's text, Markdown and CSV (the JSON forms are in _records).

Every file the CLI writes goes through :func:`replacing`: a temporary file
beside the target, renamed onto it once complete, so that an interrupted or
failed run leaves the old file as it was.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

import click

from concord._render import records as rec
from concord._results.sentence import write as _sentence

OUTPUTS = ("text", "json", "markdown", "csv")


def table(rows: Sequence[dict[str, Any]], fmt: str) -> str:
    """Lay the summary rows out as text, Markdown or CSV (CSV keeps every number unrounded)."""
    if fmt == "csv":
        import pandas as pd

        frame = pd.DataFrame([rec.jsonable(r) for r in rows])
        return str(frame.to_csv(index=False, lineterminator="\n")).rstrip("\n")
    return table_of(rec.display_rows(rows), fmt)


def table_of(shown: Sequence[dict[str, str]], fmt: str) -> str:
    """Lay rows of display strings out as text or Markdown."""
    plain = _plain_text(shown) if fmt == "text" else None
    if plain is not None:
        return plain
    import pandas as pd

    frame = pd.DataFrame(list(shown))
    if fmt == "markdown":
        return str(frame.to_markdown(index=False, disable_numparse=True))
    return str(frame.to_string(index=False))


def _plain_text(shown: Sequence[dict[str, str]]) -> str | None:
    """``DataFrame(shown).to_string(index=False)`` without pandas, or None where it may differ.

    Rows of printable strings under the same keys: each column right-justified
    to its widest cell or header, one space between columns, as pandas lays them
    out (tests/test_cli_agree_outputs.py compares the two on random tables).
    """
    keys = list(shown[0]) if shown else []
    if not keys or any(len(row) != len(keys) for row in shown):
        return None
    if not all(isinstance(k, str) and k and k == k.strip() for k in keys):
        return None  # pandas trims a header's spaces
    header: list[str | None] = list(keys)
    cells = [header, *([row.get(k) for k in keys] for row in shown)]
    if not all(isinstance(v, str) and v.isprintable() and v.isascii() for r in cells for v in r):
        return None
    widths = [max(len(str(r[j])) for r in cells) for j in range(len(keys))]
    return "\n".join(
        " ".join(str(v).rjust(w) for v, w in zip(r, widths, strict=True)) for r in cells
    )


def kappa_text(title: str, result: Any, row: dict[str, Any]) -> str:
    """Return the text of ``concord kappa``: the explanation and the costliest cells."""
    lines = [title, result.explain().rstrip()]
    if not math.isfinite(result.statistic):
        return "\n".join([*lines, "", sentence(result, row)])
    if row["confidence_level"] != 0.95 or row["ci_method"] != result.interval_method:
        level = f"{round(100 * row['confidence_level'], 6):g}%"
        lines.append(
            f"{level} CI ({row['ci_method']}) [{rec.number(row['ci_low'])}, "
            f"{rec.number(row['ci_high'])}]"
        )
    lines += [
        "",
        sentence(result, row),
        "",
        "Where the kappa is lost (the costliest confusions)",
        str(result.contributions()),
    ]
    return "\n".join(lines)


def sentence(result: Any, row: dict[str, Any]) -> str:
    """Return the result's ``summary()`` sentence with the interval of its summary ``row``."""
    interval = (row["ci_low"], row["ci_high"])
    return _sentence(result, row["confidence_level"], row["ci_method"], interval)


def agree_record(
    shape: dict[str, Any], results: Sequence[Any], rows: Sequence[dict[str, Any]]
) -> Any:
    """Return the JSON of ``concord agree``: the data summary and one entry per coefficient.

    ``shape`` is :func:`~concord._render.records.frame_shape`'s (or a stream's tally of it).
    """
    return {"data": rec.data_summary(shape, results), "coefficients": list(rows)}


def agree_text(
    path: str, shape: dict[str, Any], results: Sequence[Any], rows: Sequence[dict[str, Any]]
) -> str:
    """Return the text of ``concord agree``: a data summary line, the table, the sentences."""
    d = rec.data_summary(shape, results)
    counts = ", ".join(f"{v}: {n}" for v, n in zip(d["labels"], d["category_totals"], strict=True))
    return "\n".join(
        [
            f"{path}: {d['items']} items, {len(d['raters'])} raters, {d['ratings']} ratings "
            f"({d['missing_ratings']} missing)",
            f"categories ({results[0].weighting}): {counts}",
            "",
            table(rows, "text"),
            "",
            *(sentence(r, row) for r, row in zip(results, rows, strict=True)),
        ]
    )


def thresholds_text(path: str, best: Any, cv: Any, folds: int) -> str:
    """Return the text of ``concord thresholds``: cut points, in-sample and CV kappa."""
    labels = [str(v) for v in best.labels]
    lines = [f"{path}: {best.kappa.n} items, grades {', '.join(labels)}", "", "cut points"]
    for low, high, t in zip(labels, labels[1:], best.thresholds, strict=False):
        lines.append(f"  {low} | {high}   {t:.6g}")
    lines += [
        "",
        f"kappa ({best.kappa.weighting}), in-sample:      {best.statistic:.6f}"
        f"   (optimal: Dinkelbach gap {best.gap:.2g})",
        f"kappa, {folds}-fold cross-validated: {cv.statistic:.6f}"
        "   (cut points fitted out of fold)",
        f"in-sample optimism:              {cv.optimism:+.6f}",
        "fold kappas: " + ", ".join(f"{k:.4f}" for k in cv.fold_kappas),
        "",
        "The cross-validated kappa holds for new data only if --score is out of sample:",
        "a model's predictions for items it was not trained on (e.g. cross_val_predict).",
        "Scores of a model on its own training data overstate kappa, whatever the cut points.",
    ]
    return "\n".join(lines)


def check_target(path: str, option: str, overwrite: bool) -> None:
    """Fail before any work when ``path`` (given to ``option``) cannot or should not be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise click.ClickException(f"{path} is a folder; give {option} a file name.")
    if not os.path.isdir(folder):
        missing = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise click.ClickException(
            f"cannot write {path}: {folder} {missing}. Create the folder or pick another {option}."
        )
    if os.path.exists(path) and not overwrite:
        raise click.ClickException(
            f"{path} exists. Pass --overwrite to replace it, or pick another {option}."
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise click.ClickException(
            f"cannot write {path}: no permission to write in {folder}. Pick another {option}."
        )


def _mode(target: str) -> int:
    """Return the new file's permissions: the old file's, else those open() would give."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _publish(temp: str, target: str, path: str, option: str) -> None:
    """Make ``temp`` the new file ``target``, failing if a file of that name exists by now.

    A hard link is created exclusively (it fails if the name exists), so a file
    that appeared at ``path`` since :func:`check_target` is never replaced; where
    the file system has no hard links, the file is created with ``open(..., "x")``,
    exclusive too, and the content copied.
    """
    try:
        try:
            os.link(temp, target)
        except FileExistsError:
            raise
        except OSError:  # no hard links here (some network and FAT file systems)
            with open(target, "xb") as dst, open(temp, "rb") as src:
                try:
                    shutil.copyfileobj(src, dst)
                except BaseException:
                    os.unlink(target)  # ours, created above: never left half-written
                    raise
    except FileExistsError:
        raise click.ClickException(
            f"{path} appeared while concord was working and was not replaced. Pass "
            f"--overwrite to replace it, or pick another {option}."
        ) from None


@contextlib.contextmanager
def replacing(path: str, option: str, *, overwrite: bool) -> Iterator[TextIO]:
    """Write UTF-8 text to ``path`` all at once: to a temporary file, then moved onto it.

    On any failure, a KeyboardInterrupt included, the temporary file is
    removed and ``path`` keeps its old content; an OSError becomes a one-line
    error naming ``path`` and ``option``. A symbolic link stays a link: its
    target is replaced. Without ``overwrite`` the file is created
    exclusively: one that appeared meanwhile (after :func:`check_target`) is
    never replaced, and the error says so.
    """
    target = os.path.realpath(path)
    try:
        fd, temp = tempfile.mkstemp(
            dir=os.path.dirname(target), prefix=f".{os.path.basename(target)}.", suffix=".part"
        )
    except OSError as exc:
        raise click.ClickException(_cannot_write(path, option, exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())  # the content is on disk before the rename makes it visible
        os.chmod(temp, _mode(target))
        if overwrite:
            os.replace(temp, target)
        else:
            _publish(temp, target, path, option)
            os.unlink(temp)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise click.ClickException(_cannot_write(path, option, exc)) from None
        raise


def _cannot_write(path: str, option: str, exc: OSError) -> str:
    return f"cannot write {path} ({exc.strerror or exc}). Pick another {option}."
