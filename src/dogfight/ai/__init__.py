"""Computer players: the generic ones (random, search) and each ruleset's own, by kind.

A ruleset offers its own players through its `players()` hook (e.g. {'heuristic':
ActaHeuristic, 'heuristic:aggressive': ...}); the kinds here need nothing from the
ruleset. This module names no ruleset: a plugin's players are found the same way as a
built-in one's.

A kind is a name, optionally followed by `:ARG`. A kind a ruleset lists whole (a persona
such as `heuristic:aggressive`) is found as it is; otherwise `NAME:ARG` is a kind that
takes an argument (`search:200`, a search of 200 simulations a decision).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from dogfight.ai.random_player import RandomPlayer
from dogfight.ai.search import SearchPlayer
from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.names import suggest
from dogfight.core.play import Player
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.ruleset import Ruleset

GENERIC_PLAYERS: Mapping[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "search": SearchPlayer,
}
"""Players that work for every ruleset, by kind."""

PLAYERS_WITH_ARG: Mapping[str, Callable[[str], Player]] = {"search": SearchPlayer.with_arg}
"""Generic kinds that take an argument, `NAME:ARG`, by NAME: the factory reads ARG (and
raises `DogfightError` saying what ARG may be)."""


def _ruleset(ruleset: Ruleset | str) -> Ruleset:
    return find_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def players_of(ruleset: Ruleset | str) -> dict[str, Callable[[], Player]]:
    """Every player kind `ruleset` can be played by, generic ones first, with its factory.

    A ruleset's own kind of the same name as a generic one replaces it."""
    rules = _ruleset(ruleset)
    found = dict(GENERIC_PLAYERS)
    found.update({kind.lower(): factory for kind, factory in rules.players().items()})
    return found


def player_kinds(ruleset: Ruleset | str | None = None) -> tuple[str, ...]:
    """The player kinds `ruleset` offers (None: every kind any registered ruleset offers),
    the generic kinds first, then the rulesets' own in the order they give them."""
    rulesets = [_ruleset(ruleset)] if ruleset is not None else all_rulesets()
    kinds = dict.fromkeys(GENERIC_PLAYERS)
    for rules in rulesets:
        kinds.update(dict.fromkeys(players_of(rules)))
    return tuple(kinds)


def make_player(kind: str, ruleset: Ruleset | str) -> Player:
    """A new player of the given kind for a ruleset (by name or the ruleset itself): a
    kind it offers (`players_of`), or `NAME:ARG` for a kind taking an argument.

    Raises `UnknownName` listing the kinds the ruleset offers when it has no such kind,
    `DogfightError` when the argument is not one the kind takes."""
    rules = _ruleset(ruleset)
    offered = players_of(rules)
    folded = kind.strip().lower()
    factory = offered.get(folded)
    if factory is not None:
        return factory()
    name, sep, arg = folded.partition(":")
    with_arg = PLAYERS_WITH_ARG.get(name)
    if sep and with_arg is not None and name in offered:
        return with_arg(arg)
    raise UnknownName(
        f"no player kind '{kind}' for ruleset '{rules.name}'; known kinds: {kinds_text(offered)}"
    )


def kinds_text(kinds: Iterable[str]) -> str:
    """The kinds, comma-separated, each taking an argument shown with it (`search[:N]`)."""
    return ", ".join(f"{k}[:N]" if k in PLAYERS_WITH_ARG else k for k in kinds)


def check_kind(kind: str, kinds: Sequence[str] | None = None) -> str:
    """`kind` in lower case if it is a player kind some registered ruleset offers (or
    one of `kinds`), whole or as `NAME:ARG` with a valid ARG; else `DogfightError`
    listing the kinds. Whether the game's own ruleset offers it is `make_player`'s to
    say."""
    known = tuple(kinds) if kinds is not None else player_kinds()
    folded = kind.strip().lower()
    if folded in known:
        return folded
    name, sep, arg = folded.partition(":")
    with_arg = PLAYERS_WITH_ARG.get(name)
    if not sep or with_arg is None or name not in known:
        hint = suggest(folded, known)
        raise DogfightError(f"no player kind {kind.strip()!r}{hint}; kinds: {kinds_text(known)}")
    with_arg(arg)  # raises, saying what ARG may be
    return folded


def __getattr__(name: str) -> tuple[str, ...]:
    # PLAYER_KINDS is computed when read, so that a ruleset registered after this module
    # was imported (a plugin, a test's fake) shows its kinds too.
    if name == "PLAYER_KINDS":
        return player_kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PLAYER_KINDS: tuple[str, ...]
"""Every kind of computer player some registered ruleset offers. Only declared here:
the module's `__getattr__` computes it each time it is read."""

__all__ = [
    "GENERIC_PLAYERS",
    "PLAYERS_WITH_ARG",
    "PLAYER_KINDS",
    "RandomPlayer",
    "SearchPlayer",
    "check_kind",
    "kinds_text",
    "make_player",
    "player_kinds",
    "players_of",
]
