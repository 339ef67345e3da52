"""One subpackage per coefficient family, and the registry.

A family's public functions build its results (``kappa/cohen``, ``kappa/qwk``,
``multirater/gwet``, ``multirater/raters``, ``krippendorff/krippendorff``,
``continuous/icc``, ...); its exact core, the float twin the bootstrap
recomputes, its variance and its per-item terms lie beside them in its
``*_core`` modules. The registry (:mod:`concord._coefficients.registry`) says
the rest; the studies of :mod:`concord._studies` read a family through it.
"""
