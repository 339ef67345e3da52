"""The results of the span measures: span F1 (and, beside it, unitizing α and γ)."""
