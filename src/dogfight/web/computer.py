"""The computer's decisions, made in worker processes outside the server's own.

Under the GIL a computer player thinking on a thread of the server slows every request
the server answers. A worker process decides instead: it is sent the game as the store
has it (scenario, options, seed and the actions taken), rebuilds it by replay (or goes
on from its own copy of the game, kept from its last decision there), decides with the
same player kind and the same generator as the server would (`computer_rng`), and
sends back the action. The server applies and commits it, so a game decided in a
worker is the very game decided inline.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.play import Player, RunawayGame
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.sim.players import PLAYER_SEED_SALT, new_player
from dogfight.web.seats import HUMAN

WORKER_GAMES = 16
"""Games a worker process keeps (each with its players) to go on from at its next
decision there; past it the least recently used are dropped (and replayed if asked)."""


def computer_rng(seed: int, version: int) -> random.Random:
    """The computer's generator for its decision at `version`: keyed by the position, so
    the same game decides the same after a restart, an undo, or in another process."""
    return random.Random((seed ^ PLAYER_SEED_SALT) * 1_000_003 + version)


def decide(players: Mapping[str, Player], game: Game, side: str) -> Any:
    """The action `side`'s computer player chooses in `game` (what every path to a
    computer decision calls: inline, on a thread, or in a worker process)."""
    legal = game.legal_actions()
    if not legal:
        raise RunawayGame(f"side '{side}' must decide but has no legal action")
    rng = computer_rng(game.seed, len(game.actions))
    return players[side].decide(Seat(game, side), legal, rng)


class Ask(msgspec.Struct, frozen=True, kw_only=True):
    """One decision asked of a worker: the game as the store holds it, and the seats."""

    game_id: str
    ruleset: str
    scenario: dict[str, Any]
    rules: dict[str, Any]
    seed: int
    seats: dict[str, str]
    actions: tuple[Any, ...]
    """The actions taken so far (the ruleset's action values, as the server holds them)."""


# This worker process's games, least recently used first: (game, its players).
_games: OrderedDict[str, tuple[Game, dict[str, Player]]] = OrderedDict()


def decide_in_worker(ask: Ask) -> Any:
    """Run in a worker process: the action the computer takes next in `ask`'s game."""
    kept = _games.pop(ask.game_id, None)
    if kept is not None:
        held = kept[0].actions
        # Go on from this worker's copy only if it is a prefix of the game now (not
        # after an undo, or a game replaced under the same id).
        if len(held) > len(ask.actions) or list(ask.actions[: len(held)]) != held:
            kept = None
    if kept is not None:
        game, players = kept
    else:
        scenario = scenario_from_raw(ask.scenario, f"game {ask.game_id}: scenario")
        game = Game(scenario, seed=ask.seed, rules=ask.rules)
        players = {
            side: new_player(kind, ask.ruleset) for side, kind in ask.seats.items() if kind != HUMAN
        }
    for action in ask.actions[len(game.actions) :]:
        game.apply(action)
    _games[ask.game_id] = (game, players)
    while len(_games) > WORKER_GAMES:
        _games.popitem(last=False)
    side = game.current_player()
    if side is None or side not in players:
        raise RunawayGame(f"game {ask.game_id}: no computer seat decides now")
    return decide(players, game, side)
