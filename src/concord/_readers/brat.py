"""brat's standoff: ``.ann`` files beside their ``.txt``, one sub-folder per annotator.

brat (brat.nlplab.org, "Standoff format") keeps each document's text in
``DOC.txt`` and its annotations in ``DOC.ann``, one annotation a line. Only the
text-bound annotations, the ``T`` lines, are spans::

    T1<TAB>Organization 0 43<TAB>International Business Machines Corporation
    T2<TAB>Location 0 5;16 23<TAB>North America

The offsets count Unicode code points of the ``.txt`` (Python ``str``
indices; the file is read as it is, a Windows line end counting two), end
exclusive; a discontinuous span lists its fragments separated by ``;`` and its
text field joins the fragments' text with one space. The text field is checked
against the ``.txt``: a difference (another encoding, an edited file) is an
error naming the file and line. Attributes (``A``, ``M``), relations (``R``),
events (``E``), normalizations (``N``), equivalences (``*``) and notes (``#``)
are not spans: they are counted in ``attrs["skipped"]``. An event's trigger
is a ``T`` line too, read as a span of its type (drop that label from the frame
where triggers are not wanted).

Layout: a collection folder holding one sub-folder per annotator (the folder's
name is the rater, the document's path inside it without ``.ann`` the item), or
one folder (or one ``.ann`` file) of a single annotator named with ``rater=``.

Discontinuous spans (``discontinuous=``): ``"fragments"`` (default) makes each
fragment a span of the same label; ``"hull"`` makes one span from the first
fragment's start to the last one's end; ``"error"`` refuses them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from concord._common.errors import check_option, param_error
from concord._readers.rows import FUNC, Rows, check_span, record_error

_SKIPPED = {
    "A": "attributes (A)",
    "M": "attributes (A)",
    "R": "relations (R)",
    "E": "events (E)",
    "N": "normalizations (N)",
    "*": "equivalences (*)",
    "#": "notes (#)",
}


def looks_like(sample: Any) -> bool:
    """Whether ``sample`` (a path) is a ``.ann`` file, or a folder of them or of annotators'."""
    path = Path(sample) if isinstance(sample, str | Path) else None
    if path is None:
        return False
    if path.is_file():
        return path.suffix == ".ann"
    return path.is_dir() and (
        any(path.glob("*.ann"))
        or any(
            sub.is_dir() and not sub.name.startswith(".") and any(sub.rglob("*.ann"))
            for sub in path.iterdir()
        )
    )


def read(
    source: Any,
    /,
    *,
    rater: str | None = None,
    discontinuous: str = "fragments",
    encoding: str = "utf-8",
) -> Any:
    r"""Read brat standoff annotations into concord's long span form.

    Parameters
    ----------
    source : path or mapping
        A collection folder with one sub-folder per annotator; a folder of
        ``.ann`` files (or one ``.ann`` file) with ``rater=``; or a mapping
        ``{rater: folder}``.
    rater : str, optional
        The annotator of a folder that holds ``.ann`` files itself.
    discontinuous : {"fragments", "hull", "error"}, default "fragments"
        How a span of several fragments is read (see the module's notes).
    encoding : str, default "utf-8"
        The encoding of the ``.txt`` and ``.ann`` files.

    Returns
    -------
    pandas.DataFrame
        ``item, rater, start, end, label, text`` (``text``: the document), with
        ``attrs["format"] == "brat"`` and the lines that are not spans counted
        in ``attrs["skipped"]``.

    Examples
    --------
    One annotator's folder: a document's ``.txt`` and its ``.ann`` (brat's
    standoff format, brat.nlplab.org):

    >>> import pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "d1.txt").write_text("Ada met Babbage.", encoding="utf-8")
    >>> ann = "T1\tPerson 0 3\tAda\nT2\tPerson 8 15\tBabbage\nA1\tNotable T1\n"
    >>> _ = (folder / "d1.ann").write_text(ann, encoding="utf-8")
    >>> df = read(folder, rater="ann")
    >>> df[["item", "start", "end", "label"]].to_dict("list")
    {'item': ['d1', 'd1'], 'start': [0, 8], 'end': [3, 15], 'label': ['Person', 'Person']}
    >>> df.attrs["skipped"]
    {'attributes (A)': 1}
    >>> shutil.rmtree(folder)
    """
    discontinuous = check_option(
        FUNC, "discontinuous", discontinuous, ("fragments", "hull", "error")
    )
    rows = Rows(spans=True, extra=("text",))
    skipped: Counter[str] = Counter()
    for name, folder, docs in _annotators(source, rater):
        for ann in docs:
            item = ann.relative_to(folder).with_suffix("").as_posix() if folder else ann.stem
            _document(ann, item, name, rows, skipped, discontinuous, encoding)
    return rows.frame("brat", dict(skipped))


def _annotators(source: Any, rater: str | None) -> list[tuple[Any, Path | None, list[Path]]]:
    """Return each annotator's name, folder and ``.ann`` files."""
    if isinstance(source, Mapping):
        return [(name, Path(f), sorted(Path(f).rglob("*.ann"))) for name, f in source.items()]
    if not isinstance(source, str | Path):
        param_error(FUNC, "source", "a brat folder (a path)", source, exc=TypeError)
    path = Path(source)
    if path.is_file() and path.suffix == ".ann":
        return [(_named(rater, path), None, [path])]
    if not path.is_dir():
        record_error(
            f"The path {path}",
            "is not a brat folder",
            "Give the collection folder (one sub-folder of .ann files per annotator).",
        )
    own = sorted(path.glob("*.ann"))
    if own:
        return [(_named(rater, path), path, own)]
    subs = [
        (sub.name, sub, sorted(sub.rglob("*.ann")))
        for sub in sorted(path.iterdir())
        if sub.is_dir() and not sub.name.startswith(".")  # not .git, .ipynb_checkpoints
    ]
    found: list[tuple[Any, Path | None, list[Path]]] = [s for s in subs if s[2]]
    if not found:
        record_error(f"The folder {path}", "holds no .ann file", "Give brat's collection folder.")
    if rater is not None:
        param_error(
            FUNC,
            "rater",
            "None for a collection folder, whose sub-folders name the annotators",
            rater,
            fix=f"Leave rater= out, or give one annotator's folder, e.g. {found[0][1]}.",
        )
    return found


def _named(rater: str | None, path: Path) -> str:
    """Return ``rater``: a folder of .ann files is one annotator's, who must be named."""
    if rater is None:
        param_error(
            FUNC,
            "rater",
            "the annotator's name for a folder of .ann files",
            None,
            fix=f"Pass rater='NAME' for {path}, or give the collection folder (one sub-folder "
            "per annotator).",
        )
    return rater


def _document(
    ann: Path,
    item: str,
    rater: Any,
    rows: Rows,
    skipped: Counter[str],
    discontinuous: str,
    encoding: str,
) -> None:
    """Add the spans of one ``.ann`` file, checked against its ``.txt``."""
    txt = ann.with_suffix(".txt")
    if not txt.is_file():
        record_error(
            str(ann),
            f"has no {txt.name} beside it",
            "brat's offsets count characters of the document's text: put the .txt beside "
            "the .ann.",
        )
    with txt.open(encoding=encoding, newline="") as handle:  # keep \r\n: brat counts both
        text = handle.read()
    with ann.open(encoding=encoding, newline="") as handle:
        lines = handle.read().split("\n")
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        kind = line[0]
        if kind in _SKIPPED:
            skipped[_SKIPPED[kind]] += 1
            continue
        where = f"{ann}:{number}"
        if kind != "T":
            record_error(
                where, f"is not a brat annotation line: {line[:40]!r}", "Fix or remove the line."
            )
        for start, end, label in _text_bound(line, text, where, discontinuous):
            rows.add(item=item, rater=rater, start=start, end=end, label=label, text=text)


def _text_bound(
    line: str, text: str, where: str, discontinuous: str
) -> list[tuple[int, int, str]]:
    """Return the spans of one ``T`` line, its text field checked against the document."""
    fields = line.split("\t", 2)
    label, _, offsets = fields[1].partition(" ") if len(fields) > 1 else ("", "", "")
    fragments = [_fragment(part, where) for part in offsets.split(";")] if offsets else []
    if not label or not fragments:
        record_error(
            where,
            f"is not a text-bound annotation 'T1<TAB>LABEL START END<TAB>TEXT': {line[:40]!r}",
            "Fix the line.",
        )
    for start, end in fragments:
        check_span(start, end, len(text), where)
    if len(fields) > 2:
        _check_text(fields[2], fragments, text, where)
    if len(fragments) > 1 and discontinuous == "error":
        record_error(
            where,
            f"is a discontinuous span of {len(fragments)} fragments",
            "Pass discontinuous='fragments' (each fragment a span) or 'hull' (one span over "
            "them).",
        )
    if discontinuous == "hull":
        return [(min(s for s, _ in fragments), max(e for _, e in fragments), label)]
    return [(start, end, label) for start, end in fragments]


def _fragment(part: str, where: str) -> tuple[int, int]:
    pieces = part.split()
    if len(pieces) != 2 or not all(p.isdigit() for p in pieces):
        record_error(where, f"has the offsets {part!r}, not 'START END'", "Fix the line.")
    return int(pieces[0]), int(pieces[1])


def _check_text(field: str, fragments: list[tuple[int, int]], text: str, where: str) -> None:
    """Refuse a text field other than the ``.txt`` at the offsets (fragments joined by " ")."""
    expected = " ".join(text[start:end] for start, end in fragments)
    if field != expected and field != expected.replace("\n", " "):
        record_error(
            where,
            f"has the text {field[:40]!r} where its .txt holds {expected[:40]!r} at those offsets",
            "The offsets count Unicode characters of the .txt: check the files' encoding "
            "(encoding=) and that the .txt is the one annotated.",
        )
