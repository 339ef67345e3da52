"""Annotation tools' exports → one long DataFrame: ``concord.read_annotations``.

One module per format, each with ``read(source, /, **options)`` and
``looks_like(sample)``; :mod:`concord._readers.read` dispatches and detects.
"""
