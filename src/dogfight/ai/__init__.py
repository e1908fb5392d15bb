"""Computer players: the generic ones (random) and each ruleset's own, found by kind.

A ruleset offers its own players through its `players()` hook (e.g. {'heuristic':
ActaHeuristic}); the kinds here need nothing from the ruleset. This module names no
ruleset: a plugin's players are found the same way as a built-in one's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dogfight.ai.random_player import RandomPlayer
from dogfight.core.errors import UnknownName
from dogfight.core.play import Player
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.ruleset import Ruleset

GENERIC_PLAYERS: Mapping[str, Callable[[], Player]] = {"random": RandomPlayer}
"""Players that work for every ruleset, by kind."""


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
    """A new player of the given kind for a ruleset (by name or the ruleset itself).

    Raises `UnknownName` listing the kinds the ruleset offers when it has no such kind."""
    rules = _ruleset(ruleset)
    offered = players_of(rules)
    factory = offered.get(kind.lower())
    if factory is None:
        raise UnknownName(
            f"no player kind '{kind}' for ruleset '{rules.name}'; known kinds: {', '.join(offered)}"
        )
    return factory()


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
    "PLAYER_KINDS",
    "RandomPlayer",
    "make_player",
    "player_kinds",
    "players_of",
]
