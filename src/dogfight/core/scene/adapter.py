"""One board adapter shape for every ruleset: the ruleset's board module supplies four
functions (scene, describe with an observation, envelopes, compose), and this class
gives them the `Board` interface and the read-the-observation-once `describe_all`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dogfight.core.game import Game
from dogfight.core.scene import shapes as S

SceneFn = Callable[[Game, str | None], dict[str, Any]]
DescribeFn = Callable[[Game, Any, Mapping[str, Any]], dict[str, Any]]
EnvelopesFn = Callable[[Game], dict[str, dict[str, Any]]]
ComposeFn = Callable[[Game, str, float, float, float], Any]


class BoardAdapter:
    """A ruleset's board adapter (see `dogfight.web.boards.Board`) made of its functions."""

    def __init__(
        self, scene: SceneFn, describe: DescribeFn, envelopes: EnvelopesFn, compose: ComposeFn
    ) -> None:
        self._scene = scene
        self._describe = describe
        self._envelopes = envelopes
        self._compose = compose

    def scene(self, game: Game, seat: str | None) -> dict[str, Any]:
        """The SCENE for `seat`, built from what that seat may see."""
        return self._scene(game, seat)

    def describe(self, game: Game, action: Any) -> dict[str, Any]:
        """Label, group, unit, target, destination and exact odds of a legal action."""
        return self._describe(game, action, S.observed(game, game.current_player()))

    def describe_all(self, game: Game, actions: list[Any]) -> list[dict[str, Any]]:
        """`describe` for many actions of one decision, reading the observation once."""
        obs = S.observed(game, game.current_player())
        return [self._describe(game, a, obs) for a in actions]

    def envelopes(self, game: Game) -> dict[str, dict[str, Any]]:
        """ENVELOPEs of the units the current player may move now."""
        return self._envelopes(game)

    def compose_move(self, game: Game, unit: str, x: float, y: float, facing: float) -> Any:
        """The movement action taking `unit` to board point (x, y) facing `facing`."""
        return self._compose(game, unit, x, y, facing)
