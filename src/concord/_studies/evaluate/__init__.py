"""Scoring evaluation: a model against human scores, by group and against true scores."""
