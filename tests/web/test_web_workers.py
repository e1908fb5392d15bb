"""Issue 16 items 15 and 16: the computer decides in worker processes and plays the
same game as inline; the games in memory are held to a byte budget."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from dogfight.core.game import Game
from dogfight.core.scenario import load_scenario
from dogfight.sim.players import new_player
from dogfight.web.app import create_app
from dogfight.web.bench import bench_web_memory
from dogfight.web.cache import BYTES_PER_LOG_BYTE, view_bytes
from dogfight.web.computer import Ask, decide, decide_in_worker, view_in_worker
from dogfight.web.store import GameRecord
from dogfight.web.views import PACKED_KEYS

from .helpers import JSON_BODY, act, client_for, view

HEURISTICS = [
    ("sfa", "fighter-duel", {"Rebels": "heuristic", "Aliens": "heuristic"}),
    ("acta", "furball", {"Empire": "heuristic", "Klingon": "random"}),
]


def create(client: TestClient, ruleset: str, scenario: str, seats: dict[str, str]) -> str:
    reply = client.post(
        "/api/games",
        json={"ruleset": ruleset, "scenario": scenario, "seats": seats, "seed": 11},
    )
    assert reply.status_code == 201, reply.text
    game: str = reply.json()["game"]
    return game


@pytest.mark.parametrize(("ruleset", "scenario", "seats"), HEURISTICS)
def test_a_game_decided_in_worker_processes_equals_one_decided_inline(
    tmp_path: Path, ruleset: str, scenario: str, seats: dict[str, str]
) -> None:
    """Same scenario, seed and seats: the worker processes' game is the inline one,
    action for action (the worker decides with the same player kind and generator)."""
    app = create_app(tmp_path / "w.sqlite", computer_workers=1, computer_processes=1)
    with TestClient(app, raise_server_exceptions=False, headers=JSON_BODY) as workers:
        made = create(workers, ruleset, scenario, seats)
        app.state.hub.settle(made, timeout=300)
        done = view(workers, made, None)
    inline = client_for(tmp_path / "i.sqlite")
    expected = view(inline, create(inline, ruleset, scenario, seats), None)
    assert done["over"] and expected["over"]
    assert done["version"] == expected["version"]
    assert done["log"] == expected["log"]
    # The views (built in a worker there, here inline) are the same but for the id.
    assert {k: v for k, v in done.items() if k != "game"} == {
        k: v for k, v in expected.items() if k != "game"
    }


def test_a_worker_goes_on_from_its_copy_only_while_it_is_the_games_prefix(
    tmp_path: Path,
) -> None:
    """A worker keeps its copy of a game between decisions; after an undo (fewer
    actions, or others) it replays, and decides as a fresh player on a fresh game."""
    scenario = load_scenario("sfa/fighter-duel")
    seats = {"Rebels": "heuristic", "Aliens": "heuristic"}
    game = Game(scenario, seed=5)
    players = {side: new_player(kind, "sfa") for side, kind in seats.items()}
    positions = []
    for _ in range(12):
        positions.append(tuple(game.actions))
        game.apply(decide(players, game, game.current_player() or ""))

    record = GameRecord(
        id="g1",
        ruleset="sfa",
        scenario=scenario.raw,
        rules={},
        seed=5,
        seats=seats,
        tokens={},
        created="",
        status="running",
    )

    def ask(actions: tuple[Any, ...]) -> Ask:
        return Ask(record=record, actions=actions)

    # Forward, then back (an undo), then forward again: each as the inline game decided.
    for at in [*range(12), 3, 0, 7, 11]:
        assert decide_in_worker(ask(positions[at])) == game.actions[at]
    # A view built there is the one the server builds of the same game.
    with client_for(tmp_path / "g.sqlite") as client:
        made = client.post(
            "/api/games",
            json={"ruleset": "sfa", "scenario": "fighter-duel", "seats": seats, "seed": 5},
        ).json()["game"]
        live = client.app.state.hub.get(made)  # type: ignore[attr-defined]
        shown = view(client, made, None)
    shown.pop("thinking")
    built = view_in_worker(Ask(record=live.record, actions=tuple(live.game.actions)), None, None)
    # Its bulky parts come already encoded (views.packed), as the same JSON.
    assert {k for k, v in built.items() if isinstance(v, msgspec.Raw)} == set(PACKED_KEYS)
    assert msgspec.json.decode(msgspec.json.encode(built)) == shown


def test_games_past_the_byte_budget_are_dropped_and_rebuilt_unchanged(tmp_path: Path) -> None:
    """With a byte budget of about two games, the least recently used games are dropped
    (the store has them) and play goes on in each as if nothing happened."""
    db = tmp_path / "games.sqlite"
    app = create_app(db, computer_workers=None, memory_mb=1000)
    client = TestClient(app, raise_server_exceptions=False, headers=JSON_BODY)
    hub = app.state.hub
    games = []
    for seed in range(4):
        reply = client.post(
            "/api/games",
            json={
                "ruleset": "sfa",
                "scenario": "fighter-duel",
                "seats": {"Rebels": "human", "Aliens": "random"},
                "seed": seed,
            },
        )
        created = reply.json()
        games.append((created["game"], created["seats"]["Rebels"]["token"]))
        view(client, *games[-1])
    # About two and a half games' worth, as they are now (they grow as they play).
    budget = hub.games.memory_bytes = hub.games.held_bytes() * 5 // 8
    most = 0
    for _ in range(3):
        for game, token in games:
            shown = view(client, game, token)
            after = act(client, game, token, 0, shown["version"])
            assert after["version"] > shown["version"]
            # One game may stay over the budget (the one in use), never two.
            assert hub.loaded() == 1 or hub.games.held_bytes() <= budget
            most = max(most, hub.loaded())
    assert 1 < most < len(games)  # some games were held, some dropped
    for game, token in games:
        mine = view(client, game, token)
        assert view(client_for(db), game, token) == mine


def test_a_games_size_grows_with_its_log_and_views(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    made = create(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    live = hub.get(made)
    fresh = live.size()
    token = None
    view(client, made, token)
    seen = live.size()
    assert seen > fresh  # the spectator's view counts
    assert hub.games.held_bytes() == seen


def test_a_view_from_a_worker_counts_its_encoded_parts_once() -> None:
    """A view built in a worker holds its bulky parts as JSON bytes, one byte each;
    a view built here holds them as Python objects, BYTES_PER_LOG_BYTE a byte of JSON."""
    built = view_in_worker(
        Ask(
            record=GameRecord(
                id="g1",
                ruleset="sfa",
                scenario=load_scenario("sfa/fighter-duel").raw,
                rules={},
                seed=5,
                seats={"Rebels": "human", "Aliens": "random"},
                tokens={},
                created="",
                status="running",
            ),
            actions=(),
        ),
        "Rebels",
        None,
    )
    plain = msgspec.json.decode(msgspec.json.encode(built))
    encoded = sum(len(built[k]) for k in PACKED_KEYS)
    rest = len(msgspec.json.encode({k: v for k, v in built.items() if k not in PACKED_KEYS}))
    assert view_bytes(built) == encoded + BYTES_PER_LOG_BYTE * rest
    assert view_bytes(plain) == BYTES_PER_LOG_BYTE * len(msgspec.json.encode(plain))
    assert view_bytes(built) < view_bytes(plain) / 3


def test_a_worker_process_that_died_is_replaced(tmp_path: Path) -> None:
    """A worker killed (out of memory, say) costs no request an error: its pool is
    started afresh and the view built there."""
    app = create_app(tmp_path / "g.sqlite", computer_workers=1, computer_processes=1)
    with TestClient(app, raise_server_exceptions=False, headers=JSON_BODY) as client:
        reply = client.post(
            "/api/games",
            json={
                "ruleset": "sfa",
                "scenario": "fighter-duel",
                "seats": {"Rebels": "human", "Aliens": "random"},
                "seed": 3,
            },
        )
        made, token = reply.json()["game"], reply.json()["seats"]["Rebels"]["token"]
        shown = view(client, made, token)
        pool = app.state.hub._workers[("views", 0)]
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        after = act(client, made, token, 0, shown["version"])  # a new view, built anew
        assert after["version"] > shown["version"]
        assert app.state.hub._workers[("views", 0)] is not pool


def test_live_games_hold_well_under_a_megabyte_each() -> None:
    """1,000 live games must stay under 1 GB: 30 games 40 actions in, their views
    built, hold less than 1 MB each (about 0.2 MB measured), and the server's estimate
    of their size, which its byte budget counts, does not fall far short of it."""
    found = bench_web_memory(30)
    assert found.per_game_kb < 1000
    assert found.estimated_mb >= 0.8 * found.traced_mb


def test_serve_takes_the_memory_budget_and_the_worker_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dogfight.cli.web as cli_web
    from dogfight.cli.main import app as cli

    served: list[Any] = []
    monkeypatch.setattr(cli_web, "run_server", lambda a, h, p: served.append(a))
    db = str(tmp_path / "g.sqlite")
    args = ["serve", "--db", db, "--port", "8125", "--memory-mb", "64"]
    result = CliRunner().invoke(cli, [*args, "--computer-processes", "0"])
    assert result.exit_code == 0, result.output
    hub = served[0].state.hub
    assert hub.games.memory_bytes == 64_000_000 and not hub._processes
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert served[1].state.hub._processes >= 1  # the default: worker processes


def test_review_from_a_worker_refuses_a_bad_step_as_inline(tmp_path: Path) -> None:
    """A refusal raised in a worker (a review step out of range) answers as it would
    inline: 400 naming the field, not a 500."""
    app = create_app(tmp_path / "g.sqlite", computer_workers=1, computer_processes=1)
    seats = {"Rebels": "random", "Aliens": "random"}
    with TestClient(app, raise_server_exceptions=False, headers=JSON_BODY) as client:
        made = create(client, "sfa", "fighter-duel", seats)
        app.state.hub.settle(made, timeout=300)
        done = view(client, made, None)
        assert view(client, made, None, step=3)["version"] == 3  # built in the worker
        reply = client.get(f"/api/games/{made}", params={"step": done["version"] + 5})
    assert reply.status_code == 400 and "field 'step'" in reply.json()["error"]


def test_a_past_step_built_in_a_worker_is_the_one_built_inline(tmp_path: Path) -> None:
    """The board's past positions (`/position`) come from the views' worker as they
    would be built inline, and a step out of range is refused the same way."""
    seats = {"Rebels": "random", "Aliens": "random"}
    app = create_app(tmp_path / "w.sqlite", computer_workers=1, computer_processes=1)
    inline = client_for(tmp_path / "i.sqlite")
    expected_game = create(inline, "sfa", "fighter-duel", seats)
    with TestClient(app, raise_server_exceptions=False, headers=JSON_BODY) as client:
        made = create(client, "sfa", "fighter-duel", seats)
        app.state.hub.settle(made, timeout=300)
        total = view(client, made, None)["version"]
        assert total > 4
        for step in (1, total // 2, total - 1):
            built = client.get(f"/api/games/{made}/position", params={"step": step})
            there = inline.get(f"/api/games/{expected_game}/position", params={"step": step})
            assert built.status_code == there.status_code == 200
            assert {k: v for k, v in built.json().items() if k != "game"} == {
                k: v for k, v in there.json().items() if k != "game"
            }
        reply = client.get(f"/api/games/{made}/position", params={"step": total + 1})
    assert reply.status_code == 400 and "field 'step'" in reply.json()["error"]
