"""Frozen result objects: fields, explain(), interpret() and lazy inference."""
