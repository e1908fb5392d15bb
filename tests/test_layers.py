"""Imports go one way: geometry and dice < core < rulesets < ai, sim, rl < cli (DESIGN.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

LAYERS = [
    (
        "dogfight.geometry",
        [
            "dogfight.core",
            "dogfight.rulesets",
            "dogfight.ai",
            "dogfight.sim",
            "dogfight.cli",
            "dogfight.dice",
        ],
    ),
    (
        "dogfight.dice",
        [
            "dogfight.core",
            "dogfight.rulesets",
            "dogfight.ai",
            "dogfight.sim",
            "dogfight.cli",
            "dogfight.geometry",
        ],
    ),
    (
        "dogfight.core",
        ["dogfight.rulesets", "dogfight.ai", "dogfight.sim", "dogfight.cli", "dogfight.rl"],
    ),
    ("dogfight.rulesets", ["dogfight.ai", "dogfight.sim", "dogfight.cli", "dogfight.rl"]),
    ("dogfight.ai", ["dogfight.sim", "dogfight.cli", "dogfight.rl"]),
    ("dogfight.sim", ["dogfight.cli", "dogfight.rl"]),
    # The learning environments (an optional extra) sit beside sim, under the CLI.
    ("dogfight.rl", ["dogfight.cli"]),
]


@pytest.mark.parametrize(("package", "forbidden"), LAYERS)
def test_package_imports_no_higher_layer(package: str, forbidden: list[str]) -> None:
    """Importing a layer (in a fresh interpreter) must not import a layer above it."""
    code = (
        f"import importlib, sys; importlib.import_module({package!r}); "
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    bad = [m for m in out for f in forbidden if m == f or m.startswith(f + ".")]
    assert not bad, f"{package} imports {sorted(set(bad))}"
