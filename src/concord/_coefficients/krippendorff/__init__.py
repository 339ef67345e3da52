"""Krippendorff's alpha: every metric, its exact core and the continuous engine."""
