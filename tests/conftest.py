"""Settings every test shares, whether pytest runs serially or under pytest-xdist."""

from __future__ import annotations

import os

import pytest

# Each command module registers its commands on the one typer app when it is imported,
# and `dogfight --help` lists them in that order. Imported here first, the command line
# has the order users get in every run; otherwise a test module that imports one command
# module alone (tests/web/test_web_cli.py imports dogfight.cli.web), loaded first, put
# its commands at the top and the recorded help (tests/cli/fixtures/help.json) differed.
import dogfight.cli.main  # noqa: F401


def pytest_configure(config: pytest.Config) -> None:
    """Let no test see the terminal size of whoever started pytest.

    The command line sizes its tables from COLUMNS (and rich reads LINES): with them
    unset, output to a pipe is 120 wide, which is what the tests expect. pytest-xdist's
    workers start with COLUMNS=80 and LINES=24 in their environment, inherited from the
    controlling process's C-level environment, so without this the same test printed
    80-wide tables (and cut unit names) under `-n 2` only. Tests that need a width set
    it themselves (CliRunner env, subprocess env).
    """
    del config
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, start the tests marked `slow` first.

    The workers share out the tests in collection order and steal from each other when
    idle, but a test cannot be split: one of a minute or more begun last keeps one core
    busy while the others have nothing left. Begun first, the short tests fill in around
    it. Each worker collects the same list and sorts it alike (a stable sort), as xdist
    requires; a serial run keeps the file order.
    """
    del config
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
