"""Results of the span measures: span F1, token agreement, unitizing α, γ."""
