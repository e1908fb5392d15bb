"""Issue 16 item 16: the view long-polled (`?after=N&wait=S`), answered when the game
moves past N (an action, the computer's move, another server's move) or at the end
of the wait with the view unchanged."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from dogfight.web.bench import held_seconds
from dogfight.web.longpoll import MAX_WAIT_S

from .helpers import act, client_for, new_game, view
from .test_web_background import AGAINST, Gate, create
from .test_web_database import GAME, free_port

PEOPLE = {"Rebels": "human", "Aliens": "human"}


def people_game(client: Any) -> tuple[str, dict[str, str]]:
    made = new_game(client, "sfa", "fighter-duel", PEOPLE, seed=11)
    return made["game"], {side: made["seats"][side]["token"] for side in PEOPLE}


def mover_and_other(client: Any, game: str, tokens: dict[str, str]) -> tuple[str, str]:
    """The token of the seat to move now, and the other seat's."""
    first, second = tokens.values()
    return (first, second) if view(client, game, first)["your_turn"] else (second, first)


def long_poll(client: Any, game: str, token: str, after: int, wait: float) -> Any:
    reply = client.get(f"/api/games/{game}", params={"token": token, "after": after, "wait": wait})
    assert reply.status_code == 200, reply.text
    return reply


def wait_for_waiter(client: Any, game: str, poll: Future[Any]) -> None:
    """Until the long-poll is held on the server (or has answered already)."""
    changes = client.app.state.changes
    deadline = time.monotonic() + 30
    while changes.waiting(game) == 0 and not poll.done():
        assert time.monotonic() < deadline, "the long-poll was never held"
        time.sleep(0.01)


def gated_game(client: Any, gate: Any, seed: int = 3) -> tuple[str, str, Any, Any]:
    """A new game of the Rebels (a person) against the computer, its player wrapped in
    `gate`: the game, the Rebels' token, their first view, and the gate."""
    hub = client.app.state.hub
    made = create(client, AGAINST, seed=seed)
    game, token = made["game"], made["seats"]["Rebels"]["token"]
    hub.settle(game)
    shown = view(client, game, token)
    live = hub.get(game)
    live.players["Aliens"] = gated = gate(live.players["Aliens"])
    return game, token, shown, gated


def test_a_game_moved_past_after_answers_at_once(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    game, tokens = people_game(client)
    mover, other = mover_and_other(client, game, tokens)
    before = view(client, game, other)["version"]
    act(client, game, mover, 0, before)
    reply = long_poll(client, game, other, before, MAX_WAIT_S)
    assert reply.json()["version"] == before + 1
    assert held_seconds(reply.headers) == 0.0  # never held: it had moved already


def test_an_unmoved_game_answers_the_unchanged_view_when_the_wait_ends(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    game, tokens = people_game(client)
    _, other = mover_and_other(client, game, tokens)
    shown = view(client, game, other)
    reply = long_poll(client, game, other, shown["version"], 0.3)
    assert reply.json()["version"] == shown["version"]
    assert reply.json()["your_turn"] == shown["your_turn"]
    assert held_seconds(reply.headers) >= 0.3  # held the whole wait: nothing moved


def test_another_persons_action_wakes_the_held_request(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    game, tokens = people_game(client)
    mover, other = mover_and_other(client, game, tokens)
    before = view(client, game, other)["version"]
    with ThreadPoolExecutor(1) as pool:
        poll = pool.submit(long_poll, client, game, other, before, MAX_WAIT_S)
        wait_for_waiter(client, game, poll)
        assert not poll.done()
        act(client, game, mover, 0, before)
        reply = poll.result(30)
    assert reply.json()["version"] == before + 1
    assert held_seconds(reply.headers) < MAX_WAIT_S  # woken, not timed out
    assert client.app.state.changes.waiting(game) == 0  # nothing left registered


def test_the_computers_move_wakes_the_held_request(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite", background=True)
    hub = client.app.state.hub
    game, token, shown, gate = gated_game(client, Gate)
    told: list[str] = []
    tell = hub.on_change

    def spy(game_id: str) -> None:
        told.append(threading.current_thread().name)
        tell(game_id)

    hub.on_change = spy
    while shown["your_turn"]:
        shown = act(client, game, token, 0, shown["version"])
    assert gate.asked.wait(30)
    told.clear()
    with ThreadPoolExecutor(1) as pool:
        poll = pool.submit(long_poll, client, game, token, shown["version"], MAX_WAIT_S)
        wait_for_waiter(client, game, poll)
        assert not poll.done()  # the computer has not decided yet
        gate.release.set()
        reply = poll.result(30)
    assert reply.json()["version"] > shown["version"]
    assert told and all(name.startswith("dogfight-computer") for name in told)


def test_a_move_made_by_another_server_on_the_database_is_seen(tmp_path: Path) -> None:
    """Two server processes on one database: this one is told nothing, and finds the
    other's action when it looks at the store again."""
    here = client_for(tmp_path / "g.sqlite")
    there = client_for(tmp_path / "g.sqlite")
    game, tokens = people_game(here)
    mover, other = mover_and_other(here, game, tokens)
    before = view(here, game, other)["version"]
    with ThreadPoolExecutor(1) as pool:
        poll = pool.submit(long_poll, here, game, other, before, MAX_WAIT_S)
        wait_for_waiter(here, game, poll)
        act(there, game, mover, 0, before)
        reply = poll.result(30)
    assert reply.json()["version"] == before + 1
    # The state-changing path still checks the store: a stale copy is refused.
    stale = here.post(
        f"/api/games/{game}/actions", json={"token": mover, "index": 0, "version": before}
    )
    assert stale.status_code == 409, stale.text


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ({"after": 0}, "'after' needs 'wait'"),
        ({"wait": 5}, "'wait' needs 'after'"),
        ({"after": 0, "wait": 0}, "parameter 'wait'"),
        ({"after": 0, "wait": -1}, "parameter 'wait'"),
        ({"after": 0, "wait": MAX_WAIT_S + 1}, "parameter 'wait'"),
        ({"after": 0, "wait": "nan"}, "parameter 'wait'"),
        ({"after": 0, "wait": "inf"}, "parameter 'wait'"),
        ({"after": 0, "wait": "soon"}, "wait"),
        ({"after": -1, "wait": 5}, "parameter 'after'"),
        ({"after": "one", "wait": 5}, "after"),
        ({"after": 0, "wait": 5, "step": 0}, "'wait' and 'step'"),
    ],
)
def test_bad_long_poll_parameters_are_refused(
    tmp_path: Path, query: dict[str, Any], named: str
) -> None:
    client = client_for(tmp_path / "g.sqlite")
    game, tokens = people_game(client)
    reply = client.get(f"/api/games/{game}", params={"token": tokens["Rebels"], **query})
    assert reply.status_code == 400, reply.text
    assert named in reply.json()["error"]


def test_a_long_poll_of_an_unknown_game_is_404(tmp_path: Path) -> None:
    client = client_for(tmp_path / "g.sqlite")
    reply = client.get("/api/games/nosuchgame", params={"after": 0, "wait": 1})
    assert reply.status_code == 404, reply.text
    assert client.app.state.changes.waiting("nosuchgame") == 0


def test_a_held_long_poll_does_not_keep_a_stopping_server_waiting(tmp_path: Path) -> None:
    """SIGTERM with a page's long-poll held: the server cuts it after `SHUTDOWN_S`
    (not the poll's whole minute) and still checkpoints its database on the way out."""
    db = tmp_path / "games.sqlite"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "dogfight", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/api/rulesets", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        made = httpx.post(f"{base}/api/games", json={**GAME, "seats": PEOPLE}, timeout=60)
        assert made.status_code == 201, made.text
        game = made.json()["game"]
        with ThreadPoolExecutor(1) as pool:
            poll = pool.submit(
                httpx.get,
                f"{base}/api/games/{game}",
                params={"after": 0, "wait": MAX_WAIT_S},
                timeout=2 * MAX_WAIT_S,
            )
            time.sleep(1)  # the poll is held by now (nothing moves in this game)
            assert not poll.done()
            stopped = time.monotonic()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=2 * MAX_WAIT_S)
            took = time.monotonic() - stopped
            with contextlib.suppress(httpx.HTTPError):
                poll.result(30)
    finally:
        if server.poll() is None:
            server.kill()
    assert took < MAX_WAIT_S / 2, f"the server took {took:.0f} s to stop"
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


class SecondGate:
    """A computer player that decides its first move at once and waits for the test
    before each one after: a turn of several moves, held in its middle."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.decided = 0
        self.holding = threading.Event()
        self.release = threading.Event()

    def decide(self, seat: Any, legal: list[Any], rng: Any) -> Any:
        self.decided += 1
        if self.decided > 1:
            self.holding.set()
            assert self.release.wait(30), "the test never released the computer"
        return self.inner.decide(seat, legal, rng)


def test_a_long_poll_is_answered_at_once_by_a_fresh_view_while_the_computer_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the computer plays a turn, the view noted last (the person's reply, at the
    version the page has) answers plain polls for PROGRESS_S; a long-poll on that
    version is answered as soon as the computer's first move is committed, with a
    view of it, not held until the noted view ages (here it never would: 60 s)."""
    import dogfight.web.longpoll as longpoll
    import dogfight.web.sessions as sessions

    monkeypatch.setattr(sessions, "PROGRESS_S", 60.0)
    monkeypatch.setattr(longpoll, "PROGRESS_S", 60.0)
    client = client_for(tmp_path / "g.sqlite", background=True)
    hub = client.app.state.hub
    for seed in range(3, 40):
        game, token, shown, gate = gated_game(client, SecondGate, seed)
        while shown["your_turn"]:
            shown = act(client, game, token, 0, shown["version"])
        if gate.holding.wait(5):
            break  # the computer moved once and holds its second move
        gate.release.set()
    else:
        pytest.fail("no game gave the computer two moves in a row")
    try:
        assert hub.thinking(game)
        # A plain poll still gets the noted view: the person's reply, not yet moved on.
        assert view(client, game, token)["version"] == shown["version"]
        reply = long_poll(client, game, token, shown["version"], 5.0)
        assert reply.json()["version"] == shown["version"] + 1
        assert reply.json()["thinking"] and not gate.release.is_set()
    finally:
        gate.release.set()
