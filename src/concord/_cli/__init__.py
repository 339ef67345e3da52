"""The ``concord`` command line: glue over the public API.

``concord._cli:main`` is the console script's entry point. The command line
needs the ``cli`` extra (click, pandas and pyarrow read the files); without
it, ``main`` is a stand-in that says so in one line (exit status 1), since
the commands cannot even be defined.
"""

from __future__ import annotations

try:  # the console script imports this module: a Ctrl-C in any of its imports is one line
    from importlib.util import find_spec

    from concord._common.extras import missing

    #: What every command needs, from the cli extra: checked (not imported) when this loads.
    NEEDED = ("click", "pandas", "pyarrow")
    _ABSENT = next((m for m in NEEDED if find_spec(m) is None), None)

    if _ABSENT is None:
        from concord._cli.main import main
    else:

        def main() -> None:  # type: ignore[misc]  # the stand-in of the click group
            """Say in one line that the command line needs the cli extra."""
            assert _ABSENT is not None
            raise SystemExit(f"Error: {missing(_ABSENT, 'cli', 'the concord command line')}")

except KeyboardInterrupt:  # the line of concord._cli.terminal.interrupted (no click here)
    import sys

    sys.stderr.write("concord: interrupted while starting (Ctrl-C).\n")
    raise SystemExit(130) from None


__all__ = ["main"]
