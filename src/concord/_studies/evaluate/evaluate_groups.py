"""The evaluation per subgroup: every metric, with DSM in place of SMD.

RSMTool's ``Analyzer.compute_metrics_by_group``: the scores of each group
are z-scored on the whole data's mean and SD (ddof=1) and the difference of
the standardized means (DSM; Loukina, Madnani & Zechner 2019, "The many
dimensions of algorithmic fairness in educational applications", BEA
workshop, doi:10.18653/v1/W19-4401) replaces the SMD. The whole data comes
first, as the group "All data".
"""

from __future__ import annotations

import numpy as np

from concord._results.studies.evaluation_parts import ALL_DATA, GroupRows, Metrics
from concord._studies.evaluate.evaluate_inputs import label_codes
from concord._studies.evaluate.evaluate_metrics import Population, pair_metrics, with_dsm


def _mean_sd(x: np.ndarray) -> tuple[float, float]:
    x = x[~np.isnan(x)]
    return float(np.mean(x)), float(np.std(x, ddof=1))


def by_group(
    human: np.ndarray,
    scores: dict[str, np.ndarray],
    human2: np.ndarray | None,
    labels: np.ndarray,
    whole: tuple[dict[str, Metrics], Metrics | None],
    rounding: str = "half-even",
) -> dict[str, GroupRows]:
    """Each group's rows (``"All data"`` first, then the groups in sorted order).

    ``whole`` is the evaluation of the whole data (the eval rows, the
    human-human row): "All data" takes its metrics and adds the DSM.
    ``rounding`` is how κ's scores become score points (see :func:`concord.evaluate`).
    """
    h_mean, h_sd = _mean_sd(human)
    populations = {}
    for name, machine in scores.items():
        m_mean, m_sd = _mean_sd(machine)
        populations[name] = Population(h_mean, h_sd, m_mean, m_sd)
    second = None
    if human2 is not None and not np.all(np.isnan(human2)):
        second = Population(h_mean, h_sd, *_mean_sd(human2))
    names, codes = label_codes(labels)
    out = {ALL_DATA: _all_data(human, scores, human2, populations, second, whole)}
    for code, key in enumerate(names):
        mask = codes == code
        h = human[mask]
        done: dict[int, Metrics] = {}  # raw_trim is raw when nothing was clipped
        for name, machine in scores.items():
            if id(machine) not in done:
                done[id(machine)] = pair_metrics(
                    h, machine[mask], population=populations[name], rounding=rounding
                )
        rows = {name: done[id(machine)] for name, machine in scores.items()}
        consistency = None
        if second is not None and human2 is not None:
            double = mask & ~np.isnan(human2)
            if double.any():
                consistency = pair_metrics(
                    human[double],
                    human2[double],
                    pooled=True,
                    population=second,
                    rounding=rounding,
                )
        out[key] = GroupRows(int(mask.sum()), rows, consistency)
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
    rows = {
        name: with_dsm(whole[0][name], human, machine, populations[name])
        for name, machine in scores.items()
    }
    consistency = None
    if second is not None and human2 is not None and whole[1] is not None:
        double = ~np.isnan(human2)
        consistency = with_dsm(whole[1], human[double], human2[double], second)
    return GroupRows(len(human), rows, consistency)
