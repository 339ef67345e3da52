"""Private modules of :mod:`concord.ml`: scorers, GBDT metrics and objective, the kappa loss."""
