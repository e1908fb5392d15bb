"""Hidden information over the web: each seat receives only its own observation.

Everything the other seat and a spectator can fetch (the view, review steps, the views
of every past step) is collected as raw bytes and searched for the secret: an sfa
selection before the reveal, and a cloaked craft.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml
from fastapi.testclient import TestClient

from dogfight.core.data import package_data
from dogfight.core.events import PRIVATE_TO
from dogfight.core.game import Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.web import views
from dogfight.web.views import board_or_none

from .helpers import client_for, new_game, view


def everything_fetchable(client: TestClient, game: str, token: str | None) -> list[bytes]:
    """Every answer a holder of `token` (None: a spectator) can get about the game."""
    params = {"token": token} if token else {}
    answers = [
        client.get(f"/api/games/{game}", params=params),
        client.get(f"/api/games/{game}", params={**params, "step": 1}),
        client.get(f"/api/games/{game}/file", params=params),
        client.post(f"/api/games/{game}/undo", json=params),
    ]
    assert answers[0].status_code == 200
    assert answers[2].status_code == 403  # the file holds every secret: not while running
    # the board's past positions (the page steps through the computer's actions)
    for step in range(answers[0].json()["version"] + 1):
        answers.append(client.get(f"/api/games/{game}/position", params={**params, "step": step}))
        assert answers[-1].status_code == 200
    return [a.content for a in answers]


def walk(data: Any) -> Any:
    """Every dict in a JSON document."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from walk(value)


def test_sfa_secret_selections_never_reach_the_other_seat_or_a_spectator(
    tmp_path: Path,
) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "human"})
    game = created["game"]
    rebels, aliens = (created["seats"][s]["token"] for s in ("Rebels", "Aliens"))
    secrets: list[dict[str, Any]] = []
    shown = view(client, game, rebels)
    while shown["current"] == "Rebels":
        # The most telling choice: an attack that also gives dice up for Speed.
        chosen = max(
            shown["actions"],
            key=lambda a: (a["action"].get("speed_dice", 0), a["action"].get("kind") == "attack"),
        )
        secrets.append(chosen["action"])
        reply = client.post(
            f"/api/games/{game}/actions",
            json={"token": rebels, "action": chosen["action"], "version": shown["version"]},
        )
        assert reply.status_code == 200, reply.text
        shown = reply.json()
    assert shown["current"] == "Aliens" and shown["phase"] == "select"
    assert any(s["speed_dice"] > 0 for s in secrets)
    live = client.app.state.hub.get(game)  # type: ignore[attr-defined]
    kept = live.game.observation("Rebels")["selections"]
    assert {s["actor"] for s in secrets} == set(kept)  # the secret exists, for Rebels

    for holder in (aliens, None):
        for raw in everything_fetchable(client, game, holder):
            for secret in secrets:
                assert msgspec.json.encode(secret) not in raw
                entry = {k: v for k, v in secret.items() if k not in ("action", "actor")}
                assert msgspec.json.encode(entry) not in raw
            for obj in walk(msgspec.json.decode(raw)):
                assert obj.get("actor") not in {s["actor"] for s in secrets}, obj
                for secret in secrets:
                    value = obj.get(secret["actor"])
                    assert not (isinstance(value, dict) and "kind" in value), obj
    # And the Aliens are offered only their own actors' choices.
    theirs = view(client, game, aliens)
    assert theirs["your_turn"]
    assert {a["action"]["actor"][0] for a in theirs["actions"]} == {"A"}


def stealth_duel() -> str:
    """Tech Melee cut down to a stealth craft against one with no Enhanced Sensors."""
    raw = yaml.safe_load((package_data("sfa", "scenarios") / "tech-melee.yaml").read_text())
    raw["name"] = "stealth-duel"
    raw["sides"][0]["craft"] = [c for c in raw["sides"][0]["craft"] if c["id"] == "W2"]
    raw["sides"][1]["craft"] = [c for c in raw["sides"][1]["craft"] if c["id"] == "C3"]
    return yaml.safe_dump(raw, sort_keys=False)


def preferred(side: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Wardens cloak W2 and fly it; anyone else takes the first action."""
    if side == "Wardens":
        for action in actions:
            data = action["action"]
            if (
                (data["action"] == "select" and data.get("item") == "stealth")
                or (data["action"] == "resolve" and data.get("use"))
                or (data["action"] == "move" and data.get("steps"))
            ):
                return action
    return actions[0]


def test_a_cloaked_craft_never_reaches_the_other_seat_or_a_spectator(tmp_path: Path) -> None:
    client = client_for(tmp_path / "games.sqlite")
    reply = client.post(
        "/api/games",
        json={
            "ruleset": "sfa",
            "scenario_text": stealth_duel(),
            "seats": {"Wardens": "human", "Corsairs": "human"},
            "seed": 4,
        },
    )
    assert reply.status_code == 201, reply.text
    game = reply.json()["game"]
    tokens = {side: seat["token"] for side, seat in reply.json()["seats"].items()}
    live = client.app.state.hub.get(game)  # type: ignore[attr-defined]
    private: list[str] = []
    for _ in range(200):
        private = [e.text for e in live.game.events if e.data.get(PRIVATE_TO) == "Wardens"]
        if live.game.state.craft["W2"].cloaked and private:
            break
        side = live.game.current_player()
        shown = view(client, game, tokens[side])
        choice = preferred(side, shown["actions"])
        client.post(
            f"/api/games/{game}/actions",
            json={"token": tokens[side], "index": choice["index"], "version": shown["version"]},
        ).raise_for_status()
    assert live.game.state.craft["W2"].cloaked and private, "W2 never flew cloaked"
    assert "W2" not in live.game.observation("Corsairs")["craft"]
    # the owner's log names actors in words (W2#0 -> W2 and its design): neither the
    # raw text nor the named one reaches the others
    named = [
        views.named(t, views.actor_names(board_or_none("sfa"), live.game, "Wardens"))
        for t in private
    ]

    for holder in (tokens["Corsairs"], None):
        for raw in everything_fetchable(client, game, holder):
            for text in private + named:
                assert text.encode() not in raw
            for obj in walk(msgspec.json.decode(raw)):
                if "side_index" in obj or "radius" in obj:  # a unit of the scene
                    assert obj.get("id") != "W2", obj
    mine = view(client, game, tokens["Wardens"])
    assert set(named) <= {row["text"] for row in mine["log"]}
    if board_or_none("sfa") is not None:
        assert "W2" in {u["id"] for u in mine["scene"]["units"]}


class ObservationBoard:
    """A stand-in board whose scene lists exactly the craft of `observation(seat)`."""

    def scene(self, game: Any, seat: str | None) -> dict[str, Any]:
        craft = game.observation(seat)["craft"]
        units = [{"id": cid, "side": c["side"], "radius": 0.5} for cid, c in craft.items()]
        return {
            "width": 1,
            "height": 1,
            "origin": [0, 0],
            "unit_name": "hex",
            "shapes": [],
            "units": units,
        }

    def describe(self, game: Any, action: Any) -> dict[str, Any]:
        return {
            "kind": "",
            "group": "other",
            "label": "",
            "unit": None,
            "target": None,
            "dest": None,
            "odds": None,
        }

    def envelopes(self, game: Any) -> dict[str, Any]:
        return {}

    def compose_move(self, game: Any, unit: str, x: float, y: float, facing: float) -> Any:
        raise NotImplementedError


def test_a_spectator_of_a_running_game_sees_only_what_every_side_sees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spectator link needs no token, so anyone may open it: while the game runs it shows
    a cloaked craft only if every side is shown it (the ruleset's observation for None)."""
    monkeypatch.setattr(views, "board_or_none", lambda ruleset: ObservationBoard())
    game = Game(scenario_from_raw(yaml.safe_load(stealth_duel()), "test"), seed=4)
    for _ in range(200):
        if game.state.craft["W2"].cloaked:
            break
        side = game.current_player()
        shown = [
            {"index": i, "action": msgspec.to_builtins(a)}
            for i, a in enumerate(game.legal_actions())
        ]
        game.apply(game.legal_actions()[preferred(str(side), shown)["index"]])
    assert game.state.craft["W2"].cloaked
    assert "W2" not in game.observation(None)["craft"]

    def units(seat: str | None) -> set[str]:
        built = views.build_view(
            game, game_id="g", seat=seat, seats={}, step=None, can_undo=False, unit_sides={}
        )
        return {u["id"] for u in built["scene"]["units"]}

    assert units(None) == {"C3"}
    assert units("Corsairs") == {"C3"}
    assert units("Wardens") == {"W2", "C3"}
