"""The judge study's result: :class:`JudgeStudy` (what ``concord judge`` prints)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from concord._common.jsonable import jsonable
from concord._results.html import page, text
from concord._results.protocol import Reported, row
from concord._results.studies.intra_rater import numbers


@dataclass(frozen=True)
class Bias:
    """How often the judge says a category against how often the humans' majority does."""

    label: Any
    judge: int
    reference: int
    change: float  # judge / reference − 1 (inf when the reference never says it)
    words: str


@dataclass(frozen=True)
class Item:
    """One item: its ratings (humans and judge), p_a,i, majority, share and entropy (nats)."""

    item: Any
    n: int
    agreement: float
    majority: Any
    share: float
    entropy: float
    ratings: dict[str, Any]
    reference: Any
    judge: Any


@dataclass(frozen=True, eq=False, repr=False)
class JudgeStudy(Reported):
    """A judge against humans (and gold): the parts of the study, each as its own result.

    ``kappas`` maps the judge and each human to Cohen's kappa against the
    reference (or to a sentence saying why there is none); ``alt_test`` is
    the :class:`~concord.AltTestResult` or why it was not run; ``accuracy``
    the :class:`~concord.DiagnosticResult` against gold (None without gold);
    ``bias`` the judge's label counts against the humans' majority;
    ``self_consistency`` the :class:`~concord.IntraRaterResult` of the
    judge's runs (None without repeats); ``hardest`` the items with the
    lowest pairwise agreement; ``disagreements`` the items where the judge
    differs from the reference.
    """

    candidate: str
    humans: tuple[str, ...]
    gold: str | None
    reference: str
    n_items: int
    n_no_reference: int
    alt_test: Any
    kappas: dict[str, Any]
    accuracy: Any
    bias: tuple[Bias, ...]
    self_consistency: Any
    hardest: tuple[Item, ...]
    disagreements: tuple[Item, ...]

    @property
    def statistic(self) -> float:
        """The judge's Cohen's kappa against the reference (nan when there is none)."""
        k = self.kappas[self.candidate]
        return math.nan if isinstance(k, str) else float(k.statistic)

    def summary(self) -> str:
        """Return one sentence: the judge's kappa, the Alt-Test's outcome, its largest bias."""
        out = (
            f"The judge {self.candidate!r} has Cohen's kappa {self.statistic:.3f} "
            f"against {self.reference}"
        )
        if not isinstance(self.alt_test, str):
            verdict = "passes" if self.alt_test.passed else "does not pass"
            out += f"; it {verdict} the Alt-Test (ω = {self.alt_test.winning_rate:.2f})"
        skewed = [b for b in self.bias if math.isfinite(b.change) and abs(b.change) >= 0.1]
        if skewed:
            worst = max(skewed, key=lambda b: abs(b.change))
            out += f"; it {worst.words}"
        return out + "."

    @property
    def _title_(self) -> str:
        return f"Judge {self.candidate!r} against {self.reference}"

    def _rows_(self) -> list[dict[str, Any]]:
        """Return the tidy rows: each rater's kappa against the reference, the Alt-Test's ω."""
        rows = []
        for name, k in self.kappas.items():
            who = "judge" if name == self.candidate else "human"
            label = f"Cohen's kappa: {name} against {self.reference}"
            if isinstance(k, str):
                rows.append(row(label, math.nan, rater=str(name), role=who, note=k))
                continue
            stat, low, high, n = numbers(k, 0.95)
            rows.append(row(label, stat, interval=(low, high), n=n, rater=str(name), role=who))
        if not isinstance(self.alt_test, str):
            alt = self.alt_test
            rows.append(
                row(
                    "Alt-Test winning rate ω",
                    float(alt.winning_rate),
                    rater=self.candidate,
                    role="judge",
                    note="passes" if alt.passed else "does not pass",
                )
            )
        return rows

    def _kappa_lines(self) -> list[str]:
        lines = [f"Cohen's kappa against {self.reference}:"]
        for name, k in self.kappas.items():
            who = "judge" if name == self.candidate else "human"
            if isinstance(k, str):
                lines.append(f"  {name!s:<16} {who:<6} not computed: {k}")
                continue
            stat, low, high, n = numbers(k, 0.95)
            lines.append(
                f"  {name!s:<16} {who:<6} {stat:.3f} ({low:.3f} to {high:.3f})  n={n:.0f}"
            )
        if self.gold is None and len(self.humans) > 1:
            lines.append("  (each human against the majority of the other humans)")
        return lines

    def _item_lines(self, items: tuple[Item, ...], limit: int = 20) -> list[str]:
        names = [*self.humans, self.candidate]
        lines = ["  " + "  ".join(f"{h:>10}" for h in ["item", "reference", *names])]
        for i in items[:limit]:
            cells = [i.item, i.reference, *(i.ratings.get(str(n), "") for n in names)]
            lines.append("  " + "  ".join(f"{c!s:>10}" for c in cells))
        if len(items) > limit:
            lines.append(
                f"  ... and {len(items) - limit:,} more "
                "(--disagreements FILE or --format json lists all)"
            )
        return lines

    def explain(self) -> str:
        """Return the study section by section, in words."""
        head = (
            f"Judge {self.candidate!r} against {len(self.humans)} humans "
            f"({', '.join(self.humans)}); reference: {self.reference}; {self.n_items:,} items"
        )
        if self.n_no_reference:
            head += f", {self.n_no_reference:,} without a reference (humans tie or no gold)"
        lines = [head + ".", "", self.summary(), ""]
        alt = self.alt_test
        lines.append(f"Alt-Test: {alt if isinstance(alt, str) else alt.summary()}")
        lines += ["", *self._kappa_lines(), ""]
        if self.accuracy is not None:
            lines += ["Accuracy against gold:", *self.accuracy.explain().splitlines(), ""]
        lines.append("Bias by category (the judge's labels against the humans' majority):")
        lines += [f"  {b.words} ({b.judge:,} against {b.reference:,})" for b in self.bias]
        if self.self_consistency is not None:
            lines += ["", "Self-consistency:", self.self_consistency.summary()]
        lines += ["", "Hardest items (lowest pairwise agreement p_a,i, Fleiss 1971):"]
        lines += self._item_lines(self.hardest)
        lines += [
            "",
            f"Items where the judge differs from {self.reference}: {len(self.disagreements):,}",
        ]
        lines += self._item_lines(self.disagreements) if self.disagreements else []
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"JudgeStudy({self.candidate!r}, humans={len(self.humans)}, "
            f"kappa={self.statistic:.4g}, reference={self.reference!r}, "
            f"disagreements={len(self.disagreements)})"
        )

    def _repr_html_(self) -> str:
        return page([f"<p>{text(self.summary())}</p>", f"<pre>{text(self.explain())}</pre>"])

    def disagreement_rows(self) -> list[dict[str, Any]]:
        """Return the disagreements, one row per item with every rater's label by name."""
        names = [*self.humans, self.candidate]
        return [
            {"item": i.item, "reference": i.reference, **{n: i.ratings.get(str(n)) for n in names}}
            for i in self.disagreements
        ]

    def to_dict(self) -> dict[str, Any]:
        """Return the study as JSON-ready values."""
        kappas = {
            name: ({"reason": k} if isinstance(k, str) else k.to_dict())
            for name, k in self.kappas.items()
        }
        alt = self.alt_test
        return dict(
            jsonable(
                {
                    "candidate": self.candidate,
                    "humans": list(self.humans),
                    "gold": self.gold,
                    "reference": self.reference,
                    "statistic": self.statistic,
                    "summary": self.summary(),
                    "n_items": self.n_items,
                    "n_no_reference": self.n_no_reference,
                    "alt_test": {"reason": alt} if isinstance(alt, str) else alt.to_dict(),
                    "kappas": kappas,
                    "accuracy": None if self.accuracy is None else self.accuracy.to_dict(),
                    "bias": [vars(b) | {"label": str(b.label)} for b in self.bias],
                    "self_consistency": None
                    if self.self_consistency is None
                    else self.self_consistency.to_dict(),
                    "hardest": [_item(i) for i in self.hardest],
                    "disagreements": [_item(i) for i in self.disagreements],
                }
            )
        )


def _item(i: Item) -> dict[str, Any]:
    return {**vars(i), "item": str(i.item)}
