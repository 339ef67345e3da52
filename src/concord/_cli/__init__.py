"""The ``concord`` command line: glue over the public API.

``concord._cli:main`` is the console script's entry point.
"""

from concord._cli.main import main

__all__ = ["main"]
