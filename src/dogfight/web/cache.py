"""The games a server holds in memory, each with its lock, at most `MAX_LIVE` at once.

The store has every action, so a game dropped from memory is rebuilt by replay on its
next request. Rebuilding runs outside the cache's own lock, so other games go on
meanwhile, and one thread rebuilds a game while any others asking for it wait.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from dogfight.core.game import Game
from dogfight.core.play import Player
from dogfight.sim.players import new_player
from dogfight.web.history import History
from dogfight.web.seats import HUMAN, seat_of, vs_computer
from dogfight.web.store import GameRecord

MAX_LIVE = 1000
"""Games held in memory at once; past it the least recently used are dropped (the store
has every action: a dropped game is rebuilt by replay on its next request)."""


class Live:
    """A game in memory: its record, the game itself, and what undo and review need."""

    def __init__(self, record: GameRecord, game: Game, history: History) -> None:
        self.record = record
        self.game = game
        self.history = history
        self.lock = threading.RLock()
        self.pins = 0
        """While above 0 (the computer is deciding; changed under `lock`), the game is
        not dropped from memory."""
        self.snapshots: dict[int, Game] = {}
        """Copies of the game at some action counts, for review (web/review.py)."""
        self._views: tuple[Game, dict[tuple[str | None, int | None], dict[str, Any]]] = (
            game,
            {},
        )
        """The views shown of `game` so far, by seat and review step: a page polling
        while the computer thinks asks for the same view many times over."""
        self.players: dict[str, Player] = {
            side: new_player(kind, record.ruleset)
            for side, kind in record.seats.items()
            if kind != HUMAN
        }

    def cached_view(
        self, seat: str | None, step: int | None, build: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The view of the current game for `seat` at review `step`, built once per
        position (a new position, an undo or a rebuild starts afresh). The caller holds
        the lock; the view returned is a copy it may add to."""
        game, views = self._views
        if game is not self.game:
            game, views = self._views = (self.game, {})
        key = (seat, step)
        if key not in views:
            views[key] = build()
        return dict(views[key])

    def seat_of(self, token: str | None) -> str | None:
        """The side a token opens (None without a token: a spectator); 403 for a bad one."""
        return seat_of(self.record, token)

    def vs_computer(self, seat: str) -> bool:
        """True if every seat but `seat` is played by the computer."""
        return vs_computer(self.record.seats, seat)

    def undo_point(self, seat: str | None) -> tuple[int | None, str]:
        """How many actions to keep for `seat`'s undo, or None and why not."""
        if seat is None or self.record.seats.get(seat) != HUMAN:
            return None, "only a player's seat can undo"
        if not self.vs_computer(seat):
            return None, "undo is only for games against the computer"
        if self.game.is_over():
            return None, "the game is over"
        return self.history.undo_point(self.game, seat)


class LiveGames:
    """The games in memory, least recently used first; `build(game_id)` rebuilds one
    that is not (and raises for a game the store does not have)."""

    def __init__(self, build: Callable[[str], Live], max_live: int = MAX_LIVE) -> None:
        self.build = build
        self.max_live = max_live
        self._live: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self._loading = threading.Lock()
        """Guards `_live` and `_rebuilding`; never held while a game is replayed."""
        self._rebuilding: dict[str, threading.Event] = {}  # set when that rebuild ends

    def __len__(self) -> int:
        return len(self._live)

    def holds(self, game_id: str, live: Live) -> bool:
        """True while `live` is the copy of `game_id` in memory (not dropped meanwhile)."""
        return self._live.get(game_id) is live

    def find(self, game_id: str) -> Live:
        """The game from memory (now the most recently used), else rebuilt.

        The rebuild runs outside `_loading`, so other games go on meanwhile; one thread
        rebuilds a game while any others asking for it wait for the result."""
        while True:
            with self._loading:
                live = self._live.get(game_id)
                if live is not None:
                    self._live.move_to_end(game_id)
                    return live
                gate = self._rebuilding.get(game_id)
                if gate is None:
                    gate = self._rebuilding[game_id] = threading.Event()
                    break
            gate.wait()  # then look again (a failed rebuild is retried, and fails alike)
        try:
            live = self.build(game_id)
            self.keep(game_id, live)
            return live
        finally:
            with self._loading:
                del self._rebuilding[game_id]
            gate.set()

    def forget(self, game_id: str, live: Live) -> None:
        """Drop `live` (held locked by the caller) if it is still the copy in memory: it
        is stale, and the next use rebuilds the game from the store."""
        with self._loading:
            if self._live.get(game_id) is live:
                del self._live[game_id]

    def keep(self, game_id: str, live: Live) -> None:
        """Hold `live` in memory, dropping the least recently used games past
        `max_live`. A game is dropped only with its lock taken here, so no request is
        changing it and all it did is in the store for the rebuild; one in use, or one
        the computer is deciding in (pinned), stays (this thread holds no game's lock:
        the lock is re-entrant, and would not tell)."""
        with self._loading:
            self._live[game_id] = live
            for old_id in list(self._live):
                if len(self._live) <= self.max_live:
                    break
                old = self._live[old_id]
                if old_id == game_id or not old.lock.acquire(blocking=False):
                    continue
                try:
                    if not old.pins:
                        del self._live[old_id]
                finally:
                    old.lock.release()
