"""Continuous ratings: the ICC, Lin's concordance correlation and Bland–Altman."""
