"""Shared by every test: the command line is imported first, in the order users get.

Each command module registers its commands on the one typer app when it is imported,
and `dogfight --help` lists them in that order. A test module that imports one
command module directly (tests/web/test_web_cli.py imports dogfight.cli.web) would
otherwise register its commands first when it is the first to load, and the recorded
help (tests/cli/fixtures/help.json) would differ for the rest of that run.
"""

import dogfight.cli.main  # noqa: F401
