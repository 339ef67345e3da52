"""The registry: one declaration per public coefficient, which the rest of concord reads.

A :class:`Coefficient` says what is true of a coefficient: its name, display
name and defaults (its :class:`~concord._results.spec.Spec`), the table its
stream keeps, its options, and the hooks that count a batch and compute the
result from merged counts, which are the one-shot function's own code.
Streaming, :mod:`concord.dask`, the command line, the report and the tests
ask the registry; no module compares a coefficient's name. Adding a
coefficient is its family module and one entry here.

>>> import concord
>>> from concord._coefficients.registry import entry
>>> fleiss = entry(concord.fleiss_kappa)
>>> fleiss.table, fleiss.options, fleiss.default_interval, fleiss.scale
('items', ('weights', 'labels', 'population_size', 'empty'), 'fisher-z', 'landis-koch')
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from concord._coefficients import pattern_terms as compare_terms
from concord._coefficients.continuous import (
    bland_altman,
    bland_altman_core,
    concordance,
    concordance_core,
    icc,
    icc_core,
)
from concord._coefficients.kappa import (
    cohen,
    cohen_core,
    qwk,
)
from concord._coefficients.krippendorff import (
    krippendorff,
    krippendorff_core,
)
from concord._coefficients.krippendorff import krippendorff_continuous as continuous
from concord._coefficients.multirater import (
    agreement_core,
    gwet,
    raters,
    raters_core,
)
from concord._common.errors import param_error
from concord._data.long import LONG
from concord._results.spec import Spec

Table = Literal["pairs", "items", "raters", "coincidences", "sums"]


@dataclass(frozen=True)
class Coefficient:
    """A public coefficient, as the registry declares it.

    Attributes
    ----------
    spec : Spec
        Its name, display name, default interval and scale, range and explain text.
    function : callable
        The public function.
    table : {"pairs", "items", "raters", "coincidences", "sums"}
        The count table a stream keeps: the k×k pair table, the item
        patterns, the patterns of who rated what, the item patterns from
        which Krippendorff's coincidences come, or the exact additive sums of
        continuous scores (the intraclass correlation's; Lin's and Bland–Altman's
        n, Σx, Σy, Σx², Σy², Σxy).
    batch : callable
        ``batch(data, options, sample_weight)``: validate and count one batch
        of a stream; None when it holds nothing to count.
    core : callable
        ``core(counted, options)``: the result of merged counts (a
        :class:`~concord._tables.pair_table.PairTable` or
        :class:`~concord._tables.item_table.Items`), by the one-shot code.
    twin : tuple of type
        The samplers whose ``statistic`` recomputes the coefficient in floating
        point for the bootstrap (empty for a function that returns a float).
    variance : callable or None
        The large-sample variance the result's standard error comes from.
    returns_result : bool
        False for :func:`quadratic_weighted_kappa`, which returns a float.
    check_counts : callable or None
        ``check_counts(options, k)``: refuse counts the stream cannot keep.
    check_options : callable or None
        ``check_options(options)``: validate options the signature does not
        (returns them, normalised).
    terms : callable or None
        ``terms(data, options)``: the per-item terms of the coefficient, items
        in order, whose squares sum to its variance; :func:`concord.compare`
        pairs them item by item (Gwet 2016). None where not yet written.
    leads : bool
        True for the coefficient a report's summary leads with when a panel
        has it (Krippendorff's alpha: any number of raters, missing ratings
        and every level of measurement); otherwise the first result leads.
    options : tuple of str
        The function's keyword-only options, in signature order (not the long
        form's ``item``, ``rater`` and ``rating``, nor ``groups``: they say how
        the data are laid out, and per-item cluster labels are data).
    """

    spec: Spec
    function: Callable[..., Any]
    table: Table
    batch: Callable[[tuple[Any, ...], dict[str, Any], Any], Any]
    core: Callable[[Any, dict[str, Any]], Any]
    twin: tuple[type, ...] = ()
    variance: Callable[..., Any] | None = None
    returns_result: bool = True
    check_counts: Callable[[dict[str, Any], int], None] | None = None
    check_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    terms: Callable[[tuple[Any, ...], dict[str, Any]], Any] | None = None
    pattern_terms: compare_terms.PatternTerms | None = None
    leads: bool = False
    options: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        params = inspect.signature(self.function).parameters.values()
        # item=, rater=, rating= say how the ratings are laid out (long form) and groups=
        # (subject=) labels items, as the data do: not options an accumulator or the CLI carries
        data = (*LONG, "groups", "form", "raters", "subject")
        keyword = tuple(p.name for p in params if p.kind is p.KEYWORD_ONLY and p.name not in data)
        object.__setattr__(self, "options", keyword)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def display_name(self) -> str:
        return self.spec.display

    @property
    def default_interval(self) -> str | None:
        return self.spec.interval if self.returns_result else None

    @property
    def scale(self) -> str | None:
        return self.spec.scale if self.returns_result else None

    @property
    def takes_sample_weight(self) -> bool:
        return "sample_weight" in self.options

    @property
    def arity(self) -> int:
        """How many arrays the function takes: two raters' ratings, or one matrix."""
        params = inspect.signature(self.function).parameters.values()
        return sum(p.kind is p.POSITIONAL_ONLY for p in params)


_p = functools.partial


def _shares(member: gwet.Member, function: Callable[..., Any]) -> Coefficient:
    """Declare a member of the percent-agreement family (``multirater/gwet.py``)."""
    return Coefficient(
        member.spec,
        function,
        "items",
        _p(gwet.count, member),
        _p(gwet.from_counts, member),
        (agreement_core.PatternSampler,),
        agreement_core.variance,
        terms=_p(gwet.item_terms, member),
        pattern_terms=compare_terms.items(member),
    )


REGISTRY: tuple[Coefficient, ...] = (
    Coefficient(
        cohen.COHEN.spec,
        cohen.cohen_kappa,
        "pairs",
        _p(cohen.count, cohen.COHEN),
        _p(cohen.from_counts, cohen.COHEN),
        (cohen_core.TableSampler,),
        cohen_core.fce,
        terms=_p(cohen.pair_item_terms, cohen.COHEN),
        pattern_terms=compare_terms.pairs(cohen.COHEN),
    ),
    Coefficient(
        cohen.SCOTT.spec,
        cohen.scott_pi,
        "pairs",
        _p(cohen.count, cohen.SCOTT),
        _p(cohen.from_counts, cohen.SCOTT),
        (cohen_core.TableSampler,),
        agreement_core.variance,
        terms=_p(cohen.pair_item_terms, cohen.SCOTT),
        pattern_terms=compare_terms.pairs(cohen.SCOTT),
    ),
    Coefficient(
        qwk.SPEC,
        qwk.quadratic_weighted_kappa,
        "pairs",
        qwk.count,
        qwk.from_counts,
        returns_result=False,
        check_options=qwk.checked,
    ),
    _shares(gwet.PERCENT, gwet.percent_agreement),
    _shares(gwet.FLEISS, gwet.fleiss_kappa),
    Coefficient(
        raters.CONGER,
        raters.conger_kappa,
        "raters",
        _p(raters.count, raters.CONGER),
        raters.conger_from_counts,
        (raters_core.CongerSampler,),
        raters_core.conger_variance,
        terms=raters.conger_item_terms,
        pattern_terms=compare_terms.CONGER,
    ),
    Coefficient(
        raters.LIGHT,
        raters.light_kappa,
        "raters",
        _p(raters.count, raters.LIGHT),
        raters.light_from_counts,
        (raters_core.LightSampler,),
        raters_core.light_variance,
        terms=raters.light_item_terms,
    ),
    _shares(gwet.GWET, gwet.gwet_ac),
    _shares(gwet.BRENNAN_PREDIGER, gwet.brennan_prediger),
    Coefficient(
        krippendorff.ALPHA,
        krippendorff.krippendorff_alpha,
        "coincidences",
        krippendorff.count,
        krippendorff.from_counts,
        (krippendorff_core.CoincidenceSampler, continuous.ContinuousSampler),
        krippendorff_core.alpha_variance,
        check_counts=krippendorff.check_counts,
        terms=krippendorff.item_terms,
        leads=True,
    ),
    Coefficient(
        icc.ICC,
        icc.icc,
        "sums",
        icc.count,
        icc.from_counts,
        (icc_core.ItemSampler,),
        check_options=icc.checked,
    ),
    Coefficient(
        concordance.SPEC,
        concordance.concordance_correlation,
        "sums",
        concordance.count,
        concordance.from_counts,
        (concordance_core.PairSampler,),
        concordance_core.z_variance,
        check_options=concordance.checked,
    ),
    Coefficient(
        bland_altman.SPEC,
        bland_altman.bland_altman,
        "sums",
        bland_altman.count,
        bland_altman.from_counts,
        (bland_altman_core.BiasSampler,),
        check_options=bland_altman.checked,
    ),
)

_BY_NAME = {c.name: c for c in REGISTRY}


def entry(function: Any, caller: str = "accumulate") -> Coefficient:
    """Return the registry's entry of a public coefficient function (by identity)."""
    for c in REGISTRY:
        if c.function is function:
            return c
    names = ", ".join(f"concord.{c.name}" for c in REGISTRY)
    param_error(caller, "function", f"one of {names}", function, exc=TypeError)


def by_name(name: str) -> Coefficient:
    """Return the entry of the coefficient whose function is called ``name``."""
    return _BY_NAME[name]
