"""The result of :func:`concord.evaluate`: :class:`EvaluationResult`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from concord._common import text as _text
from concord._common.errors import check_bool
from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._results import html as _html
from concord._results.studies import evaluation_tables as _t
from concord._results.studies.evaluation_parts import Fairness, Flag, GroupRows, Metrics, TrueScore
from concord._results.studies.studies_text import EvaluationText


@dataclass(frozen=True, eq=False, repr=False)
class EvaluationResult(EvaluationText):
    """The evaluation of machine scores against human scores, as RSMTool's ``rsmeval`` does it.

    Attributes
    ----------
    n : int
        Responses evaluated.
    n_excluded : int
        Responses left out because the human score was 0 (``exclude_zero=True``).
    score_types : tuple of str
        ``raw``, ``raw_trim``, ``raw_trim_round``, and with ``scale=True`` the
        same three of ``scale``.
    primary : str
        The score type the flags and the subgroup tables use: ``scale_trim``
        with ``scale=True``, otherwise ``raw_trim``.
    trim : tuple of float
        The (min, max) score the trimmed scores are clipped to, ± ``trim_tolerance``.
    trim_tolerance : float
        How far past ``trim`` a trimmed score may lie (RSMTool's 0.4998).
    eval : dict of str to Metrics
        Human against machine, per score type (RSMTool's ``_eval.csv``).
    consistency : Metrics or None
        The first human against the second on the double-scored responses,
        pooled SMD (``_consistency.csv``); None without ``human2``.
    degradation : dict of str to dict
        Human-machine minus human-human per score type (``_degradation.csv``).
    disattenuated : dict of str to dict
        r_HM, r_HH, √r_HH and r_HM / √r_HH per score type.
    true_score : dict of str to TrueScore
        Variance of rater errors, true-score variance, MSE and PRMSE per score type.
    by_group : dict of str to dict of str to GroupRows
        Per grouping column, per subgroup ("All data" first): every metric
        with DSM for SMD, and the human-human row.
    fairness : dict of str to Fairness
        Per grouping column: OSA, OSD and CSD (Loukina, Madnani & Zechner
        2019) of the primary score type.
    flags : tuple of Flag
        Each metric that breaks a Williamson, Xi & Breyer (2012) threshold.
    rounding : str
        How scores became score points: ``"half-even"`` (``numpy.rint``,
        RSMTool's) or ``"half-up"``.
    """

    n: int
    n_excluded: int
    score_types: tuple[str, ...]
    primary: str
    trim: tuple[float, float]
    trim_tolerance: float
    eval: dict[str, Metrics]
    consistency: Metrics | None
    degradation: dict[str, dict[str, float]]
    disattenuated: dict[str, dict[str, float]]
    true_score: dict[str, TrueScore]
    by_group: dict[str, dict[str, GroupRows]]
    fairness: dict[str, Fairness]
    flags: tuple[Flag, ...]
    rounding: str = "half-even"

    def __repr__(self) -> str:
        m = self.eval[self.primary]
        return (
            f"EvaluationResult(n={self.n}, {self.primary}: wtkappa={m['wtkappa']:.4f}, "
            f"corr={m['corr']:.4f}, flags={len(self.flags)})"
        )

    def tables(self, *, inference: bool = False) -> dict[str, list[tuple[str, dict[str, Any]]]]:
        """Every table as ``(row, {column: value})`` records, keyed by RSMTool's file name."""
        return _t.all_tables(self, check_bool("tables", "inference", inference))

    def table(self, name: str = "eval", *, inference: bool = False) -> Any:
        """Return one table as a pandas DataFrame with RSMTool's rows and column names.

        Parameters
        ----------
        name : str
            RSMTool's file name without the experiment id: ``"eval"``,
            ``"consistency"``, ``"degradation"``, ``"disattenuated_correlations"``,
            ``"true_score_eval"``, and per grouping column G ``"eval_by_G"``,
            ``"consistency_by_G"``, ``"disattenuated_correlations_by_G"``,
            ``"fairness_metrics_by_G"``, ``"estimates_osa_by_G"`` (``osd``, ``csd``).
        inference : bool
            Add the standard errors and 95% intervals of ``kappa`` and
            ``wtkappa`` (columns ``kappa_se``, ``kappa_ci_low``, ...) to the
            eval and consistency tables.
        """
        pd = require("pandas", "pandas", "EvaluationResult.table")

        tables = self.tables(inference=inference)
        if name not in tables:
            from concord._common.errors import param_error

            param_error("EvaluationResult.table", "name", f"one of {sorted(tables)}", name)
        rows = tables[name]
        return pd.DataFrame([r for _, r in rows], index=[label for label, _ in rows])

    def to_dict(self) -> dict[str, Any]:
        """Every table and flag as JSON-ready values (nan as None), SEs and intervals included."""
        out: dict[str, Any] = {
            "n": self.n,
            "n_excluded": self.n_excluded,
            "score_types": list(self.score_types),
            "primary": self.primary,
            "trim": list(self.trim),
            "trim_tolerance": self.trim_tolerance,
            "rounding": self.rounding,
            "tables": {
                name: {label: row for label, row in rows}
                for name, rows in self.tables(inference=True).items()
            },
            "flags": [vars(f) for f in self.flags],
        }
        return dict(jsonable(out))

    def summary(self) -> str:
        """One sentence: the primary score type's QWK, r, SMD, PRMSE and how many flags."""
        m = self.eval[self.primary]
        low, high = m.wtkappa.interval
        parts = [
            f"On {self.n} responses the {self.primary} machine scores agree with the human "
            f"scores at QWK {m['wtkappa']:.3f} (95% CI {low:.3f} to {high:.3f}), "
            f"r = {m['corr']:.3f}, SMD = {m['SMD']:.3f}"
        ]
        if self.primary in self.true_score:
            parts.append(f", PRMSE = {self.true_score[self.primary].prmse_true:.3f}")
        flagged = f"{len(self.flags)} flag{'s' * (len(self.flags) != 1)}"
        return "".join(parts) + f"; {flagged} at the Williamson et al. (2012) thresholds."

    def explain(self) -> str:
        """Return the evaluation in words: the metrics per score type, human-human, flags."""
        lines = [self.summary(), ""]
        for name, rows in self.tables().items():
            if not name.startswith(("eval", "consistency", "degradation", "true_score")):
                continue
            lines.append(f"{name}:")
            for label, row in rows:
                cells = ", ".join(f"{k} {_cell(v)}" for k, v in row.items())
                lines.append(f"  {label or 'human-human'}: {cells}")
        lines.append("Flags:" if self.flags else "Flags: none.")
        lines.extend(f"  {f}" for f in self.flags)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        parts = [f'<p class="concord-sentence">{_html.text(self.summary())}</p>']
        for name, rows in self.tables().items():
            if not rows:
                continue
            head = ["", *(_html.text(c) for c in rows[0][1])]
            body = [
                [_html.text(label), *(_html_cell(v) for v in row.values())] for label, row in rows
            ]
            parts.append(_html.table(head, body, _html.text(name)))
        if self.flags:
            items = "".join(f"<li>{_html.text(f)}</li>" for f in self.flags)
            parts.append(f"<p>Flags:</p><ul>{items}</ul>")
        return _html.page(parts)


def _cell(value: Any) -> str:
    return value if isinstance(value, str) else _text.number(float(value), 4)


def _html_cell(value: Any) -> str:
    return _html.text(value) if isinstance(value, str) else _html.number(float(value))
