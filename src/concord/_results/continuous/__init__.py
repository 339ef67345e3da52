"""Results of numeric ratings: ICC, concordance, Bland–Altman, ranks, square tables."""
