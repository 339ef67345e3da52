"""Spans on one item: each rater's spans on a shared axis, aligned spans linked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from concord._common.text import number
from concord._render import plotting as _plotting

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# a span: (start, end, label)
Span = tuple[float, float, Any]


@dataclass(eq=False, repr=False)
class SpanAlignmentDisplay:
    """One item's spans, one row per rater, with the alignment that links them.

    Each unitary alignment of two or more spans is drawn as a line through its
    spans (solid grey when their labels agree, dashed red when they differ); a
    span aligned with no other rater's span is outlined in red and marked ✗.

    Attributes
    ----------
    item : object
        The item drawn.
    raters : tuple
        One row per rater, top to bottom.
    labels : tuple
        The labels, in the colours' order.
    spans : tuple of tuple of (start, end, label)
        Each rater's spans.
    links : tuple of tuple
        The unitary alignments: per rater its span, or None for an empty slot.
    disorders : tuple of float
        Each unitary alignment's disorder.
    title : str

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> table = {"item": ["d"] * 4, "rater": ["a", "a", "b", "b"],
    ...          "start": [0, 10, 1, 30], "end": [5, 20, 5, 40],
    ...          "label": ["PER", "LOC", "PER", "LOC"]}
    >>> d = SpanAlignmentDisplay.from_result(concord.gamma(table, rng=0)).plot()
    >>> d.raters, len(d.links)
    (('a', 'b'), 3)
    >>> matplotlib.pyplot.close(d.figure_)
    """

    item: Any
    raters: tuple[Any, ...]
    labels: tuple[Any, ...]
    spans: tuple[tuple[Span, ...], ...]
    links: tuple[tuple[Span | None, ...], ...]
    disorders: tuple[float, ...]
    title: str

    @classmethod
    def from_result(cls, result: Any, /, *, item: Any = None) -> SpanAlignmentDisplay:
        """Build the display from :func:`concord.gamma`'s result (``item``: the first if None)."""
        func = "SpanAlignmentDisplay.from_result"
        _plotting.need(result, "alignment_", "a GammaResult", func)
        chosen = result.items[0] if item is None else item
        alignment = result.alignment(chosen)
        raters = tuple(result.raters)
        links = tuple(tuple(u[r] for r in raters) for u in alignment)
        spans = tuple(
            tuple(sorted(s for s in (link[k] for link in links) if s is not None))
            for k in range(len(raters))
        )
        return cls(
            item=chosen,
            raters=raters,
            labels=tuple(result.labels),
            spans=spans,
            links=links,
            disorders=tuple(u["disorder"] for u in alignment),
            title=f"γ's best alignment of item {chosen!r} "
            f"(item γ = {number(result.item_gamma[result.items.index(chosen)], 3)})",
        )

    def plot(self, ax: Axes | None = None, **style: Any) -> SpanAlignmentDisplay:
        """Draw and return the display; ``style`` goes to the spans' ``Axes.broken_barh``."""
        plt = _plotting.pyplot()
        self.figure_, self.ax_ = _plotting.axes(ax, (7.0, 1.2 + 0.6 * len(self.raters)))
        colours = plt.get_cmap("tab10")
        where = {name: len(self.raters) - 1 - k for k, name in enumerate(self.raters)}
        lonely = {
            (k, s) for link in self.links for k, s in enumerate(link)
            if s is not None and sum(x is not None for x in link) == 1
        }  # fmt: skip
        for k, name in enumerate(self.raters):
            y = where[name]
            for s in self.spans[k]:
                colour = colours(self.labels.index(s[2]) % 10)
                alone = (k, s) in lonely
                self.ax_.broken_barh(
                    [(s[0], s[1] - s[0])], (y - 0.3, 0.6), facecolors=colour,
                    edgecolors="red" if alone else _plotting.DARK,
                    linewidth=2 if alone else 0.5, **style,
                )  # fmt: skip
                mark = "✗ " if alone else ""
                self.ax_.text((s[0] + s[1]) / 2, y, f"{mark}{s[2]}", ha="center", va="center",
                              fontsize=8)  # fmt: skip
        self._links(where)
        self.ax_.set_yticks(list(where.values()), [str(r) for r in where])
        self.ax_.set_xlabel("offset")
        self.ax_.set_title(self.title)
        return self

    def _links(self, where: dict[Any, int]) -> None:
        for link in self.links:
            points = [
                ((s[0] + s[1]) / 2, where[self.raters[k]], s[2])
                for k, s in enumerate(link) if s is not None
            ]  # fmt: skip
            if len(points) < 2:
                continue
            agree = len({p[2] for p in points}) == 1
            self.ax_.plot(
                [p[0] for p in points], [p[1] for p in points],
                color="grey" if agree else "red", linestyle="-" if agree else "--",
                linewidth=1, zorder=3,
            )  # fmt: skip
