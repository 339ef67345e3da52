"""Standard errors, p-values, intervals and resampling: nothing coefficient-specific."""
