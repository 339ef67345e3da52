"""Results of the studies: comparisons, raters, gold, judges, planning, evaluation."""
