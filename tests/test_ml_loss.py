"""concord.ml.kappa_loss on numpy, PyTorch and JAX arrays: values, the QWK identity, gradients."""

from __future__ import annotations

import numpy as np
import pytest

import concord
from concord.ml import kappa_loss

NO_TORCH = "PyTorch is not installed (pip install torch --index-url .../cpu)"
NO_JAX = "JAX is not installed (pip install 'jax[cpu]')"
NO_COMPAT = "array-api-compat is not installed (pip install 'concord-agreement[array]')"

# TensorFlow Addons' numpy reference, weighted_kappa_loss_np in
# tensorflow_addons/losses/tests/kappa_loss_test.py (commit d208d752), run outside this
# repository on its own inputs, gen_labels_and_preds(n, k, seed) (one-hot classes, the
# argmax of uniform draws; row-normalised uniform probabilities, np.random.seed(seed)),
# with float64 probabilities: (weightage, n, k, seed) -> loss
TFA_REFERENCE = {
    ("linear", 50, 4, 0): -0.009966724239896894,
    ("linear", 50, 4, 1): 0.00041394600506825316,
    ("linear", 50, 4, 2): -0.033449001789822304,
    ("linear", 50, 4, 3): 0.038456970972635306,
    ("quadratic", 100, 3, 0): -0.006363564410442063,
    ("quadratic", 100, 3, 1): 0.006193389942497431,
    ("quadratic", 100, 3, 2): -0.01966615139086044,
    ("quadratic", 100, 3, 3): 0.05770424707900663,
}


def _tfa_inputs(n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The reference's inputs: the same draws from numpy's legacy global generator."""
    rng = np.random.RandomState(seed)
    classes = rng.uniform(size=(n, k)).argmax(axis=1)
    prob = rng.uniform(size=(n, k))
    return np.eye(k, dtype=int)[classes], prob / prob.sum(axis=1, keepdims=True)


@pytest.mark.parametrize(("key", "expected"), sorted(TFA_REFERENCE.items()))
def test_matches_tensorflow_addons_reference(
    key: tuple[str, int, int, int], expected: float
) -> None:
    weightage, n, k, seed = key
    one_hot, prob = _tfa_inputs(n, k, seed)
    assert float(kappa_loss(one_hot, prob, weights=weightage)) == pytest.approx(expected, abs=1e-5)
    # integer classes give the same loss as one-hot rows
    assert kappa_loss(one_hot.argmax(axis=1), prob, weights=weightage) == pytest.approx(
        float(kappa_loss(one_hot, prob, weights=weightage)), abs=1e-15
    )


@pytest.mark.parametrize("k", [3, 5, 7])
def test_one_hot_predictions_give_one_minus_exact_qwk(k: int) -> None:
    rng = np.random.default_rng(k)
    y = rng.integers(0, k, 300)
    guess = np.clip(y + rng.integers(-2, 3, 300), 0, k - 1)
    loss = kappa_loss(y, np.eye(k)[guess])
    assert np.exp(loss) - 1e-6 == pytest.approx(
        1 - concord.quadratic_weighted_kappa(y, guess), abs=1e-12
    )


def test_custom_weights_and_shape_errors() -> None:
    y = np.array([0, 1, 2, 1])
    p = np.full((4, 3), 1 / 3)
    quadratic = concord.weight_matrix(3, "quadratic")
    assert kappa_loss(y, p, weights=quadratic * 4) == kappa_loss(y, p)
    assert kappa_loss(y.tolist(), p.tolist()) == kappa_loss(y, p)  # lists are numpy's
    with pytest.raises(ValueError, match="'y_prob' parameter of kappa_loss"):
        kappa_loss(y, p[:, 0])
    with pytest.raises(ValueError, match="'weights' parameter of kappa_loss"):
        kappa_loss(y, p, weights=np.zeros((2, 2)))


@pytest.mark.parametrize(
    ("y_true", "y_prob", "kwargs", "name"),
    [
        # grades 1..3 instead of positions 0..2: class 3 one-hot to zeros, a wrong loss
        ([1, 2, 3, 3], np.eye(3)[[0, 2, 2, 2]], {}, "y_true"),
        ([0, 1.5, 2, 2], np.eye(3)[[0, 2, 2, 2]], {}, "y_true"),
        ([0, 1], np.eye(3)[[0, 2, 2, 2]], {}, "y_true"),  # numpy's "cannot reshape"
        ([[0, 1]], np.eye(3)[[0, 2, 2, 2]], {}, "y_true"),  # numpy's matmul mismatch
        ([0, 1, 2, 2], np.eye(3)[[0, 2, 2, 2]], {"weights": "quadratc"}, "weights"),
        (np.zeros(0, int), np.zeros((0, 3)), {}, "y_prob"),  # nan with a RuntimeWarning
    ],
)
def test_refuses_truth_that_does_not_fit(
    y_true: object, y_prob: np.ndarray, kwargs: dict[str, str], name: str
) -> None:
    with pytest.raises(ValueError, match=f"'{name}' parameter of kappa_loss"):
        kappa_loss(y_true, y_prob, **kwargs)


def _numpy_loss(y: np.ndarray, logits: np.ndarray) -> float:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return float(kappa_loss(y, e / e.sum(axis=1, keepdims=True)))


def _central_differences(y: np.ndarray, logits: np.ndarray, h: float = 1e-6) -> np.ndarray:
    grad = np.zeros_like(logits)
    for index in np.ndindex(logits.shape):
        up, down = logits.copy(), logits.copy()
        up[index] += h
        down[index] -= h
        grad[index] = (_numpy_loss(y, up) - _numpy_loss(y, down)) / (2 * h)
    return grad


def _problem() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(8)
    y = rng.integers(0, 4, 12)
    return y, rng.normal(size=(12, 4)) + 2 * np.eye(4)[y]


def test_torch_autograd_equals_finite_differences() -> None:
    torch = pytest.importorskip("torch", reason=NO_TORCH)
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    y, logits = _problem()
    x = torch.tensor(logits, dtype=torch.float64, requires_grad=True)
    loss = kappa_loss(torch.from_numpy(y), torch.softmax(x, dim=1))
    assert isinstance(loss, torch.Tensor) and loss.ndim == 0
    assert float(loss.detach()) == pytest.approx(_numpy_loss(y, logits), abs=1e-14)
    loss.backward()
    assert x.grad is not None
    np.testing.assert_allclose(x.grad.numpy(), _central_differences(y, logits), atol=1e-8)
    # numpy class labels beside a tensor of probabilities work too
    assert float(kappa_loss(y, torch.softmax(x, dim=1)).detach()) == float(loss.detach())


def test_jax_grad_equals_finite_differences() -> None:
    jax = pytest.importorskip("jax", reason=NO_JAX)
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    jax.config.update("jax_enable_x64", True)
    try:
        y, logits = _problem()

        def loss(x: object) -> object:
            return kappa_loss(jax.numpy.asarray(y), jax.nn.softmax(x, axis=1))

        value = loss(jax.numpy.asarray(logits))
        assert float(value) == pytest.approx(_numpy_loss(y, logits), abs=1e-14)
        grad = np.asarray(jax.grad(loss)(jax.numpy.asarray(logits)))
        np.testing.assert_allclose(grad, _central_differences(y, logits), atol=1e-8)
    finally:
        jax.config.update("jax_enable_x64", False)


def test_importing_concord_ml_imports_no_framework() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    # the concord under test, not an installed one
    env = {**os.environ, "PYTHONPATH": str(Path(concord.__file__).parents[1])}
    code = (
        "import sys, concord, concord.ml; "
        "print(sorted(m for m in ('sklearn', 'torch', 'jax', 'lightgbm', 'xgboost', "
        "'array_api_compat') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "[]"
    plain = "import sys, concord; print('concord.ml' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", plain], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "False"
