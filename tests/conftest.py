"""Settings every test shares, whether pytest runs serially or under pytest-xdist."""

from __future__ import annotations

import os

import pytest


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
