"""The game-agnostic core: rulesets, games, events, options, scenarios, game files."""

from dogfight.core.errors import (
    DataError,
    DogfightError,
    IllegalAction,
    OptionError,
    UnknownName,
)
from dogfight.core.events import Event, EventLog
from dogfight.core.game import Game, new_game
from dogfight.core.options import Option, OptionValue, parse_rule_args, resolve_options
from dogfight.core.play import Player, RunawayGame, play
from dogfight.core.registry import all_rulesets, find_ruleset, register
from dogfight.core.ruleset import Outcome, Ruleset, State
from dogfight.core.scenario import (
    Scenario,
    builtin_scenario_files,
    builtin_scenarios,
    load_scenario,
)
from dogfight.core.seat import Seat

__all__ = [
    "DataError",
    "DogfightError",
    "Event",
    "EventLog",
    "Game",
    "IllegalAction",
    "Option",
    "OptionError",
    "OptionValue",
    "Outcome",
    "Player",
    "Ruleset",
    "RunawayGame",
    "Scenario",
    "Seat",
    "State",
    "UnknownName",
    "all_rulesets",
    "builtin_scenario_files",
    "builtin_scenarios",
    "find_ruleset",
    "load_scenario",
    "new_game",
    "parse_rule_args",
    "play",
    "register",
    "resolve_options",
]
