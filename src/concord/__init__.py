"""concord: exact, fast and explainable agreement between raters.

The centre is quadratic weighted kappa; around it the kappa family. Every
statistic follows one path: raw ratings → validated, label-encoded arrays →
a small count table → one core function → a frozen result object.

``import concord`` needs numpy only; pandas, numba and the CLI libraries are
imported lazily, where they are used.
"""

from concord._cohen import cohen_kappa
from concord._errors import UndefinedKappaWarning
from concord._kappa_result import KappaResult
from concord._mean import GroupedKappaResult, grouped_kappa, mean_kappa
from concord._qwk import quadratic_weighted_kappa
from concord._version import __version__
from concord._weights import weight_matrix

__all__ = [
    "GroupedKappaResult",
    "KappaResult",
    "UndefinedKappaWarning",
    "__version__",
    "cohen_kappa",
    "grouped_kappa",
    "mean_kappa",
    "quadratic_weighted_kappa",
    "weight_matrix",
]
