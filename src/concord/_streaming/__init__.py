"""Accumulators: count tables that grow and merge, handed to the same cores."""
