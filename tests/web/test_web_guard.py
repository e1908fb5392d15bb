"""Issue 16 items 10, 11 and 13: cross-site requests, host names, security headers,
the seed of a game between people, and `dogfight play`'s port check."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from dogfight.cli.main import app as cli_app
from dogfight.core.errors import DogfightError
from dogfight.web.app import create_app
from dogfight.web.guard import allowed_hosts, refusal

from .helpers import JSON_BODY, act, client_for, view

BODY = (
    b'{"ruleset": "sfa", "scenario": "fighter-duel",'
    b' "seats": {"Rebels": "human", "Aliens": "random"}}'
)
PEOPLE = {"Rebels": "human", "Aliens": "human"}


def local_client(tmp_path: Path) -> TestClient:
    """A client of an app answering only to this machine's names, as `serve` makes it."""
    app = create_app(tmp_path / "g.sqlite", hosts=allowed_hosts("127.0.0.1"))
    return TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_a_body_that_is_not_json_creates_nothing(tmp_path: Path, content_type: str | None) -> None:
    """Another site's page may send forms and text/plain without the browser asking:
    those are refused (415) before any game is made."""
    client = local_client(tmp_path)
    headers = {"content-type": content_type} if content_type else {}
    reply = client.post("/api/games", content=BODY, headers=headers)
    assert reply.status_code == 415, reply.text
    assert "Content-Type: application/json" in reply.json()["error"]
    assert client.app.state.hub.loaded() == 0  # type: ignore[attr-defined]


def test_another_sites_origin_is_refused_and_our_own_or_none_is_taken(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    for origin in ("https://evil.example", "null", "http://127.0.0.1:9999"):
        reply = client.post("/api/games", content=BODY, headers={**JSON_BODY, "origin": origin})
        assert reply.status_code == 403, (origin, reply.text)
        assert "another site" in reply.json()["error"]
    reply = client.post(
        "/api/games", content=BODY, headers={**JSON_BODY, "sec-fetch-site": "cross-site"}
    )
    assert reply.status_code == 403
    same = client.post(
        "/api/games", content=BODY, headers={**JSON_BODY, "origin": "http://127.0.0.1:8000"}
    )
    assert same.status_code == 201, same.text
    bare = client.post("/api/games", content=BODY, headers=JSON_BODY)  # a script, not a page
    assert bare.status_code == 201, bare.text


def test_unexpected_host_names_are_refused(tmp_path: Path) -> None:
    """DNS rebinding: a name made to point at this machine does not open its games."""
    client = local_client(tmp_path)
    reply = client.get("/api/rulesets", headers={"host": "evil.example:8000"})
    assert reply.status_code == 421
    assert "--allow-host" in reply.json()["error"]
    assert client.get("/api/rulesets", headers={"host": "localhost:8000"}).status_code == 200
    assert client.get("/api/rulesets", headers={"host": "[::1]:8000"}).status_code == 200
    assert "game.example" in allowed_hosts("127.0.0.1", ["game.example:443"])


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    client = local_client(tmp_path)
    for path in ("/", "/api/rulesets", "/no/such/page"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
    refused = client.post("/api/games", content=BODY)
    assert refused.headers["referrer-policy"] == "no-referrer"


def test_refusal_reads_only_headers() -> None:
    """GETs pass the cross-site checks (they change nothing); a wrong host is refused
    for every method."""
    hosts = allowed_hosts("127.0.0.1")
    assert refusal("GET", {"host": "127.0.0.1:8000"}, hosts) is None
    assert refusal("GET", {"host": "evil.example"}, hosts) is not None
    assert refusal("POST", {"host": "x", "content-type": "text/plain"}, None) == (
        415,
        "send the request body as JSON (Content-Type: application/json, not text/plain)",
    )
    json_utf8 = {"host": "x", "content-type": "application/json; charset=utf-8"}
    assert refusal("POST", json_utf8, None) is None


def test_no_seat_chooses_the_seed_of_a_game_between_people(tmp_path: Path) -> None:
    """Issue 16 item 13: whoever knows the seed predicts every roll."""
    client = client_for(tmp_path / "g.sqlite", people_choose_seeds=False)
    body = {"ruleset": "sfa", "scenario": "fighter-duel", "seats": PEOPLE}
    refused = client.post("/api/games", json={**body, "seed": 7})
    assert refused.status_code == 400
    assert "field 'seed'" in refused.json()["error"]
    seeds = set()
    for _ in range(3):
        created = client.post("/api/games", json=body)
        assert created.status_code == 201, created.text
        game, token = created.json()["game"], created.json()["seats"]["Rebels"]["token"]
        assert view(client, game, token)["seed"] is None  # not while dice remain
        seeds.add(client.app.state.hub.get(game).record.seed)  # type: ignore[attr-defined]
    assert len(seeds) == 3
    assert all(0 <= s < 2**63 for s in seeds)
    # Against the computer a seat may still fix the seed (a replayable practice game).
    against = client.post(
        "/api/games", json={**body, "seats": {"Rebels": "human", "Aliens": "random"}, "seed": 7}
    )
    assert against.status_code == 201


def test_the_seed_is_shown_once_the_game_is_over(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    created = client.post(
        "/api/games",
        json={
            "ruleset": "sfa",
            "scenario": "fighter-duel",
            "seed": 11,
            "seats": {"Rebels": "human", "Aliens": "random"},
        },
    ).json()
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    shown = view(client, game, token)
    while not shown["over"]:
        assert shown["seed"] is None
        shown = act(client, game, token, 0, shown["version"])
    assert shown["seed"] == 11


def test_play_refuses_a_port_in_use_before_printing_a_link(tmp_path: Path) -> None:
    """Issue 16 item 10: the link would answer from the other server."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(
            cli_app,
            [
                "play",
                "fighter-duel",
                "--no-browser",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "g.sqlite"),
            ],
        )
    assert result.exit_code != 0
    assert "http://" not in result.output
    assert f"--port {port}" in result.output and "another server" in result.output


def test_check_port_free_takes_a_free_port() -> None:
    from dogfight.cli.web import check_port_free

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    check_port_free("127.0.0.1", port)  # free again: no error
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", port))
        busy.listen()
        with pytest.raises(DogfightError, match="another server"):
            check_port_free("127.0.0.1", port)
