"""Issue 16 item 14: the game database on stop, when busy and when damaged."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app as cli_app
from dogfight.web.store import Store, StoreError

from .helpers import client_for

GAME = {
    "ruleset": "sfa",
    "scenario": "fighter-duel",
    "seats": {"Rebels": "human", "Aliens": "random"},
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_sigterm_leaves_every_game_in_the_database_file_alone(tmp_path: Path) -> None:
    """The write-ahead log is checkpointed when the server stops: a copy of the main file
    alone (without -wal) holds the games."""
    db = tmp_path / "games.sqlite"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "dogfight", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
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
        made = httpx.post(f"{base}/api/games", json=GAME, timeout=60)
        assert made.status_code == 201, made.text
        game = made.json()["game"]
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "copy" / "games.sqlite"
    alone.parent.mkdir()
    shutil.copy(db, alone)
    rows = sqlite3.connect(alone).execute("SELECT id FROM games").fetchall()
    assert rows == [(game,)]


def test_a_database_held_by_another_process_answers_busy_retry(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    client = client_for(db)
    assert client.post("/api/games", json=GAME).status_code == 201
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        reply = client.post("/api/games", json=GAME)
        assert reply.status_code == 503, reply.text
        assert "busy" in reply.json()["error"] and "retry" in reply.json()["error"]
        assert str(db) in reply.json()["error"]
        # Reads go on: the lobby answers while the writer waits.
        assert client.get("/api/rulesets").status_code == 200
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.post("/api/games", json=GAME).status_code == 201


@pytest.mark.parametrize(
    "content", [b"this is not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4000]
)
def test_a_damaged_database_is_named_in_one_line_at_start(tmp_path: Path, content: bytes) -> None:
    db = tmp_path / "games.sqlite"
    db.write_bytes(content)
    with pytest.raises(StoreError) as raised:
        Store(db)
    message = str(raised.value)
    assert str(db) in message and "\n" not in message
    result = CliRunner().invoke(cli_app, ["serve", "--db", str(db), "--port", str(free_port())])
    assert result.exit_code != 0
    assert "game database" in result.output and "Traceback" not in result.output
