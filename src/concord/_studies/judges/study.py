"""The judge study: an LLM judge (a candidate annotator) against humans and gold labels.

One call gathers what a judge-evaluation team asks for beside kappa: the
Alt-Test, Cohen's kappa of the judge and of each human against the
reference (gold, or the humans' majority), :func:`diagnostic_accuracy`
against gold, the judge's bias by category in words, its self-consistency
over repeated runs, the hardest items and the items where the judge and the
reference disagree. ``concord judge`` prints it.

The per-item agreement (Fleiss' (1971) p_a,i, the majority label and its
share, the entropy in nats over the humans and the judge) is
:func:`concord.item_agreement`'s, so the hardest items are ordered as it
orders them: lowest p_a,i, then highest entropy, then input order; a tied
item's majority is the first tied category in label order.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen import cohen_kappa
from concord._coefficients.multirater.gwet import fleiss_kappa
from concord._common.errors import param_error
from concord._common.extras import require
from concord._results.studies.judge_study import Bias, Item, JudgeStudy
from concord._studies.crowds.items import item_agreement
from concord._studies.judges.accuracy import diagnostic_accuracy
from concord._studies.judges.alt_test import alt_test
from concord._studies.judges.intra_rater import intra_rater

_FUNC = "judge_study"


def majority(rows: Any) -> list[Any]:
    """Return each row's most frequent label; None for a tie or an empty row.

    A tie has no majority: the item has no reference label, and the study
    leaves it out of the comparisons with the humans' majority (counted).
    """
    out: list[Any] = []
    for row in rows:
        counts = Counter(v for v in row if not _missing(v)).most_common(2)
        tie = not counts or (len(counts) == 2 and counts[0][1] == counts[1][1])
        out.append(None if tie else counts[0][0])
    return out


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _kappa(reference: list[Any], rater: Any) -> Any:
    """Cohen's kappa of the rater against the reference, on the items both have."""
    pairs = [
        (r, x) for r, x in zip(reference, rater, strict=True) if not (_missing(r) or _missing(x))
    ]
    if len(pairs) < 2:
        return f"{len(pairs)} item(s) with both labels"
    ref, said = zip(*pairs, strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nan κ is said in the output
        return cohen_kappa(list(ref), list(said))


def bias(reference: list[Any], judge: list[Any], against: str) -> list[Bias]:
    """Return how often the judge says each category against how often the reference does."""
    pairs = [
        (r, j) for r, j in zip(reference, judge, strict=True) if not (_missing(r) or _missing(j))
    ]
    ref = Counter(r for r, _ in pairs)
    said = Counter(j for _, j in pairs)
    out = []
    for label in sorted(set(ref) | set(said), key=str):
        a, b = said[label], ref[label]
        change = a / b - 1 if b else math.inf
        out.append(Bias(label, a, b, change, _words(label, a, b, change, against)))
    return out


def _words(label: Any, said: int, ref: int, change: float, against: str) -> str:
    if ref == 0:
        return (
            f"labels {label!r} {said:,} time{'' if said == 1 else 's'}, where {against} never do"
        )
    if said == 0:
        return (
            f"never labels {label!r}, which {against} label {ref:,} time{'' if ref == 1 else 's'}"
        )
    if abs(change) < 0.005:
        return f"labels {label!r} as often as {against}"
    more = "more" if change > 0 else "less"
    return f"labels {label!r} {abs(change):.0%} {more} often than {against}"


def items(
    ids: list[Any], table: Any, reference: list[Any], judge: str
) -> tuple[list[Item], list[Item]]:
    """Return every item (input order) and the hardest first, as item_agreement orders them.

    Each item's ratings, p_a,i, majority and entropy (humans and judge) are
    :func:`concord.item_agreement`'s on ``table`` (one row per item); an item
    nobody rated has none (n = 0, nan, no majority). The hardest are the
    items with two ratings or more.
    """
    result = item_agreement(table.reset_index(drop=True))
    where = {position: j for j, position in enumerate(result.items)}
    raters = [str(r) for r in result.raters]
    out = []
    for position, (key, ref) in enumerate(zip(ids, reference, strict=True)):
        j = where.get(position)
        if j is None:  # no rating at all: item_agreement leaves it out
            out.append(Item(key, 0, math.nan, None, math.nan, math.nan, {}, ref, None))
            continue
        labels = {r: v for r, v in zip(raters, result.ratings[j], strict=True) if v is not None}
        out.append(
            Item(
                item=key,
                n=int(result.n_ratings[j]),
                agreement=float(result.agreement[j]),
                majority=result.majority[j],
                share=float(result.majority_share[j]),
                entropy=float(result.entropy[j]),
                ratings=labels,
                reference=ref,
                judge=labels.get(str(judge)),
            )
        )
    hardest = [out[position] for position in result.items]
    return out, [i for i in hardest if i.n > 1]


def _check(frame: Any, names: list[str], param: str) -> None:
    for name in names:
        if name not in frame.columns:
            param_error(
                _FUNC, param, f"columns of the data ({', '.join(map(str, frame.columns))})", name
            )


def _self_consistency(frame: Any, candidate: str, repeats: list[str]) -> Any:
    """intra_rater of the candidate's runs: its column and the repeats as trials."""
    pd = require("pandas", "pandas", "the judge study")

    runs = [candidate, *repeats]
    long = pd.DataFrame(
        {
            "item": np.tile(np.arange(len(frame)), len(runs)),
            "rater": candidate,
            "trial": np.repeat(runs, len(frame)),
            "rating": pd.concat([frame[c].astype(object) for c in runs], ignore_index=True),
        }
    )
    function = cohen_kappa if len(runs) == 2 else fleiss_kappa
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return intra_rater(
            long, item="item", rater="rater", trial="trial", rating="rating", function=function
        )


def judge_study(
    frame: Any,
    /,
    *,
    humans: list[str],
    candidate: str,
    gold: str | None = None,
    repeats: tuple[str, ...] = (),
    positive: Any = None,
    epsilon: float = 0.1,
    ids: Any = None,
    top: int = 10,
) -> JudgeStudy:
    """Study a judge (``candidate``) against the ``humans`` columns and, if given, ``gold``.

    The reference is ``gold`` when given, else the humans' majority (an item
    whose humans tie has none and is left out of the comparisons). Each
    human is compared with gold, or with the majority of the *other* humans
    (so that a human is never compared with a majority they are part of).
    ``repeats`` are further runs of the candidate (columns): its
    self-consistency. ``ids`` names the items (default: the frame's index).
    """
    _check(frame, list(humans), "humans")
    _check(frame, [candidate, *repeats], "candidate")
    if gold is not None:
        _check(frame, [gold], "gold")
    if not humans:
        param_error(_FUNC, "humans", "one human column or more", humans)
    table = frame[list(humans)].astype(object).where(frame[list(humans)].notna(), None)
    judge = [None if _missing(v) else v for v in frame[candidate].astype(object)]
    crowd = majority(table.itertuples(index=False))
    reference = crowd if gold is None else [None if _missing(v) else v for v in frame[gold]]
    kappas = {candidate: _kappa(reference, judge)}
    for h in humans:
        others = [c for c in humans if c != h]
        ref = (
            reference
            if gold is not None or not others
            else majority(table[others].itertuples(index=False))
        )
        kappas[h] = _kappa(ref, list(table[h]))
    accuracy = None
    if gold is not None:
        both = [
            (g, j)
            for g, j in zip(reference, judge, strict=True)
            if g is not None and j is not None
        ]
        if both:
            g, j = zip(*both, strict=True)
            accuracy = diagnostic_accuracy(list(g), list(j), positive=positive)
    alt: Any
    try:
        alt = alt_test(frame[list(humans)], frame[candidate], epsilon=epsilon)
    except ValueError as exc:
        alt = str(exc)
    rated = table.assign(**{candidate: judge})
    keys = list(frame.index if ids is None else ids)
    every, hardest = items(keys, rated, reference, candidate)
    return JudgeStudy(
        candidate=candidate,
        humans=tuple(humans),
        gold=gold,
        reference="gold" if gold is not None else "the humans' majority",
        n_items=len(frame),
        n_no_reference=sum(r is None for r in reference),
        alt_test=alt,
        kappas=kappas,
        accuracy=accuracy,
        bias=tuple(bias(crowd, judge, "the humans")),
        self_consistency=_self_consistency(frame, candidate, list(repeats)) if repeats else None,
        hardest=tuple(hardest[:top]),
        disagreements=tuple(
            i
            for i in every
            if i.reference is not None and i.judge is not None and i.judge != i.reference
        ),
    )
