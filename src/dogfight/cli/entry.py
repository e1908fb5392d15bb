"""The `dogfight` console script and `python -m dogfight`: the command line, with a
Ctrl-C at any moment (even while the commands are still being imported) ending it
with one line and exit code 130, never a traceback."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line."""
    try:
        from dogfight.cli.main import main as run

        run()
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        sys.exit(130)
