"""Views of past steps (`GET /api/games/{game}/position?step=N`), with which the page
steps the board through the computer's actions: each is the view the seat was shown
live at that step (hidden information included: tests/web/test_web_hidden.py fetches
every step), a step not taken is refused, and an undo drops the views it took back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from .helpers import act, client_for, new_game, view

SHOWN_ALIKE = ("scene", "log", "turn", "phase", "current", "sides", "seats", "over", "version")
"""What a past step's view shows as the live view did then (it offers no actions)."""


def position(client: TestClient, game: str, token: str | None, step: Any) -> Any:
    params = {"step": step} if token is None else {"step": step, "token": token}
    return client.get(f"/api/games/{game}/position", params=params)


def test_a_past_step_is_the_view_each_seat_was_shown_then(tmp_path: Path) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "human"})
    game = created["game"]
    tokens = {side: seat["token"] for side, seat in created["seats"].items()}
    holders: dict[str, str | None] = {**tokens, "spectator": None}
    shown: dict[tuple[str, int], dict[str, Any]] = {}
    for _ in range(14):
        for name, token in holders.items():
            live = view(client, game, token)
            shown[(name, live["version"])] = live
        current = live["current"]
        mover = view(client, game, tokens[current])
        moves = [a for a in mover["actions"] if a["group"] == "move"]
        chosen = moves[len(moves) // 2] if moves else mover["actions"][0]
        act(client, game, tokens[current], chosen["index"], live["version"])
    versions = sorted({k for _, k in shown})
    assert len(versions) == 14
    for (name, step), live in shown.items():
        reply = position(client, game, holders[name], step)
        assert reply.status_code == 200, reply.text
        then = reply.json()
        assert {k: then[k] for k in SHOWN_ALIKE} == {k: live[k] for k in SHOWN_ALIKE}, (name, step)
        assert then["step"] == step and then["seat"] == live["seat"]
        assert then["actions"] == [] and not then["your_turn"] and not then["can_undo"]
    # the units moved over these steps: the views differ from step to step
    scenes = [shown[("Empire", k)]["scene"]["units"] for k in versions]
    assert len({repr(s) for s in scenes}) > len(versions) // 2


def test_a_step_not_taken_or_not_a_whole_number_is_refused(tmp_path: Path) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"})
    game, token = created["game"], created["seats"]["Empire"]["token"]
    now = view(client, game, token)["version"]
    assert position(client, game, token, now).status_code == 200
    for step, status, words in [
        (-1, 400, f"-1 is not between 0 and {now}"),
        (now + 1, 400, f"{now + 1} is not between 0 and {now}"),
        ("two", 400, "step"),
        ("1.5", 400, "step"),
        ("", 400, "step"),
    ]:
        reply = position(client, game, token, step)
        assert reply.status_code == status, (step, reply.text)
        assert words in reply.json()["error"]
    missing = client.get(f"/api/games/{game}/position", params={"token": token})
    assert missing.status_code == 400 and "step" in missing.json()["error"]
    other = position(client, game, "not-a-token", 0)
    assert other.status_code == 403 and "token" in other.json()["error"]
    assert position(client, "nosuchgame", token, 0).status_code == 404


def moves_of(shown: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in shown["actions"] if a["group"] == "move"]


def test_an_undo_drops_the_views_of_the_steps_it_took_back(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"})
    game, token = created["game"], created["seats"]["Empire"]["token"]
    shown = previous = view(client, game, token)
    for _ in range(10):
        if shown["can_undo"] and len(moves_of(previous)) > 1:
            break
        previous = shown
        chosen = (moves_of(shown) or shown["actions"])[0]
        shown = act(client, game, token, chosen["index"], shown["version"])
    assert shown["can_undo"], "no move could be undone"
    kept = previous["version"]
    after = kept + 1
    first = position(client, game, token, after)
    assert first.status_code == 200
    undone = client.post(f"/api/games/{game}/undo", json={"token": token}).json()
    assert undone["version"] == kept
    assert position(client, game, token, after).status_code == 400  # not taken now
    other = moves_of(previous)[1]
    act(client, game, token, other["index"], kept)
    second = position(client, game, token, after)
    assert second.status_code == 200
    assert second.json()["scene"]["units"] != first.json()["scene"]["units"]
    # the same as a server that never saw the move taken back builds it
    fresh = position(client_for(db), game, token, after)
    assert fresh.json()["scene"] == second.json()["scene"]
    assert fresh.json()["log"] == second.json()["log"]
