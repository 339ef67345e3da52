"""Raters one by one: leave-one-out diagnostics and agreement with a gold standard."""
