"""What every result says of its coefficient: its name and its reading on a benchmark scale.

Both :class:`~concord._results.kappa.kappa.KappaResult` and
:class:`~concord._results.multirater.agreement.AgreementResult` carry the
:class:`~concord._results.spec.Spec` of the coefficient that made them;
this mixin reads it, once for both.
"""

from __future__ import annotations

from typing import Literal, overload

from concord._common.errors import check_bool
from concord._results import benchmark as _benchmark
from concord._results import interpret as _scales
from concord._results.benchmark import BenchmarkProbabilities
from concord._results.spec import Spec


class Described:
    """``name`` and ``interpret()`` from the result's spec (its ``_spec`` field)."""

    statistic: float
    coefficient: str
    weighting: str
    _spec: Spec | None

    @property
    def name(self) -> str:
        """The coefficient's name as the literature writes it."""
        return self._described.display_for(self.weighting)

    @property
    def _described(self) -> Spec:
        """The coefficient's spec, given by the core that made the result."""
        return self._spec or Spec(self.coefficient, self.coefficient)

    @property
    def standard_error(self) -> float:  # pragma: no cover - given by InferenceMixin
        raise NotImplementedError

    @overload
    def interpret(
        self, scale: str | None = None, *, probabilistic: Literal[False] = ...
    ) -> str: ...

    @overload
    def interpret(
        self, scale: str | None = None, *, probabilistic: Literal[True]
    ) -> BenchmarkProbabilities: ...

    def interpret(
        self, scale: str | None = None, *, probabilistic: bool = False
    ) -> str | BenchmarkProbabilities:
        """Return the verbal category of the coefficient on a published benchmark scale.

        Parameters
        ----------
        scale : {"landis-koch", "fleiss", "altman", "cicchetti", "krippendorff"}, optional
            Landis & Koch (1977), Fleiss (1981), Altman (1991), Cicchetti
            (1994) or Krippendorff (2004); see :mod:`concord._results.interpret`
            for the boundaries. By default the coefficient's own: Krippendorff
            (2004) for alpha, Landis & Koch (1977) for the kappa-type
            coefficients; percent agreement has none (it is not corrected for
            chance), so there a scale must be given.
        probabilistic : bool
            If True, return how probable each level is, from the standard
            error (Gwet 2014, ch. 6; irrCAC's ``landis.koch.bf``): a
            :class:`BenchmarkProbabilities`, whose ``str()`` reads
            "substantial with probability 0.71; moderate or better 0.98".

        Returns
        -------
        str or BenchmarkProbabilities
            For example 'moderate'; 'undefined' when the coefficient is nan.

        Examples
        --------
        irrCAC's benchmarking vignette (Gwet 2014): AC1 on ``cac.raw4raters``
        is 0.77544 with SE 0.14295; Landis & Koch's "moderate or better" has
        cumulative probability 0.99542.

        >>> import concord
        >>> ratings = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
        ...            [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
        ...            [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1], [None, None, 3, None]]
        >>> r = concord.gwet_ac(ratings)
        >>> print(r.interpret(probabilistic=True))
        substantial with probability 0.49; moderate or better 0.995
        >>> [round(level.cumulative, 4) for level in r.interpret(probabilistic=True).levels]
        [0.3968, 0.8834, 0.9954, 1.0, 1.0, 1.0]
        """
        func = f"{type(self).__name__}.interpret"
        chosen = _scales.resolve(scale, self._described, func)
        if check_bool(func, "probabilistic", probabilistic):
            _scales.interpret(self.statistic, chosen, func)  # checks the scale's name
            return _benchmark.normal(chosen, self.statistic, self.standard_error)
        return _scales.interpret(self.statistic, chosen, func)
