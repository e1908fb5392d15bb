"""Speed: battles and actions per second on the built-in scenarios, how a simulation
scales with worker processes (`dogfight bench --scaling`), and how the cost of a turn
grows with the units on the table (`dogfight bench --units`).

Speed is measured here (`dogfight bench`), never in tests.
"""

from __future__ import annotations

import gc
import math
import random
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.game import Game
from dogfight.core.play import Player, play
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, builtin_scenarios, scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.dice import derive_seed
from dogfight.sim.players import (
    DEFAULT_KIND,
    check_players,
    new_player,
    player_rng,
    side_names,
)
from dogfight.sim.runner import iter_results, play_battle
from dogfight.sim.stats import nearest_rank


class BenchRow(msgspec.Struct, frozen=True, kw_only=True):
    """The speed of one scenario."""

    ruleset: str
    scenario: str
    players: str
    """The player kind both sides used."""
    battles: int
    actions: int
    seconds: float
    battles_per_s: float
    actions_per_s: float


def bench_kind(ruleset: str) -> str:
    """The heuristic player if the ruleset has one, else the random player."""
    try:
        new_player(DEFAULT_KIND, ruleset)
    except UnknownName:
        return "random"
    return DEFAULT_KIND


def benchmark(
    ruleset: str | None = None,
    battles: int = 20,
    seed: int = 1,
    on_row: Callable[[BenchRow], None] | None = None,
) -> list[BenchRow]:
    """Time `battles` seeded battles of every built-in scenario (of `ruleset`, or all).

    Both sides are played by the same kind of player (see `bench_kind`); the
    games run one after another in this process.
    """
    name = find_ruleset(ruleset).name if ruleset else None
    rows: list[BenchRow] = []
    for scenario in builtin_scenarios(name):
        kind = bench_kind(scenario.ruleset)
        actions = 0
        start = time.perf_counter()
        for i in range(battles):
            game = play_battle(scenario, derive_seed(seed, i), default=kind)
            actions += len(game.actions)
        seconds = time.perf_counter() - start
        row = BenchRow(
            ruleset=scenario.ruleset,
            scenario=scenario.name,
            players=kind,
            battles=battles,
            actions=actions,
            seconds=seconds,
            battles_per_s=battles / seconds if seconds > 0 else 0.0,
            actions_per_s=actions / seconds if seconds > 0 else 0.0,
        )
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


class ScalingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One run of a scaling benchmark."""

    jobs: int
    seconds: float
    battles_per_s: float
    cpu_seconds: float
    """Processor time of this process and its workers: the parallel run's extra cost
    (starting processes, pickling) shows here even on a busy machine."""


class Scaling(msgspec.Struct, frozen=True, kw_only=True):
    """The same simulation timed with one process and with several."""

    ruleset: str
    scenario: str
    players: str
    battles: int
    seed: int
    runs: list[ScalingRow]
    speedup: float
    """Seconds with 1 job / seconds with the most jobs."""
    same_results: bool
    """Whether every run gave the same results (it must)."""


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def scaling(
    scenario: Scenario,
    battles: int = 2000,
    seed: int = 1,
    jobs: Sequence[int] = (1, 2),
    kind: str | None = None,
) -> Scaling:
    """Time `battles` battles of `scenario` with each number of `jobs` (the same
    simulation as `simulate --jobs N`, rows streamed and dropped) and the speedup of
    the largest over 1 job. Both sides play `kind` (default: `bench_kind`)."""
    kind = kind or bench_kind(scenario.ruleset)
    sides = Game(scenario, seed=seed).sides()
    players = {side: kind for side in sides}
    runs: list[ScalingRow] = []
    digests: set[int] = set()
    for count in jobs:
        cpu = _cpu_seconds()
        start = time.perf_counter()
        digest = 0
        for result in iter_results(scenario, battles, seed, count, players):
            # A running hash of every result: equal runs give equal digests.
            digest = hash((digest, msgspec.json.encode(result)))
        seconds = time.perf_counter() - start
        digests.add(digest)
        runs.append(
            ScalingRow(
                jobs=count,
                seconds=seconds,
                battles_per_s=battles / seconds if seconds > 0 else 0.0,
                cpu_seconds=_cpu_seconds() - cpu,
            )
        )
    base = next((r.seconds for r in runs if r.jobs == 1), runs[0].seconds)
    return Scaling(
        ruleset=scenario.ruleset,
        scenario=scenario.name,
        players=kind,
        battles=battles,
        seed=seed,
        runs=runs,
        speedup=base / runs[-1].seconds if runs[-1].seconds > 0 else 0.0,
        same_results=len(digests) == 1,
    )


# ---- scale: the cost of a turn against the number of units ----------------------------


class UnitsRow(msgspec.Struct, frozen=True, kw_only=True):
    """The cost of a turn with `units` units a side."""

    units: int
    """Units a side, as asked of the ruleset's crowd (its fighters, flights or craft)."""
    turns: int
    """Turns timed (a game that ends early times fewer; a last turn cut short by the
    end of the game counts as a whole one)."""
    actions: int
    seconds: float
    ms_per_turn: float
    peak_mb: float
    """The process's peak resident memory after this size (getrusage maxrss): sizes run
    smallest first, so it is the largest size's peak so far."""


class UnitsBench(msgspec.Struct, frozen=True, kw_only=True):
    """`bench --units`: ms a turn for each size and the fitted exponent."""

    ruleset: str
    players: str
    """The player kind both sides used."""
    turns: int
    seed: int
    rows: list[UnitsRow]
    exponent: float | None
    """The slope of log(ms a turn) against log(units), least squares (None: fewer than
    two sizes with a measurable time)."""


TurnProgress = Callable[[int, int, int], None]
"""Called as `progress(units, turns_done, turns)` as each timed turn ends."""


def fitted_exponent(points: Sequence[tuple[float, float]]) -> float | None:
    """The least-squares slope of log y against log x over (x, y) points with x, y > 0:
    y grows as x to this power. None with fewer than two such points of distinct x."""
    logs = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len({lx for lx, _ in logs}) < 2:
        return None
    mean_x = sum(lx for lx, _ in logs) / len(logs)
    mean_y = sum(ly for _, ly in logs) / len(logs)
    num = sum((lx - mean_x) * (ly - mean_y) for lx, ly in logs)
    den = sum((lx - mean_x) ** 2 for lx, _ in logs)
    return num / den


def crowd_scenario(ruleset: str, units: int, turns: int = 1) -> Scenario:
    """The ruleset's crowd with `units` units a side (`LabSetup.crowd`), its turn limit
    at least `turns`, checked by the ruleset (a game is set up from it)."""
    rules = find_ruleset(ruleset)
    lab = rules.lab()
    if lab is None:
        raise DogfightError(f"the {rules.name} ruleset has no lab set-up to build crowds with")
    if units < 1:
        raise DogfightError(f"--sizes: each size is at least 1 unit a side, not {units}")
    raw = lab.crowd(rules, units)
    raw["turn_limit"] = max(int(raw.get("turn_limit", 0)), turns)
    scenario = scenario_from_raw(raw, f"bench:{rules.name}-crowd-{units}")
    Game(scenario, seed=0)  # the ruleset's checks, with its own messages
    return scenario


def time_turns(
    scenario: Scenario,
    kind: str,
    turns: int,
    seed: int = 1,
    on_turn: Callable[[int], None] | None = None,
) -> tuple[int, int, float]:
    """Play `turns` turns of `scenario` from turn 1 through the Game API (legal_actions,
    decide, apply), both sides `kind`: (turns timed, actions, seconds). Setting the
    game up and any step before turn 1 are not timed."""
    game = Game(scenario, seed=seed)
    players = {side: new_player(kind, game.ruleset) for side in game.sides()}
    rng = player_rng(seed)

    def step() -> bool:
        side = game.current_player()
        if side is None:
            return False
        game.apply(players[side].decide(Seat(game, side), game.legal_actions(), rng))
        return True

    # What comes before turn 1 (a deployment step, a turn 0) is not a turn: untimed.
    while not game.is_over() and game.state.turn < 1 and step():
        pass
    first = game.state.turn
    actions = 0
    start = time.perf_counter()
    while not game.is_over() and game.state.turn < first + turns:
        turn = game.state.turn
        if not step():
            break
        actions += 1
        if on_turn is not None and game.state.turn != turn:
            on_turn(game.state.turn - first)
    seconds = time.perf_counter() - start
    done = game.state.turn - first + (1 if game.is_over() else 0)
    return max(1, min(done, turns)), actions, seconds


def _tick(progress: TurnProgress | None, units: int, turns: int) -> Callable[[int], None] | None:
    """`time_turns`'s per-turn callback reporting to `progress` (None: none)."""
    if progress is None:
        return None
    return lambda done: progress(units, done, turns)


def peak_mb() -> float:
    """This process's peak resident memory in MB (getrusage maxrss, kB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_units(
    ruleset: str,
    kind: str = "random",
    sizes: Sequence[int] | None = None,
    turns: int = 3,
    seed: int = 1,
    progress: TurnProgress | None = None,
    on_row: Callable[[UnitsRow], None] | None = None,
) -> UnitsBench:
    """ms a turn of the ruleset's crowd (`LabSetup.crowd`) at each size, smallest first,
    both sides `kind`, and the exponent fitted to them (`fitted_exponent`)."""
    rules = find_ruleset(ruleset)
    check_players({"all": kind}, rules)
    if turns < 1:
        raise DogfightError(f"--turns: at least 1, not {turns}")
    lab = rules.lab()
    if lab is None:
        raise DogfightError(f"the {rules.name} ruleset has no lab set-up to build crowds with")
    chosen = sorted(set(sizes)) if sizes else sorted(set(lab.crowd_sizes()))
    # Every size is built (and checked) before any is timed: a bad size fails at once.
    scenarios = [(n, crowd_scenario(rules.name, n, turns)) for n in chosen]
    rows: list[UnitsRow] = []
    for units, scenario in scenarios:
        if progress is not None:
            progress(units, 0, turns)
        done, actions, seconds = time_turns(
            scenario, kind, turns, seed, _tick(progress, units, turns)
        )
        row = UnitsRow(
            units=units,
            turns=done,
            actions=actions,
            seconds=seconds,
            ms_per_turn=seconds * 1000 / done,
            peak_mb=peak_mb(),
        )
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return UnitsBench(
        ruleset=rules.name,
        players=kind,
        turns=turns,
        seed=seed,
        rows=rows,
        exponent=fitted_exponent([(r.units, r.ms_per_turn) for r in rows]),
    )


# ---- steps: random play through the Game API ------------------------------------------


class StepsRow(msgspec.Struct, frozen=True, kw_only=True):
    """Random play of one scenario through the Game API."""

    ruleset: str
    scenario: str
    games: int
    steps: int
    """Actions taken: one `legal_actions` and one `apply` each."""
    seconds: float
    """Processor seconds of the steps (`time.process_time`)."""
    steps_per_s: float


def random_steps(game: Game, rng: random.Random) -> tuple[int, float]:
    """Play `game` to its end, each step the random player's pick from `legal_actions`
    applied with `apply`: (steps, processor seconds). Processor time, not wall time: on a
    shared machine the wall clock counts the turns other processes took."""
    player = new_player("random", game.ruleset)
    steps = 0
    start = time.process_time()
    while True:
        side = game.current_player()
        if side is None or game.is_over():
            break
        game.apply(player.decide(Seat(game, side), game.legal_actions(), rng))
        steps += 1
    return steps, time.process_time() - start


def bench_steps(
    ruleset: str | None = None,
    games: int = 5,
    seed: int = 1,
    on_row: Callable[[StepsRow], None] | None = None,
) -> list[StepsRow]:
    """Steps a second of random play (`legal_actions` + `apply` a step, the random
    player's pick) over `games` seeded games of every built-in scenario (of `ruleset`,
    or all). Setting a game up is not timed; the engine's own cost is what remains."""
    name = find_ruleset(ruleset).name if ruleset else None
    rows: list[StepsRow] = []
    for scenario in builtin_scenarios(name):
        steps, seconds = 0, 0.0
        for i in range(games):
            game_seed = derive_seed(seed, i)
            done, took = random_steps(Game(scenario, seed=game_seed), player_rng(game_seed))
            steps += done
            seconds += took
        row = StepsRow(
            ruleset=scenario.ruleset,
            scenario=scenario.name,
            games=games,
            steps=steps,
            seconds=seconds,
            steps_per_s=steps / seconds if seconds > 0 else 0.0,
        )
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


def steps_per_ruleset(rows: Sequence[StepsRow]) -> dict[str, float]:
    """Each ruleset's steps a second over all its scenarios' rows (total steps over
    total seconds, so the long scenarios weigh as much as they cost)."""
    steps: dict[str, int] = {}
    seconds: dict[str, float] = {}
    for row in rows:
        steps[row.ruleset] = steps.get(row.ruleset, 0) + row.steps
        seconds[row.ruleset] = seconds.get(row.ruleset, 0.0) + row.seconds
    return {r: steps[r] / seconds[r] if seconds[r] > 0 else 0.0 for r in steps}


# ---- decisions: how long one player takes to decide ----------------------------------


class DecisionsRow(msgspec.Struct, frozen=True, kw_only=True):
    """The timed player's decisions in one battle."""

    seed: int
    """The battle's game seed."""
    decisions: int
    """Decisions timed: those with more than one legal action (one is taken at once)."""
    median_s: float
    p90_s: float
    """Processor seconds of the median decision and of the 90th percentile one."""
    winner: str | None


class DecisionsBench(msgspec.Struct, frozen=True, kw_only=True):
    """How long a player kind takes to decide in one scenario, battle by battle."""

    scenario: str
    side: str
    """The side the timed player played (the scenario's first)."""
    kind: str
    opponent: str
    """The other side's kind: the ruleset's heuristic if it has one, else random."""
    rows: list[DecisionsRow]
    decisions: int
    median_s: float
    p90_s: float
    """Over every battle's decisions together."""


class _TimedPlayer:
    """Decides as `inner` does and keeps the processor seconds of each decision that
    had a choice to make."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.times: list[float] = []

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        start = time.process_time()
        action = self.inner.decide(seat, legal, rng)
        if len(legal) > 1:
            self.times.append(time.process_time() - start)
        return action


def _quantiles(times: Sequence[float]) -> tuple[float, float]:
    """The median and the 90th percentile (nearest rank) of `times` (0 and 0 if none)."""
    if not times:
        return 0.0, 0.0
    return statistics.median(times), nearest_rank(times, 0.9)


def bench_decisions(
    scenario: Scenario,
    kind: str = "search",
    battles: int = 2,
    seed: int = 1,
    on_row: Callable[[DecisionsRow], None] | None = None,
) -> DecisionsBench:
    """Time the decisions of a player of `kind` on the scenario's first side against the
    ruleset's heuristic (or random player) over `battles` seeded battles, in processor
    time (`time.process_time`: on a shared machine the wall clock counts other
    processes' turns too). The players and their generators are the lab's
    (`play_battle`), so a battle here is the one `simulate` plays with the same seed."""
    check_players({"timed": kind}, scenario.ruleset)
    opponent = bench_kind(scenario.ruleset)
    rows: list[DecisionsRow] = []
    every: list[float] = []
    side = ""
    for i in range(battles):
        game_seed = derive_seed(seed, i)
        game = Game(scenario, seed=game_seed)
        first, second = side_names(game)
        side = first
        timed = _TimedPlayer(new_player(kind, game.ruleset))
        actors: dict[str, Player] = {first: timed, second: new_player(opponent, game.ruleset)}
        play(game, actors, player_rng(game_seed))
        outcome = game.outcome()
        median, p90 = _quantiles(timed.times)
        row = DecisionsRow(
            seed=game_seed,
            decisions=len(timed.times),
            median_s=median,
            p90_s=p90,
            winner=outcome.winner if outcome else None,
        )
        rows.append(row)
        every.extend(timed.times)
        if on_row is not None:
            on_row(row)
    median, p90 = _quantiles(every)
    return DecisionsBench(
        scenario=scenario.name,
        side=side,
        kind=kind,
        opponent=opponent,
        rows=rows,
        decisions=len(every),
        median_s=median,
        p90_s=p90,
    )


# ---- memory: what a game holds, and whether many battles grow the process -----------


class BattlesMemoryRow(msgspec.Struct, frozen=True, kw_only=True):
    """The process after `battles` battles."""

    battles: int
    traced_mb: float
    """Python memory still allocated (tracemalloc, after a garbage collection), above
    what it was before the first battle: flat when nothing builds up."""
    peak_rss_mb: float
    """The process's peak resident memory so far (getrusage maxrss)."""


class MemoryBench(msgspec.Struct, frozen=True, kw_only=True):
    """`bench --memory`: a crowd game's held size, and memory over many battles."""

    ruleset: str
    players: str
    units: int
    """Units a side of the crowd game measured."""
    turns: int
    """Turns of it played before `held_mb`."""
    setup_mb: float
    """Python memory the crowd game holds once set up (tracemalloc)."""
    held_mb: float
    """... and after `turns` turns (its log included)."""
    peak_mb: float
    """The most Python memory allocated at any moment while it played (tracemalloc)."""
    rows: list[BattlesMemoryRow]
    """After each tenth of the battles (the ruleset's built-in scenarios in turn)."""


def _traced() -> float:
    gc.collect()
    return tracemalloc.get_traced_memory()[0] / 1e6


def held_memory(
    scenario: Scenario, kind: str, turns: int, seed: int = 1
) -> tuple[float, float, float]:
    """(MB held once set up, MB held after `turns` turns, peak MB while playing) of one
    game of `scenario`, both sides `kind`, in Python memory (tracemalloc, which this
    starts and stops)."""
    tracemalloc.start()
    try:
        base = _traced()
        tracemalloc.reset_peak()
        game = Game(scenario, seed=seed)
        setup = _traced() - base
        players = {side: new_player(kind, game.ruleset) for side in game.sides()}
        rng = player_rng(seed)
        while not game.is_over() and game.state.turn < turns + 1:
            side = game.current_player()
            if side is None:
                break
            game.apply(players[side].decide(Seat(game, side), game.legal_actions(), rng))
        held = _traced() - base
        peak = tracemalloc.get_traced_memory()[1] / 1e6 - base
        del game, players
        return setup, held, peak
    finally:
        tracemalloc.stop()


def battles_memory(ruleset: str, kind: str, battles: int, seed: int = 1) -> list[BattlesMemoryRow]:
    """Play `battles` battles of the ruleset's built-in scenarios in turn, both sides
    `kind`, in this process, and the memory after each tenth of them (tracemalloc: it
    slows the games, which are not timed here)."""
    scenarios = builtin_scenarios(find_ruleset(ruleset).name)
    if not scenarios:
        raise DogfightError(f"the {ruleset} ruleset has no built-in scenarios to play")
    marks = sorted({max(1, battles * k // 10) for k in range(1, 11)})
    rows: list[BattlesMemoryRow] = []
    tracemalloc.start()
    try:
        # One battle of each first: the caches every game shares (rule tables, traced
        # shapes) fill then, and are not what "flat in the number of battles" is about.
        for scenario in scenarios:
            play_battle(scenario, derive_seed(seed, -1), default=kind)
        base = _traced()
        for i in range(battles):
            scenario = scenarios[i % len(scenarios)]
            play_battle(scenario, derive_seed(seed, i), default=kind)
            if i + 1 in marks:
                rows.append(
                    BattlesMemoryRow(
                        battles=i + 1, traced_mb=_traced() - base, peak_rss_mb=peak_mb()
                    )
                )
    finally:
        tracemalloc.stop()
    return rows


def bench_memory(
    ruleset: str,
    kind: str = "random",
    units: int = 100,
    turns: int = 1,
    battles: int = 100,
    seed: int = 1,
) -> MemoryBench:
    """The Python memory a game of the ruleset's crowd of `units` a side holds after
    `turns` turns, and the process's memory over `battles` battles (`battles_memory`)."""
    rules = find_ruleset(ruleset)
    check_players({"all": kind}, rules)
    if turns < 1:
        raise DogfightError(f"--turns: at least 1, not {turns}")
    setup, held, peak = held_memory(crowd_scenario(rules.name, units, turns), kind, turns, seed)
    return MemoryBench(
        ruleset=rules.name,
        players=kind,
        units=units,
        turns=turns,
        setup_mb=setup,
        held_mb=held,
        peak_mb=peak,
        rows=battles_memory(rules.name, kind, battles, seed),
    )
