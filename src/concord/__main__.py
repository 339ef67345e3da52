"""``python -m concord``: the ``concord`` command line, as its console script runs it."""

from concord._cli import main

if __name__ == "__main__":
    main()
