"""The weighted kappa loss of de la Torre, Puig & Valls (2018), through the array API.

numpy arrays take numpy; PyTorch and JAX arrays (CuPy's too, untested) take their own
namespace through array-api-compat, imported only when such an array
arrives, so gradients flow through the framework's autograd and the
arrays stay on their device.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import check_option, param_error
from concord._common.extras import require
from concord._data.arrays import is_device_array
from concord._tables.weights import KINDS, weight_matrix


def _namespace(x: Any) -> tuple[Any, Any]:
    """Return (namespace, device) of an array: numpy for anything not a device array."""
    if not is_device_array(x):
        return np, None
    compat = require("array_api_compat", "array", "concord.ml.kappa_loss of a device array")
    return compat.array_namespace(x), compat.device(x)


def _weights(weights: Any, k: int) -> np.ndarray:
    if isinstance(weights, str):
        check_option("kappa_loss", "weights", weights, KINDS)
        return weight_matrix(list(range(k)), weights)  # on positions 0..k−1
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (k, k):
        param_error("kappa_loss", "weights", f"a kind or a {k}×{k} matrix", f"shape {w.shape}")
    return w


def kappa_loss(
    y_true: Any, y_prob: Any, /, *, weights: Any = "quadratic", epsilon: float = 1e-6
) -> Any:
    r"""Weighted kappa loss: log(ΣW·O / ΣW·E + ε), differentiable in the predicted probabilities.

    With T the n×k one-hot true classes and P the n×k predicted
    probabilities, O = TᵀP is the soft confusion matrix and E = t pᵀ / n
    its expectation under independence (t, p the column sums of T and P);
    W are disagreement weights on the class positions 0..k−1 (de la Torre,
    Puig & Valls 2018; TensorFlow Addons' ``WeightedKappaLoss``). At one-hot
    predictions ΣW·O / ΣW·E = 1 − κ_w, so minimising the loss maximises a
    smooth weighted kappa. Scaling W does not change the loss.

    Parameters
    ----------
    y_true : array, shape (n,) or (n, k)
        The true classes: integer positions 0..k−1, or one-hot rows. A numpy
        class outside 0..k−1 is an error; device arrays are not read (that
        would synchronise the device), so shift grades 1..k to 0..k−1 first.
    y_prob : array, shape (n, k)
        Predicted class probabilities (a softmax's output). A numpy,
        PyTorch or JAX array (CuPy's take the same path, untested); the
        loss is computed in its namespace and on its device, so autograd works.
    weights : str or array-like (k, k)
        A kind of :func:`concord.weight_matrix` on the positions (default
        quadratic), or a k×k disagreement matrix.
    epsilon : float
        Added to the ratio before the logarithm.

    Returns
    -------
    array
        A 0-d array of ``y_prob``'s namespace (a numpy float for numpy).

    References
    ----------
    de la Torre, J., Puig, D. & Valls, A. (2018). Weighted kappa loss
    function for multi-class classification of ordinal data in deep
    learning. Pattern Recognition Letters 105, 144-154.
    doi:10.1016/j.patrec.2017.05.018

    Examples
    --------
    At one-hot predictions exp(loss) − ε is 1 − QWK (here QWK is 0.8):

    >>> import numpy as np
    >>> from concord.ml import kappa_loss
    >>> y = np.array([0, 1, 2, 2])
    >>> p = np.eye(3)[[0, 2, 2, 2]]
    >>> round(float(np.exp(kappa_loss(y, p)) - 1e-6), 12)
    0.2
    """
    xp, device = _namespace(y_prob)
    if xp is np:  # lists, and integer one-hot predictions, become float arrays
        y_prob = np.asarray(y_prob)
        y_prob = y_prob if y_prob.dtype.kind == "f" else y_prob.astype(np.float64)
    if len(y_prob.shape) != 2:
        param_error("kappa_loss", "y_prob", "an array of shape (n, k)", f"shape {y_prob.shape}")
    n, k = y_prob.shape
    on = {} if device is None else {"device": device}
    if library_of(y_true) != library_of(y_prob) or not hasattr(y_true, "shape"):
        y_true = xp.asarray(np.asarray(y_true), **on)
    _check_truth(y_true, n, k)
    if len(y_true.shape) == 1:
        classes = xp.reshape(y_true, (n, 1)) == xp.reshape(xp.arange(k, **on), (1, k))
        y_true = classes
    truth = xp.astype(y_true, y_prob.dtype)
    w = xp.asarray(_weights(weights, k), dtype=y_prob.dtype, **on)
    observed = xp.sum((truth @ w) * y_prob)
    expected = xp.sum(xp.sum(truth, axis=0) @ w * xp.sum(y_prob, axis=0)) / n
    return xp.log(observed / expected + epsilon)


def library_of(x: Any) -> str:
    """Return the top-level module of an array's class ('numpy' for lists and numpy arrays)."""
    return type(x).__module__.partition(".")[0] if is_device_array(x) else "numpy"


def _check_truth(y_true: Any, n: int, k: int) -> None:
    """Refuse a y_true that does not match y_prob's (n, k), or numpy classes outside 0..k−1.

    A class outside 0..k−1 (grades 1..k, say) would one-hot to a row of zeros
    and drop out of O and E without a word. Device arrays are not read here:
    reading a value would synchronise the device, and fail under jax.jit.
    """
    if n == 0:
        param_error("kappa_loss", "y_prob", "at least one row", "shape (0, k)", raw=True)
    if tuple(y_true.shape) not in ((n,), (n, k)):
        got = f"shape {tuple(y_true.shape)}"
        param_error("kappa_loss", "y_true", f"shape ({n},) or ({n}, {k}) as y_prob", got, raw=True)
    if isinstance(y_true, np.ndarray) and y_true.ndim == 1:
        outside = ~np.isin(y_true, np.arange(k))
        if outside.any():
            param_error(
                "kappa_loss",
                "y_true",
                f"class positions 0..{k - 1}",
                y_true[outside][0],
                fix="Subtract the lowest grade: positions, not grades (y − 1 for grades 1..k).",
            )
