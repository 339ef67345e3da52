"""One module per coefficient family, and the registry.

A family's public functions build its results (``cohen``, ``gwet``, ``raters``,
``krippendorff``, ``qwk``); its exact core, the float twin the bootstrap
recomputes and its variance lie side by side beside them (``cohen_core``,
``agreement_core``, ``raters_core``, ``krippendorff_core``). The registry
(:mod:`concord._coefficients.registry`) says the rest.
"""
