"""Label codes → small exact count tables.

The k×k pair table, item patterns and their statistics, weights, and the counting
engines (numpy, numba, device namespaces).
"""
