"""The evaluation per subgroup: every metric, with DSM in place of SMD.

RSMTool's ``Analyzer.compute_metrics_by_group``: the scores of each group
are z-scored on the whole data's mean and SD (ddof=1) and the difference of
the standardized means (DSM; Loukina, Madnani & Zechner 2019, "The many
dimensions of algorithmic fairness in educational applications", BEA
workshop, doi:10.18653/v1/W19-4401) replaces the SMD. The whole data comes
first, as the group "All data".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from concord._results.studies.evaluation_parts import ALL_DATA, GroupRows, Metrics
from concord._studies.evaluate.evaluate_metrics import Human, Population, pair_metrics, with_dsm


def _mean_sd(x: np.ndarray) -> tuple[float, float]:
    x = x[~np.isnan(x)]
    return float(np.mean(x)), float(np.std(x, ddof=1))


_SMALL = 2.0**400  # scores below this in size: numpy's SD cannot overflow


def _held(row: Metrics | None, side: str) -> tuple[float, float] | None:
    """Return the mean and SD of one side of a whole-data row, where they are numpy's.

    A row's SD is numpy's ``std(ddof=1)`` unless its squares overflow (then it
    is exact): below ``_SMALL`` they cannot, so the row holds :func:`_mean_sd`
    of the same scores.
    """
    if row is None:
        return None
    v = row.values
    if max(abs(v[f"{side}_min"]), abs(v[f"{side}_max"])) >= _SMALL:
        return None
    return v[f"{side}_mean"], v[f"{side}_sd"]


@dataclass(frozen=True)
class Whole:
    """What every group column shares: the whole data's populations and "All data" rows."""

    populations: dict[str, Population]
    second: Population | None
    rows: GroupRows


def whole_data(
    human: np.ndarray,
    scores: dict[str, np.ndarray],
    human2: np.ndarray | None,
    whole: tuple[dict[str, Metrics], Metrics | None],
) -> Whole:
    """Return the z-scores' populations and the "All data" rows, the same for every column.

    ``whole`` is the evaluation of the whole data (the eval rows, the
    human-human row): "All data" takes its metrics and adds the DSM, and
    the populations' means and SDs are the ones those rows hold.
    """
    held = whole[0]
    h = _held(next(iter(held.values()), None), "h") or _mean_sd(human)
    populations = {}
    for name, machine in scores.items():
        populations[name] = Population(*h, *(_held(held[name], "sys") or _mean_sd(machine)))
    second = None
    if human2 is not None and not np.all(np.isnan(human2)):
        second = Population(*h, *(_held(whole[1], "sys") or _mean_sd(human2)))
    rows = _all_data(human, scores, human2, populations, second, whole)
    return Whole(populations, second, rows)


def by_group(
    human: np.ndarray,
    scores: dict[str, np.ndarray],
    human2: np.ndarray | None,
    labels: tuple[list[str], np.ndarray],
    whole: Whole,
    rounding: str = "half-even",
) -> dict[str, GroupRows]:
    """Each group's rows (``"All data"`` first, then the groups in sorted order).

    ``labels`` is the group column as ``label_codes`` codes it: the texts,
    sorted, and each response's; ``whole`` is :func:`whole_data`. The rows
    are sorted by group once (stably: each group's rows keep their order),
    and each group's scores are its run: the values, in the order, a mask
    would select (numpy's sums, pairwise in index order, do not depend on
    where an array starts in memory). ``rounding`` is how κ's scores become score points (see
    :func:`concord.evaluate`).
    """
    names, codes = labels
    small = np.uint8 if len(names) <= 1 << 8 else np.uint16 if len(names) <= 1 << 16 else np.intp
    order = np.argsort(codes.astype(small), kind="stable")  # a radix sort of small codes
    ends = np.cumsum(np.bincount(codes, minlength=len(names))).tolist()
    runs = {id(m): m[order] for m in (human, *scores.values())}
    double = None
    if whole.second is not None and human2 is not None:
        double = human2[order]
    out = {ALL_DATA: whole.rows}
    for code, key in enumerate(names):
        at = slice(ends[code - 1] if code else 0, ends[code])
        h = runs[id(human)][at]
        side = Human(h, rounding)  # rounded, summarized and z-scored once for every score
        done: dict[int, Metrics] = {}  # raw_trim is raw when nothing was clipped
        for name, machine in scores.items():
            if id(machine) not in done:
                done[id(machine)] = pair_metrics(
                    h,
                    runs[id(machine)][at],
                    population=whole.populations[name],
                    rounding=rounding,
                    side=side,
                )
        rows = {name: done[id(machine)] for name, machine in scores.items()}
        consistency = None
        if double is not None and whole.second is not None:
            second = double[at]
            rated = ~np.isnan(second)
            if rated.any():
                consistency = pair_metrics(
                    h[rated],
                    second[rated],
                    pooled=True,
                    population=whole.second,
                    rounding=rounding,
                )
        out[key] = GroupRows(h.shape[0], rows, consistency)
    return out


def _all_data(
    human: np.ndarray,
    scores: dict[str, np.ndarray],
    human2: np.ndarray | None,
    populations: dict[str, Population],
    second: Population | None,
    whole: tuple[dict[str, Metrics], Metrics | None],
) -> GroupRows:
    """Return the "All data" rows: the whole data's metrics with the DSM (0 but for rounding)."""
    side = Human(human)
    rows = {
        name: with_dsm(whole[0][name], human, machine, populations[name], side)
        for name, machine in scores.items()
    }
    consistency = None
    if second is not None and human2 is not None and whole[1] is not None:
        double = ~np.isnan(human2)
        consistency = with_dsm(whole[1], human[double], human2[double], second)
    return GroupRows(len(human), rows, consistency)
