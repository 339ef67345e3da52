"""Judges against humans: the Alt-Test, diagnostic accuracy, self-consistency."""
