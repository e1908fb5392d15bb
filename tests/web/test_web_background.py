"""Issue 16 item 12: the computer plays outside the request, and uploads are capped."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import yaml

from dogfight.core.data import package_data
from dogfight.web.uploads import MAX_UPLOAD_UNITS

from .helpers import act, client_for, view

COMPUTERS = {"Rebels": "random", "Aliens": "heuristic"}
AGAINST = {"Rebels": "human", "Aliens": "random"}


def create(client: Any, seats: dict[str, str], seed: int = 3) -> dict[str, Any]:
    reply = client.post(
        "/api/games",
        json={"ruleset": "sfa", "scenario": "fighter-duel", "seats": seats, "seed": seed},
    )
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def test_an_all_computer_game_answers_at_once_and_plays_the_same_game(tmp_path: Path) -> None:
    """Made in the background it is the same game, action for action, as made inside
    the request: the computer's generator is keyed by the position, not the thread."""
    background = client_for(tmp_path / "b.sqlite", background=True)
    inline = client_for(tmp_path / "i.sqlite")
    made = create(background, COMPUTERS)
    hub = background.app.state.hub  # type: ignore[attr-defined]
    hub.settle(made["game"])
    done = view(background, made["game"], None)
    assert done["over"] and not done["thinking"]
    other = create(inline, COMPUTERS)
    expected = view(inline, other["game"], None)
    assert expected["over"]
    assert done["version"] == expected["version"]
    assert done["log"] == expected["log"]


class Gate:
    """A computer player that waits for the test before deciding: a long turn."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.release = threading.Event()
        self.asked = threading.Event()

    def decide(self, seat: Any, legal: list[Any], rng: Any) -> Any:
        self.asked.set()
        assert self.release.wait(30), "the test never released the computer"
        return self.inner.decide(seat, legal, rng)


def test_views_answer_while_the_computer_thinks(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite", background=True)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    made = create(client, AGAINST)
    game, token = made["game"], made["seats"]["Rebels"]["token"]
    hub.settle(game)
    shown = view(client, game, token)
    assert shown["your_turn"]
    live = hub.get(game)
    gate = Gate(live.players["Aliens"])
    live.players["Aliens"] = gate
    # Act until the computer must answer; the reply comes before it has decided.
    while True:
        after = act(client, game, token, 0, shown["version"])
        if not after["your_turn"]:
            break
        shown = after
    assert gate.asked.wait(30)
    assert after["thinking"] and not after["over"]
    waiting = view(client, game, token)  # the game's lock is free while it thinks
    assert waiting["thinking"] and waiting["version"] == after["version"]
    gate.release.set()
    hub.settle(game)
    moved = view(client, game, token)
    assert moved["version"] > after["version"]
    assert not moved["thinking"]


def test_a_decision_on_a_position_undone_meanwhile_is_dropped(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite", background=True)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    made = create(client, AGAINST, seed=5)
    game, token = made["game"], made["seats"]["Rebels"]["token"]
    hub.settle(game)
    live = hub.get(game)
    gate = Gate(live.players["Aliens"])
    live.players["Aliens"] = gate
    shown = view(client, game, token)
    start = shown["version"]
    while True:
        after = act(client, game, token, 0, shown["version"])
        if not after["your_turn"]:
            break
        shown = after
    assert gate.asked.wait(30)
    undone = client.post(f"/api/games/{game}/undo", json={"token": token})
    assert undone.status_code == 200, undone.text
    kept = undone.json()["version"]
    assert start <= kept < after["version"]  # the Speed selections roll no dice
    assert undone.json()["your_turn"]
    gate.release.set()
    hub.settle(game)
    back = view(client, game, token)
    assert back["your_turn"] and back["version"] == kept  # the stale answer was dropped


def test_an_upload_with_too_many_units_is_refused(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    raw = yaml.safe_load(package_data("sfa/scenarios/fighter-duel.yaml").read_text())
    side = raw["sides"][0]
    template = side["craft"][0]
    raw["map"] = {"width": 40, "height": 40}
    side["craft"] = [
        {**template, "id": f"X{i}", "at": [i % 20, 20 + i // 20]}
        for i in range(MAX_UPLOAD_UNITS + 1)
    ]
    reply = client.post(
        "/api/games",
        json={"ruleset": "sfa", "scenario_text": yaml.safe_dump(raw), "seats": AGAINST},
    )
    assert reply.status_code == 422, reply.text
    assert f"at most {MAX_UPLOAD_UNITS}" in reply.json()["error"]
