"""Shared steps for the web server tests: a fresh app on a temporary database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from dogfight.core.data import package_data
from dogfight.web.app import create_app

JSON_BODY = {"content-type": "application/json"}
"""What a client that is not a browser sends with a body (the server refuses others)."""


def client_for(
    db: Path, *, people_choose_seeds: bool = True, background: bool = False
) -> TestClient:
    """A test client of a new app over the database file `db`; it sends every body as
    JSON, as the page does (tests of other content types say so per request). Games
    between people take the tests' seeds unless `people_choose_seeds` is False (as on
    a real server). The computer answers within the request unless `background`."""
    app = create_app(
        db,
        people_choose_seeds=people_choose_seeds,
        computer_workers=2 if background else None,
        computer_processes=None,  # tests stand in for the players of live games
    )
    return TestClient(app, raise_server_exceptions=False, headers=JSON_BODY)


def new_game(
    client: TestClient,
    ruleset: str,
    scenario: str,
    seats: dict[str, str],
    *,
    seed: int = 7,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Create a game through the API; fails the test unless it is created."""
    reply = client.post(
        "/api/games",
        json={
            "ruleset": ruleset,
            "scenario": scenario,
            "seats": seats,
            "seed": seed,
            "options": options or {},
        },
    )
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def view(client: TestClient, game: str, token: str | None = None, **params: Any) -> dict[str, Any]:
    """The view of a game for a token (None: the spectator)."""
    query = {k: v for k, v in {"token": token, **params}.items() if v is not None}
    reply = client.get(f"/api/games/{game}", params=query)
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def act(client: TestClient, game: str, token: str, index: int, version: int) -> dict[str, Any]:
    """Take the action at `index` of the seat's view; fails the test unless accepted."""
    reply = client.post(
        f"/api/games/{game}/actions", json={"token": token, "index": index, "version": version}
    )
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


def small_scenario(builtin: str, **changes: Any) -> str:
    """A built-in scenario's YAML with some top-level fields changed (e.g. fewer turns)."""
    ruleset, _, bare = builtin.partition("/")
    raw = yaml.safe_load((package_data(ruleset, "scenarios") / f"{bare}.yaml").read_text())
    raw.update(changes)
    return yaml.safe_dump(raw, sort_keys=False)
