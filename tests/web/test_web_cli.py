"""`dogfight serve` and `dogfight play`, with the server start replaced (nothing blocks)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from typer.testing import CliRunner

import dogfight.cli.web as cli_web
from dogfight.cli.main import app

from .helpers import client_for, view

runner = CliRunner()


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, str, int]]:
    calls: list[tuple[Any, str, int]] = []
    monkeypatch.setattr(cli_web, "run_server", lambda a, h, p: calls.append((a, h, p)))
    monkeypatch.setattr(cli_web.webbrowser, "open", lambda url: calls.append((None, url, 0)))
    return calls


def test_play_creates_the_game_prints_its_links_then_serves(
    tmp_path: Path, served: list[tuple[Any, str, int]]
) -> None:
    db = tmp_path / "games.sqlite"
    result = runner.invoke(
        app,
        ["play", "fighter-duel", "--as", "aliens", "--ai", "random", "--seed", "5",
         "--port", "8123", "--db", str(db), "--no-browser", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["side"] == "Aliens"
    link = urlparse(printed["link"])
    assert (link.hostname, link.port) == ("127.0.0.1", 8123)
    assert link.path == f"/game/{printed['game']}"
    assert printed["spectator"] == f"http://127.0.0.1:8123/game/{printed['game']}"
    assert len(served) == 1 and served[0][1:] == ("127.0.0.1", 8123)
    # The game is in the database: the link's token opens the Aliens' seat.
    token = parse_qs(link.query)["token"][0]
    shown = view(client_for(db), printed["game"], token)
    assert shown["seat"] == "Aliens"
    assert shown["seats"] == {"Rebels": "random", "Aliens": "human"}
    assert shown["your_turn"] and shown["version"] > 0  # the Rebels' computer chose first


def test_play_opens_the_browser_unless_told_not_to(
    tmp_path: Path, served: list[tuple[Any, str, int]]
) -> None:
    result = runner.invoke(app, ["play", "furball", "--db", str(tmp_path / "g.sqlite")])
    assert result.exit_code == 0, result.output
    assert "Your link:" in result.stdout and "Spectator link:" in result.stdout
    opened = [url for a, url, _ in served if a is None]
    assert len(opened) == 1 and opened[0] in result.stdout


def test_serve_prints_where_it_listens(tmp_path: Path, served: list[tuple[Any, str, int]]) -> None:
    db = tmp_path / "g.sqlite"
    result = runner.invoke(app, ["serve", "--port", "8124", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8124/" in result.stdout
    assert served[0][1:] == ("127.0.0.1", 8124) and db.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "fighter-duel", "--as", "Klingons"], ["--as", "Klingons", "Rebels"]),
        (["play", "fighter-duel", "--ai", "genius"], ["--ai", "genius"]),
        (["play", "fighter-duel", "--rule", "warp=1"], ["warp"]),
        (["play", "no-such-scenario"], ["no-such-scenario"]),
        (["play", "fighter-duel", "--port", "0"], ["--port"]),
        (["play", "fighter-duel", "--seed", str(2**64)], ["--seed"]),
        (["serve", "--db", "/no/such/folder/g.sqlite"], ["/no/such/folder"]),
    ],
)
def test_bad_arguments_end_with_one_clear_line(
    tmp_path: Path, served: list[tuple[Any, str, int]], args: list[str], words: list[str]
) -> None:
    if "--db" not in args:
        args = [*args, "--db", str(tmp_path / "g.sqlite"), "--no-browser"]
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0]
    assert served == []
