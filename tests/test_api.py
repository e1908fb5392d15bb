"""`import dogfight` offers the documented API, and its docstring example runs."""

from __future__ import annotations

import doctest
import subprocess
import sys

import dogfight


def test_the_package_docstring_example_runs() -> None:
    failures, tried = doctest.testmod(dogfight, raise_on_error=False, report=True)
    assert tried >= 5 and failures == 0


def test_every_exported_name_resolves() -> None:
    for name in dogfight.__all__:
        assert getattr(dogfight, name) is not None, name
    from dogfight.core.game import Game, new_game
    from dogfight.core.seat import Seat

    assert dogfight.Game is Game and dogfight.Seat is Seat and dogfight.new_game is new_game


def test_new_game_takes_a_scenario_its_name_or_its_file() -> None:
    from dogfight.core.scenario import builtin_scenario_files

    path = builtin_scenario_files()[0]
    by_path = dogfight.new_game(str(path), seed=2)
    by_name = dogfight.new_game(f"{path.parent.parent.name}/{path.stem}", seed=2)
    given = dogfight.new_game(dogfight.load_scenario(str(path)), seed=2)
    assert by_path.events == by_name.events == given.events


def test_importing_the_package_loads_no_layer() -> None:
    """The names are imported on first use: `import dogfight` alone imports no layer."""
    code = (
        "import sys, dogfight; print(sorted(m for m in sys.modules if m.startswith('dogfight.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
