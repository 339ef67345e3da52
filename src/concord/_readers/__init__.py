"""Readers of annotation tools' exports: each format's records as concord's long form."""
