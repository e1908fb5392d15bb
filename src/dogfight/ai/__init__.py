"""Players: the random player and each ruleset's heuristic player."""

from __future__ import annotations

from collections.abc import Callable

from dogfight.ai.random_player import RandomPlayer
from dogfight.core.errors import UnknownName
from dogfight.core.play import Player

PLAYER_KINDS = ("random", "heuristic")
"""Kinds of computer player the CLI offers."""


def _heuristic(ruleset: str) -> Player:
    if ruleset == "acta":
        from dogfight.rulesets.acta.heuristic import ActaHeuristic

        return ActaHeuristic()
    if ruleset == "evo":
        from dogfight.rulesets.evo.heuristic import EvoHeuristic

        return EvoHeuristic()
    if ruleset == "sfa":
        from dogfight.rulesets.sfa.heuristic import SfaHeuristic

        return SfaHeuristic()
    raise UnknownName(f"no heuristic player for ruleset '{ruleset}' yet")


_FACTORIES: dict[str, Callable[[str], Player]] = {
    "random": lambda ruleset: RandomPlayer(),
    "heuristic": _heuristic,
}


def make_player(kind: str, ruleset: str) -> Player:
    """A new player of the given kind for a ruleset ('random' or 'heuristic')."""
    factory = _FACTORIES.get(kind.lower())
    if factory is None:
        raise UnknownName(f"no player kind '{kind}'; known kinds: {', '.join(PLAYER_KINDS)}")
    return factory(ruleset)


__all__ = ["PLAYER_KINDS", "RandomPlayer", "make_player"]
