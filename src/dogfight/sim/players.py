"""Choosing computer players for the sides of a battle, and seeding them."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from dogfight.ai import check_kind, make_player, player_kinds
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.names import suggest
from dogfight.core.play import Player
from dogfight.core.ruleset import Ruleset

DEFAULT_KIND = "heuristic"
"""The player kind of every side not named with `--ai`."""

PLAYER_SEED_SALT = 0x5EED_CAFE
"""XORed into a game's seed to seed its players' generator: the players never share
the dice's stream, so changing a player does not change the dice of the rules."""


class PlayerUnavailable(DogfightError):
    """A known player kind whose code cannot be loaded (e.g. not written yet)."""


def player_rng(seed: int) -> random.Random:
    """The players' own generator for the game with this seed."""
    return random.Random(seed ^ PLAYER_SEED_SALT)


def new_player(kind: str, ruleset: Ruleset | str) -> Player:
    """A fresh player of `kind` for `ruleset` (its name or the ruleset itself).

    Raises `UnknownName` for a kind the ruleset does not offer (listing those it does)
    and `PlayerUnavailable` when its module cannot be imported.
    """
    try:
        return make_player(kind, ruleset)
    except ImportError as exc:
        name = ruleset if isinstance(ruleset, str) else ruleset.name
        raise PlayerUnavailable(
            f"the {kind} player for {name} is not available ({exc}); try --ai SIDE=random"
        ) from None


def side_names(game: Game) -> list[str]:
    """The names of the sides of a game, in scenario order."""
    return list(game.sides())


def parse_ai_args(
    args: Sequence[str],
    sides: Sequence[str],
    *,
    default: str = DEFAULT_KIND,
    kinds: Sequence[str] | None = None,
) -> dict[str, str]:
    """Map every side to a player kind from `--ai SIDE=KIND` arguments.

    Sides are matched exactly, else case-insensitively; sides not named get
    `default`. A kind must be one of `kinds` (default: every kind some registered
    ruleset offers; `check_players` then asks the game's own ruleset), or `NAME:ARG`
    for one of them taking an argument (`search:200`). Raises
    `DogfightError` naming the bad side or kind.
    """
    known = tuple(kinds) if kinds is not None else player_kinds()
    players = {side: default for side in sides}
    for arg in args:
        side_text, sep, kind_text = arg.partition("=")
        side_text, kind = side_text.strip(), kind_text.strip().lower()
        if not sep or not side_text or not kind:
            raise DogfightError(f"--ai takes SIDE=KIND (e.g. {sides[0]}=random), not {arg!r}")
        side = _match_side(side_text, sides)
        if side is None:
            hint = suggest(side_text, sides)
            raise DogfightError(
                f"--ai {arg}: no side {side_text!r} in this scenario{hint}; "
                f"sides: {', '.join(sides)}"
            )
        try:
            players[side] = check_kind(kind, known)
        except DogfightError as exc:
            raise DogfightError(f"--ai {arg}: {exc}") from None
    return players


def _match_side(text: str, sides: Sequence[str]) -> str | None:
    if text in sides:
        return text
    folded = [s for s in sides if s.lower() == text.lower()]
    return folded[0] if len(folded) == 1 else None


def check_players(players: Mapping[str, str], ruleset: Ruleset | str) -> None:
    """Make each kind once, so that an unavailable player fails before any battle."""
    for kind in sorted(set(players.values())):
        new_player(kind, ruleset)
