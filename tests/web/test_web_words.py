"""Issue 16 items 5 and 7: words for people in the view, and the end-of-game summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from dogfight.core.registry import find_ruleset
from dogfight.sim.runner import result_of

from .helpers import act, client_for, new_game, view


@pytest.mark.parametrize(
    ("ruleset", "phase", "words"),
    [
        ("acta", "fighter_move", "Fighter movement"),
        ("evo", "react", "Reaction"),
        ("sfa", "select", "Secret selection"),
    ],
)
def test_phases_have_names_for_people(ruleset: str, phase: str, words: str) -> None:
    rules = find_ruleset(ruleset)
    assert rules.phase_name(phase) == words
    assert rules.phase_name("some_new_phase") == "Some new phase"
    assert rules.phase_name(None) == ""


def test_the_view_words_the_turn_and_phase(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    made = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    shown = view(client, made["game"], made["seats"]["Rebels"]["token"])
    assert shown["turn_limit"] == 10
    assert shown["phase_name"] == find_ruleset("sfa").phase_name(shown["phase"])
    assert shown["summary"] is None


def test_the_end_summary_is_the_labs_result(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    made = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"}, seed=9)
    game, token = made["game"], made["seats"]["Rebels"]["token"]
    shown = view(client, game, token)
    while not shown["over"]:
        shown = act(client, game, token, 0, shown["version"])
    summary = shown["summary"]
    live = client.app.state.hub.get(game).game  # type: ignore[attr-defined]
    result = result_of(live)
    assert summary["turns"] == result.turns
    for row in summary["sides"]:
        assert row["survivors"] == result.survivors[row["side"]]
        assert row["kills"] == sum(u.kills for u in result.units if u.side == row["side"])
        assert row["score"] == live.outcome().scores.get(row["side"])
