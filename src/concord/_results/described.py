"""What every result says of its coefficient: its name and its reading on a benchmark scale.

Both :class:`~concord._results.kappa.KappaResult` and
:class:`~concord._results.agreement.AgreementResult` carry the
:class:`~concord._results.spec.Spec` of the coefficient that made them;
this mixin reads it, once for both.
"""

from __future__ import annotations

from concord._results import interpret as _scales
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

    def interpret(self, scale: str | None = None) -> str:
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

        Returns
        -------
        str
            For example 'moderate'; 'undefined' when the coefficient is nan.
        """
        func = f"{type(self).__name__}.interpret"
        return _scales.interpret(
            self.statistic, _scales.resolve(scale, self._described, func), func
        )
