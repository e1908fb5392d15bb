"""Game files: scenario, options, seed, engine version and the actions taken.

Writing is atomic (a temporary file renamed over the target), so a crash never
leaves half a file; loading checks the format and names what is wrong.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from dogfight import ENGINE_VERSION
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.events import Event
from dogfight.core.files import write_atomic
from dogfight.core.game import Game
from dogfight.core.limits import check_regular_file, check_tree
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import GAME_FILE_FORMAT, scenario_from_raw

FORMAT = GAME_FILE_FORMAT
FORMAT_VERSION = 1


class GameFile(msgspec.Struct, kw_only=True):
    """What a saved game holds."""

    format: str
    format_version: int
    engine: str
    ruleset: str
    seed: int
    scenario: dict[str, Any]
    rules: dict[str, Any]
    """The `--rule` overrides given when the game was made (scenario options are in `scenario`)."""
    actions: list[Any]
    log_digest: str
    """Hash of the event log: replay compares against it to prove the game reproduced."""
    winner: str | None = None
    over: bool = False
    players: dict[str, str] = msgspec.field(default_factory=dict)
    """Who played each side (e.g. 'heuristic'), for the record; replay does not need it."""


def log_digest(events: list[Event]) -> str:
    """A stable hash of an event log."""
    return hashlib.sha256(msgspec.json.encode(events)).hexdigest()


class RunningDigest:
    """`log_digest` of a log that grows, hashing only the events added since it was last
    asked: the JSON of a list is its items' JSON between brackets, split by commas, so
    the hash of the items so far is kept and only the closing bracket is added to a
    copy. A server asks after every action, which would otherwise hash the whole log
    each time. A log that got shorter, or whose last event hashed is no longer the
    same object (another game's log, or one replayed), is hashed again from its start."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256(b"[")
        self._count = 0
        self._last: Event | None = None

    def _restart(self) -> None:
        self._hash, self._count, self._last = hashlib.sha256(b"["), 0, None

    def copy(self) -> RunningDigest:
        """An independent copy (for a copy of the game, which shares the log so far)."""
        other = RunningDigest.__new__(RunningDigest)
        other._hash, other._count, other._last = self._hash.copy(), self._count, self._last
        return other

    def of(self, events: Sequence[Event]) -> str:
        """`log_digest(events)`."""
        if len(events) < self._count or (self._count and events[self._count - 1] is not self._last):
            self._restart()
        encode = msgspec.json.encode
        for event in events[self._count :]:
            if self._count:
                self._hash.update(b",")
            self._hash.update(encode(event))
            self._count += 1
            self._last = event
        closed = self._hash.copy()
        closed.update(b"]")
        return closed.hexdigest()


def to_gamefile(game: Game, players: dict[str, str] | None = None) -> GameFile:
    """Snapshot a game as a game file."""
    outcome = game.outcome()
    return GameFile(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        engine=ENGINE_VERSION,
        ruleset=game.ruleset.name,
        seed=game.seed,
        scenario=game.scenario.raw,
        rules=dict(game.rule_overrides),
        actions=[msgspec.to_builtins(a) for a in game.actions],
        log_digest=log_digest(game.events),
        winner=outcome.winner if outcome else None,
        over=outcome is not None,
        players=dict(players or {}),
    )


def save_game(game: Game, path: Path | str, players: dict[str, str] | None = None) -> Path:
    """Write a game file atomically; an existing file is replaced only when all is written."""
    path = Path(path)
    data = msgspec.json.format(msgspec.json.encode(to_gamefile(game, players)), indent=1)
    return write_atomic(path, data)


def read_gamefile(path: Path | str) -> GameFile:
    """Read and check a game file's envelope."""
    path = Path(path)
    check_regular_file(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror})") from None
    return parse_gamefile(raw, str(path))


def parse_gamefile(raw: bytes, where: str) -> GameFile:
    """Check a game file's envelope from its bytes (`where` names it in errors)."""
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise DataError(f"{where}: not a dogfight game file (damaged JSON: {exc})") from None
    except RecursionError:
        raise DataError(f"{where}: not a dogfight game file (nested too deeply)") from None
    check_tree(data, where)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(f"{where}: not a dogfight game file (field 'format' is not '{FORMAT}')")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        raise DataError(
            f"{where}: field 'format_version': game file version {version!r} is not supported "
            f"(this engine reads version {FORMAT_VERSION})"
        )
    try:
        return msgspec.convert(data, GameFile)
    except msgspec.ValidationError as exc:
        raise DataError(f"{where}: damaged game file: {exc}") from None


def load_game(path: Path | str) -> tuple[Game, GameFile]:
    """Rebuild a saved game by replaying its actions; returns the game and the file."""
    gf = read_gamefile(path)
    return replay_gamefile(gf, str(path)), gf


def replay_gamefile(gf: GameFile, where: str) -> Game:
    """Rebuild the game a checked game file holds by replaying its actions."""
    ruleset = find_ruleset(gf.ruleset)
    scenario = scenario_from_raw(gf.scenario, f"{where}: scenario")
    game = Game(scenario, seed=gf.seed, rules=gf.rules)
    try:
        return replay(game, gf.actions, decode=ruleset.action_type)
    except ReplayError as exc:
        detail = exc.reason if exc.decoding else f"does not replay ({exc.reason})"
        raise DataError(f"{where}: field 'actions[{exc.index}]': {detail}") from None


class ReplayError(DataError):
    """An action of a replay that does not decode or does not apply: which one and why
    (callers reword it for the file or store the actions came from)."""

    def __init__(self, index: int, reason: str, *, decoding: bool) -> None:
        self.index = index
        self.reason = reason
        self.decoding = decoding
        what = "does not decode" if decoding else "does not replay"
        super().__init__(f"action {index} {what} ({reason})")


Step = Callable[[Game, Any], object]
"""How a replay takes one action: `Game.apply`, or a caller's wrapper noting more."""


def replay(
    game: Game,
    actions: Iterable[Any],
    *,
    decode: Any = None,
    apply: Step = Game.apply,
    start: int = 0,
) -> Game:
    """Apply `actions` to `game` in order and return it: the one replay loop, for game
    files, the web's stored games, undo and review alike.

    With `decode` (a ruleset's action type), each action is plain data, as a game file
    or the store holds it, converted to that type first. `apply(game, action)` takes
    each step (it checks the action first, as `Game.apply` does). An action that does
    not decode or apply raises `ReplayError` with its index, counted from `start`; the
    game is then left after the actions before it."""
    for index, action in enumerate(actions, start):
        if decode is not None:
            try:
                action = msgspec.convert(action, decode)
            except msgspec.ValidationError as exc:
                raise ReplayError(index, str(exc), decoding=True) from None
        try:
            apply(game, action)
        except DogfightError as exc:
            raise ReplayError(index, str(exc), decoding=False) from None
    return game


def replay_matches(game: Game, gf: GameFile) -> bool:
    """True if the replayed game's log is identical to the one saved."""
    return log_digest(game.events) == gf.log_digest
