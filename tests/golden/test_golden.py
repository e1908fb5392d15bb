"""Golden replays: recorded battles are played again and their logs diffed.

A change to the rules that alters any of these games shows up here as a diff of the
battle log. If the change is intended, regenerate the files with

    DOGFIGHT_REGOLD=1 .venv/bin/pytest tests/golden

and read the diff in review.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from dogfight.ai import RandomPlayer
from dogfight.core import Event, Game, builtin_scenario_files, load_scenario, play

HERE = Path(__file__).parent
SEED = 1


def transcript(events: list[Event]) -> str:
    """One line per event: clause, text and dice."""
    lines = []
    for e in events:
        dice = f" ({e.dice_text()})" if e.rolls else ""
        lines.append(f"T{e.data.get('turn', 0)} [{e.clause}] {e.text}{dice}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", builtin_scenario_files(), ids=lambda p: p.stem)
def test_golden_replay(path: Path) -> None:
    scenario = load_scenario(str(path))
    game = Game(scenario, seed=SEED)
    play(game, {side: RandomPlayer() for side in game.sides()}, random.Random(SEED))
    got = transcript(game.events)
    golden = HERE / scenario.ruleset / f"{path.stem}.log"
    if os.environ.get("DOGFIGHT_REGOLD"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), f"no golden log {golden}; run with DOGFIGHT_REGOLD=1"
    assert got == golden.read_text(encoding="utf-8")
