"""Cut points that maximise kappa.

The exact solver, cross-validation, the scikit-learn estimator and the cut-point file.
"""
