"""What a browser sends as files, and the one file it gets back.

An uploaded scenario or game file must stand alone: unit files it named would be read
from the server's own disk. Parsing that overflows the stack is refused as invalid,
and a download's file name is made safe for the header that carries it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from dogfight.core.data import parse_yaml
from dogfight.core.errors import UnknownName
from dogfight.core.game import Game
from dogfight.core.gamefile import parse_gamefile, replay_gamefile, replay_matches
from dogfight.core.scenario import Scenario, load_scenario, scenario_from_raw
from dogfight.web.errors import BadRequest, Invalid, NotFound

UPLOAD_WHERE = "uploaded scenario"
GAME_FILE_WHERE = "uploaded game file"
STANDALONE = "an upload must carry its units inline (custom_units), not name files"
"""Unit files would be read from the server's own disk: an upload must stand alone."""
MAX_UPLOAD_UNITS = 200
"""The most units an uploaded scenario may put on the table (documented in
docs/web-api.md): every one costs the computer's turns and the server's memory."""
UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def lobby_scenario(ruleset: str, name: str | None, text: str | None) -> Scenario:
    """The scenario of a new game: a built-in one of `ruleset` by name, or an uploaded
    one's YAML text (exactly one of the two)."""
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


def check_upload_units(game: Game) -> None:
    """Refuse an uploaded scenario with more than `MAX_UPLOAD_UNITS` units on the table
    (counted as the board draws them); larger battles are for `dogfight battle`."""
    board = game.ruleset.board()
    count = len(board.scene(game, None)["units"]) if board is not None else 0
    if count > MAX_UPLOAD_UNITS:
        raise Invalid(
            f"{UPLOAD_WHERE}: {count} units on the table; an uploaded scenario may hold "
            f"at most {MAX_UPLOAD_UNITS} (play larger ones with `dogfight battle`)"
        )


def uploaded_game(raw: bytes) -> Game:
    """The game a game file's bytes hold, replayed and checked against its saved log."""
    where = GAME_FILE_WHERE
    with not_too_deep(where):
        gamefile = parse_gamefile(raw, where)
    if gamefile.scenario.get("unit_files"):
        raise Invalid(f"{where}: field 'scenario.unit_files': {STANDALONE}")
    game = replay_gamefile(gamefile, where)
    if not replay_matches(game, gamefile):
        raise Invalid(f"{where}: the actions replay, but the event log differs from the saved one")
    return game


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
