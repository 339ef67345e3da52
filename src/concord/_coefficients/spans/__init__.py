"""Agreement on spans: span F1 (and, beside it, unitizing α and γ).

The spans are read and checked once, in :mod:`concord._data.spans`; each
measure here computes from that table.
"""
