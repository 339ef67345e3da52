"""Span measures: unitizing alpha (and, from other branches, span F1, token agreement, gamma)."""
