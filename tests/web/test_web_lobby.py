"""Issue 16 item 6: the server reads an uploaded scenario for the lobby (the page no
longer guesses at YAML), and the lobby lists each ruleset's computer players."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dogfight.ai import player_kinds
from dogfight.core.data import package_data

from .helpers import client_for

DUEL = package_data("sfa/scenarios/fighter-duel.yaml").read_text()
CRAFT_R = "{id: R1, type: rebel-fighter, at: [3, 4], facing: 2}"
CRAFT_A = "{id: A1, type: alien-disk-fighter, at: [12, 4], facing: 5}"
HEAD = "name: spelled\nruleset: sfa\nmap: {width: 16, height: 12}\n"

# Ordinary YAML spellings of the same two sides that a line-by-line reader misreads.
SPELLINGS = {
    "block": DUEL,
    "single quotes": DUEL.replace("name: Rebels", "name: 'Rebels'"),
    "double quotes with an escape": DUEL.replace("name: Aliens", 'name: "Ali\\u0065ns"'),
    "flow list": HEAD
    + f"sides: [{{name: Rebels, craft: [{CRAFT_R}]}}, {{name: Aliens, craft: [{CRAFT_A}]}}]\n",
    "name after craft": HEAD
    + f"sides:\n- craft: [{CRAFT_R}]\n  name: Rebels\n- craft: [{CRAFT_A}]\n  name: Aliens\n",
    "comment after the name": DUEL.replace("name: Rebels", "name: Rebels  # the good guys"),
    "anchor": DUEL.replace("name: Rebels", "name: &good Rebels"),
    "indented list": HEAD
    + f"sides:\n    -   name: Rebels\n        craft: [{CRAFT_R}]\n    -   name: Aliens\n"
    f"        craft: [{CRAFT_A}]\n",
}


@pytest.mark.parametrize("spelling", list(SPELLINGS))
def test_the_server_reads_the_sides_of_any_spelling(tmp_path: Path, spelling: str) -> None:
    text = SPELLINGS[spelling]
    expected = [str(side["name"]) for side in yaml.safe_load(text)["sides"]]
    reply = client_for(tmp_path / "g.sqlite").post(
        "/api/scenarios/read", json={"ruleset": "sfa", "scenario_text": text}
    )
    assert reply.status_code == 200, reply.text
    assert reply.json()["sides"] == expected == ["Rebels", "Aliens"]


def test_a_bad_upload_is_named_before_any_game_is_made(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    reply = client.post(
        "/api/scenarios/read",
        json={"ruleset": "sfa", "scenario_text": DUEL.replace("rebel-fighter", "x-wing")},
    )
    assert reply.status_code == 422
    assert "x-wing" in reply.json()["error"]
    assert client.app.state.hub.loaded() == 0  # type: ignore[attr-defined]


def test_the_lobby_lists_each_rulesets_computer_players(tmp_path: Path) -> None:
    rows = client_for(tmp_path / "g.sqlite").get("/api/rulesets").json()
    for row in rows:
        assert row["players"] == list(player_kinds(row["name"]))
        assert {"random", "heuristic"} <= set(row["players"])
