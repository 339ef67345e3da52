"""Results of the span measures: unitizing alpha (and, from other branches, span F1, gamma)."""
