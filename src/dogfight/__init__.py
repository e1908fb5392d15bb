"""dogfight: an engine for tabletop space-fighter combat.

Several rule systems (rulesets) share one engine; each is a plugin found by name with
`find_ruleset(name)` (`all_rulesets()` lists them). Start a game with
`new_game(scenario, seed=...)`, a built-in scenario's name or a scenario file, and play
it to the end with one computer player per side:

>>> import random
>>> import dogfight
>>> game = dogfight.new_game("furball", seed=3)
>>> game.ruleset is dogfight.find_ruleset(game.scenario.ruleset)
True
>>> players = {side: dogfight.make_player("random", game.ruleset) for side in game.sides()}
>>> dogfight.play(game, players, random.Random(1)).is_over()
True
>>> game.outcome().winner in (*game.sides(), None)
True

Or decide yourself: `game.legal_actions()`, `game.apply(action)`, and what one side
may know of the game is `dogfight.Seat(game, side)`. The names here are imported when
first used, so that `import dogfight.geometry` (say) loads no layer above it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

ENGINE_VERSION = __version__
"""Written into every game file; replay refuses files from another major version."""

_EXPORTS = {
    "DataError": "dogfight.core.errors",
    "DogfightError": "dogfight.core.errors",
    "IllegalAction": "dogfight.core.errors",
    "UnknownName": "dogfight.core.errors",
    "Event": "dogfight.core.events",
    "Game": "dogfight.core.game",
    "new_game": "dogfight.core.game",
    "Player": "dogfight.core.play",
    "play": "dogfight.core.play",
    "all_rulesets": "dogfight.core.registry",
    "find_ruleset": "dogfight.core.registry",
    "register": "dogfight.core.registry",
    "Outcome": "dogfight.core.ruleset",
    "Ruleset": "dogfight.core.ruleset",
    "State": "dogfight.core.ruleset",
    "Scenario": "dogfight.core.scenario",
    "builtin_scenarios": "dogfight.core.scenario",
    "load_scenario": "dogfight.core.scenario",
    "Seat": "dogfight.core.seat",
    "make_player": "dogfight.ai",
    "player_kinds": "dogfight.ai",
}
"""Each public name and the module it comes from."""

if TYPE_CHECKING:
    from dogfight.ai import make_player, player_kinds
    from dogfight.core.errors import DataError, DogfightError, IllegalAction, UnknownName
    from dogfight.core.events import Event
    from dogfight.core.game import Game, new_game
    from dogfight.core.play import Player, play
    from dogfight.core.registry import all_rulesets, find_ruleset, register
    from dogfight.core.ruleset import Outcome, Ruleset, State
    from dogfight.core.scenario import Scenario, builtin_scenarios, load_scenario
    from dogfight.core.seat import Seat


def __getattr__(name: str) -> Any:
    # Imported on first use: the package's own __init__ runs before any of its layers,
    # and importing them all here would make every layer import every other.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dogfight' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = [
    "ENGINE_VERSION",
    "DataError",
    "DogfightError",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "Player",
    "Ruleset",
    "Scenario",
    "Seat",
    "State",
    "UnknownName",
    "__version__",
    "all_rulesets",
    "builtin_scenarios",
    "find_ruleset",
    "load_scenario",
    "make_player",
    "new_game",
    "play",
    "player_kinds",
    "register",
]
