"""A custom LightGBM/XGBoost objective for regression to grades: a smooth QWK surrogate.

The derivation is in the docstring of :func:`qwk_objective`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from concord._common.errors import check_option
from concord._ml.gbdt import split

_FLOOR = 1e-6  # the least Hessian handed back: Newton steps −Σg/Σh stay finite


def gradient_hessian(
    y: np.ndarray, pred: np.ndarray, w: np.ndarray, exact: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Return W·g and W·h of L = N/D (see :func:`qwk_objective`) at the predictions."""
    total = w.sum()
    y_bar = (w * y).sum() / total
    n = (w * (y - pred) ** 2).sum()
    d = (
        (w * y * y).sum()
        + (w * pred * pred).sum()
        - 2.0 * (w * y).sum() * (w * pred).sum() / total
    )
    loss = n / d
    d_i = 2.0 * w * (pred - y_bar)
    g = (2.0 * w * (pred - y) - loss * d_i) / d
    h = (2.0 * w * (1.0 - loss) - 2.0 * g * d_i) / d if exact else 2.0 * w / d
    return total * g, np.maximum(total * h, _FLOOR)


def qwk_objective(*, hessian: str = "numerator") -> Callable[[Any, Any], Any]:
    r"""Return a LightGBM/XGBoost custom objective that maximises the QWK of continuous scores.

    The loss is L = N/D = 1 − κ, the quadratic weighted kappa of continuous
    predictions ŷ against integer grades y (Haberman 2019; on integer
    predictions the exact QWK), with items weighted by w (the Dataset's or
    DMatrix's weights; 1 by default) and W = Σw, ȳ = Σwy/W:

    .. math::

        N = \sum w_i (y_i - \hat y_i)^2, \qquad
        D = \sum w y^2 + \sum w \hat y^2 - \tfrac{2}{W} \sum w y \sum w \hat y,

    D being the chance disagreement of all pairs (y_a, ŷ_b): (1/W) Σ_a Σ_b
    w_a w_b (y_a − ŷ_b)². Differentiating, with ∂_i D = 2w_i(ŷ_i − ȳ),

    .. math::

        g_i = \frac{2 w_i (\hat y_i - y_i) - L\, \partial_i D}{D}, \qquad
        H_{ii} = \frac{2 w_i (1 - L) - 2 g_i\, \partial_i D}{D}.

    Both are multiplied by W (the loss W·L), so that their size does not
    shrink with the number of items and LightGBM's ``min_sum_hessian_in_leaf``
    keeps its meaning. The exact diagonal H_ii vanishes at constant
    predictions (L = 1 there, whatever the constant), where boosting starts,
    and Newton's steps −Σg/Σh then explode; by default the Hessian is the
    numerator's curvature at fixed D, 2w_i/D, positive everywhere, with which
    the first step is the mean residual of each leaf, as for squared error.
    Hessians are at least 1e-6.

    Parameters
    ----------
    hessian : {'numerator', 'exact'}
        ``'numerator'``: 2w_i/D (default). ``'exact'``: H_ii above.

    Returns
    -------
    callable
        ``objective(preds, data) -> (grad, hess)``, as ``lightgbm.train``'s
        ``params["objective"]`` and ``xgboost.train(obj=...)`` call it, or
        ``objective(y_true, y_pred, sample_weight)``, as ``LGBMRegressor(objective=...)``
        and ``XGBRegressor(objective=...)`` do (with their ``fit(sample_weight=...)``).
        Predict with the raw scores and grade them (round them, or cut them
        with :func:`concord.optimize_thresholds`).

    References
    ----------
    Haberman, S. J. (2019). Measures of agreement versus measures of
    prediction accuracy. ETS Research Report RR-19-20. doi:10.1002/ets2.12258

    Examples
    --------
    >>> import numpy as np
    >>> from concord.ml import qwk_objective
    >>> grad, hess = qwk_objective()(np.array([1, 2, 3]), np.array([2.0, 2.0, 2.0]))
    >>> grad, hess
    (array([ 3.,  0., -3.]), array([3., 3., 3.]))
    """
    exact = check_option("qwk_objective", "hessian", hessian, ("numerator", "exact")) == "exact"

    def objective(a: Any, b: Any, sample_weight: Any = None) -> tuple[np.ndarray, np.ndarray]:
        y, pred, weight = split(a, b, sample_weight)
        w = np.ones_like(pred) if weight is None else weight
        return gradient_hessian(np.asarray(y, dtype=np.float64), pred, w, exact)

    return objective
