"""The computer's decisions and the views of games, made in worker processes outside
the server's own.

Under the GIL a computer player thinking on a thread of the server slows every request
the server answers, and so does building a view (the legal actions listed and
described, the board's scene, the odds). A worker process does both instead: it is
sent the game as the store has it (its header and the actions taken), rebuilds it by
replay (or goes on from its own copy of the game, kept from its last task there), and
decides with the same player kind and the same generator as the server would
(`computer_rng`), or builds the view the server would (`review.view_of`). The server
applies and commits the action, so a game decided in a worker is the very game
decided inline.
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
from dogfight.sim.players import PLAYER_SEED_SALT
from dogfight.web.cache import Live
from dogfight.web.history import replayed
from dogfight.web.review import step_view, view_of
from dogfight.web.seats import HUMAN
from dogfight.web.store import GameRecord
from dogfight.web.views import packed

WORKER_GAMES = 64
"""Games a worker process keeps (each with its players) to go on from at its next
task there (a server sends each game to the same worker); past it the least recently
used are dropped (and replayed if asked again)."""


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
    """A game sent to a worker: its header and the actions taken so far (the ruleset's
    action values, as the server holds them)."""

    record: GameRecord
    actions: tuple[Any, ...]


# This worker process's games, least recently used first, each with its computer
# players (made at their first decision).
_lives: OrderedDict[str, Live] = OrderedDict()


def _live(ask: Ask) -> Live:
    """This worker's copy of the game, gone on from its last copy while that is a prefix
    (not after an undo, or a game replaced under the same id), else replayed."""
    record = ask.record
    live = _lives.pop(record.id, None)
    if live is not None:
        held = live.game.actions
        if (
            live.record.seed != record.seed
            or len(held) > len(ask.actions)
            or list(ask.actions[: len(held)]) != held
        ):
            live = None
    if live is None:
        scenario = scenario_from_raw(record.scenario, f"game {record.id}: scenario")
        game, history = replayed(scenario, record.seed, record.rules, ())
        live = Live(record, game, history)
    for action in ask.actions[len(live.game.actions) :]:
        live.history.apply(live.game, action)
    live.record = record
    _lives[record.id] = live
    while len(_lives) > WORKER_GAMES:
        _lives.popitem(last=False)
    return live


def decide_in_worker(ask: Ask) -> Any:
    """Run in a worker process: the action the computer takes next in `ask`'s game."""
    live = _live(ask)
    side = live.game.current_player()
    if side is None or live.record.seats.get(side, HUMAN) == HUMAN:
        raise RunawayGame(f"game {live.record.id}: no computer seat decides now")
    return decide(live.players, live.game, side)


def view_in_worker(ask: Ask, seat: str | None, step: int | None) -> dict[str, Any]:
    """Run in a worker process: the view of `ask`'s game for `seat` at review `step`
    (built as the server would: `review.view_of` on the same game and history), its
    bulky parts encoded (`views.packed`)."""
    return packed(view_of(_live(ask), seat, step))


def step_view_in_worker(ask: Ask, seat: str | None, step: int) -> dict[str, Any]:
    """Run in a worker process: the view of `ask`'s game for `seat` after its first
    `step` actions (`review.step_view`, as the server would build it), packed."""
    return packed(step_view(_live(ask), seat, step))
