"""A game in progress: one ruleset, one state, one set of dice, one log."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import msgspec

from dogfight.core.errors import DataError, IllegalAction, UnknownName
from dogfight.core.events import Event, EventLog
from dogfight.core.limits import check_seed, find_problem
from dogfight.core.options import OptionValue, resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.core.ruleset import Outcome, Ruleset
from dogfight.core.scenario import Scenario, load_scenario
from dogfight.dice import Dice, seeded

_GAME_KEYS = itertools.count(1)
"""Keys of games in this process (not random: nothing here reads the global random)."""


class Game:
    """The single API through which a game advances.

    `current_player()`, `legal_actions()`, `check(action)`, `is_legal(action)`,
    `apply(action) -> events`, `is_over()`, `outcome()`, `observation(player)`.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        seed: int = 0,
        rules: Mapping[str, object] | None = None,
        dice: Dice | None = None,
    ) -> None:
        try:
            self.ruleset: Ruleset[Any, Any] = find_ruleset(scenario.ruleset)
        except UnknownName as exc:
            raise DataError(f"{scenario.where}: field 'ruleset': {exc}") from None
        scenario = self.ruleset.resolve_scenario(scenario)
        self.scenario = scenario
        self.seed = check_seed(seed)
        self.rule_overrides: dict[str, object] = dict(rules or {})
        self.options: dict[str, OptionValue] = resolve_options(
            self.ruleset.options,
            (scenario.options, f"{scenario.where}: options"),
            (self.rule_overrides, "--rule"),
        )
        self.dice = dice if dice is not None else seeded(seed)
        log = EventLog(self.dice)
        self.state: Any = self.ruleset.setup(scenario, self.options, log)
        self.events: list[Event] = list(log.events)
        self.actions: list[Any] = []
        self.key: int = next(_GAME_KEYS)
        """Names this game for the players' caches; a clone keeps it (it is the same
        game as far as a player knows), a new or reloaded game gets a fresh one."""
        self._listed: tuple[Any, int, tuple[Any, ...], frozenset[int]] | None = None
        """(state, action count, actions, their ids) of the last `legal_actions` call: see
        `apply` (the actions are kept so that their ids stay theirs)."""

    def sides(self) -> tuple[str, ...]:
        """The names of the sides, in scenario order."""
        return self.ruleset.sides(self.state)

    def current_player(self) -> str | None:
        """The side that decides next, or None when the game is over."""
        return self.ruleset.current_player(self.state)

    def legal_actions(self) -> list[Any]:
        """The legal actions for the side that decides next."""
        if self.is_over():
            return []
        legal = self.ruleset.legal_actions(self.state)
        kept = tuple(legal)
        self._listed = (self.state, len(self.actions), kept, frozenset(map(id, kept)))
        return legal

    def check(self, action: Any) -> None:
        """Raise `IllegalAction` with a reason if `action` cannot be taken now."""
        if self.is_over():
            raise IllegalAction("the game is over")
        # A NaN or infinite heading, offset or count would enter the state and make
        # the saved game unloadable: refused here, for every ruleset.
        problem = find_problem(msgspec.to_builtins(action))
        if problem is not None:
            field, what = problem
            raise IllegalAction(f"action field '{field or '(whole)'}': {what}")
        self.ruleset.check(self.state, action)

    def is_legal(self, action: Any) -> bool:
        """True if `action` can be taken now."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Any) -> list[Event]:
        """Check and carry out `action`; returns the events it caused.

        An action that is one of the very objects the last `legal_actions` listed, with
        no action applied since, is legal by construction: the ruleset's check of it is
        not run again (the random player's and the lab's every step). Any other action,
        an equal copy included, is checked."""
        if not self._was_listed(action):
            self.check(action)
        self._listed = None  # stale from here on (and a large listing is let go at once)
        log = EventLog(self.dice)
        self.ruleset.apply(self.state, action, log)
        if self.dice.pending:
            log.emit("CORE-DICE-1", "dice rolled without a rule event")
        self.actions.append(action)
        self.events.extend(log.events)
        return log.events

    def _was_listed(self, action: Any) -> bool:
        """Whether `action` is itself (not a copy) one the last listing of this very
        state offered, with no action applied since."""
        listed = self._listed
        if listed is None:
            return False
        state, count, _, ids = listed
        return state is self.state and count == len(self.actions) and id(action) in ids

    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.ruleset.outcome(self.state) is not None

    def outcome(self) -> Outcome | None:
        """The outcome, once the game is over."""
        return self.ruleset.outcome(self.state)

    def events_for(self, player: str | None) -> list[Event]:
        """The log as `player` may see it (None: a spectator, public events only), as the
        ruleset shows each event to it (`Ruleset.event_view`)."""
        shown = (self.ruleset.event_view(self.state, e, player) for e in self.events)
        return [e for e in shown if e is not None]

    def observation(self, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator)."""
        return self.ruleset.observation(self.state, player)

    def clone(self) -> Game:
        """An independent copy, dice included: the copy's future is the original's."""
        copy = Game.__new__(Game)
        copy.ruleset = self.ruleset
        copy.scenario = self.scenario
        copy.seed = self.seed
        copy.rule_overrides = dict(self.rule_overrides)
        copy.options = dict(self.options)
        copy.dice = self.dice.clone()
        copy.state = self.state.clone()
        copy.events = list(self.events)
        copy.actions = list(self.actions)
        copy.key = self.key
        copy._listed = None
        return copy


def new_game(
    scenario: Scenario | str, *, seed: int = 0, rules: Mapping[str, object] | None = None
) -> Game:
    """A new game of `scenario`: a `Scenario`, a built-in scenario's name ('furball',
    'RULESET/NAME') or a scenario file's path; `rules` overrides rule options."""
    if isinstance(scenario, str):
        scenario = load_scenario(scenario)
    return Game(scenario, seed=seed, rules=rules)
