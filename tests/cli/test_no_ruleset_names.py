"""The CLI names no built-in ruleset (issue 12): every ruleset's own commands come from
its `commands()` hook, built by cli/ruleset_commands.py."""

from __future__ import annotations

import re
from pathlib import Path

import dogfight.cli

BUILT_IN = re.compile(r"\b(acta|evo|sfa|trinity)\b", re.IGNORECASE)


def test_no_cli_module_names_a_built_in_ruleset() -> None:
    """Not in code, help text or docstrings: a grep over src/dogfight/cli finds none."""
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(Path(dogfight.cli.__file__).parent.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BUILT_IN.search(line)
    ]
    assert not found, "\n".join(found)
