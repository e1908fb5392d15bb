"""Live web games: seats and their tokens, turns for the computer, undo and review.

Every change goes through the same path: apply to a copy of the game, commit the new
actions to the store, then make the copy the live game. A refused or failing action
therefore changes neither the live game nor the database, and nothing is reported to
a player before it is committed. One lock per game serialises the requests on it;
different games run side by side. At most `MAX_LIVE` games are held in memory: the
least recently used beyond it are dropped and rebuilt from the store when next asked.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import hmac
import random
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import msgspec

from dogfight.ai import PLAYER_KINDS
from dogfight.core.data import parse_yaml
from dogfight.core.errors import DataError, DogfightError, UnknownName
from dogfight.core.game import Game
from dogfight.core.gamefile import (
    log_digest,
    parse_gamefile,
    replay_gamefile,
    replay_matches,
    to_gamefile,
)
from dogfight.core.limits import SEED_MAX
from dogfight.core.options import resolve_options
from dogfight.core.play import Player, RunawayGame
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, load_scenario, scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.sim.players import PLAYER_SEED_SALT, new_player
from dogfight.web.errors import BadRequest, Conflict, Forbidden, Invalid, NotFound
from dogfight.web.store import GameRecord, Store
from dogfight.web.views import board_or_none, build_view, unit_sides_of

HUMAN = "human"
SEAT_KINDS = (HUMAN, *PLAYER_KINDS)
MAX_COMPUTER_ACTIONS = 100_000
"""The runaway guard of the play loop (`dogfight.core.play.play`), for computer turns."""
MAX_LIVE = 1000
"""Games held in memory at once; past it the least recently used are dropped (the store
has every action: a dropped game is rebuilt by replay on its next request)."""
SNAPSHOT_EVERY = 16
"""Review keeps a copy of the game every this many actions, so a step costs few replays."""
UPLOAD_WHERE = "uploaded scenario"
STANDALONE = "an upload must carry its units inline (custom_units), not name files"
"""Unit files would be read from the server's own disk: an upload must stand alone."""
UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
SEED = Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
"""A seed the database can keep (SQLite integers are 64-bit; seeds are never negative)."""


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """Who took one action, when, and whether it rolled dice (what undo needs)."""

    side: str
    turn: int
    phase: str | None
    rolled: bool


class NewGame(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of `POST /api/games`."""

    ruleset: str
    seats: dict[str, str]
    scenario: str | None = None
    scenario_text: str | None = None
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    seed: SEED | None = None


class SeatLink(msgspec.Struct, frozen=True, kw_only=True):
    """One seat in the reply to a new game: the token is shown this once only."""

    kind: str
    token: str | None
    link: str | None


class Created(msgspec.Struct, frozen=True, kw_only=True):
    """The reply to a new or opened game."""

    game: str
    seats: dict[str, SeatLink]
    spectator: str


class Live:
    """A game in memory: its record, the game itself, and what undo and review need."""

    def __init__(self, record: GameRecord, game: Game, history: History) -> None:
        self.record = record
        self.game = game
        self.history = history
        self.lock = threading.RLock()
        self.snapshots: dict[int, Game] = {}
        self.players: dict[str, Player] = {
            side: new_player(kind, record.ruleset)
            for side, kind in record.seats.items()
            if kind != HUMAN
        }

    def seat_of(self, token: str | None) -> str | None:
        """The side a token opens (None without a token: a spectator); 403 for a bad one."""
        if token is None or token == "":
            return None
        digest = token_hash(token)
        for side, stored in self.record.tokens.items():
            if hmac.compare_digest(stored, digest):
                return side
        raise Forbidden(f"game {self.record.id}: the token opens no seat of this game")

    def vs_computer(self, seat: str) -> bool:
        """True if every seat but `seat` is played by the computer."""
        return all(kind != HUMAN for side, kind in self.record.seats.items() if side != seat)

    def undo_point(self, seat: str | None) -> tuple[int | None, str]:
        """How many actions to keep for `seat`'s undo, or None and why not."""
        if seat is None or self.record.seats.get(seat) != HUMAN:
            return None, "only a player's seat can undo"
        if not self.vs_computer(seat):
            return None, "undo is only for games against the computer"
        game = self.game
        if game.is_over():
            return None, "the game is over"
        state = game.state
        turn, phase = getattr(state, "turn", 0), getattr(state, "phase", None)
        steps = self.history.steps
        for index in range(len(steps) - 1, -1, -1):
            step = steps[index]
            if step.rolled:
                return None, "nothing to undo: an action since your last decision rolled dice"
            if step.turn != turn or step.phase != phase:
                break
            if step.side == seat:
                return index, ""
        return None, "nothing to undo in this turn and phase"


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def computer_rng(seed: int, version: int) -> random.Random:
    """The computer's generator for its decision at `version`: keyed by the position, so
    the same game decides the same after a restart or an undo."""
    return random.Random((seed ^ PLAYER_SEED_SALT) * 1_000_003 + version)


class History:
    """What the server notes beside a game as actions are applied: who took each one,
    when and whether it rolled dice (for undo), and the side of every unit the game has
    had, even one destroyed since (for the log's side of an event)."""

    def __init__(self, game: Game) -> None:
        self.steps: list[Step] = []
        self.unit_sides: dict[str, str] = unit_sides_of(game)

    def copy(self) -> History:
        """An independent copy, to go with a copy of the game."""
        other = History.__new__(History)
        other.steps = list(self.steps)
        other.unit_sides = dict(self.unit_sides)
        return other

    def apply(self, game: Game, action: Any) -> None:
        """Apply an action to `game` (checked first), noting what undo and the log need."""
        state = game.state
        side = game.current_player() or ""
        turn, phase = getattr(state, "turn", 0), getattr(state, "phase", None)
        events = game.apply(action)
        rolled = any(e.rolls for e in events)
        self.steps.append(Step(side=side, turn=turn, phase=phase, rolled=rolled))
        self.unit_sides.update(unit_sides_of(game))


class Hub:
    """Every game of one server: created, opened, loaded from the store on first use."""

    def __init__(self, store: Store, max_live: int = MAX_LIVE) -> None:
        self.store = store
        self.max_live = max_live
        self._live: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self._loading = threading.Lock()
        """Guards `_live` and `_rebuilding`; never held while a game is replayed."""
        self._rebuilding: dict[str, threading.Event] = {}  # set when that rebuild ends

    # ---- finding games ---------------------------------------------------------------

    def get(self, game_id: str) -> Live:
        """The live game `game_id`, rebuilt from the store on first use (404 if none)."""
        with self._locked(game_id) as live:
            return live

    def loaded(self) -> int:
        """How many games are in memory now (at most `max_live`, but for ones in use)."""
        return len(self._live)

    @contextlib.contextmanager
    def _locked(self, game_id: str) -> Iterator[Live]:
        """The live game `game_id` with its lock held, the computer's pending turns played.

        A game dropped from memory between being found and being locked is looked up
        again, so no request works on a dropped copy while another uses its rebuild."""
        while True:
            live = self._find(game_id)
            with live.lock:
                if self._live.get(game_id) is not live:
                    continue
                # A server stopped after a person's action was committed but before the
                # computer's answer was: the computer moves now.
                self._computer_turns(live)
                yield live
                return

    def _find(self, game_id: str) -> Live:
        """The game from memory (now the most recently used), else rebuilt from the store.

        The replay runs outside `_loading`, so other games go on meanwhile; one thread
        replays a game while any others asking for it wait for the result."""
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
            live = self._rebuild(game_id)
            with self._loading:
                self._keep(game_id, live)
            return live
        finally:
            with self._loading:
                del self._rebuilding[game_id]
            gate.set()

    def _keep(self, game_id: str, live: Live) -> None:
        """Hold `live` in memory (the caller holds `_loading`), dropping the least
        recently used games past `max_live`. A game is dropped only with its lock taken
        here, so no request is changing it and all it did is in the store for the
        rebuild; one in use stays (this thread holds no game's lock: the lock is
        re-entrant, and would not tell)."""
        self._live[game_id] = live
        for old_id in list(self._live):
            if len(self._live) <= self.max_live:
                break
            old = self._live[old_id]
            if old_id == game_id or not old.lock.acquire(blocking=False):
                continue
            try:
                del self._live[old_id]
            finally:
                old.lock.release()

    def _rebuild(self, game_id: str) -> Live:
        found = self.store.load(game_id)
        if found is None:
            raise NotFound(f"no game '{game_id}'")
        record, actions = found
        where = f"game {game_id}"
        ruleset = find_ruleset(record.ruleset)
        game = Game(
            scenario_from_raw(record.scenario, f"{where}: scenario"),
            seed=record.seed,
            rules=record.rules,
        )
        history = History(game)
        for index, raw in enumerate(actions):
            try:
                history.apply(game, msgspec.convert(raw, ruleset.action_type))
            except (msgspec.ValidationError, DogfightError) as exc:
                raise DataError(f"{where}: stored action {index} does not replay ({exc})") from None
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
        scenario = self._scenario(ruleset.name, request.scenario, request.scenario_text)
        return self.create_from(scenario, request.seats, request.options, request.seed)

    def create_from(
        self,
        scenario: Scenario,
        seats: Mapping[str, str],
        options: Mapping[str, Any],
        seed: int | None = None,
    ) -> Created:
        """Start a new game of a loaded scenario (`dogfight play` comes in here)."""
        seed = seed if seed is not None else secrets.randbelow(SEED_MAX + 1)
        game = Game(scenario, seed=seed, rules=options)
        return self._start(game, seats, [])

    def open_file(self, raw: bytes, seats_text: str | None) -> Created:
        """Start a game from a game file's bytes (a finished one opens for review)."""
        where = "uploaded game file"
        with not_too_deep(where):
            gamefile = parse_gamefile(raw, where)
        if gamefile.scenario.get("unit_files"):
            raise Invalid(f"{where}: field 'scenario.unit_files': {STANDALONE}")
        game = replay_gamefile(gamefile, where)
        if not replay_matches(game, gamefile):
            raise Invalid(
                f"{where}: the actions replay, but the event log differs from the saved one"
            )
        seats = parse_seats(seats_text, list(game.sides()))
        return self._start(game, seats, list(game.actions))

    def _scenario(self, ruleset: str, name: str | None, text: str | None) -> Scenario:
        if (name is None) == (text is None):
            raise BadRequest("give exactly one of 'scenario' (a name) and 'scenario_text'")
        if name is not None:
            if "/" in name or name.endswith((".yaml", ".yml")):
                raise BadRequest(f"field 'scenario': {name!r} is not a built-in scenario name")
            try:
                return load_scenario(f"{ruleset}/{name}")
            except UnknownName:
                raise NotFound(f"no built-in {ruleset} scenario '{name}'") from None
        with not_too_deep(UPLOAD_WHERE):
            raw = parse_yaml(text or "", UPLOAD_WHERE)
        scenario = scenario_from_raw(raw, UPLOAD_WHERE)
        if scenario.raw.get("unit_files"):
            raise Invalid(f"{UPLOAD_WHERE}: field 'unit_files': {STANDALONE}")
        if scenario.ruleset != ruleset:
            raise Invalid(
                f"{UPLOAD_WHERE}: field 'ruleset': the scenario is for "
                f"'{scenario.ruleset}', not '{ruleset}'"
            )
        return scenario

    def _start(self, game: Game, seats: Mapping[str, str], actions: list[Any]) -> Created:
        sides = list(game.sides())
        chosen = check_seats(seats, sides, game.ruleset.name)
        game_id = secrets.token_hex(6)
        tokens = {side: secrets.token_urlsafe(18) for side in sides if chosen[side] == HUMAN}
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
        # Replay into a fresh game to learn who took each action (for undo).
        fresh = Game(game.scenario, seed=game.seed, rules=game.rule_overrides)
        history = History(fresh)
        for action in actions:
            history.apply(fresh, action)
        live = Live(record, fresh, history)
        self.store.create(record, [msgspec.to_builtins(a) for a in actions])
        with self._loading:
            self._keep(game_id, live)
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
            return view_of(live, seat, None)

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
            return view_of(live, seat, None)

    def undo(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Take back the seat's actions (and the computer's since) to its previous
        decision in this turn and phase, if none of them rolled dice."""
        with self._locked(game_id) as live:
            seat = live.seat_of(token)
            keep, why = live.undo_point(seat)
            if keep is None or seat is None:
                raise Conflict(f"game {game_id}: cannot undo: {why}")
            record = live.record
            game = Game(live.game.scenario, seed=record.seed, rules=record.rules)
            history = History(game)
            for action in live.game.actions[:keep]:
                history.apply(game, action)
            digest = log_digest(game.events)
            self.store.truncate(record.id, keep, "running", digest)
            live.game, live.history = game, history
            live.record = msgspec.structs.replace(record, status="running", digest=digest)
            return view_of(live, seat, None)

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
        self._save(live, game, history)
        self._computer_turns(live)

    def _computer_turns(self, live: Live) -> None:
        """Play the computer seats until a person must decide or the game ends."""
        game = live.game
        side = game.current_player()
        if game.is_over() or side is None or side not in live.players:
            return
        game = game.clone()
        history = live.history.copy()
        taken = 0
        while not game.is_over():
            side = game.current_player()
            if side is None or side not in live.players:
                break
            legal = game.legal_actions()
            if not legal:
                raise RunawayGame(f"side '{side}' must decide but has no legal action")
            rng = computer_rng(live.record.seed, len(game.actions))
            history.apply(game, live.players[side].decide(Seat(game, side), legal, rng))
            taken += 1
            if taken > MAX_COMPUTER_ACTIONS:
                raise RunawayGame(f"game passed {MAX_COMPUTER_ACTIONS} actions without ending")
        self._save(live, game, history)

    def _save(self, live: Live, game: Game, history: History) -> None:
        """Commit the actions `game` has beyond the live game's, then adopt it."""
        start = len(live.game.actions)
        new = [msgspec.to_builtins(a) for a in game.actions[start:]]
        status = "over" if game.is_over() else "running"
        digest = log_digest(game.events)
        self.store.append(live.record.id, start, new, status, digest)
        live.game, live.history = game, history
        live.record = msgspec.structs.replace(live.record, status=status, digest=digest)

    # ---- showing -----------------------------------------------------------------------

    def view(self, game_id: str, token: str | None, step: int | None = None) -> dict[str, Any]:
        """The view for a token's seat (or a spectator), live or at a review step."""
        with self._locked(game_id) as live:
            return view_of(live, live.seat_of(token), step)

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


def review_game(live: Live, step: int) -> Game:
    """The finished game after its first `step` actions (copies kept every
    SNAPSHOT_EVERY actions, so stepping costs a few replays)."""
    with live.lock:
        game = live.game
        if not game.is_over():
            raise Conflict(f"game {live.record.id}: review (step) is for finished games")
        total = len(game.actions)
        if not 0 <= step <= total:
            raise BadRequest(f"field 'step': {step} is not between 0 and {total}")
        base_at = (step // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
        base = live.snapshots.get(base_at)
        if base is None:
            below = max((k for k in live.snapshots if k < base_at), default=None)
            if below is None:
                record = live.record
                base = Game(game.scenario, seed=record.seed, rules=record.rules)
                below = 0
            else:
                base = live.snapshots[below].clone()
            for k in range(below, base_at):
                base.apply(game.actions[k])
                if (k + 1) % SNAPSHOT_EVERY == 0:
                    live.snapshots[k + 1] = base.clone()
            live.snapshots[base_at] = base
        shown = base.clone()
        for k in range(base_at, step):
            shown.apply(game.actions[k])
        return shown


def view_of(live: Live, seat: str | None, step: int | None) -> dict[str, Any]:
    """Build a seat's view of a live game, at a review step if one is given (the
    caller holds the game's lock, so game and history are of the same moment)."""
    game = live.game
    if step is not None:
        game = review_game(live, step)
    keep, _ = live.undo_point(seat) if step is None else (None, "")
    return build_view(
        game,
        game_id=live.record.id,
        seat=seat,
        seats=live.record.seats,
        step=step,
        can_undo=keep is not None,
        unit_sides=live.history.unit_sides,
    )


def file_stem(name: str) -> str:
    """A scenario's name made safe for a download's file name: an uploaded scenario may
    be called anything, and the name goes into a header (quotes, line breaks or
    non-ASCII there would break it), so every other character becomes '-'."""
    return UNSAFE_IN_FILE_NAME.sub("-", name).strip("-.") or "game"


@contextlib.contextmanager
def not_too_deep(where: str) -> Iterator[None]:
    """Refuse an upload whose parsing overflows the stack (lists or mappings nested
    thousands deep) as invalid (422), not as a server error."""
    try:
        yield
    except RecursionError:
        raise Invalid(f"{where}: nested too deeply to read") from None


def decode_action(game: Game, data: Any) -> Any:
    """An action sent as plain data, decoded with the ruleset's action type (400 if bad)."""
    try:
        return msgspec.convert(data, game.ruleset.action_type)
    except msgspec.ValidationError as exc:
        raise BadRequest(f"field 'action': {exc}") from None


def check_seats(seats: Mapping[str, str], sides: list[str], ruleset: str) -> dict[str, str]:
    """Every side of the scenario with a seat kind, each checked (400 naming the side)."""
    for side in seats:
        if side not in sides:
            raise BadRequest(f"field 'seats': no side {side!r}; sides: {', '.join(sides)}")
    chosen: dict[str, str] = {}
    for side in sides:
        kind = seats.get(side)
        if kind is None:
            raise BadRequest(f"field 'seats': side {side!r} needs a seat ({', '.join(SEAT_KINDS)})")
        if kind not in SEAT_KINDS:
            raise BadRequest(
                f"field 'seats.{side}': {kind!r} is not one of {', '.join(SEAT_KINDS)}"
            )
        if kind != HUMAN:
            new_player(kind, ruleset)
        chosen[side] = kind
    return chosen


def parse_seats(text: str | None, sides: list[str]) -> dict[str, str]:
    """`SIDE:KIND,SIDE:KIND` (the open route's query) -> seats; sides not named are human."""
    seats = dict.fromkeys(sides, HUMAN)
    for part in (text or "").split(","):
        if not part.strip():
            continue
        side, sep, kind = part.rpartition(":")
        if not sep or not side.strip():
            raise BadRequest(f"query 'seats': {part!r} is not SIDE:KIND")
        seats[side.strip()] = kind.strip()
    return seats


__all__ = [
    "HUMAN",
    "SEAT_KINDS",
    "Created",
    "Hub",
    "Live",
    "NewGame",
    "Step",
    "view_of",
]
