"""What the server notes beside a web game as actions are applied, for undo and the log.

Who took each action, in which turn and phase, and whether it rolled dice (undo never
takes back a roll); and the side of every unit the game has had that its events name,
even one destroyed since (the log shows the side of the unit an event names).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.gamefile import RunningDigest, replay
from dogfight.core.scenario import Scenario
from dogfight.web.views import names_unknown, unit_sides_of


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """Who took one action, when, and whether it rolled dice (what undo needs)."""

    side: str
    turn: int
    phase: str | None
    rolled: bool
    events: int = 0
    """How many events the game had once this action was applied (the log groups an
    action's events by it)."""


class History:
    """The steps of a game and the side of every unit it has had (see the module)."""

    def __init__(self, game: Game) -> None:
        self.steps: list[Step] = []
        self.start_events = len(game.events)
        """Events the game had before its first action (the setup's)."""
        self.unit_sides: dict[str, str] = unit_sides_of(game)
        self.digest = RunningDigest()
        """The log's digest, kept as the game grows (what every commit stores)."""

    def copy(self) -> History:
        """An independent copy, to go with a copy of the game."""
        other = History.__new__(History)
        other.steps = list(self.steps)
        other.start_events = self.start_events
        other.unit_sides = dict(self.unit_sides)
        other.digest = self.digest.copy()
        return other

    def apply(self, game: Game, action: Any) -> None:
        """Apply an action to `game` (checked first), noting what undo and the log need."""
        state = game.state
        side = game.current_player() or ""
        turn, phase = getattr(state, "turn", 0), getattr(state, "phase", None)
        events = game.apply(action)
        rolled = any(e.rolls for e in events)
        self.steps.append(
            Step(side=side, turn=turn, phase=phase, rolled=rolled, events=len(game.events))
        )
        # The state is scanned again only when an event names a unit or side not yet
        # known: a scan converts the whole state, and every action paid for one.
        if names_unknown(events, self.unit_sides):
            self.unit_sides.update(unit_sides_of(game))

    def undo_point(self, game: Game, seat: str) -> tuple[int | None, str]:
        """How many of `game`'s actions to keep to take back `seat`'s last decision in
        this turn and phase (and the computer's since), or None and why not."""
        state = game.state
        turn, phase = getattr(state, "turn", 0), getattr(state, "phase", None)
        for index in range(len(self.steps) - 1, -1, -1):
            step = self.steps[index]
            if step.rolled:
                return None, "nothing to undo: an action since your last decision rolled dice"
            if step.turn != turn or step.phase != phase:
                break
            if step.side == seat:
                return index, ""
        return None, "nothing to undo in this turn and phase"


def replayed(
    scenario: Scenario,
    seed: int,
    rules: Mapping[str, Any],
    actions: Sequence[Any],
    *,
    decode: Any = None,
) -> tuple[Game, History]:
    """A new game of `scenario` with `actions` replayed into it, and its history (the
    one replay loop of core/gamefile.py; `decode` as there, for stored plain data).
    Raises `ReplayError` for an action that does not decode or replay."""
    game = Game(scenario, seed=seed, rules=rules)
    history = History(game)
    replay(game, actions, decode=decode, apply=history.apply)
    return game, history
