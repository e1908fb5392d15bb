"""Persistence, undo and review of web games: a restart loses nothing that was
answered, a failing action stores nothing, undo restores the earlier view exactly."""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from dogfight.core.game import Game
from dogfight.core.gamefile import log_digest
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import scenario_from_raw
from dogfight.web.app import create_app
from dogfight.web.store import GameRecord, StaleCopy, Store

from .helpers import JSON_BODY, act, client_for, new_game, view


def stored(db: Path, game: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game,))
        return [r[0] for r in rows]


def test_store_round_trip_and_numbering_clash(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    record = GameRecord(
        id="g1",
        ruleset="sfa",
        scenario={"name": "x"},
        rules={"a": 1},
        seed=5,
        seats={"A": "human"},
        tokens={"A": "hash"},
        created="2026-01-01T00:00:00+00:00",
        status="running",
    )
    store.create(record, [{"action": "pass"}])
    store.append("g1", 1, [{"action": "move", "craft": "C1"}], "over", "d2")
    # A second writer numbering from an old position fails, and adds nothing; so does
    # one that is ahead of the store (it missed an undo).
    with pytest.raises(StaleCopy, match="holds 2 actions, this copy 1"):
        store.append("g1", 1, [{"action": "pass"}, {"action": "pass"}], "running", "d3")
    with pytest.raises(StaleCopy, match="holds 2 actions, this copy 3"):
        store.append("g1", 3, [{"action": "pass"}], "running", "d3")
    with pytest.raises(StaleCopy):
        store.truncate("g1", 3, 1, "running", "d1")
    found = store.load("g1")
    assert found is not None
    loaded, actions = found
    assert loaded == GameRecord(**{**_fields(record), "status": "over", "digest": "d2"})
    assert actions == [{"action": "pass"}, {"action": "move", "craft": "C1"}]
    store.truncate("g1", 2, 1, "running", "d1")
    assert Store(tmp_path / "s.sqlite").load("g1") == (
        GameRecord(**{**_fields(record), "status": "running", "digest": "d1"}),
        [{"action": "pass"}],
    )
    assert store.load("nope") is None


def replayed_digest(db: Path, game: str) -> str:
    """The event-log digest of a stored game's actions, replayed by the engine."""
    found = Store(db).load(game)
    assert found is not None
    record, actions = found
    ruleset = find_ruleset(record.ruleset)
    replay = Game(scenario_from_raw(record.scenario, game), seed=record.seed, rules=record.rules)
    for raw in actions:
        replay.apply(msgspec.convert(raw, ruleset.action_type))
    return log_digest(replay.events)


def _fields(record: GameRecord) -> dict[str, Any]:
    return {f: getattr(record, f) for f in record.__struct_fields__}


def test_a_restarted_server_shows_every_game_exactly_as_before(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "heuristic"})
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    for _ in range(6):
        shown = view(client, game, token)
        act(client, game, token, len(shown["actions"]) - 1, shown["version"])
    finished = new_game(client, "acta", "furball", {"Empire": "random", "Klingon": "random"})
    before = {
        "seat": view(client, game, token),
        "spectator": view(client, game),
        "finished": view(client, finished["game"]),
        "review": view(client, finished["game"], step=5),
        "file": client.get(f"/api/games/{game}/file", params={"token": token}).content,
    }
    assert before["seat"]["version"] > 6  # the computer's actions are stored too
    client.close()
    restarted = client_for(db)
    assert view(restarted, game, token) == before["seat"]
    assert view(restarted, game) == before["spectator"]
    assert view(restarted, finished["game"]) == before["finished"]
    assert view(restarted, finished["game"], step=5) == before["review"]
    file = restarted.get(f"/api/games/{game}/file", params={"token": token}).content
    assert file == before["file"]
    # And play goes on from where it was.
    shown = view(restarted, game, token)
    assert act(restarted, game, token, 0, shown["version"])["version"] > shown["version"]


def test_an_action_that_fails_while_applied_is_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(client, "sfa", "fighter-duel", dict.fromkeys(("Rebels", "Aliens"), "human"))
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    act(client, game, token, 0, 0)
    before, rows = view(client, game, token), stored(db, game)
    ruleset = type(find_ruleset("sfa"))

    def crash(self: Any, state: Any, action: Any, log: Any) -> None:
        state.turn = 99  # half-done work that must not leak into the live game
        raise RuntimeError("the rules crashed")

    with monkeypatch.context() as patch:
        patch.setattr(ruleset, "apply", crash)
        reply = client.post(f"/api/games/{game}/actions", json={"token": token, "index": 0})
    assert reply.status_code == 500
    assert reply.json() == {
        "error": "internal error (RuntimeError); the server's log has the details"
    }
    assert "the rules crashed" in caplog.text  # the details go to the log, not the player
    assert stored(db, game) == rows
    assert view(client, game, token) == before
    assert view(client_for(db), game, token) == before
    assert act(client, game, token, 0, before["version"])["version"] == before["version"] + 1


def test_undo_takes_back_a_dice_free_decision_in_the_same_phase(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    start = view(client, game, token)
    assert not start["can_undo"]
    reply = client.post(f"/api/games/{game}/undo", json={"token": token})
    assert reply.status_code == 409 and "nothing to undo" in reply.json()["error"]
    after = act(client, game, token, 1, 0)  # R1#0's secret selection
    assert after["can_undo"] and after["your_turn"]
    undone = client.post(f"/api/games/{game}/undo", json={"token": token})
    assert undone.status_code == 200, undone.text
    assert undone.json() == start
    assert stored(db, game) == []
    assert view(client_for(db), game, token) == start


def test_undo_is_refused_once_dice_were_rolled_or_the_phase_moved_on(tmp_path: Path) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    shown = view(client, game, token)
    while shown["phase"] == "select" and not shown["over"]:
        shown = act(client, game, token, 0, shown["version"])
    if shown["over"]:
        pytest.skip("the game ended in its first selection")
    assert not shown["can_undo"]
    reply = client.post(f"/api/games/{game}/undo", json={"token": token})
    assert reply.status_code == 409
    assert view(client, game, token) == shown


def test_a_computer_only_game_is_played_out_at_creation(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(
        client, "evo", "skirmish", {"Earth Alliance": "random", "Narn Regime": "random"}
    )
    shown = view(client, created["game"])
    assert shown["over"] and shown["outcome"]["reason"]
    assert len(stored(db, created["game"])) == shown["version"] > 0
    with sqlite3.connect(db) as conn:
        status = conn.execute("SELECT status FROM games").fetchone()[0]
    assert status == "over"


def test_a_server_stopped_before_the_computer_answered_answers_on_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    shown = view(client, game, token)
    last = -1
    while shown["version"] <= last + 1 and not shown["over"]:
        last = shown["version"]  # the position of the Rebels' latest action
        shown = act(client, game, token, 0, shown["version"])
    answered = view(client, game, token)
    assert answered["version"] > last + 1  # the computer answered
    client.close()
    # As if the server had died after committing the Rebels' action: the computer's
    # answer was never stored.
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM actions WHERE game = ? AND seq > ?", (game, last))
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET digest = ? WHERE id = ?", (replayed_digest(db, game), game))
    assert len(stored(db, game)) == last + 1
    restarted = view(client_for(db), game, token)
    assert restarted == answered
    assert len(stored(db, game)) == answered["version"]


def test_a_stored_game_that_no_longer_replays_the_same_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    created = new_game(client, "acta", "furball", {"Empire": "random", "Klingon": "random"})
    client.close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET digest = ? WHERE id = ?", ("0" * 64, created["game"]))
    reply = client_for(db).get(f"/api/games/{created['game']}")
    assert reply.status_code == 422
    assert "no longer replay to the same game" in reply.json()["error"]


def test_games_past_the_memory_cap_are_dropped_and_rebuilt_unchanged(tmp_path: Path) -> None:
    """A long-running server keeps only `max_live` games in memory (the least recently
    used go; the store has all of them): play goes on in each as if nothing happened."""
    db = tmp_path / "games.sqlite"
    app = create_app(db, max_live=2, computer_workers=None)
    client = TestClient(app, raise_server_exceptions=False, headers=JSON_BODY)
    hub = app.state.hub
    games = []
    for seed in range(4):
        created = new_game(
            client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"}, seed=seed
        )
        games.append((created["game"], created["seats"]["Rebels"]["token"]))
        assert hub.loaded() <= 2
    for _ in range(3):
        for game, token in games:
            shown = view(client, game, token)
            after = act(client, game, token, 0, shown["version"])
            assert after["version"] > shown["version"]
            assert hub.loaded() <= 2
    for game, token in games:
        mine = view(client, game, token)
        assert len(stored(db, game)) == mine["version"]
        assert view(client_for(db), game, token) == mine


def test_rebuilding_one_game_holds_up_no_other_and_happens_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long replay (a game back from the store) must not stall the server's other
    games, and two requests for it at once replay it once."""
    db = tmp_path / "games.sqlite"
    app = create_app(db, max_live=1, computer_workers=None)
    client = TestClient(app, raise_server_exceptions=False, headers=JSON_BODY)
    hub = app.state.hub
    seats = {"Rebels": "human", "Aliens": "random"}
    first = new_game(client, "sfa", "fighter-duel", seats, seed=1)
    second = new_game(client, "sfa", "fighter-duel", seats, seed=2)  # drops the first
    assert hub.loaded() == 1
    release, started = threading.Event(), threading.Event()
    rebuilds: list[str] = []
    real = hub._rebuild

    def slow(game_id: str) -> Any:
        rebuilds.append(game_id)
        started.set()
        assert release.wait(30)
        return real(game_id)

    monkeypatch.setattr(hub, "_rebuild", slow)
    with ThreadPoolExecutor(max_workers=2) as pool:
        waiting = [pool.submit(hub.view, first["game"], None) for _ in range(2)]
        assert started.wait(30)
        # The second game answers while the first is being rebuilt.
        done = ThreadPoolExecutor(max_workers=1).submit(hub.view, second["game"], None)
        assert done.result(timeout=30)["game"] == second["game"]
        release.set()
        views = [w.result(timeout=30) for w in waiting]
    assert views[0] == views[1] and views[0]["game"] == first["game"]
    assert rebuilds == [first["game"]]


def test_two_servers_on_one_database_take_turns_without_clashing(tmp_path: Path) -> None:
    """Two server processes sharing a store (here two apps): each copy that falls behind
    is rebuilt from the store, never answered with an error, and the stored game
    replays to the digest either server shows."""
    db = tmp_path / "games.sqlite"
    first = client_for(db)
    created = new_game(first, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    game, token = created["game"], created["seats"]["Rebels"]["token"]
    second = client_for(db)
    seen = view(second, game, token)  # the second server loads the game
    for turn in range(6):
        # Alternate servers: each acts on a copy the other has moved past.
        client = first if turn % 2 == 0 else second
        shown = view(client, game, token)
        assert shown["version"] >= seen["version"]
        if shown["over"] or not shown["your_turn"]:
            break
        seen = act(client, game, token, 0, shown["version"])
    assert stored(db, game) and replayed_digest(db, game) == Store(db).load(game)[0].digest  # type: ignore[index]


def test_a_game_the_computer_decides_in_stays_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the computer decides in a game on its thread, other games coming into
    memory do not drop it: dropped, its decision would be thrown away and made again
    (with many games in play, again and again: the computer never answered)."""
    db = tmp_path / "games.sqlite"
    app = create_app(db, max_live=1, computer_workers=1)
    client = TestClient(app, raise_server_exceptions=False, headers=JSON_BODY)
    hub = app.state.hub
    deciding, release = threading.Event(), threading.Event()
    real = hub._decision
    decided: list[str] = []

    def slow(live: Any, game: Any, side: str) -> Any:
        decided.append(live.record.id)
        deciding.set()
        assert release.wait(30)
        return real(live, game, side)

    monkeypatch.setattr(hub, "_decision", slow)
    # The Rebels' computer decides first in the fighter duel.
    first = new_game(client, "sfa", "fighter-duel", {"Rebels": "random", "Aliens": "human"})
    assert deciding.wait(30)
    monkeypatch.setattr(hub, "_decision", real)
    second = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    assert hub.games.holds(first["game"], hub.games.find(first["game"]))
    assert hub.loaded() == 2  # over the cap of 1: the pinned game stayed
    release.set()
    hub.settle(first["game"])
    assert decided.count(first["game"]) == 1  # decided once, not thrown away
    assert view(client, first["game"], first["seats"]["Aliens"]["token"])["version"] > 0
    assert view(client, second["game"], second["seats"]["Rebels"]["token"])["version"] == 0
    hub.close()
