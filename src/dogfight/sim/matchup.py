"""Standard boards for matchups: N of one unit type against M of another, and playing them.

A duel scenario is built as plain data, in the ruleset's own scenario format, and
goes through `scenario_from_raw` and the ruleset's own checks like any file would.
Each ruleset's lab set-up (`Ruleset.lab()`, a `core.hooks.LabSetup`) gives one
symmetric deployment: the two sides face each other from opposite edges of its duel
board, spread evenly along them (in ranks when one line would be crowded).

A matchup plays half its battles with type A as the scenario's first side and half
with type B first, so that neither type profits from being listed first (deployment
edge, initiative ties, who moves first).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.hooks import LabSetup
from dogfight.core.registry import find_ruleset
from dogfight.core.ruleset import Ruleset
from dogfight.core.scenario import Scenario, scenario_from_raw
from dogfight.dice import derive_seed
from dogfight.sim.players import DEFAULT_KIND
from dogfight.sim.runner import BattleResult, BattleTask, run_tasks

Progress = Callable[[int, int], None]
"""Called as `progress(done, total)` while battles run."""


# ---- unit types -------------------------------------------------------------------------


def unit_info(ruleset: str, unit: str) -> dict[str, Any]:
    """A unit type's profile by any name `Ruleset.unit_id` accepts; an unknown one is
    refused with the close and the known ids."""
    rules = find_ruleset(ruleset)
    return rules.describe_unit(rules.unit_id(unit))


def unit_points(ruleset: str, unit: str) -> int | None:
    """The unit type's points value, or None when the ruleset gives it none."""
    points = unit_info(ruleset, unit).get("points")
    return int(points) if isinstance(points, int | float) and points > 0 else None


def lab_of(ruleset: str) -> tuple[Ruleset[Any, Any], LabSetup]:
    """The ruleset and its lab set-up (`Ruleset.lab()`); a ruleset without one is refused."""
    rules = find_ruleset(ruleset)
    lab = rules.lab()
    if lab is None:
        raise DogfightError(f"the {rules.name} ruleset has no lab set-up (no duel board)")
    return rules, lab


def default_roster(ruleset: str) -> list[str]:
    """The unit types a round robin pits against each other by default: those the
    ruleset's lab set-up names (fighters to field one for one, not ships or people)."""
    rules, lab = lab_of(ruleset)
    return lab.default_roster(rules)


def check_units(ruleset: str, units: Sequence[str]) -> list[str]:
    """The units' ids, each name checked to mean one (`Ruleset.unit_id`; raises
    `UnknownName` listing the known ones)."""
    rules = find_ruleset(ruleset)
    units = [rules.unit_id(unit) for unit in units]
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
    rules, lab = lab_of(ruleset)
    a, b = rules.unit_id(a), rules.unit_id(b)
    if count_a < 1 or count_b < 1:
        raise DogfightError("each side of a duel needs at least one unit")
    board = lab.board
    name_a, name_b = side_names(a, b)
    raw: dict[str, Any] = {
        "name": f"duel-{a}-{count_a}v{count_b}-{b}",
        "ruleset": rules.name,
        "title": f"Duel: {count_a} {a} v {count_b} {b}",
        "description": f"A standard {rules.name} board: {count_a} {a} against {count_b} {b}.",
        "turn_limit": turn_limit if turn_limit is not None else board.turn_limit,
        "sides": [
            lab.side(name_a, a, count_a, True),
            lab.side(name_b, b, count_b, False),
        ],
        **lab.playing_area(),
    }
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
