"""The ladder: a round robin of player kinds over a ruleset's scenarios, rated.

Every pair of kinds plays every scenario `battles` times, half of them with each kind
commanding the scenario's first side (the two battles of a half-pair share a seed, so
each kind meets the same dice with either force). Wins, draws counted half, make a
`WinMatrix` of kinds, and the lab's Bradley-Terry fit (`sim/balance.py`) gives each
kind a rating on an Elo-like scale with its standard error.

Battle k of pair (a, b) in scenario s has seed `derive_seed(derive_seed(pair_seed, s), k
// 2)`, where the pair seed comes from the run seed and the two kinds' names: results do
not depend on `jobs`, nor on which other kinds are on the ladder.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from itertools import combinations

import msgspec

from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.scenario import Scenario, builtin_scenarios
from dogfight.dice import derive_seed
from dogfight.sim.balance import Strength, WinMatrix, bradley_terry
from dogfight.sim.players import check_players
from dogfight.sim.runner import BattleTask, Progress, run_tasks
from dogfight.sim.stats import Z95

DEFAULT_KINDS = ("random", "heuristic", "search")
"""The kinds on a ladder unless told."""


class Rung(msgspec.Struct, frozen=True, kw_only=True):
    """One kind's place on the ladder."""

    kind: str
    rating: float
    """Bradley-Terry rating, 1500 for the field's average."""
    low: float
    high: float
    """The rating's 95% interval (rating -/+ 1.96 standard errors)."""
    score: float
    """Wins plus half the draws, over all its battles."""
    battles: int


class LadderReport(msgspec.Struct, frozen=True, kw_only=True):
    """A ladder's outcome: the kinds best first, the win matrix and what was played."""

    ruleset: str
    scenarios: list[str]
    battles: int
    """Battles per pair of kinds and scenario."""
    seed: int
    rungs: list[Rung]
    matrix: WinMatrix
    """Kind against kind, in the order the kinds were given."""


def pair_seed(run_seed: int, a: str, b: str) -> int:
    """The seed of one pair of kinds: from the run seed and the kinds' names."""
    return derive_seed(run_seed, zlib.crc32(f"{a}|{b}".encode()))


def ladder_scenarios(ruleset: str, names: Sequence[str] = ()) -> list[Scenario]:
    """The ruleset's built-in scenarios, or those of them named (each checked)."""
    found = builtin_scenarios(ruleset)
    if not found:
        raise DogfightError(f"ruleset '{ruleset}' has no built-in scenarios to play a ladder on")
    if not names:
        return found
    by_name = {s.name: s for s in found}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise DogfightError(
            f"--scenario {missing[0]}: no built-in {ruleset} scenario of that name; "
            f"scenarios: {', '.join(by_name)}"
        )
    return [by_name[n] for n in names]


def check_kinds(ruleset: str, kinds: Sequence[str]) -> list[str]:
    """The kinds in lower case, each offered by the ruleset, at least two, no repeats."""
    folded = [k.strip().lower() for k in kinds if k.strip()]
    if len(folded) < 2:
        raise DogfightError("--players: a ladder needs at least two player kinds")
    repeated = sorted({k for k in folded if folded.count(k) > 1})
    if repeated:
        raise DogfightError(f"--players: {repeated[0]} is listed twice")
    from dogfight.ai import check_kind

    for kind in folded:
        try:
            check_kind(kind)
        except DogfightError as exc:
            raise DogfightError(f"--players {kind}: {exc}") from None
    check_players({kind: kind for kind in folded}, ruleset)
    return folded


def ladder(
    ruleset: str,
    kinds: Sequence[str],
    battles: int,
    seed: int = 1,
    *,
    scenarios: Sequence[Scenario] | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> LadderReport:
    """Play the round robin of `kinds` over `scenarios` (default: the ruleset's
    built-in ones), `battles` battles per pair and scenario, and rate the kinds."""
    if battles < 1:
        raise DogfightError("a ladder needs at least one battle per pairing")
    played = list(scenarios) if scenarios is not None else ladder_scenarios(ruleset)
    names = list(kinds)
    sides = {s.name: Game(s).sides() for s in played}
    for scenario in played:
        if len(sides[scenario.name]) != 2:
            raise DogfightError(f"{scenario.where}: a ladder plays two-sided scenarios only")

    def tasks() -> Iterator[BattleTask]:
        for a, b in combinations(names, 2):
            base = pair_seed(seed, a, b)
            for number, scenario in enumerate(played):
                first, second = sides[scenario.name]
                run_seed = derive_seed(base, number)
                for k in range(battles):
                    # Even battles: a commands the first side; odd: b does, same dice.
                    kinds_of = {first: a, second: b} if k % 2 == 0 else {first: b, second: a}
                    yield BattleTask(
                        key=f"{a}|{b}",
                        index=k,
                        scenario=scenario,
                        seed=derive_seed(run_seed, k // 2),
                        players=kinds_of,
                    )

    index = {kind: i for i, kind in enumerate(names)}
    size = len(names)
    score = [[0.0] * size for _ in range(size)]
    count = [[0] * size for _ in range(size)]
    total = battles * len(played) * size * (size - 1) // 2
    for task, result in run_tasks(
        tasks(), jobs=jobs, cluster=cluster, progress=progress, total=total
    ):
        kinds_of = task.players or {}
        a, b = task.key.split("|")
        i, j = index[a], index[b]
        count[i][j] += 1
        count[j][i] += 1
        if result.winner is None:
            score[i][j] += 0.5
            score[j][i] += 0.5
        elif kinds_of.get(result.winner) == a:
            score[i][j] += 1
        else:
            score[j][i] += 1
    matrix = WinMatrix(names=names, score=score, battles=count)
    strengths = bradley_terry(matrix)
    rungs = [_rung(s, matrix, index[s.unit]) for s in strengths]
    rungs.sort(key=lambda r: (-r.rating, r.kind))
    return LadderReport(
        ruleset=ruleset,
        scenarios=[s.name for s in played],
        battles=battles,
        seed=seed,
        rungs=rungs,
        matrix=matrix,
    )


def _rung(strength: Strength, matrix: WinMatrix, i: int) -> Rung:
    margin = Z95 * strength.rating_se
    return Rung(
        kind=strength.unit,
        rating=strength.rating,
        low=strength.rating - margin,
        high=strength.rating + margin,
        score=sum(matrix.score[i]),
        battles=sum(matrix.battles[i]),
    )
