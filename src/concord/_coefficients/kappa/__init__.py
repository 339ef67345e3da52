"""The kappa family of two raters: Cohen, Scott, QWK, per-category tests, the mean kappa."""
