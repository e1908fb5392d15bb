"""Load test on loopback: 50 games against the computer at once, over real HTTP.

A real uvicorn server runs in a thread; 50 client threads each create a game (a
person against the computer), play it to the end choosing actions by their own seeded
generator, and record what they sent. Then every game must be over, and the database
must hold, for each game, exactly the actions its own client sent (at the positions
it sent them) with the computer's in between, replaying to the very game the server
finished (the game file's event-log digest). The server holds only a few games in
memory, so games are dropped and rebuilt from the store while others play on.
"""

from __future__ import annotations

import random
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import uvicorn

from dogfight.core.game import Game
from dogfight.core.gamefile import log_digest, parse_gamefile
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import scenario_from_raw
from dogfight.web.app import create_app

from .helpers import small_scenario

GAMES = 50
SCENARIOS = [
    ("acta", "furball", "Empire", "Klingon"),
    ("evo", "skirmish", "Earth Alliance", "Narn Regime"),
    ("sfa", "street-brawl", "Dojo", "Gang"),
]
"""Short games (two turns) of each ruleset: many requests, little time."""
MAX_LIVE = 8
"""Games the server keeps in memory: far fewer than are played at once."""


def bound_socket() -> socket.socket:
    """A loopback socket on a free port, kept bound until the server takes it over: a
    port only probed and let go could be taken meanwhile by another test process
    (pytest-xdist) or by one of its clients' outgoing connections."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("load") / "games.sqlite"
    sock = bound_socket()
    port: int = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(db, max_live=MAX_LIVE, people_choose_seeds=True),
        host="127.0.0.1",
        port=port,
        log_level="warning",
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", db
    running.should_exit = True
    thread.join(timeout=30)
    sock.close()


class Played(msgspec.Struct, kw_only=True):
    """What one client did: its game, its side, and the actions it sent, by position."""

    game: str
    side: str
    sent: dict[int, Any]
    final: dict[str, Any]


def wait_for_turn(client: httpx.Client, game: str, token: str) -> dict[str, Any]:
    """The seat's view once the computer has answered (it thinks outside the request,
    so a client polls, as the page does)."""
    deadline = time.monotonic() + 120
    while True:
        shown: dict[str, Any] = client.get(f"/api/games/{game}", params={"token": token}).json()
        if shown["over"] or shown["your_turn"]:
            return shown
        assert shown["thinking"], shown
        assert time.monotonic() < deadline, "the computer did not answer"
        time.sleep(0.02)


def play_one(base: str, number: int) -> Played:
    ruleset, scenario, human, computer = SCENARIOS[number % len(SCENARIOS)]
    rng = random.Random(number)
    with httpx.Client(base_url=base, timeout=120) as client:
        reply = client.post(
            "/api/games",
            json={
                "ruleset": ruleset,
                "scenario_text": small_scenario(f"{ruleset}/{scenario}", turn_limit=2),
                "seats": {human: "human", computer: "random"},
                "seed": number,
            },
        )
        assert reply.status_code == 201, reply.text
        game, token = reply.json()["game"], reply.json()["seats"][human]["token"]
        shown = wait_for_turn(client, game, token)
        sent: dict[int, Any] = {}
        while not shown["over"]:
            assert shown["your_turn"] and shown["seat"] == human, shown
            choice = shown["actions"][rng.randrange(len(shown["actions"]))]
            sent[shown["version"]] = choice["action"]
            reply = client.post(
                f"/api/games/{game}/actions",
                json={"token": token, "index": choice["index"], "version": shown["version"]},
            )
            assert reply.status_code == 200, reply.text
            assert reply.json()["game"] == game
            shown = wait_for_turn(client, game, token)
        return Played(game=game, side=human, sent=sent, final=shown)


def stored(db: Path, game: str) -> tuple[dict[str, Any], list[Any]]:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT scenario, rules, seed FROM games WHERE id = ?", (game,))
        scenario, rules, seed = row.fetchone()
        actions = conn.execute(
            "SELECT action FROM actions WHERE game = ? ORDER BY seq", (game,)
        ).fetchall()
    header = {"scenario": msgspec.json.decode(scenario), "rules": msgspec.json.decode(rules)}
    return {**header, "seed": seed}, [msgspec.json.decode(a[0]) for a in actions]


def test_fifty_concurrent_games_against_the_computer(server: tuple[str, Path]) -> None:
    base, db = server
    with ThreadPoolExecutor(max_workers=GAMES) as pool:
        played = list(pool.map(lambda n: play_one(base, n), range(GAMES)))
    assert len({p.game for p in played}) == GAMES
    with httpx.Client(base_url=base, timeout=60) as client:
        for p in played:
            assert p.final["over"] and p.final["outcome"]["reason"]
            header, actions = stored(db, p.game)
            assert len(actions) == p.final["version"]
            # The client's own actions, where it sent them; none of another game's.
            for position, action in p.sent.items():
                assert actions[position] == action
            # Replaying the stored actions: the human side took exactly the sent ones,
            # and the game ends as the server's did.
            ruleset = find_ruleset(header["scenario"]["ruleset"])
            game = Game(
                scenario_from_raw(header["scenario"], p.game),
                seed=header["seed"],
                rules=header["rules"],
            )
            for position, raw in enumerate(actions):
                assert (game.current_player() == p.side) == (position in p.sent)
                game.apply(msgspec.convert(raw, ruleset.action_type))
            assert game.is_over()
            file = parse_gamefile(client.get(f"/api/games/{p.game}/file").content, p.game)
            assert file.log_digest == log_digest(game.events)
            assert file.actions == actions


def test_racing_requests_on_one_game_apply_once(server: tuple[str, Path]) -> None:
    base, db = server
    with httpx.Client(base_url=base, timeout=60) as client:
        created = client.post(
            "/api/games",
            json={
                "ruleset": "sfa",
                "scenario": "fighter-duel",
                "seats": {"Rebels": "human", "Aliens": "human"},
                "seed": 1,
            },
        ).json()
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    barrier = threading.Barrier(8)

    def send(_: int) -> int:
        with httpx.Client(base_url=base, timeout=60) as client:
            barrier.wait()
            reply = client.post(
                f"/api/games/{game}/actions", json={"token": token, "index": 0, "version": 0}
            )
            return reply.status_code

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(send, range(8)))
    assert statuses == [200] + [409] * 7
    assert len(stored(db, game)[1]) == 1
