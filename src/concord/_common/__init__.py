"""Leaves: the error sentence, exact arithmetic, docstring fragments, text, options.

They import nothing else from concord.
"""
