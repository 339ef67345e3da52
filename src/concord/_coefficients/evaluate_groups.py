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

from concord._coefficients.evaluate_metrics import Population, pair_metrics
from concord._results.evaluation_parts import ALL_DATA, GroupRows


def _mean_sd(x: np.ndarray) -> tuple[float, float]:
    x = x[~np.isnan(x)]
    return float(np.mean(x)), float(np.std(x, ddof=1))


def by_group(
    human: np.ndarray,
    scores: dict[str, np.ndarray],
    human2: np.ndarray | None,
    labels: np.ndarray,
) -> dict[str, GroupRows]:
    """Each group's rows (``"All data"`` first, then the groups in sorted order)."""
    h_mean, h_sd = _mean_sd(human)
    populations = {}
    for name, machine in scores.items():
        m_mean, m_sd = _mean_sd(machine)
        populations[name] = Population(h_mean, h_sd, m_mean, m_sd)
    second = None
    if human2 is not None and not np.all(np.isnan(human2)):
        second = Population(h_mean, h_sd, *_mean_sd(human2))
    names, codes = np.unique(labels.astype(str), return_inverse=True)
    masks = {ALL_DATA: np.ones(len(human), dtype=bool)}
    for code, key in enumerate(names.tolist()):
        masks[key] = codes == code
    out = {}
    for key, mask in masks.items():
        rows = {
            name: pair_metrics(human[mask], machine[mask], population=populations[name])
            for name, machine in scores.items()
        }
        consistency = None
        if second is not None and human2 is not None:
            double = mask & ~np.isnan(human2)
            if double.any():
                consistency = pair_metrics(
                    human[double], human2[double], pooled=True, population=second
                )
        out[key] = GroupRows(int(mask.sum()), rows, consistency)
    return out
