"""The ``concord`` command line: glue over the public API.

``concord._cli:main`` is the console script's entry point. Ctrl-C while its
commands are imported ends the command with one line and exit status 130 (as
a shell reports SIGINT), not with the import's traceback.
"""

try:
    from concord._cli.main import main
except KeyboardInterrupt:
    import sys

    sys.stderr.write("concord: interrupted while starting (Ctrl-C).\n")
    raise SystemExit(130) from None

__all__ = ["main"]
