"""Standard boards for matchups: N of one unit type against M of another, and playing them.

A duel scenario is built as plain data, in the ruleset's own scenario format, and
goes through `scenario_from_raw` and the ruleset's own checks like any file would.
Each ruleset gets one symmetric deployment: the two sides face each other from
opposite edges, spread evenly along them (in ranks when one line would be crowded).

A matchup plays half its battles with type A as the scenario's first side and half
with type B first, so that neither type profits from being listed first (deployment
edge, initiative ties, who moves first).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.game import Game
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, scenario_from_raw
from dogfight.dice import derive_seed
from dogfight.sim.players import DEFAULT_KIND
from dogfight.sim.runner import BattleResult, BattleTask, run_tasks

Progress = Callable[[int, int], None]
"""Called as `progress(done, total)` while battles run."""


class Board(msgspec.Struct, frozen=True, kw_only=True):
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


BOARDS: dict[str, Board] = {
    # As the built-in furball: 36" table, fighters 4" apart, the sides 14" apart.
    "acta": Board(
        width=36,
        height=36,
        edge=11,
        low=2,
        high=34,
        gap=4,
        spacing=2,
        rank=3,
        margin=1,
        turn_limit=8,
    ),
    # As the built-in skirmish: 48" table, flights 12" apart (a flight of 3 stands 4" wide,
    # of 5 8" wide: hence at least 10" between leaders).
    "evo": Board(
        width=48,
        height=48,
        edge=6,
        low=4,
        high=44,
        gap=12,
        spacing=10,
        rank=2,
        margin=1,
        turn_limit=6,
    ),
    # As the built-in fighter duel: a 16 x 12 hex map, columns 3 and 12, rows 3 apart.
    "sfa": Board(
        width=16,
        height=12,
        edge=3,
        low=0,
        high=11,
        gap=3,
        spacing=1,
        rank=1,
        margin=0,
        turn_limit=10,
    ),
}


# ---- unit types -------------------------------------------------------------------------


def unit_info(ruleset: str, unit: str) -> dict[str, Any]:
    """A unit type's profile; an unknown one is refused with the list of known ids."""
    rules = find_ruleset(ruleset)
    names = rules.unit_names()
    if unit not in names:
        raise UnknownName(f"no {rules.name} unit type '{unit}'; known: {', '.join(names)}")
    return rules.describe_unit(unit)


def unit_points(ruleset: str, unit: str) -> int | None:
    """The unit type's points value, or None when the ruleset gives it none."""
    points = unit_info(ruleset, unit).get("points")
    return int(points) if isinstance(points, int | float) and points > 0 else None


def default_roster(ruleset: str) -> list[str]:
    """The unit types a round robin pits against each other by default.

    acta: the seed's fighters (kind fighter, origin seed: seed 000's seven); ships
    fight on other terms (carriers, escorts) and are left out. evo: every flight.
    sfa: the Starfighter-scale craft that move (starships, the stationary Battlesat
    and Street Fighter people are not fighters to field one for one).
    """
    rules = find_ruleset(ruleset)
    described = [rules.describe_unit(name) for name in rules.unit_names()]
    if rules.name == "acta":
        return [
            d["id"] for d in described if d.get("kind") == "fighter" and d.get("origin") == "seed"
        ]
    if rules.name == "sfa":
        return [d["id"] for d in described if d.get("scale_level") == 1 and d.get("move")]
    return [d["id"] for d in described]


def check_units(ruleset: str, units: Sequence[str]) -> list[str]:
    """The units, each checked to exist (raises `UnknownName` listing the known ones)."""
    for unit in units:
        unit_info(ruleset, unit)
    if len(set(units)) != len(units):
        repeated = sorted({u for u in units if list(units).count(u) > 1})
        raise DogfightError(f"unit types named more than once: {', '.join(repeated)}")
    return list(units)


def parse_count(text: str) -> tuple[int, int]:
    """A `--count`: '4v4' or '2v3' (A's number, then B's), or '4' meaning 4v4."""
    cleaned = text.strip().lower().replace(" ", "")
    left, sep, right = cleaned.partition("v")
    try:
        a = int(left)
        b = int(right) if sep else a
    except ValueError:
        raise DogfightError(f"--count takes NvM or N (e.g. 4v4, 2v3 or 4), not {text!r}") from None
    if a < 1 or b < 1:
        raise DogfightError(f"--count {text}: each side needs at least one unit")
    return a, b


# ---- the board --------------------------------------------------------------------------


def side_names(a: str, b: str) -> tuple[str, str]:
    """Side names for A against B: the type ids, told apart in a mirror match."""
    return (a, b) if a != b else (f"{a} 1", f"{b} 2")


def _slots(board: Board, count: int) -> list[tuple[float, float]]:
    """(depth from the own edge line, position along it) of `count` units, in ranks."""
    usable = board.high - board.low
    per_rank = min(count, int(usable // board.spacing) + 1)
    slots: list[tuple[float, float]] = []
    for r in range(math.ceil(count / per_rank)):
        in_rank = min(per_rank, count - r * per_rank)
        gap = min(board.gap, usable / (in_rank - 1)) if in_rank > 1 else 0.0
        first = (board.low + board.high) / 2 - gap * (in_rank - 1) / 2
        slots.extend((_depth(board, r), first + gap * i) for i in range(in_rank))
    return slots


def _depth(board: Board, rank: int) -> float:
    """How far rank number `rank` stands behind the front line (negative: in front)."""
    behind = int((board.edge - board.margin) // board.rank) + 1
    return rank * board.rank if rank < behind else -(rank - behind + 1) * board.rank


def _acta_side(board: Board, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
    prefix = "A" if left else "B"
    units = []
    for i, (depth, along) in enumerate(_slots(board, count)):
        x = board.edge - depth if left else board.width - board.edge + depth
        units.append(
            {
                "id": f"{prefix}{i + 1}",
                "type": unit,
                "at": [x, along],
                "heading": 0 if left else 180,
            }
        )
    return {"name": name, "initiative": 0, "units": units}


def _evo_side(board: Board, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
    prefix = "A" if left else "B"
    units = []
    for i, (depth, along) in enumerate(_slots(board, count)):
        x = board.edge - depth if left else board.width - board.edge + depth
        units.append(
            {
                "id": f"{prefix}{i + 1}",
                "type": unit,
                "at": [x, along],
                "heading": 0 if left else 180,
            }
        )
    return {"name": name, "units": units}


def _sfa_side(board: Board, name: str, unit: str, count: int, left: bool) -> dict[str, Any]:
    prefix = "A" if left else "B"
    craft = []
    for i, (depth, along) in enumerate(_slots(board, count)):
        column = int(board.edge - depth) if left else int(board.width - 1 - board.edge + depth)
        craft.append(
            {
                "id": f"{prefix}{i + 1}",
                "type": unit,
                "at": [column, math.floor(along + 0.5)],
                # Hex facings as in the built-in fighter duel: 2 faces right, 5 left.
                "facing": 2 if left else 5,
                "pilot": "regular",
            }
        )
    return {"name": name, "craft": craft}


_SIDE_BUILDERS = {"acta": _acta_side, "evo": _evo_side, "sfa": _sfa_side}


def duel_scenario(
    ruleset: str,
    a: str,
    b: str,
    count_a: int,
    count_b: int,
    *,
    turn_limit: int | None = None,
    options: Mapping[str, object] | None = None,
) -> Scenario:
    """`count_a` of type `a` (first side, left edge) against `count_b` of `b` (right edge).

    The scenario is checked by the ruleset (a game is set up from it), so a type that
    cannot be fielded this way fails here with the ruleset's own message.
    """
    rules = find_ruleset(ruleset)
    unit_info(rules.name, a)
    unit_info(rules.name, b)
    if count_a < 1 or count_b < 1:
        raise DogfightError("each side of a duel needs at least one unit")
    board = BOARDS[rules.name]
    build = _SIDE_BUILDERS[rules.name]
    name_a, name_b = side_names(a, b)
    raw: dict[str, Any] = {
        "name": f"duel-{a}-{count_a}v{count_b}-{b}",
        "ruleset": rules.name,
        "title": f"Duel: {count_a} {a} v {count_b} {b}",
        "description": f"A standard {rules.name} board: {count_a} {a} against {count_b} {b}.",
        "turn_limit": turn_limit if turn_limit is not None else board.turn_limit,
        "sides": [
            build(board, name_a, a, count_a, True),
            build(board, name_b, b, count_b, False),
        ],
    }
    if rules.name == "sfa":
        raw["map"] = {"width": int(board.width), "height": int(board.height)}
    else:
        raw["table"] = {"width": board.width, "height": board.height}
    if options:
        raw["options"] = dict(options)
    scenario = scenario_from_raw(raw, f"duel:{a}-v-{b}")
    Game(scenario, seed=0)  # the ruleset's checks, with its own messages
    return scenario


# ---- playing matchups -------------------------------------------------------------------


class Matchup(msgspec.Struct, frozen=True, kw_only=True):
    """`count_a` of type `a` against `count_b` of type `b`."""

    a: str
    b: str
    count_a: int
    count_b: int

    @property
    def label(self) -> str:
        """'4 wasp v 4 zul'."""
        return f"{self.count_a} {self.a} v {self.count_b} {self.b}"


class MatchupResult(msgspec.Struct, frozen=True, kw_only=True):
    """How a matchup went, from type A's point of view."""

    matchup: Matchup
    battles: int
    wins_a: int
    wins_b: int
    draws: int
    turns: list[int]
    """Turns of each battle, in battle order."""
    a_first_wins: int
    """Of A's wins, those where A was the scenario's first side."""
    b_first_wins: int
    """Of B's wins, those where B was the scenario's first side."""

    @property
    def score_a(self) -> float:
        """A's score: wins plus half the draws."""
        return self.wins_a + self.draws / 2

    @property
    def rate_a(self) -> float:
        """A's share of the score (draws count half)."""
        return self.score_a / self.battles if self.battles else 0.5


def matchup_seed(run_seed: int, matchup: Matchup) -> int:
    """The seed of a matchup: from the run seed and the matchup itself (not its place
    in a list), so adding a unit to a round robin leaves the other pairings' games alone."""
    text = f"{matchup.a}:{matchup.count_a}|{matchup.b}:{matchup.count_b}"
    return derive_seed(run_seed, zlib.crc32(text.encode()))


def _arms(
    ruleset: str, m: Matchup, battles: int, turn_limit: int | None
) -> list[tuple[Scenario, int]]:
    """The two arms of a matchup: (scenario, battles) with A first, then with B first."""
    forward = duel_scenario(ruleset, m.a, m.b, m.count_a, m.count_b, turn_limit=turn_limit)
    reverse = duel_scenario(ruleset, m.b, m.a, m.count_b, m.count_a, turn_limit=turn_limit)
    first_half = (battles + 1) // 2
    return [(forward, first_half), (reverse, battles - first_half)]


def play_matchups(
    ruleset: str,
    matchups: Sequence[Matchup],
    battles: int,
    seed: int = 1,
    *,
    jobs: int | None = None,
    cluster: str | None = None,
    ai: str = DEFAULT_KIND,
    rules: Mapping[str, object] | None = None,
    turn_limit: int | None = None,
    progress: Progress | None = None,
) -> list[MatchupResult]:
    """Play `battles` battles of each matchup, half with A as the first side.

    All battles of all matchups go to one `run_tasks` call, so they share one pool
    of processes (or one cluster). Game j of arm k (0: A first, 1: B first) of a
    matchup has seed `derive_seed(derive_seed(matchup_seed(seed, m), k), j)`: results
    do not depend on `jobs`, nor on which other matchups are played.
    """
    if battles < 1:
        raise DogfightError("a matchup needs at least one battle")
    plans = [(m, _arms(ruleset, m, battles, turn_limit)) for m in matchups]
    overrides = dict(rules) if rules else None

    def tasks() -> Iterator[BattleTask]:
        for number, (m, arms) in enumerate(plans):
            for k, (scenario, n) in enumerate(arms):
                sides = side_names(m.a, m.b) if k == 0 else side_names(m.b, m.a)
                run_seed = derive_seed(matchup_seed(seed, m), k)
                for j in range(n):
                    yield BattleTask(
                        key=f"{number}:{k}",
                        index=j,
                        scenario=scenario,
                        seed=derive_seed(run_seed, j),
                        players={side: ai for side in sides},
                        rules=overrides,
                    )

    played: dict[str, list[BattleResult]] = {}
    for task, result in run_tasks(
        tasks(), jobs=jobs, cluster=cluster, progress=progress, total=battles * len(plans)
    ):
        played.setdefault(task.key, []).append(result)
    return [
        tally(m, played.get(f"{number}:0", []), played.get(f"{number}:1", []))
        for number, (m, _) in enumerate(plans)
    ]


def tally(
    m: Matchup, a_first: Sequence[BattleResult], b_first: Sequence[BattleResult]
) -> MatchupResult:
    """Count a matchup's results: `a_first` battles had A as the first side."""
    fwd_a, fwd_b = side_names(m.a, m.b)
    rev_b, rev_a = side_names(m.b, m.a)
    wins_a = sum(r.winner == fwd_a for r in a_first) + sum(r.winner == rev_a for r in b_first)
    wins_b = sum(r.winner == fwd_b for r in a_first) + sum(r.winner == rev_b for r in b_first)
    draws = sum(r.winner is None for r in (*a_first, *b_first))
    return MatchupResult(
        matchup=m,
        battles=len(a_first) + len(b_first),
        wins_a=wins_a,
        wins_b=wins_b,
        draws=draws,
        turns=[r.turns for r in (*a_first, *b_first)],
        a_first_wins=sum(r.winner == fwd_a for r in a_first),
        b_first_wins=sum(r.winner == rev_b for r in b_first),
    )
