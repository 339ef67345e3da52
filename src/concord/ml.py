"""scikit-learn scorers, LightGBM/XGBoost metrics and objective, and a differentiable kappa loss.

``import concord.ml`` imports none of scikit-learn, LightGBM, XGBoost,
PyTorch or JAX; each function imports what it uses when called, and the
metrics and the loss take the libraries' objects as they come.

- :func:`kappa_scorer`, :func:`threshold_kappa_scorer`: ``scoring=`` for
  ``GridSearchCV``, ``cross_val_score`` and ``cross_validate``.
- :func:`lightgbm_metric`, :func:`xgboost_metric`: eval metrics.
- :func:`qwk_objective`: a custom objective (gradient and Hessian of a QWK surrogate).
- :func:`kappa_loss`: the weighted kappa loss for neural networks (numpy, PyTorch, JAX).
"""

from __future__ import annotations

from concord._ml.gbdt import lightgbm_metric, xgboost_metric
from concord._ml.loss import kappa_loss
from concord._ml.objective import qwk_objective
from concord._ml.scorers import kappa_scorer, threshold_kappa_scorer

__all__ = [
    "kappa_loss",
    "kappa_scorer",
    "lightgbm_metric",
    "qwk_objective",
    "threshold_kappa_scorer",
    "xgboost_metric",
]
