"""The Ruleset base class: the rules of one seed, holding no game state.

A ruleset turns a scenario into an initial state and then answers, for any
state, whose decision it is, which actions are legal, why an action is not,
and what happens when one is applied. `Game` wraps a ruleset, a state and the
game's dice into the one API that players, the CLI and tests use.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol

import msgspec

from dogfight.core.data import package_data
from dogfight.core.events import Event, EventLog, visible_to
from dogfight.core.names import resolve
from dogfight.core.options import Option, OptionValue
from dogfight.core.scenario import Scenario

if TYPE_CHECKING:
    from typing import Self

    from typing_extensions import TypeVar

    from dogfight.core.encoding import Encoding
    from dogfight.core.hooks import Board, Command, LabSetup
    from dogfight.core.play import Player
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, *, bound: Any = None, default: Any = None) -> Any:
        """typing.TypeVar, which takes no `default` before Python 3.13: the default
        (what a bare `Ruleset` means) matters to type checkers only."""
        return _TypeVar(name, bound=bound)


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a game ended: the winning side (None for a draw) and why."""

    winner: str | None
    reason: str
    scores: dict[str, float] = msgspec.field(default_factory=dict)


class UnitRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One unit of a battle as statistics see it: who, what, how strong, how it ended.

    A roster lists every unit a side fielded, those destroyed or removed included.
    """

    id: str
    side: str
    type: str
    strength: float
    """Full strength, in the ruleset's own measure (damage points, models, structure)."""
    remaining: float
    """Strength left at the end: 0 once destroyed or removed from the battle."""
    destroyed: bool = False
    """Out of the battle for good by damage (not by leaving the table)."""
    destroyed_by: str | None = None
    """Id of the unit that destroyed it, when the rules know it."""
    destroyed_by_side: str | None = None
    destroyed_by_type: str | None = None
    """Side and type of that unit as it was then, for rulesets where its id may leave
    the roster (a fighter recovered aboard a ship may be listed by its slot there)."""


class State(Protocol):
    """Everything the core reads of a ruleset's state (and nothing more: the rest is
    the ruleset's own). Read-only here: a plain field of the state's Struct will do.

    The core also turns a state into plain data (`msgspec.to_builtins`) for the default
    observation and for game files, so a state is a msgspec Struct or plain values."""

    @property
    def turn(self) -> int:
        """The game turn, from 1 (reports, turn limits)."""
        ...

    @property
    def sides(self) -> Sequence[str]:
        """The sides' names in scenario order (`Ruleset.sides`)."""
        ...

    @property
    def active(self) -> str | None:
        """The side that decides next ('' or None: nobody), read by the default
        `Ruleset.current_player`."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, read by the default `Ruleset.outcome`."""
        ...

    def clone(self) -> Self:
        """An independent copy: changing one never changes the other."""
        ...


S = TypeVar("S", bound=State, default=Any)
"""A ruleset's state type (a bare `Ruleset` means `Ruleset[Any, Any]`)."""
A = TypeVar("A", default=Any)
"""A ruleset's action type (usually a tagged union of msgspec Structs)."""


class Ruleset(ABC, Generic[S, A]):
    """The rules of one seed, generic over its state type `S` and action type `A`.

    A ruleset declares them (`class ActaRuleset(Ruleset[ActaState, ActaAction])`), so
    that the type checker holds every hook to them. Subclasses fill in the hooks below.
    """

    name: ClassVar[str]
    """Registry name, in lower case (a command line's RULESET)."""
    data_name: ClassVar[str]
    """The folder under the package's `data/` holding this ruleset's data (scenarios,
    unit catalogue): a subclass registered under a new name inherits its parent's, and
    with it the parent's scenarios and units. A class that sets `name` and inherits no
    `data_name` gets its `name` (see `__init_subclass__`)."""
    title: ClassVar[str]
    """A line for people."""
    aliases: ClassVar[tuple[str, ...]] = ()
    """Other names it is found by; not inherited by a subclass that sets its own `name`."""
    options: ClassVar[tuple[Option, ...]] = ()
    """Every rule option this ruleset understands, with its default."""
    phase_names: ClassVar[Mapping[str, str]] = {}
    """Names for people of the state's phases (e.g. 'fighter_move': 'Fighter movement');
    `phase_name` falls back to the phase's own words."""
    action_type: ClassVar[Any]
    """The msgspec type (a tagged union) of this ruleset's actions, for game files."""
    score_meaning: ClassVar[str] = "share of the enemy destroyed"
    """What an Outcome's `scores` measure, said where they are printed ('Scores (share
    of the enemy's starting Damage destroyed): ...'); a fraction from 0 to 1."""
    search_budget: ClassVar[int] = 24
    """Simulations the search player spends on a decision unless told (`search:N`): set
    so that a decision takes about half a second (docs/players.md, The search player)."""
    search_horizon: ClassVar[int] = 1
    """Turn ends a search playout crosses before its position is valued (0: it stops at
    the end of the turn being decided): far enough for a decision to show its effect,
    short enough for `search_budget` playouts in half a second."""
    quick_scenario: ClassVar[str] = ""
    """A short built-in scenario for benchmarks that play many games (`bench --web`):
    the first side a person, the second the computer ("": the first built-in)."""
    unit_file_keys: ClassVar[tuple[frozenset[str], ...]] = ()
    """Sets of fields that mark a unit file as this ruleset's: a file with every field
    of one set is taken to be one (e.g. {'agility', 'target'})."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A ruleset class that names itself and inherits no data folder keeps its data
        # under its own name; a subclass of it inherits that folder with the rest.
        if "name" in cls.__dict__ and getattr(cls, "data_name", None) is None:
            cls.data_name = cls.name
        # Aliases are other names of the parent's own name: a subclass under a new name
        # that declares none has none (registering it would take the parent's).
        if "name" in cls.__dict__ and "aliases" not in cls.__dict__:
            cls.aliases = ()

    @abstractmethod
    def setup(self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog) -> S:
        """Validate the scenario and build the initial state, advanced to the first decision."""

    def current_player(self, state: S) -> str | None:
        """The side that must decide next, or None when the game is over.

        The default reads the state's `outcome` and `active` fields."""
        return None if state.outcome is not None else (state.active or None)

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        """A finite, representative list of legal actions for the current player."""

    @abstractmethod
    def check(self, state: S, action: A) -> None:
        """Raise `IllegalAction` with a reason if `action` is not legal now."""

    @abstractmethod
    def apply(self, state: S, action: A, log: EventLog) -> None:
        """Carry out a checked action, changing `state` in place and logging events."""

    def outcome(self, state: S) -> Outcome | None:
        """The outcome once the game is over, else None (default: the state's `outcome`)."""
        return state.outcome

    def observation(self, state: S, player: str | None) -> dict[str, Any]:
        """What `player` may see of the state (None: a spectator).

        The default shows everything but the unit-type tables: a ruleset with hidden
        information overrides it."""
        data = msgspec.to_builtins(state)
        data.pop("types", None)
        return dict(data)

    def event_view(self, state: Any, event: Event, player: str | None) -> Event | None:
        """The event as `player` may be shown it (None: a spectator), or None if it may
        not see it at all.

        The default shows an event to everyone unless it is private to another side
        (`events.visible_to`). A ruleset that names units differently to each side (an
        alias that hides what a unit is) rewrites the event here."""
        return event if visible_to(event, player) else None

    @abstractmethod
    def unit_names(self) -> list[str]:
        """Ids of the unit types in this ruleset's catalog."""

    @abstractmethod
    def describe_unit(self, name: str) -> dict[str, Any]:
        """A unit type's full profile as plain data (raises UnknownName). `name` is any
        name `unit_id` accepts."""

    def unit_id(self, name: str) -> str:
        """The id of the unit type a person means by `name`: its id or printed name in
        any case, with or without diacritics and apostrophes, a short name or a unique
        prefix (`core.names.resolve`); refused with "did you mean" and the known ids."""
        if name in self.unit_names():
            return name
        printed = {n: self.describe_unit(n).get("name") for n in self.unit_names()}
        names = {n: p if isinstance(p, str) else None for n, p in printed.items()}
        return resolve(name, names, f"{self.name} unit type")

    @abstractmethod
    def check_unit_file(self, path: Path) -> str:
        """Validate one unit file (raises DataError naming the field); a line saying what it is."""

    def resolve_scenario(self, scenario: Scenario) -> Scenario:
        """The scenario with anything it refers to outside itself (unit files...) read
        in, so that a game file holding it stands alone. The default changes nothing."""
        return scenario

    def scenario_warnings(
        self, scenario: Scenario, options: Mapping[str, OptionValue]
    ) -> list[str]:
        """Things in a valid scenario that do nothing under these options (for
        `dogfight validate`). The default finds none."""
        return []

    # ---- what players may know (core/seat.py) ----

    def known_state(self, state: S, side: str) -> S:
        """The state as `side` may know it, for its computer player to read (not change).

        The default is the state itself: right for a ruleset whose state holds no
        secret of either side (dice live in the Game, not the state). A ruleset with
        hidden information returns a copy without what `side` may not know."""
        return state

    def sample_state(self, state: S, side: str, rng: random.Random) -> S:
        """An independent state consistent with what `side` knows: the other sides'
        secrets drawn at random (with `rng`) from what is legal. The default clones
        `known_state`."""
        return self.known_state(state, side).clone()

    # ---- what the layers above ask of a ruleset (core/hooks.py) ----

    def actor_of(self, action: A) -> str | None:
        """The unit that `action` moves, fires or decides for; None for a choice of the
        whole side (ending a phase, an order of play). The search player weighs other
        actions of the unit its guide would act with first, rather than the first
        actions of other units, which differ little in value. The default knows no units."""
        return None

    def phase_name(self, phase: str | None) -> str:
        """A phase as people say it: its entry in `phase_names`, else its id in words."""
        if not phase:
            return ""
        return self.phase_names.get(phase) or phase.replace("_", " ").capitalize()

    def players(self) -> Mapping[str, Callable[[], Player]]:
        """This ruleset's own computer players by kind (e.g. 'heuristic'); the generic
        ones (random, search) need no entry here."""
        return {}

    def board(self) -> Board | None:
        """What the browser draws and offers for this ruleset (None: no board)."""
        return None

    def lab(self) -> LabSetup | None:
        """The lab's set-up for this ruleset: duel board, default roster, side builder."""
        return None

    def commands(self) -> tuple[Command, ...]:
        """This ruleset's own CLI commands (odds kinds, importers, design checkers)."""
        return ()

    def encoding(self, state: S) -> Encoding:
        """This ruleset's fixed action numbering and observation vector for the game
        whose first state is `state` (`core.encoding.Encoding`), for `dogfight.rl`.

        The default has none: a ruleset offers learning environments by returning one."""
        raise NotImplementedError(
            f"ruleset '{self.name}' has no action encoding for learning (Ruleset.encoding)"
        )

    def data_folder(self) -> Path:
        """The folder of this ruleset's data files: `scenarios/` (the built-in scenarios)
        and whatever catalogue the ruleset itself reads. The default is the package's
        `data/<data_name>`; a ruleset shipped in another package returns its own."""
        return package_data(self.data_name)

    def rules_text(self) -> tuple[str, ...]:
        """File names in this ruleset's data folder (`data_folder()`) holding its rule
        clauses, searched in order; shipped with the package, so the clause links of an
        installed server work. The default is `rules.md`."""
        return ("rules.md",)

    def sides(self, state: S) -> tuple[str, ...]:
        """The names of the sides, in scenario order."""
        return tuple(state.sides)

    def summary(self, state: S) -> dict[str, Any]:
        """Plain-data summary of a state (turn, surviving units per side) for reports."""
        return {"turn": state.turn}

    def standing(self, state: S) -> dict[str, float]:
        """Each side's score so far, higher better, as the turn limit would count it:
        the search player values the positions where its playouts stop with it.

        The default, from the roster, is the share of the enemy's fielded strength that
        is gone; a ruleset whose turn limit counts otherwise returns its own count."""
        records = self.roster(state)
        fielded: dict[str, float] = {}
        left: dict[str, float] = {}
        for record in records:
            fielded[record.side] = fielded.get(record.side, 0.0) + record.strength
            left[record.side] = left.get(record.side, 0.0) + record.remaining
        sides = self.sides(state)
        out = {}
        for side in sides:
            enemies = [s for s in sides if s != side]
            total = sum(fielded.get(s, 0.0) for s in enemies)
            gone = total - sum(left.get(s, 0.0) for s in enemies)
            out[side] = gone / total if total else 0.0
        return out

    def roster(self, state: S) -> list[UnitRecord]:
        """Every unit fielded so far, destroyed and removed ones included, in id order.

        The default knows no units; rulesets fill it in for batch statistics."""
        return []

    def swap_sides(self, scenario: Scenario) -> Scenario:
        """The scenario with its two sides exchanged in the side order and in whatever
        decides who moves first, so that a batch can cancel first-mover bias.

        The default reverses the raw `sides` list (side order breaks ties in every
        ruleset); rulesets with initiative fields swap those too."""
        return swap_side_order(scenario)


def swap_side_order(scenario: Scenario, exchange: tuple[str, ...] = ()) -> Scenario:
    """The scenario with its raw `sides` list reversed and, for each field named in
    `exchange`, the two sides' values of it exchanged (a field one side lacks moves
    to the other as absent): the forces keep their units but not their place.

    A scenario without a list of two sides is returned unchanged (setup refuses it)."""
    sides = scenario.raw.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        return scenario
    if not all(isinstance(side, dict) for side in sides):
        return scenario
    first, second = dict(sides[0]), dict(sides[1])
    for field in exchange:
        a, b = first.pop(field, _ABSENT), second.pop(field, _ABSENT)
        if b is not _ABSENT:
            first[field] = b
        if a is not _ABSENT:
            second[field] = a
    raw = dict(scenario.raw)
    raw["sides"] = [second, first]
    return msgspec.structs.replace(scenario, raw=raw)


_ABSENT = object()
