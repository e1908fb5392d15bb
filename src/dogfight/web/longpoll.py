"""Long-polling of a game's view: `GET /api/games/{game}?after=N&wait=S` is answered
as soon as the game's version is no longer N, or after S seconds with the view as it
is.

A page waiting for the computer (or another person) holds one such request instead of
asking again and again: the request costs the server nothing while it waits (no
thread, no view built), and the page hears of a move as soon as it is committed. The
hub tells `Changes` of every committed change (`Hub.moved`), from whichever thread
made it; each waiting request is an asyncio future woken on the event loop.

A change made by another server process on the same database tells this process
nothing, so a held request also looks again (through `Hub.view`, which notices a
store that holds other actions) every `RECHECK_S` seconds, and every `PROGRESS_S`
while the computer plays its turn (a view noted less than that ago answers plain
polls, see `Hub._view`; a long-poll is answered by a fresh view as soon as the game
has moved past the version it waits on).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from typing import Any

from starlette.concurrency import run_in_threadpool

from dogfight.web.errors import BadRequest
from dogfight.web.sessions import PROGRESS_S, Hub

MAX_WAIT_S = 60.0
"""The longest a request may ask to be held (`wait`): under common proxies' idle
timeouts; a page asks again when it is answered."""

RECHECK_S = 1.0
"""How often a held request looks at the game again without being woken (a move made
by another server process on the same database)."""


Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[float]"]


class Changes:
    """The requests waiting for each game to change, woken by `moved` from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[Waiter]] = {}

    def moved(self, game_id: str) -> None:
        """Game `game_id` changed (an action committed, an undo, the computer done):
        wake every request waiting on it with the time of the change."""
        now = time.monotonic()
        with self._lock:
            waiters = self._waiting.pop(game_id, set())
        for loop, future in waiters:
            loop.call_soon_threadsafe(_settle, future, now)

    def watch(self, game_id: str) -> Waiter:
        """Start listening for a change of game `game_id` (before looking at it, so
        that a change made meanwhile is not missed); `wait` then waits for it."""
        loop = asyncio.get_running_loop()
        waiter = (loop, loop.create_future())
        with self._lock:
            self._waiting.setdefault(game_id, set()).add(waiter)
        return waiter

    async def wait(self, game_id: str, waiter: Waiter, timeout: float) -> float | None:
        """Wait up to `timeout` seconds for the change `waiter` listens for: the
        monotonic time of the change, or None if there was none."""
        try:
            if timeout <= 0 and not waiter[1].done():
                return None
            return await asyncio.wait_for(waiter[1], timeout)
        except TimeoutError:
            return None
        finally:
            self.unwatch(game_id, waiter)

    def unwatch(self, game_id: str, waiter: Waiter) -> None:
        """Stop listening (the change came, or the request is answered)."""
        with self._lock:
            waiting = self._waiting.get(game_id)
            if waiting is not None:
                waiting.discard(waiter)
                if not waiting:
                    del self._waiting[game_id]

    def waiting(self, game_id: str) -> int:
        """How many requests wait on game `game_id` now (for tests)."""
        with self._lock:
            return len(self._waiting.get(game_id, ()))


def _settle(future: asyncio.Future[float], when: float) -> None:
    if not future.done():
        future.set_result(when)


def check_wait(after: int | None, wait: float | None, step: int | None) -> None:
    """Refuse (400) a long-poll's parameters that do not make sense, naming the field."""
    if wait is None:
        if after is not None:
            raise BadRequest("parameter 'after' needs 'wait' (the seconds to wait at most)")
        return
    if not math.isfinite(wait) or not 0 < wait <= MAX_WAIT_S:
        raise BadRequest(
            f"parameter 'wait': {wait} is not a number of seconds above 0 and at most "
            f"{MAX_WAIT_S:g}"
        )
    if after is None:
        raise BadRequest("parameter 'wait' needs 'after' (the version the page shows)")
    if after < 0:
        raise BadRequest(f"parameter 'after': {after} is not a version (0 or more)")
    if step is not None:
        raise BadRequest("parameters 'wait' and 'step' do not go together: a step never changes")


async def view_after(
    hub: Hub, changes: Changes, game_id: str, token: str | None, after: int, wait: float
) -> tuple[dict[str, Any], float]:
    """The seat's view once the game's version is no longer `after`, or after `wait`
    seconds with the view as it is; and the seconds the request was held before the
    game changed (the first wake-up, or the whole wait if none came: what a client
    takes off the round trip to get the time from a move to its knowing)."""
    start = time.monotonic()
    deadline = start + wait
    changed_at: float | None = None
    quiet_until = start
    while True:
        waiter = changes.watch(game_id)
        try:
            view: dict[str, Any] = await run_in_threadpool(hub.view, game_id, token, None, after)
        except BaseException:
            changes.unwatch(game_id, waiter)
            raise
        now = time.monotonic()
        if view["version"] != after or now >= deadline:
            changes.unwatch(game_id, waiter)
            break
        slice_s = PROGRESS_S if view.get("thinking") else RECHECK_S
        woken = await changes.wait(game_id, waiter, min(slice_s, deadline - now))
        if changed_at is None:
            if woken is None:
                quiet_until = time.monotonic()
            else:
                changed_at = woken
    held = (changed_at if changed_at is not None else quiet_until) - start
    return view, max(0.0, held)
