"""Cells of a file read into ratings: the sources, the typed cells, the coded labels."""
