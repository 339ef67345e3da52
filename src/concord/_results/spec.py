"""What a result needs to know of the coefficient that made it.

Each family module declares the :class:`Spec` of its coefficients next to
their functions and hands it to the results it builds, so a result's name,
default interval, interpretation scale and explain text come with it: no
result looks its coefficient up by name.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Spec:
    """A coefficient as its results see it.

    Attributes
    ----------
    name : str
        The public function's name, also the result's ``coefficient``.
    display : str
        The name as the literature writes it (Gwet: AC1, unweighted).
    display_weighted : str or None
        The name when weighted, where it differs (Gwet's AC2).
    interval : str
        The default confidence-interval method, chosen by benchmarks/coverage.py.
    scale : str or None
        The default interpretation scale; None where no published scale fits.
    bounds : tuple of float
        The coefficient's possible range, where intervals are clipped.
    chance : str
        explain()'s formula of the chance agreement p_e.
    """

    name: str
    display: str
    display_weighted: str | None = None
    # The coverage study in benchmarks/coverage.py (results/coverage.md): for n >= 100,
    # Fisher's z interval came closest to 95% for every chance-corrected coefficient.
    interval: str = "fisher-z"
    scale: str | None = "landis-koch"
    bounds: tuple[float, float] = (-1.0, 1.0)
    chance: str = ""

    def display_for(self, weighting: str) -> str:
        """Return the name of a result with this ``weighting``."""
        if weighting == "unweighted" or self.display_weighted is None:
            return self.display
        return self.display_weighted
