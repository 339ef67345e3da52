"""Planning a study: the number of items for a kappa, by formula or simulation."""
