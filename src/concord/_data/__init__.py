"""Raw ratings → validated columns and label codes.

1-D inputs, labels, rating matrices and the count form, and arrays of PyTorch,
CuPy and JAX.
"""
