"""Crowds: per-item agreement, consensus labels (majority, Dawid-Skene) and drift."""
