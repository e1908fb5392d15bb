"""Live web games: the hub through which every request on a game goes.

Every change goes through the same path: apply to a copy of the game, commit the new
actions to the store, then make the copy the live game. A refused or failing action
therefore changes neither the live game nor the database, and nothing is reported to
a player before it is committed. One lock per game serialises the requests on it;
different games run side by side.

The pieces live beside this module, one concern each: request and reply bodies
(requests.py), seats and their tokens (seats.py), the games in memory (cache.py),
what undo and the log note (history.py), review and views (review.py), and uploads
and downloads (uploads.py).
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import multiprocessing
import os
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import msgspec

from dogfight.core.errors import DataError
from dogfight.core.game import Game
from dogfight.core.gamefile import ReplayError, log_digest, to_gamefile
from dogfight.core.limits import SEED_MAX
from dogfight.core.options import resolve_options
from dogfight.core.play import RunawayGame
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, scenario_from_raw
from dogfight.web.cache import MAX_LIVE, MEMORY_MB, Live, LiveGames
from dogfight.web.computer import (
    Ask,
    computer_rng,
    decide,
    decide_in_worker,
    step_view_in_worker,
    view_in_worker,
)
from dogfight.web.errors import BadRequest, Conflict, Forbidden, NotFound
from dogfight.web.history import History, Step, replayed
from dogfight.web.requests import Created, NewGame, ScenarioText, SeatLink, decode_action
from dogfight.web.review import check_step, step_view, view_of
from dogfight.web.seats import (
    HUMAN,
    SEAT_KINDS,
    check_seats,
    new_tokens,
    parse_seats,
    token_hash,
)
from dogfight.web.store import GameRecord, StaleCopy, Store
from dogfight.web.uploads import check_upload_units, file_stem, lobby_scenario, uploaded_game
from dogfight.web.views import board_or_none

LOG = logging.getLogger("dogfight.web")

COMPUTER_WORKERS = 2
"""Threads on which computer players think (one game at a time each)."""

COMPUTER_PROCESSES = max(1, min(4, os.cpu_count() or 1))
"""Worker processes in which the computer decides, when the server runs them (`serve`
and `play` do): one a processor, up to 4. Decided on a thread of the server instead,
its work would hold the GIL and slow every request."""

PROGRESS_S = 0.25
"""While the computer plays a turn, a view this many seconds old at most answers a
polling page (at most four new views a second a seat while it plays)."""

MAX_COMPUTER_ACTIONS = 100_000
"""The runaway guard of the play loop (`dogfight.core.play.play`), for computer turns."""


def draw_seed() -> int:
    """A seed from the operating system's secure source, over the whole seed range
    (63 bits: the most a signed 64-bit SQLite column keeps)."""
    return secrets.randbelow(SEED_MAX + 1)


class Hub:
    """Every game of one server: created, opened, loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        max_live: int = MAX_LIVE,
        *,
        people_choose_seeds: bool = False,
        computer_workers: int | None = COMPUTER_WORKERS,
        computer_processes: int | None = None,
        memory_bytes: int = MEMORY_MB * 1_000_000,
    ) -> None:
        self.store = store
        # The computer's turns are played on these threads, outside every request, so
        # that a long computer turn never holds a request (or the game's lock); None
        # plays its turns inside the request that made them due (tests). With
        # `computer_processes`, each decision is made in a worker process (started at
        # the first), the thread waiting for it without the GIL; four threads a process
        # keep the workers busy while a thread commits.
        threads = computer_workers
        if computer_workers and computer_processes:
            threads = max(computer_workers, 4 * computer_processes)
        self._pool = (
            ThreadPoolExecutor(threads, thread_name_prefix="dogfight-computer") if threads else None
        )
        self._processes = computer_processes if computer_workers else None
        self._workers: dict[tuple[str, int], ProcessPoolExecutor] = {}
        """The worker processes by task ("computer", "views") and number, started at
        first use: apart, so that a view is never queued behind a long decision. A
        game always goes to the same worker of a task, which goes on from its copy of
        the game (sent to any, each would replay the game over and over)."""
        self._workers_lock = threading.Lock()
        self._closed = False
        """Set by `close`: no worker process is started after it."""
        self._thinking: set[str] = set()
        """Games whose computer seat is deciding now (or queued to)."""
        self._thinking_lock = threading.Lock()
        self.on_change: Callable[[str], None] = lambda game_id: None
        """Told the game's id after each committed change (an action, an undo) and when
        the computer stops deciding: the server wakes the requests waiting for it
        (web/longpoll.py). Called from whichever thread made the change."""
        # Only for tests that script the dice of a game between people: a real server
        # never lets a seat choose the seed of such a game.
        self.people_choose_seeds = people_choose_seeds
        # Looked up at each rebuild, so that a test may stand in for `_rebuild`.
        self.games = LiveGames(lambda game_id: self._rebuild(game_id), max_live, memory_bytes)

    @property
    def max_live(self) -> int:
        """How many games are held in memory at most (but for ones in use)."""
        return self.games.max_live

    # ---- finding games ---------------------------------------------------------------

    def get(self, game_id: str) -> Live:
        """The live game `game_id`, rebuilt from the store on first use (404 if none)."""
        with self._locked(game_id) as live:
            return live

    def loaded(self) -> int:
        """How many games are in memory now (at most `max_live`, but for ones in use)."""
        return len(self.games)

    @contextlib.contextmanager
    def _locked(self, game_id: str) -> Iterator[Live]:
        """The live game `game_id` with its lock held, the computer's pending turns played.

        A game dropped from memory between being found and being locked is looked up
        again, so no request works on a dropped copy while another uses its rebuild."""
        while True:
            live = self.games.find(game_id)
            with live.lock:
                if not self.games.holds(game_id, live):
                    continue
                if self.store.held(game_id) != len(live.game.actions):
                    # Another server process on this database changed the game.
                    self.games.forget(game_id, live)
                    continue
                # The computer moves if it must: after a person's action, or when a
                # server stopped before the computer's answer was committed.
                try:
                    self._computer_turns(live)
                except StaleCopy:
                    continue  # another server process moved first: rebuild, look again
                yield live
                # What the request did (an action, a view built) counts to its size.
                self.games.resize(game_id, live)
                return

    def _view(
        self,
        live: Live,
        seat: str | None,
        step: int | None,
        *,
        poll: bool = False,
        after: int | None = None,
    ) -> dict[str, Any]:
        """The seat's view; for a `poll` while the computer plays its turn, the one
        shown less than `PROGRESS_S` ago may answer (its version says how far the
        computer had got): a view is not built for every computer action. A long-poll
        that has seen version `after` is never answered so with a view no newer: a
        game moved past it gets a fresh view at once, where the noted one would have
        kept the poll waiting for it to age."""
        thinking = self.thinking(live.record.id)
        if poll and thinking and step is None:
            shown = live.progress_view(seat, PROGRESS_S)
            if shown is not None and (after is None or shown["version"] > after):
                shown["thinking"] = True
                return shown
        view = live.cached_view(seat, step, lambda: self._build_view(live, seat, step))
        if step is None and self._computer_due(live):
            live.note_progress(seat, view)
        view["thinking"] = thinking
        return view

    def _build_view(self, live: Live, seat: str | None, step: int | None) -> dict[str, Any]:
        """A new view (the caller holds the game's lock)."""
        return self._built(live, view_of, view_in_worker, seat, step)

    def _built(
        self,
        live: Live,
        here: Callable[..., dict[str, Any]],
        in_worker: Callable[..., dict[str, Any]],
        seat: str | None,
        step: int | None,
    ) -> dict[str, Any]:
        """A view built by `in_worker` in a worker process if the server has them (from
        the game's record and actions), else by `here` on the live game."""
        if not self._processes:
            return here(live, seat, step)
        ask = Ask(record=live.record, actions=tuple(live.game.actions))
        view: dict[str, Any] = self._in_worker("views", live.record.id, in_worker, ask, seat, step)
        return view

    def thinking(self, game_id: str) -> bool:
        """True while the computer is deciding in game `game_id` (the page polls)."""
        with self._thinking_lock:
            return game_id in self._thinking

    def settle(self, game_id: str, timeout: float = 60.0) -> None:
        """Wait until the computer has no decision pending in `game_id` (for tools and
        tests; the page polls instead)."""
        deadline = time.monotonic() + timeout
        while self.thinking(game_id):
            if time.monotonic() > deadline:
                raise TimeoutError(f"game {game_id}: the computer still thinks")
            time.sleep(0.01)

    def close(self) -> None:
        """Stop taking computer turns; wait for the ones under way (server shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        with self._workers_lock:
            self._closed = True
            pools, self._workers = list(self._workers.values()), {}
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)

    def _in_worker(self, task: str, game_id: str, work: Callable[..., Any], *args: Any) -> Any:
        """`work(*args)` run in game `game_id`'s worker process for `task`. If the
        worker died (killed, out of memory) it is replaced and the work tried again."""
        assert self._processes
        key = (task, zlib.crc32(game_id.encode()) % self._processes)
        for attempt in (1, 2):
            pool = self._worker_pool(key)
            try:
                return pool.submit(work, *args).result()
            except BrokenProcessPool:
                with self._workers_lock:
                    if self._workers.get(key) is pool:
                        del self._workers[key]
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _worker_pool(self, key: tuple[str, int]) -> ProcessPoolExecutor:
        """The worker process `key`, started at its first use."""
        with self._workers_lock:
            pool = self._workers.get(key)
            if pool is None and self._closed:
                raise RuntimeError("the server is stopping")
            if pool is None:
                # Not forked from this process (its other threads may hold locks), and
                # without re-running the program's main module (the CLI) in each.
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["dogfight.web.computer"])
                pool = self._workers[key] = ProcessPoolExecutor(1, mp_context=context)
            return pool

    def _rebuild(self, game_id: str) -> Live:
        found = self.store.load(game_id)
        if found is None:
            raise NotFound(f"no game '{game_id}'")
        record, actions = found
        where = f"game {game_id}"
        ruleset = find_ruleset(record.ruleset)
        scenario = scenario_from_raw(record.scenario, f"{where}: scenario")
        try:
            game, history = replayed(
                scenario, record.seed, record.rules, actions, decode=ruleset.action_type
            )
        except ReplayError as exc:
            raise DataError(
                f"{where}: stored action {exc.index} does not replay ({exc.reason})"
            ) from None
        if record.digest and record.digest != log_digest(game.events):
            raise DataError(
                f"{where}: its stored actions no longer replay to the same game (was the "
                "engine changed?), so it cannot go on"
            )
        return Live(record, game, history)

    # ---- creating games --------------------------------------------------------------

    def create(self, request: NewGame) -> Created:
        """Start a new game from the lobby's choices (computer seats move at once)."""
        ruleset = find_ruleset(request.ruleset)
        # Checked here first so that a refusal names the body's field (the engine's own
        # check would name the CLI's --rule).
        resolve_options(ruleset.options, (request.options, "field 'options'"))
        scenario = lobby_scenario(ruleset.name, request.scenario, request.scenario_text)
        if request.scenario_text is not None:
            check_upload_units(Game(scenario, seed=0, rules=request.options))
        return self.create_from(scenario, request.seats, request.options, request.seed)

    def read_upload(self, request: ScenarioText) -> dict[str, Any]:
        """An uploaded scenario read and checked as creating a game would (422 naming
        what is wrong), without making one: its title and sides for the lobby."""
        ruleset = find_ruleset(request.ruleset)
        resolve_options(ruleset.options, (request.options, "field 'options'"))
        scenario = lobby_scenario(ruleset.name, None, request.scenario_text)
        game = Game(scenario, seed=0, rules=request.options)
        check_upload_units(game)
        return {
            "name": scenario.name,
            "title": scenario.title,
            "description": scenario.description,
            "sides": list(game.sides()),
        }

    def create_from(
        self,
        scenario: Scenario,
        seats: Mapping[str, str],
        options: Mapping[str, Any],
        seed: int | None = None,
    ) -> Created:
        """Start a new game of a loaded scenario (`dogfight play` comes in here).

        Between people the server draws the seed and no seat may choose it: whoever
        knows the seed can predict every roll. It is shown when the game is over."""
        people = sum(1 for kind in seats.values() if kind == HUMAN)
        if seed is not None and people > 1 and not self.people_choose_seeds:
            raise BadRequest(
                "field 'seed': in a game between people the server draws the seed, so "
                "that no seat can predict the dice; it is shown when the game is over"
            )
        seed = seed if seed is not None else draw_seed()
        game = Game(scenario, seed=seed, rules=options)
        return self._start(game, seats, [])

    def open_file(self, raw: bytes, seats_text: str | None) -> Created:
        """Start a game from a game file's bytes (a finished one opens for review)."""
        game = uploaded_game(raw)
        seats = parse_seats(seats_text, list(game.sides()))
        return self._start(game, seats, list(game.actions))

    def _start(self, game: Game, seats: Mapping[str, str], actions: list[Any]) -> Created:
        sides = list(game.sides())
        chosen = check_seats(seats, sides, game.ruleset.name)
        game_id = secrets.token_hex(6)
        tokens = new_tokens(chosen)
        record = GameRecord(
            id=game_id,
            ruleset=game.ruleset.name,
            scenario=game.scenario.raw,
            rules=dict(game.rule_overrides),
            seed=game.seed,
            seats=chosen,
            tokens={side: token_hash(t) for side, t in tokens.items()},
            created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            status="over" if game.is_over() else "running",
            digest=log_digest(game.events),
        )
        # Replay into a fresh game to learn who took each action (for undo); a game
        # just set up has none to replay (a new game from the lobby: set up once).
        if actions or game.actions:
            fresh, history = replayed(game.scenario, game.seed, game.rule_overrides, actions)
        else:
            fresh, history = game, History(game)
        live = Live(record, fresh, history)
        self.store.create(record, [msgspec.to_builtins(a) for a in actions])
        self.games.keep(game_id, live)
        with self._locked(game_id):
            pass  # the computer seats move now, if one is first
        return Created(
            game=game_id,
            seats={
                side: SeatLink(
                    kind=chosen[side],
                    token=tokens.get(side),
                    link=f"/game/{game_id}?token={tokens[side]}" if side in tokens else None,
                )
                for side in sides
            },
            spectator=f"/game/{game_id}",
        )

    # ---- playing ---------------------------------------------------------------------

    def act(
        self,
        game_id: str,
        token: str | None,
        *,
        index: int | None = None,
        action: Any = None,
        version: int | None = None,
    ) -> dict[str, Any]:
        """A seat's action, given by index into its view's actions or as plain data."""
        with self._locked(game_id) as live:
            seat = self._turn_of(live, token)
            game = live.game
            if version is not None and version != len(game.actions):
                raise Conflict(
                    f"game {game_id}: stale view (version {version}; the game is at "
                    f"{len(game.actions)}): reload"
                )
            if (index is None) == (action is None):
                raise BadRequest("give exactly one of 'index' and 'action'")
            if index is not None:
                legal = game.legal_actions()
                if not 0 <= index < len(legal):
                    raise BadRequest(
                        f"field 'index': {index} is not between 0 and {len(legal) - 1}"
                    )
                chosen = legal[index]
            else:
                chosen = decode_action(game, action)
            self._commit(live, chosen)
            return self._view(live, seat, None)

    def move(
        self, game_id: str, token: str | None, unit: str, x: float, y: float, facing: float
    ) -> dict[str, Any]:
        """A movement chosen on the board: the board adapter composes the action."""
        with self._locked(game_id) as live:
            seat = self._turn_of(live, token)
            board = board_or_none(live.record.ruleset)
            if board is None:
                raise Conflict(f"this server has no {live.record.ruleset} board for moves")
            chosen = board.compose_move(live.game, unit, x, y, facing)
            self._commit(live, chosen)
            return self._view(live, seat, None)

    def undo(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Take back the seat's actions (and the computer's since) to its previous
        decision in this turn and phase, if none of them rolled dice."""
        with self._locked(game_id) as live:
            seat = live.seat_of(token)
            keep, why = live.undo_point(seat)
            if keep is None or seat is None:
                raise Conflict(f"game {game_id}: cannot undo: {why}")
            record = live.record
            game, history = replayed(
                live.game.scenario, record.seed, record.rules, live.game.actions[:keep]
            )
            digest = history.digest.of(game.events)
            try:
                self.store.truncate(record.id, len(live.game.actions), keep, "running", digest)
            except StaleCopy:
                self.games.forget(record.id, live)
                raise Conflict(f"game {record.id}: the game changed meanwhile: reload") from None
            live.game, live.history = game, history
            live.forget_progress()
            live.forget_after(keep)
            live.record = msgspec.structs.replace(record, status="running", digest=digest)
            self.on_change(record.id)
            return self._view(live, seat, None)

    def _turn_of(self, live: Live, token: str | None) -> str:
        seat = live.seat_of(token)
        game_id = live.record.id
        if seat is None:
            raise Forbidden(f"game {game_id}: a spectator cannot act; use a seat's link")
        if live.game.is_over():
            raise Conflict(f"game {game_id}: the game is over")
        current = live.game.current_player()
        if current != seat:
            raise Conflict(f"game {game_id}: not your turn; {current} decides now")
        return seat

    def _commit(self, live: Live, action: Any) -> None:
        """Apply a seat's action to a copy, commit it, adopt the copy; then the computer."""
        game = live.game.clone()
        history = live.history.copy()
        # Game.apply checks first: an illegal action raises IllegalAction with the
        # reason before anything changes (and this is a copy anyway).
        history.apply(game, action)
        try:
            self._save(live, game, history)
        except StaleCopy:
            raise Conflict(f"game {live.record.id}: the game changed meanwhile: reload") from None
        # If another server process answered for the computer, the next view shows it.
        with contextlib.suppress(StaleCopy):
            self._computer_turns(live)

    def _computer_turns(self, live: Live) -> None:
        """Have the computer seats play until a person must decide or the game ends: on
        the computer's threads, or here and now without them. The caller holds the
        game's lock."""
        if not self._computer_due(live):
            return
        if self._pool is None:
            self._play_computer_now(live)
            return
        game_id = live.record.id
        with self._thinking_lock:
            if game_id in self._thinking:
                return
            self._thinking.add(game_id)
        self._pool.submit(self._think, game_id)

    @staticmethod
    def _computer_due(live: Live) -> bool:
        side = live.game.current_player()
        return not live.game.is_over() and side is not None and _computer_seat(live, side)

    def _play_computer_now(self, live: Live) -> None:
        game = live.game.clone()
        history = live.history.copy()
        taken = 0
        while not game.is_over():
            side = game.current_player()
            if side is None or not _computer_seat(live, side):
                break
            history.apply(game, self._decision(live, game, side))
            taken += 1
            if taken > MAX_COMPUTER_ACTIONS:
                raise RunawayGame(f"game passed {MAX_COMPUTER_ACTIONS} actions without ending")
        self._save(live, game, history)

    def _decision(self, live: Live, game: Game, side: str) -> Any:
        """The computer's action for `side` in `game` (a copy of the live game): made in
        a worker process if the server has them, else here with the game's players."""
        if not self._processes:
            return decide(live.players, game, side)
        ask = Ask(record=live.record, actions=tuple(game.actions))
        return self._in_worker("computer", live.record.id, decide_in_worker, ask)

    def _think(self, game_id: str, taken: int = 0) -> None:
        """The computer's next decision in one game, committed as soon as it is made
        (the page shows them as they come); the next is queued behind other games'
        (so one long computer turn does not hold up the computer in every other game).
        It decides on a copy without the game's lock, so views and other requests go on
        meanwhile; a decision made on a position that changed meanwhile (an undo) is
        dropped and made again."""
        try:
            while True:
                live = self.games.find(game_id)
                with live.lock:
                    if not self.games.holds(game_id, live):
                        continue
                    if not self._computer_due(live):
                        self._stop_thinking(game_id)
                        return
                    before = live.game
                    game, history = before.clone(), live.history.copy()
                    # Kept in memory while the computer decides: dropped and rebuilt
                    # meanwhile, the decision would be thrown away (and, with many
                    # games in play, made again and again).
                    live.pins += 1
                try:
                    side = game.current_player()
                    assert side is not None  # _computer_due saw a computer seat decide
                    action = self._decision(live, game, side)
                finally:
                    with live.lock:
                        live.pins -= 1
                with live.lock:
                    if live.game is not before or not self.games.holds(game_id, live):
                        continue
                    history.apply(game, action)
                    try:
                        self._save(live, game, history)
                    except StaleCopy:
                        continue  # another server process moved first: rebuild, go on
                    self.games.resize(game_id, live)
                if taken + 1 > MAX_COMPUTER_ACTIONS:
                    raise RunawayGame(f"game passed {MAX_COMPUTER_ACTIONS} actions without ending")
                assert self._pool is not None  # _think runs on it
                try:
                    self._pool.submit(self._think, game_id, taken + 1)
                except RuntimeError:  # the server is stopping: the next start goes on
                    self._stop_thinking(game_id)
                return
        except Exception:
            # A bug (or a database that cannot be written): logged; the game stays as
            # last committed, and the next request on it tries again.
            LOG.exception("the computer failed in game %s", game_id)
            self._stop_thinking(game_id)

    def _stop_thinking(self, game_id: str) -> None:
        """The computer no longer decides in `game_id`: views stop saying it thinks."""
        with self._thinking_lock:
            self._thinking.discard(game_id)
        self.on_change(game_id)

    def _save(self, live: Live, game: Game, history: History) -> None:
        """Commit the actions `game` has beyond the live game's, then adopt it."""
        start = len(live.game.actions)
        new = [msgspec.to_builtins(a) for a in game.actions[start:]]
        status = "over" if game.is_over() else "running"
        digest = history.digest.of(game.events)
        try:
            self.store.append(live.record.id, start, new, status, digest)
        except StaleCopy:
            # This copy is behind the store: drop it, so the next use rebuilds it.
            self.games.forget(live.record.id, live)
            raise
        live.game, live.history = game, history
        live.record = msgspec.structs.replace(live.record, status=status, digest=digest)
        self.on_change(live.record.id)

    # ---- showing -----------------------------------------------------------------------

    def view(
        self, game_id: str, token: str | None, step: int | None = None, after: int | None = None
    ) -> dict[str, Any]:
        """The view for a token's seat (or a spectator), live or at a review step; for a
        long-poll, `after` is the version its page has (see `_view`)."""
        with self._locked(game_id) as live:
            return self._view(live, live.seat_of(token), step, poll=True, after=after)

    def step_view(self, game_id: str, token: str | None, step: int) -> dict[str, Any]:
        """The view a token's seat (or a spectator) was shown of the game after its first
        `step` actions, running or finished: the page steps the board through the
        computer's actions with them. 400 for a step not taken (yet); 403 for a bad token.
        Built once a seat and step, in a worker process if the server has them."""
        with self._locked(game_id) as live:
            seat = live.seat_of(token)
            check_step(live, step)

            return live.step_view(
                seat, step, lambda: self._built(live, step_view, step_view_in_worker, seat, step)
            )

    def game_file(self, game_id: str, token: str | None) -> tuple[str, bytes]:
        """The game file (name, bytes) for download: the same file `dogfight replay` reads."""
        with self._locked(game_id) as live:
            seat, game, seats = live.seat_of(token), live.game, live.record.seats
        if not game.is_over():
            if seat is None:
                raise Forbidden(
                    f"game {game_id}: the game file shows every side's secrets; "
                    "it can be downloaded once the game is over"
                )
            if not live.vs_computer(seat):
                raise Forbidden(
                    f"game {game_id}: while another person plays, the game file "
                    "(every side's secrets) can be downloaded only once the game is over"
                )
        data = msgspec.json.format(msgspec.json.encode(to_gamefile(game, seats)), indent=1)
        return f"{file_stem(game.scenario.name)}-{game_id}.json", data


def _computer_seat(live: Live, side: str) -> bool:
    """True if the computer plays `side` in the game."""
    return live.record.seats.get(side, HUMAN) != HUMAN


__all__ = [
    "HUMAN",
    "MAX_LIVE",
    "SEAT_KINDS",
    "Created",
    "Hub",
    "Live",
    "NewGame",
    "Step",
    "computer_rng",
    "view_of",
]
