"""Comparing coefficients: two panels, paired or independent, one-shot or streamed."""
