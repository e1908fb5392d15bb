"""What a ruleset offers the layers above the core, as plain values and protocols.

The CLI, the lab and the browser never name a ruleset: they ask it through the hooks of
`Ruleset` (players, board, lab, commands, rules_text), whose answers are typed here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol

import msgspec

from dogfight.core.errors import DogfightError
from dogfight.core.options import OptionValue

if TYPE_CHECKING:
    from dogfight.core.game import Game
    from dogfight.core.ruleset import Ruleset


# ---- the browser -----------------------------------------------------------------------


class Board(Protocol):
    """One ruleset's board adapter: what the browser draws and offers for it.

    It reads only `game.observation(seat)` for the scene; the JSON shapes are specified
    in docs/web-api.md."""

    def scene(self, game: Game, seat: str | None) -> dict[str, Any]:
        """The SCENE for `seat` (None: a spectator), built from `game.observation(seat)` only."""
        ...

    def describe(self, game: Game, action: Any) -> dict[str, Any]:
        """An ACTION view without `index` and `action`: kind, group, label, unit, target,
        dest, odds. `action` is one of `game.legal_actions()`."""
        ...

    def envelopes(self, game: Game) -> dict[str, dict[str, Any]]:
        """ENVELOPEs of the units the current player may move now (unit id -> envelope)."""
        ...

    def compose_move(self, game: Game, unit: str, x: float, y: float, facing: float) -> Any:
        """A movement action taking `unit` to board point (x, y) facing `facing` degrees.

        Raises `IllegalAction` with the reason when no such move is legal now."""
        ...


# ---- the lab ---------------------------------------------------------------------------


class DuelBoard(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset's standard board: its size, the two deployment lines and the turn limit."""

    width: float
    height: float
    edge: float
    """Distance of the front rank from its own table edge (a column on a hex map)."""
    low: float
    high: float
    """The stretch of the deployment line units may stand on."""
    gap: float
    """Distance between neighbours in a rank, when the line has room for it."""
    spacing: float
    """Smallest distance between neighbours in a rank; more units form further ranks."""
    rank: float
    """Distance between ranks: toward the own edge, and forward once that is full."""
    margin: float
    """Nearest a rank may stand to the own edge."""
    turn_limit: int

    def slots(self, count: int) -> list[tuple[float, float]]:
        """Where `count` units of one side stand, as (depth behind the front line,
        position along it): spread evenly about the line's middle, `gap` apart where
        the line has room, closer (never under `spacing`) where it has not, in further
        ranks (`rank_depth`) once a rank is full. A lab set-up turns these into its own
        coordinates (inches from an edge, hex columns)."""
        usable = self.high - self.low
        per_rank = min(count, int(usable // self.spacing) + 1)
        slots: list[tuple[float, float]] = []
        for r in range(math.ceil(count / per_rank)):
            in_rank = min(per_rank, count - r * per_rank)
            gap = min(self.gap, usable / (in_rank - 1)) if in_rank > 1 else 0.0
            first = (self.low + self.high) / 2 - gap * (in_rank - 1) / 2
            slots.extend((self.rank_depth(r), first + gap * i) for i in range(in_rank))
        return slots

    def grown(self, factor: float) -> DuelBoard:
        """This board `factor` times as wide and high (rounded up to whole inches or
        hexes), for crowds at the density of the original: the front lines stay as far
        from the middle and each other as here, the deployment line runs the whole new
        height, and neighbours keep the full `gap` (more units form more ranks, not a
        tighter line). A factor of 1 or less gives the board unchanged."""
        if factor <= 1:
            return self
        width = float(math.ceil(self.width * factor))
        height = float(math.ceil(self.height * factor))
        return msgspec.structs.replace(
            self,
            width=width,
            height=height,
            edge=self.edge + (width - self.width) / 2,
            high=self.high + (height - self.height),
            spacing=max(self.spacing, self.gap),
        )

    def rank_depth(self, rank: int) -> float:
        """How far rank number `rank` stands behind the front line (negative: in front):
        toward the own edge while there is room above `margin`, then forward."""
        behind = int((self.edge - self.margin) // self.rank) + 1
        return rank * self.rank if rank < behind else -(rank - behind + 1) * self.rank


class LabSetup(Protocol):
    """How the lab fields a ruleset's units against each other (sim/matchup.py)."""

    board: DuelBoard

    def default_roster(self, rules: Ruleset) -> list[str]:
        """The unit types a round robin pits against each other by default."""
        ...

    def side(self, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
        """One side of a duel scenario (raw scenario data): `count` of `unit` in ranks
        at the left (first side) or right edge of `board`."""
        ...

    def playing_area(self) -> dict[str, Any]:
        """The raw scenario fields giving the board (`{'table': ...}` or `{'map': ...}`)."""
        ...

    def crowd(self, rules: Ruleset, count: int) -> dict[str, Any]:
        """A whole raw scenario with `count` units a side (`dogfight bench --units`):
        the ruleset's usual fighters at the density of its built-in scenario, on a
        table grown with the count (`DuelBoard.grown`). The default fields `count` of
        the first default-roster type a side on the duel board itself."""
        return default_crowd(self, rules, count)

    def crowd_sizes(self) -> tuple[int, ...]:
        """The sizes (units a side) `dogfight bench --units` times by default."""
        return DEFAULT_CROWD_SIZES


DEFAULT_CROWD_SIZES = (10, 20, 40, 80, 160)
"""`LabSetup.crowd_sizes` of a set-up that gives none of its own."""


def default_crowd(lab: LabSetup, rules: Ruleset, count: int) -> dict[str, Any]:
    """`count` of the lab's first default-roster type against as many, on its duel board
    (the generic `LabSetup.crowd`, for a set-up that offers no crowd of its own)."""
    roster = lab.default_roster(rules)
    if not roster:
        raise DogfightError(f"the {rules.name} lab names no unit type to field")
    unit = roster[0]
    return {
        "name": f"crowd-{count}",
        "ruleset": rules.name,
        "title": f"Crowd: {count} {unit} a side",
        "turn_limit": lab.board.turn_limit,
        "sides": [
            lab.side("First", unit, count, True),
            lab.side("Second", unit, count, False),
        ],
        **lab.playing_area(),
    }


# ---- the CLI ---------------------------------------------------------------------------


class Param(msgspec.Struct, frozen=True, kw_only=True):
    """One argument or option of a ruleset's command, described for the CLI to build."""

    name: str
    """Python identifier, passed to `run` under this key."""
    help: str
    type: Literal["str", "int", "float", "bool", "path"]
    argument: bool = False
    """A positional argument (else an option)."""
    default: Any = None
    """None: required (arguments) or absent (options, whose type then allows None)."""
    flags: tuple[str, ...] = ()
    """Option spellings, e.g. ('--range',) or ('--moved/--not-moved',); default from name."""
    minimum: float | None = None
    maximum: float | None = None
    metavar: str | None = None
    check: Callable[[Any], Any] | None = None
    """Raises ValueError with a message for a value out of range (shown as a bad parameter)."""
    choices: tuple[str, ...] = ()
    """The values a "str" option may take (help lists them); `run` gets the string."""
    multiple: bool = False
    """A repeatable option: `run` gets a list of the values given (empty when none)."""


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A table to print: header and rows (a Fraction cell prints as a percentage)."""

    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


class Plot(msgspec.Struct, frozen=True, kw_only=True):
    """A distribution to draw when the user asks for --plot."""

    odds: Mapping[Any, Fraction]
    title: str
    xlabel: str


class Rich(msgspec.Struct, frozen=True, kw_only=True):
    """A block already laid out for a rich console (a stat card), printed as it is."""

    renderable: Any
    """A rich renderable: the CLI prints it on its console, at the terminal's width."""


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """What a command prints: lines, tables and rich blocks in order, or one JSON object."""

    blocks: tuple[str | Table | Rich, ...]
    json: dict[str, Any]
    plot: Plot | None = None


class Command(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset's own CLI command, placed under a group (`dogfight odds RULESET KIND`,
    `dogfight import NAME`, `dogfight design NAME`, `dogfight tactics NAME`)."""

    group: Literal["odds", "import", "design", "tactics"]
    name: str
    help: str
    params: tuple[Param, ...]
    run: Callable[[Mapping[str, Any], Mapping[str, OptionValue]], Report]
    """Called with the parameters by name and the rule options in force."""
    takes_rules: bool = True
    takes_plot: bool = False


def param_names(params: Sequence[Param]) -> list[str]:
    """The parameters' names, in order."""
    return [p.name for p in params]
