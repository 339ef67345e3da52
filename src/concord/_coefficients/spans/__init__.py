"""Spans and unitizing: agreement on where the annotation is, not only on what it says."""
