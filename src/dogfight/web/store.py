"""SQLite persistence of web games: one row per game, one row per action taken.

A game is never stored as a snapshot: it is its scenario, options, seed and the
actions taken, and is rebuilt by replaying them (the engine is deterministic). Each
write is committed (WAL, `synchronous=FULL`) before the server replies, so a crash or
restart loses no action that a player was told about. Writes made at the same moment
by different threads share one transaction (a group commit, see `Store._transaction`):
a commit waits for the disk, and one wait for many games' writes is what lets many
games be played at once.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.errors import DogfightError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    ruleset  TEXT NOT NULL,
    scenario TEXT NOT NULL,      -- the resolved scenario, as JSON
    rules    TEXT NOT NULL,      -- the rule options chosen in the lobby, as JSON
    seed     INTEGER NOT NULL,
    seats    TEXT NOT NULL,      -- side -> 'human' | 'heuristic' | 'random', as JSON
    tokens   TEXT NOT NULL,      -- side -> SHA-256 of the seat's secret token, as JSON
    created  TEXT NOT NULL,      -- UTC, ISO 8601
    status   TEXT NOT NULL,      -- 'running' | 'over'
    digest   TEXT NOT NULL       -- hash of the event log after the stored actions
);
CREATE TABLE IF NOT EXISTS actions (
    game   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,     -- 0, 1, 2... in the order applied
    action TEXT NOT NULL,        -- the action as JSON (msgspec.to_builtins)
    PRIMARY KEY (game, seq)
);
"""


BUSY_TIMEOUT = 2.0
"""Seconds a request waits for a database another process holds, before it is told to
retry (503): never the 30 s a browser gives up after."""


class StoreError(DogfightError):
    """The game database cannot be opened or written."""


class StoreBusy(StoreError):
    """The game database is locked by another process for longer than `BUSY_TIMEOUT`."""


class StaleCopy(StoreError):
    """A writer's copy of a game is behind the store: another writer (a second server
    process on the same database) committed or undid actions since it was loaded."""


@contextmanager
def _named(path: Path) -> Iterator[None]:
    """Turn SQLite's errors into one line naming the database: busy (retry) or damaged."""
    try:
        yield
    except sqlite3.IntegrityError:
        raise  # a clash of action numbers: the caller's concern, not damage
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if "locked" in text or "busy" in text:
            raise StoreBusy(
                f"{path}: the game database is busy (another process holds it); retry"
            ) from None
        raise StoreError(f"{path}: the game database cannot be used ({text})") from None
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: the game database is damaged ({exc})") from None


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A stored game's header (its actions are kept apart)."""

    id: str
    ruleset: str
    scenario: dict[str, Any]
    rules: dict[str, Any]
    seed: int
    seats: dict[str, str]
    tokens: dict[str, str]
    created: str
    status: str
    digest: str = ""
    """The event-log digest (`dogfight.core.gamefile.log_digest`) after the stored
    actions: a rebuild that does not reproduce it is refused, never played on."""


class Store:
    """The game database. Safe to share between threads: each thread has its own
    connection, and SQLite serialises the writers."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._local = threading.local()
        # This server's own writers take turns here, so that SQLite's short busy wait
        # is spent only on another process holding the file.
        self._writing = threading.Lock()
        self._queued: list[_Write] = []
        """Writes waiting for the next group commit (guarded by `_queue_lock`)."""
        self._queue_lock = threading.Lock()
        try:
            db = self._connection()
            # A damaged file is named now, in one line, not at some player's first move.
            problems = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise StoreError(
                    f"{self.path}: the game database is damaged ({'; '.join(problems[:3])})"
                )
            # executescript commits by itself; the schema is idempotent.
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path}: cannot open the game database ({exc})") from None

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed transaction survives a power cut, not only a crash.
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    def _transaction(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """Run `work` in a write transaction and commit it (or raise what it raised).

        A group commit: the write is queued; whichever writer next holds `_writing`
        runs every queued write in one transaction, each in its own savepoint (a
        write that raises is rolled back alone and its error handed to its caller),
        and commits them together. A commit waits for the disk (`synchronous=FULL`),
        so while one commit waits the writes of other games gather for the next."""
        mine = _Write(work)
        with self._queue_lock:
            self._queued.append(mine)
        with self._writing:
            if not mine.done:
                with self._queue_lock:
                    batch, self._queued = self._queued, []
                self._commit(batch)
        if mine.error is not None:
            raise mine.error

    def _commit(self, batch: list[_Write]) -> None:
        """The writes of `batch` in one transaction (the caller holds `_writing`)."""
        try:
            with _named(self.path):
                db = self._connection()
                db.execute("BEGIN IMMEDIATE")
                try:
                    for write in batch:
                        db.execute("SAVEPOINT one_write")
                        try:
                            write.work(db)
                        except Exception as exc:
                            if isinstance(exc, sqlite3.Error) and not isinstance(
                                exc, sqlite3.IntegrityError
                            ):
                                raise  # the database failed, not this write: all fail
                            db.execute("ROLLBACK TO one_write")
                            write.error = exc
                        db.execute("RELEASE one_write")
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
        except Exception as exc:
            # Nothing of the batch was committed: every writer in it is told so.
            for write in batch:
                write.error = exc
        finally:
            for write in batch:
                write.done = True

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file and empty it, so that the
        file alone holds every game (the server does this when it stops)."""
        with _named(self.path):
            self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def create(self, record: GameRecord, actions: Sequence[Any] = ()) -> None:
        """Store a new game (and any actions it starts with, e.g. an opened game file)."""
        enc = msgspec.json.encode

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO games (id, ruleset, scenario, rules, seed, seats, tokens, created,"
                " status, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.ruleset,
                    enc(record.scenario).decode(),
                    enc(record.rules).decode(),
                    record.seed,
                    enc(record.seats).decode(),
                    enc(record.tokens).decode(),
                    record.created,
                    record.status,
                    record.digest,
                ),
            )
            _insert_actions(db, record.id, 0, actions)

        self._transaction(work)

    def append(
        self, game: str, start: int, actions: Sequence[Any], status: str, digest: str
    ) -> None:
        """Add actions numbered from `start`, set status and digest, in one transaction.

        The store must hold exactly `start` actions of the game: if another writer got
        there first (or undid some), StaleCopy is raised and nothing changes, so two
        writers can never interleave a game's actions."""

        def work(db: sqlite3.Connection) -> None:
            _check_held(db, game, start)
            _insert_actions(db, game, start, actions)
            db.execute(
                "UPDATE games SET status = ?, digest = ? WHERE id = ?", (status, digest, game)
            )

        self._transaction(work)

    def truncate(self, game: str, held: int, keep: int, status: str, digest: str) -> None:
        """Delete every action from number `keep` on (an undo), in one transaction; the
        store must hold exactly `held` actions of the game, else StaleCopy."""

        def work(db: sqlite3.Connection) -> None:
            _check_held(db, game, held)
            db.execute("DELETE FROM actions WHERE game = ? AND seq >= ?", (game, keep))
            db.execute(
                "UPDATE games SET status = ?, digest = ? WHERE id = ?", (status, digest, game)
            )

        self._transaction(work)

    def held(self, game: str) -> int:
        """How many actions of the game the store holds (a copy in memory with fewer
        or more is stale: another server process changed the game)."""
        with _named(self.path):
            (count,) = (
                self._connection()
                .execute("SELECT COUNT(*) FROM actions WHERE game = ?", (game,))
                .fetchone()
            )
            return int(count)

    def load(self, game: str) -> tuple[GameRecord, list[Any]] | None:
        """A game's header and its actions (as plain data, in order), or None."""
        with _named(self.path):
            return self._load(game)

    def _load(self, game: str) -> tuple[GameRecord, list[Any]] | None:
        db = self._connection()
        row = db.execute(
            "SELECT id, ruleset, scenario, rules, seed, seats, tokens, created, status, digest"
            " FROM games WHERE id = ?",
            (game,),
        ).fetchone()
        if row is None:
            return None
        dec = msgspec.json.decode
        record = GameRecord(
            id=row[0],
            ruleset=row[1],
            scenario=dec(row[2]),
            rules=dec(row[3]),
            seed=row[4],
            seats=dec(row[5]),
            tokens=dec(row[6]),
            created=row[7],
            status=row[8],
            digest=row[9],
        )
        rows = db.execute(
            "SELECT action FROM actions WHERE game = ? ORDER BY seq", (game,)
        ).fetchall()
        return record, [dec(r[0]) for r in rows]

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


class _Write:
    """One writer's work waiting for a group commit, and how it went."""

    __slots__ = ("done", "error", "work")

    def __init__(self, work: Callable[[sqlite3.Connection], None]) -> None:
        self.work = work
        self.done = False
        self.error: Exception | None = None


def _check_held(db: sqlite3.Connection, game: str, expected: int) -> None:
    (held,) = db.execute("SELECT COUNT(*) FROM actions WHERE game = ?", (game,)).fetchone()
    if held != expected:
        raise StaleCopy(
            f"game {game}: the store holds {held} actions, this copy {expected}; "
            "another writer changed it"
        )


def _insert_actions(db: sqlite3.Connection, game: str, start: int, actions: Sequence[Any]) -> None:
    enc = msgspec.json.encode
    db.executemany(
        "INSERT INTO actions (game, seq, action) VALUES (?, ?, ?)",
        [(game, start + i, enc(a).decode()) for i, a in enumerate(actions)],
    )
