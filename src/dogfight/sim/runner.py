"""Playing battles computer against computer: one, or a batch over local processes.

A batch is reproducible whatever the number of processes: game `i` of a run
with seed `s` is played with seed `derive_seed(s, i)`, its players draw from
their own generator seeded from that, and results come back ordered by `i`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.play import play
from dogfight.core.scenario import Scenario
from dogfight.dice import derive_seed
from dogfight.sim.players import DEFAULT_KIND, new_player, player_rng, side_names

Progress = Callable[[int, int], None]
"""Called as `progress(done, total)` while a batch runs."""


class BattleResult(msgspec.Struct, frozen=True, kw_only=True):
    """How one battle went, as plain data (one row of `simulate --out`)."""

    game: int
    """Index of the battle in its run (0 for a single battle)."""
    seed: int
    winner: str | None
    """The winning side, or None for a draw."""
    turns: int
    reason: str
    actions: int
    events: int
    survivors: dict[str, int]
    """Units left on the table per side."""


def play_battle(
    scenario: Scenario,
    seed: int,
    players: Mapping[str, str] | None = None,
    rules: Mapping[str, object] | None = None,
    *,
    default: str = DEFAULT_KIND,
) -> Game:
    """Play one battle to the end with computer players and return the finished game.

    `players` maps sides to player kinds; sides not in it get `default`.
    """
    return play_game(Game(scenario, seed=seed, rules=rules), players, default=default)


def play_game(
    game: Game, players: Mapping[str, str] | None = None, *, default: str = DEFAULT_KIND
) -> Game:
    """Play a new game to the end: each side by a fresh player of its kind (or `default`).

    The players draw from their own generator, seeded from the game's seed.
    """
    kinds = dict(players or {})
    actors = {
        side: new_player(kinds.get(side, default), game.ruleset.name) for side in side_names(game)
    }
    return play(game, actors, player_rng(game.seed))


def result_of(game: Game, index: int = 0) -> BattleResult:
    """The result of a finished game."""
    outcome = game.outcome()
    summary = game.ruleset.summary(game.state)
    survivors: dict[str, Any] = summary.get("survivors") or {}
    return BattleResult(
        game=index,
        seed=game.seed,
        winner=outcome.winner if outcome else None,
        turns=int(summary.get("turn", 0)),
        reason=outcome.reason if outcome else "not finished",
        actions=len(game.actions),
        events=len(game.events),
        survivors={side: len(units) for side, units in survivors.items()},
    )


def run_battle(
    scenario: Scenario,
    seed: int,
    players: Mapping[str, str] | None = None,
    rules: Mapping[str, object] | None = None,
    *,
    index: int = 0,
) -> BattleResult:
    """Play one battle and return how it went."""
    return result_of(play_battle(scenario, seed, players, rules), index)


def _run_chunk(
    scenario: Scenario,
    games: Sequence[tuple[int, int]],
    players: Mapping[str, str] | None,
    rules: Mapping[str, object] | None,
) -> list[BattleResult]:
    """Worker: play the (index, seed) games of one chunk."""
    return [run_battle(scenario, seed, players, rules, index=i) for i, seed in games]


def default_jobs() -> int:
    """Processes to use when none are asked for: one per CPU."""
    return os.cpu_count() or 1


def simulate(
    scenario: Scenario,
    n: int,
    seed: int = 1,
    jobs: int | None = None,
    players: Mapping[str, str] | None = None,
    rules: Mapping[str, object] | None = None,
    progress: Progress | None = None,
) -> list[BattleResult]:
    """Play `n` battles of `scenario` and return their results ordered by game index.

    Game `i` uses seed `derive_seed(seed, i)`. With `jobs` > 1 the games are
    split into chunks played by a pool of local processes; the results are the
    same for any `jobs`.
    """
    if n < 0:
        raise ValueError("n must not be negative")
    games = [(i, derive_seed(seed, i)) for i in range(n)]
    workers = max(1, min(jobs if jobs is not None else default_jobs(), n))
    if workers == 1:
        results = []
        for i, game_seed in games:
            results.append(run_battle(scenario, game_seed, players, rules, index=i))
            if progress is not None:
                progress(i + 1, n)
        return results

    # Several chunks per worker balance the load; small chunks keep the progress live.
    size = max(1, min(25, n // (workers * 4)))
    chunks = [games[k : k + size] for k in range(0, n, size)]
    by_index: dict[int, BattleResult] = {}
    # The platform's default start method: callers that show progress should not run
    # threads of their own meanwhile where that is "fork" (the CLI refreshes by hand).
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[list[BattleResult]]] = {
            pool.submit(_run_chunk, scenario, chunk, players, rules) for chunk in chunks
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for result in future.result():
                    by_index[result.game] = result
            if progress is not None:
                progress(len(by_index), n)
    return [by_index[i] for i in range(n)]
