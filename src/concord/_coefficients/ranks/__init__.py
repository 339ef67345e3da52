"""Ranks and scores of many raters: Kendall's W, the mean correlation, Cronbach's alpha, OCCC.

Each public function reads its ratings matrix with the intraclass
correlation's reader (:func:`concord._coefficients.continuous.icc.ratings_matrix`),
computes its statistic in numpy and returns a frozen result of
:mod:`concord._results.continuous.ranks`. The midranks and tie sums they share are in
:mod:`concord._coefficients.ranks.ranking`.
"""
