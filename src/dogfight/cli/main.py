"""The `dogfight` command line: a thin adapter over core, ai, sim and the rulesets.

No rules live here. Every `DogfightError`, bad parameter or unreadable file ends
the command with one line on stderr (`error: ...`) and a non-zero exit code.

The typer `app` and what the commands share live in `cli/common.py`; each command
module registers its commands on `app` when imported, at the end of this file.
"""

from __future__ import annotations

from dogfight.cli.common import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the `dogfight` console script."""
    app()


# Commands kept in their own modules register themselves on `app` when imported.
# Typer lists commands in `dogfight --help` in the order they were registered, so
# these imports stay in help order (not sorted).
# isort: off
from dogfight.cli import catalog  # noqa: E402, F401  (rulesets, units, show, scenarios, options)
from dogfight.cli import battle  # noqa: E402, F401  (battle, replay)
from dogfight.cli import simulate  # noqa: E402, F401  (simulate)
from dogfight.cli import files  # noqa: E402, F401  (validate; import, design groups)
from dogfight.cli import bench  # noqa: E402, F401  (bench)
from dogfight.cli import odds  # noqa: E402, F401  (odds group)
from dogfight.cli import tactics  # noqa: E402, F401  (tactics group)
from dogfight.cli import lab  # noqa: E402, F401  (duel, balance, compare)
from dogfight.cli import ladder  # noqa: E402, F401  (ladder)
from dogfight.cli import report  # noqa: E402, F401  (report)
from dogfight.cli import web  # noqa: E402, F401  (serve, play)
