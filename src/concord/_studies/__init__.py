"""Studies that consume coefficients: comparisons, raters, judges, crowds, planning, evaluation."""
