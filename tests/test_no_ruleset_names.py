"""The generic layers name no built-in ruleset (DESIGN.md 'Layers'): they ask the ruleset
through its hooks, so a plugin or a subclass under a new name works everywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dogfight.core.registry import all_rulesets

SRC = Path(__file__).resolve().parents[1] / "src" / "dogfight"
GENERIC = ["__init__.py", "core", "ai", "sim", "dice", "geometry"]
"""Checked here; cli/ and web/ join once their own clean-up lands (issue 12)."""
PENDING = {"sim/odds.py"}
"""Still being moved into the rulesets' own odds.py (issue 12)."""


def _files() -> list[Path]:
    found: list[Path] = []
    for entry in GENERIC:
        path = SRC / entry
        found.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return [f for f in found if f.relative_to(SRC).as_posix() not in PENDING]


def _names() -> list[str]:
    # The built-in rulesets are the ones this package's data folder holds.
    data = SRC / "data"
    return [r.name for r in all_rulesets() if r.data_folder().parent == data]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_generic_module_names_a_built_in_ruleset(path: Path) -> None:
    names = _names()
    assert len(names) >= 3
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    hits = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not hits, "\n".join(hits)
