"""The games a server holds in memory, each with its lock, within a byte budget
(`MEMORY_MB`) and at most `MAX_LIVE` at once.

A game's size is estimated cheaply from what it holds, not measured: its event log
(the engine's state and log grow with it), the views built of its current position,
of review steps and of past steps, its review snapshots and positions, and its
computer players if they were made here (a server whose computer decides in worker
processes never makes them). The
store has every action, so a game dropped from memory is rebuilt by replay on its
next request. Rebuilding runs outside the cache's own lock, so other games go on
meanwhile, and one thread rebuilds a game while any others asking for it wait.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.play import Player
from dogfight.sim.players import new_player
from dogfight.web.history import History
from dogfight.web.seats import HUMAN, seat_of, vs_computer
from dogfight.web.store import GameRecord

MAX_LIVE = 1000
"""Games held in memory at once; past it the least recently used are dropped (the store
has every action: a dropped game is rebuilt by replay on its next request)."""

MEMORY_MB = 512
"""The default budget of the games in memory, in megabytes of their estimated size:
past it the least recently used are dropped, as past `MAX_LIVE` (`dogfight serve
--memory-mb`, `create_app(memory_mb=...)`)."""

GAME_BYTES = 60_000
"""A game's size before its first action (scenario, state, dice, history)."""
BYTES_PER_LOG_BYTE = 4
"""Python's objects take about this many bytes for each byte of their JSON (events,
views), measured with tracemalloc on games of each ruleset (docs/performance.md)."""
SNAPSHOT_BYTES = 12_000
"""One review snapshot (a copy of the game's state; the log is shared)."""
PLAYER_BYTES = 2_000_000
"""A computer player made in this process, with the caches it fills while deciding
(a heuristic player of a large game of starships reached 3 MB)."""
REVIEW_VIEWS = 8
"""Review steps whose views are kept per game (a reviewer stepping through a long game
would otherwise keep one view a step)."""
STEP_VIEWS = 32
"""Views of past steps of a running game kept per game (the board stepping through the
computer's actions, every seat and spectator watching asking for each once)."""
POSITIONS = 4
"""Copies of the game at the steps lately asked for, per game: the next step asked is
one action on from one of them."""


def view_bytes(view: dict[str, Any]) -> int:
    """The estimated bytes a view holds: `BYTES_PER_LOG_BYTE` for each byte of its JSON,
    but one for each byte of a part that came already encoded (`views.packed`: a view
    built in a worker process holds its bulky parts as JSON bytes)."""
    raw = sum(len(v) for v in view.values() if isinstance(v, msgspec.Raw))
    rest = {k: v for k, v in view.items() if not isinstance(v, msgspec.Raw)}
    return raw + BYTES_PER_LOG_BYTE * len(msgspec.json.encode(rest))


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
        self.positions: OrderedDict[int, Game] = OrderedDict()
        """Copies of the game at the steps lately asked for (at most POSITIONS)."""
        self._step_views: OrderedDict[tuple[str | None, int], tuple[dict[str, Any], int]] = (
            OrderedDict()
        )
        """Views of past steps (web/steps.py) by seat and step, with their JSON size; a
        step's view stays true while the actions up to it stand (`forget_after`)."""
        self._views: tuple[Game, dict[tuple[str | None, int | None], dict[str, Any]]] = (
            game,
            {},
        )
        """The views shown of `game` so far, by seat and review step: a page polling
        while the computer thinks asks for the same view many times over."""
        self._view_bytes: dict[tuple[str | None, int | None], int] = {}
        """The estimated bytes of each view in `_views` (`view_bytes`), for `size`."""
        self._log_bytes: tuple[int, int] = (-1, 0)
        """(events counted, their JSON bytes) of the game's log, for `size`."""
        self._progress: dict[str | None, tuple[float, int, dict[str, Any]]] = {}
        """By seat: (when, action count, view) of the last view built while the
        computer was to move (see `progress_view`)."""
        self._players: dict[str, Player] | None = None

    @property
    def players(self) -> dict[str, Player]:
        """The computer players of the game, by side, made at first use: a server whose
        computer decides in worker processes never makes them (nor holds their caches)."""
        if self._players is None:
            self._players = {
                side: new_player(kind, self.record.ruleset)
                for side, kind in self.record.seats.items()
                if kind != HUMAN
            }
        return self._players

    def cached_view(
        self, seat: str | None, step: int | None, build: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The view of the current game for `seat` at review `step`, built once per
        position (a new position, an undo or a rebuild starts afresh). The caller holds
        the lock; the view returned is a copy it may add to."""
        game, views = self._views
        if game is not self.game:
            game, views = self._views = (self.game, {})
            self._view_bytes = {}
        key = (seat, step)
        if key not in views:
            if step is not None:
                steps = [k for k in views if k[1] is not None]
                for old in steps[: max(0, len(steps) - REVIEW_VIEWS + 1)]:
                    del views[old]
                    self._view_bytes.pop(old, None)
            views[key] = build()
            self._view_bytes[key] = view_bytes(views[key])
        return dict(views[key])

    def keep_position(self, step: int, game: Game) -> None:
        """Keep a copy of the game at `step` (the caller's, not changed after), the
        least recently kept dropped past POSITIONS."""
        self.positions[step] = game
        self.positions.move_to_end(step)
        while len(self.positions) > POSITIONS:
            self.positions.popitem(last=False)

    def step_view(
        self, seat: str | None, step: int, build: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The view of past `step` for `seat`, built once while the actions up to it
        stand (new actions after it leave it true); at most STEP_VIEWS kept, least
        recently used dropped. The caller holds the lock; the view is a copy."""
        key = (seat, step)
        found = self._step_views.get(key)
        if found is None:
            view = build()
            found = self._step_views[key] = (view, view_bytes(view))
            while len(self._step_views) > STEP_VIEWS:
                self._step_views.popitem(last=False)
        self._step_views.move_to_end(key)
        return dict(found[0])

    def forget_after(self, keep: int) -> None:
        """Drop what was kept of steps past `keep` (actions taken back by an undo): the
        review snapshots, the positions and the views of past steps."""
        for step in [k for k in self.snapshots if k > keep]:
            del self.snapshots[step]
        for step in [k for k in self.positions if k > keep]:
            del self.positions[step]
        for key in [k for k in self._step_views if k[1] > keep]:
            del self._step_views[key]

    def note_progress(self, seat: str | None, view: dict[str, Any]) -> None:
        """Remember `view`, built while the computer is to move, for `progress_view`."""
        self._progress[seat] = (time.monotonic(), len(self.game.actions), dict(view))

    def progress_view(self, seat: str | None, max_age: float) -> dict[str, Any] | None:
        """The last view noted for `seat` if built at most `max_age` seconds ago (a copy
        the caller may add to), else None. While the computer plays a turn, a polling
        page is shown its progress without a view built for each of its actions."""
        noted = self._progress.get(seat)
        if noted is None:
            return None
        when, count, view = noted
        if time.monotonic() - when > max_age or count > len(self.game.actions):
            return None
        return dict(view)

    def forget_progress(self) -> None:
        """Drop the noted views (an undo: they show actions taken back)."""
        self._progress.clear()

    def size(self) -> int:
        """The estimated bytes this game holds in memory (see the module's docstring).
        Cheap: the log's JSON is measured only for events added since the last call."""
        events = self.game.events
        counted, logged = self._log_bytes
        if counted != len(events):
            if 0 <= counted < len(events):
                logged += len(msgspec.json.encode(events[counted:]))
            else:  # an undo or a rebuild: measured afresh
                logged = len(msgspec.json.encode(events))
            self._log_bytes = (len(events), logged)
        views = sum(self._view_bytes.values()) if self._views[0] is self.game else 0
        views += sum(size for _, size in self._step_views.values())
        return (
            GAME_BYTES
            + BYTES_PER_LOG_BYTE * logged
            + views
            + SNAPSHOT_BYTES * (len(self.snapshots) + len(self.positions))
            + PLAYER_BYTES * len(self._players or ())
        )

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

    def __init__(
        self,
        build: Callable[[str], Live],
        max_live: int = MAX_LIVE,
        memory_bytes: int = MEMORY_MB * 1_000_000,
    ) -> None:
        self.build = build
        self.max_live = max_live
        self.memory_bytes = memory_bytes
        self._live: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self._sizes: dict[str, int] = {}
        """Each game's estimated size when last kept or resized."""
        self._total = 0
        """The sum of `_sizes`: the estimated bytes of the games in memory."""
        self._loading = threading.Lock()
        """Guards `_live` and `_rebuilding`; never held while a game is replayed."""
        self._rebuilding: dict[str, threading.Event] = {}  # set when that rebuild ends

    def __len__(self) -> int:
        return len(self._live)

    def held_bytes(self) -> int:
        """The estimated bytes of the games in memory (at most `memory_bytes`, but for
        ones in use)."""
        return self._total

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
                self._drop(game_id)

    def resize(self, game_id: str, live: Live) -> None:
        """Count `live`'s size anew (the caller holds its lock, after changing it or
        building a view), dropping other games if the budget is now passed."""
        size = live.size()
        with self._loading:
            if self._live.get(game_id) is not live:
                return
            self._total += size - self._sizes.get(game_id, 0)
            self._sizes[game_id] = size
            self._trim(game_id)

    def _drop(self, game_id: str) -> None:
        del self._live[game_id]
        self._total -= self._sizes.pop(game_id, 0)

    def keep(self, game_id: str, live: Live) -> None:
        """Hold `live` in memory, dropping the least recently used games past
        `max_live` or the byte budget."""
        size = live.size()
        with self._loading:
            if game_id in self._live:
                self._drop(game_id)
            self._live[game_id] = live
            self._sizes[game_id] = size
            self._total += size
            self._trim(game_id)

    def _trim(self, keeping: str) -> None:
        """Drop the least recently used games (but `keeping`) while past `max_live` or
        `memory_bytes`; the caller holds `_loading`. A game is dropped only with its lock
        taken here, so no request is changing it and all it did is in the store for the
        rebuild; one in use, or one the computer is deciding in (pinned), stays (this
        thread holds no game's lock but maybe `keeping`'s: the lock is re-entrant, and
        would not tell)."""
        for old_id in list(self._live):
            if len(self._live) <= self.max_live and self._total <= self.memory_bytes:
                break
            old = self._live[old_id]
            if old_id == keeping or not old.lock.acquire(blocking=False):
                continue
            try:
                if not old.pins:
                    self._drop(old_id)
            finally:
                old.lock.release()
