"""Playing battles computer against computer: one, or a batch over local processes.

A batch is reproducible whatever the number of processes: game `i` of a run
with seed `s` is played with seed `derive_seed(s, i)`, its players draw from
their own generator seeded from that, and results come back ordered by `i`.

The engine of every batch is `run_tasks`: it plays `BattleTask`s in chunks (in
this process, a pool of local processes or a Dask cluster) and yields the
results in task order, keeping only a bounded number of chunks in flight, so a
run of any length streams in bounded memory.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.play import play
from dogfight.core.registry import find_ruleset
from dogfight.core.ruleset import UnitRecord
from dogfight.core.scenario import Scenario
from dogfight.dice import derive_seed
from dogfight.sim.players import DEFAULT_KIND, new_player, player_rng, side_names

Progress = Callable[[int, int], None]
"""Called as `progress(done, total)` while a batch runs (total 0 when unknown)."""

CHUNK_MAX = 25
"""Most battles in one chunk: small chunks keep the progress bar live and the load even."""

CHUNKS_PER_WORKER = 4
"""Chunks in flight per worker: enough that no worker waits for the parent."""


class UnitStats(msgspec.Struct, frozen=True, kw_only=True):
    """One side's units of one type in one battle."""

    side: str
    type: str
    fielded: int
    """Units of this type the side had in the battle (launched fighters included)."""
    lost: int
    """Of those, destroyed (see `UnitRecord.destroyed`; a unit that left the table is
    not lost, though its strength counts as taken)."""
    kills: int
    """Enemy units destroyed by units of this side and type."""
    damage_taken: float
    """Strength these units lost (destroyed, damaged or removed)."""


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
    """Units left per side (with strength left; for rulesets without a roster, the
    units their summary lists)."""
    swapped: bool = False
    """The sides exchanged their place and initiative for this battle (`--swap-sides`)."""
    damage_dealt: dict[str, float] = msgspec.field(default_factory=dict)
    """Per side: strength the enemy lost (in the ruleset's measure, see `UnitRecord`)."""
    damage_taken: dict[str, float] = msgspec.field(default_factory=dict)
    """Per side: strength it lost."""
    units: list[UnitStats] = msgspec.field(default_factory=list)
    """Per (side, unit type), sorted by side order then type."""


class BattleTask(msgspec.Struct, frozen=True, kw_only=True):
    """One battle to play: what `run_tasks` takes.

    The result depends on nothing but `scenario`, `seed`, `players` and `rules`,
    so a task gives the same result wherever it is played.
    """

    key: str
    """A group label chosen by the caller (e.g. 'wasp|zaresh'); not used to play."""
    index: int
    """Game index within its group: the result's `game`."""
    scenario: Scenario
    seed: int
    players: dict[str, str] | None = None
    """Player kind per side; sides not named get the default kind."""
    rules: dict[str, Any] | None = None
    """Rule option overrides, as `--rule` gives them."""
    swapped: bool = False
    """Play the scenario with its sides swapped (`Ruleset.swap_sides`): the side
    names, and so the result's keys, stay those of the scenario."""


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
    actors = {side: new_player(kinds.get(side, default), game.ruleset) for side in side_names(game)}
    return play(game, actors, player_rng(game.seed))


def result_of(game: Game, index: int = 0, *, swapped: bool = False) -> BattleResult:
    """The result of a finished game: outcome, length, and from the ruleset's roster
    the survivors, damage dealt and taken per side, and per (side, type) unit counts."""
    outcome = game.outcome()
    summary = game.ruleset.summary(game.state)
    roster = game.ruleset.roster(game.state)
    # Swapping reverses the two sides: reverse again for the scenario's own order.
    sides = side_names(game)[::-1] if swapped else side_names(game)
    if roster:
        survivors = {side: 0 for side in sides}
        for record in roster:
            if record.remaining > 0:
                survivors[record.side] = survivors.get(record.side, 0) + 1
    else:
        listed: dict[str, Any] = summary.get("survivors") or {}
        survivors = {side: len(units) for side, units in listed.items()}
    taken = {side: 0.0 for side in sides}
    for record in roster:
        taken[record.side] = taken.get(record.side, 0.0) + record.strength - record.remaining
    dealt = {side: sum(v for s, v in taken.items() if s != side) for side in taken}
    return BattleResult(
        game=index,
        seed=game.seed,
        winner=outcome.winner if outcome else None,
        turns=int(summary.get("turn", 0)),
        reason=outcome.reason if outcome else "not finished",
        actions=len(game.actions),
        events=len(game.events),
        survivors=survivors,
        swapped=swapped,
        damage_dealt=dealt,
        damage_taken=taken,
        units=unit_stats(roster, sides),
    )


def unit_stats(roster: Sequence[UnitRecord], sides: Sequence[str]) -> list[UnitStats]:
    """Fielded, lost, kills and damage taken per (side, unit type) of a roster.

    A kill is an enemy unit whose `destroyed_by` is a unit of the side and type (as the
    record gives them, else as the roster does: the killer's id may have left it); a
    unit destroyed by its own side (friendly fire) is a loss but nobody's kill."""
    owner = {r.id: (r.side, r.type) for r in roster}
    counts: dict[tuple[str, str], list[float]] = {}
    for r in roster:
        row = counts.setdefault((r.side, r.type), [0, 0, 0, 0.0])
        row[0] += 1
        row[1] += 1 if r.destroyed else 0
        row[3] += r.strength - r.remaining
        killer: tuple[str, str] | None = None
        if r.destroyed and r.destroyed_by:
            if r.destroyed_by_side is not None and r.destroyed_by_type is not None:
                killer = (r.destroyed_by_side, r.destroyed_by_type)
            else:
                killer = owner.get(r.destroyed_by)
        if killer is not None and killer[0] != r.side:
            counts.setdefault(killer, [0, 0, 0, 0.0])[2] += 1
    order = {side: i for i, side in enumerate(sides)}
    return [
        UnitStats(
            side=side,
            type=utype,
            fielded=int(row[0]),
            lost=int(row[1]),
            kills=int(row[2]),
            damage_taken=row[3],
        )
        for (side, utype), row in sorted(
            counts.items(), key=lambda item: (order.get(item[0][0], len(order)), item[0])
        )
    ]


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


def run_task(task: BattleTask) -> BattleResult:
    """Play one task's battle (its scenario with sides swapped if the task says so)."""
    scenario = task.scenario
    if task.swapped:
        scenario = find_ruleset(scenario.ruleset).swap_sides(scenario)
    game = play_battle(scenario, task.seed, task.players, task.rules)
    return result_of(game, task.index, swapped=task.swapped)


def run_chunk(tasks: Sequence[BattleTask]) -> list[BattleResult]:
    """Worker: play the tasks of one chunk, in order.

    Tasks of one chunk usually share one Scenario object: pickle sends a shared
    object once per chunk, not once per task.
    """
    return [run_task(task) for task in tasks]


PARENT_CHECK_SECONDS = 0.5
"""How often a worker checks that the process that started it is still alive."""


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when its parent dies, however it died.

    A pool's workers otherwise outlive a parent killed by SIGKILL, a CI cancel or the
    OOM killer, and go on using CPU forever. On Linux the kernel signals the worker
    at once (PR_SET_PDEATHSIG); everywhere, a daemon thread also polls the parent's
    pid and exits when the worker has been handed to another parent.
    """
    # Ctrl-C reaches the whole process group: the parent handles it, so a worker
    # ignores it (and prints no traceback); the parent then terminates the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's SIGTERM handler, which turns SIGTERM into
    # an interrupt so that the parent keeps the battles played. In a worker that
    # handler printed a traceback when SIGTERM reached the whole group (`timeout`, a
    # CI cancel). A worker holds nothing to keep: SIGTERM simply ends it, as the
    # parent's terminate() expects.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the polling thread still covers it
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="dogfight-parent-watch", daemon=True).start()


PR_SET_PDEATHSIG = 1
"""prctl option: the signal a process gets when its parent dies (linux/prctl.h)."""


def default_jobs() -> int:
    """Processes to use when none are asked for: one per CPU."""
    return os.cpu_count() or 1


def chunk_size(total: int, workers: int) -> int:
    """Battles per chunk: several chunks per worker, at most `CHUNK_MAX` battles each."""
    if total <= 0:
        return CHUNK_MAX
    return max(1, min(CHUNK_MAX, total // (workers * CHUNKS_PER_WORKER)))


def _total_of(tasks: Iterable[BattleTask], total: int | None) -> int:
    if total is not None:
        return total
    return len(tasks) if isinstance(tasks, Sized) else 0


def run_tasks(
    tasks: Iterable[BattleTask],
    *,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
    total: int | None = None,
) -> Iterator[tuple[BattleTask, BattleResult]]:
    """Play `tasks` and yield each with its result, in task order.

    `jobs` local processes play chunks of tasks (default: one per CPU; 1 plays
    in this process); `cluster` (a Dask scheduler address, e.g.
    'tcp://host:8786') plays them on a Dask cluster instead, and `jobs` is then
    ignored. Results are the same whatever `jobs` or `cluster`: each depends
    only on its task. `tasks` is read lazily and at most a few chunks per
    worker are in flight or waiting to be yielded, so memory stays bounded
    however many tasks there are. `progress(done, total)` is called as battles
    finish; `total` defaults to `len(tasks)` when it has one, else 0.
    """
    count = _total_of(tasks, total)
    if cluster is not None:
        from dogfight.sim.cluster import run_on_cluster

        yield from run_on_cluster(tasks, cluster, progress=progress, total=count)
        return
    workers = jobs if jobs is not None else default_jobs()
    if workers < 1:
        raise ValueError("jobs must be at least 1")
    if workers == 1 or (0 < count <= 1):
        for done, task in enumerate(tasks, start=1):
            result = run_task(task)
            if progress is not None:
                progress(done, count)
            yield task, result
        return
    # The platform's default start method: callers that show progress should not run
    # threads of their own meanwhile where that is "fork" (the CLI refreshes by hand).
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_exit_with_parent, initargs=(os.getpid(),)
    )
    try:
        yield from in_order(
            chunks_of(tasks, chunk_size(count, workers)),
            lambda chunk: pool.submit(run_chunk, chunk),
            _wait_first,
            workers * CHUNKS_PER_WORKER,
            progress,
            count,
        )
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM) or failed: stop the workers now rather than
        # wait for the chunks they are playing.
        _stop_workers(pool)
        raise
    finally:
        # A caller that stops early does not wait for chunks not yet started.
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and terminate the pool's worker processes."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if callable(terminate):
        terminate()
        return
    # Older Pythons have no public way; the pool keeps its processes here (taken
    # before shutdown, which forgets them).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def chunks_of(tasks: Iterable[BattleTask], size: int) -> Iterator[list[BattleTask]]:
    """Consecutive chunks of `size` tasks (the last may be shorter), read lazily."""
    it = iter(tasks)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _wait_first(pending: set[Any]) -> tuple[set[Any], set[Any]]:
    done, still = wait(pending, return_when=FIRST_COMPLETED)
    return set(done), set(still)


def in_order(
    chunks: Iterator[list[BattleTask]],
    submit: Callable[[list[BattleTask]], Any],
    wait_first: Callable[[set[Any]], tuple[set[Any], set[Any]]],
    window: int,
    progress: Progress | None,
    total: int,
) -> Iterator[tuple[BattleTask, BattleResult]]:
    """Submit chunks, at most `window` of them not yet yielded, and yield in order.

    Shared by the process pool and the Dask cluster: `submit(chunk)` returns a
    future with `.result()`, `wait_first(pending)` splits futures into (done, pending).
    A chunk is submitted only while fewer than `window` chunks are in flight or
    finished but waiting for an earlier one, which bounds both.
    """
    by_future: dict[Any, int] = {}
    sent: dict[int, list[BattleTask]] = {}
    finished: dict[int, list[BattleResult]] = {}
    pending: set[Any] = set()
    next_out = 0
    next_in = 0
    done = 0
    exhausted = False
    while True:
        while not exhausted and next_in - next_out < window:
            chunk = next(chunks, None)
            if chunk is None:
                exhausted = True
                break
            future = submit(chunk)
            by_future[future] = next_in
            sent[next_in] = chunk
            pending.add(future)
            next_in += 1
        if not pending:
            break
        ready, pending = wait_first(pending)
        for future in ready:
            number = by_future.pop(future)
            results = future.result()
            finished[number] = results
            done += len(results)
        if progress is not None and ready:
            progress(done, total)
        while next_out in finished:
            results = finished.pop(next_out)
            yield from zip(sent.pop(next_out), results, strict=True)
            next_out += 1


def iter_results(
    scenario: Scenario,
    n: int,
    seed: int = 1,
    jobs: int | None = None,
    players: Mapping[str, str] | None = None,
    rules: Mapping[str, object] | None = None,
    progress: Progress | None = None,
    *,
    cluster: str | None = None,
    swap: bool = False,
) -> Iterator[BattleResult]:
    """Play `n` battles of `scenario` and yield their results in game order, streaming.

    Game `i` uses seed `derive_seed(seed, i)`; with `swap`, odd-numbered games are
    played with the sides swapped (see `Ruleset.swap_sides`), so that over a run each
    force moves first as often as the other. See `run_tasks` for `jobs` and `cluster`.
    """
    if n < 0:
        raise ValueError("n must not be negative")
    kinds = dict(players) if players is not None else None
    overrides = dict(rules) if rules is not None else None
    tasks = (
        BattleTask(
            key=scenario.name,
            index=i,
            scenario=scenario,
            seed=derive_seed(seed, i),
            players=kinds,
            rules=overrides,
            swapped=swap and i % 2 == 1,
        )
        for i in range(n)
    )
    jobs = max(1, min(jobs if jobs is not None else default_jobs(), n or 1))
    for _, result in run_tasks(tasks, jobs=jobs, cluster=cluster, progress=progress, total=n):
        yield result


def simulate(
    scenario: Scenario,
    n: int,
    seed: int = 1,
    jobs: int | None = None,
    players: Mapping[str, str] | None = None,
    rules: Mapping[str, object] | None = None,
    progress: Progress | None = None,
    *,
    cluster: str | None = None,
    swap: bool = False,
) -> list[BattleResult]:
    """Play `n` battles of `scenario` and return their results ordered by game index.

    Holds every result: for long runs stream with `iter_results` instead. Game `i`
    uses seed `derive_seed(seed, i)`; the results are the same for any `jobs`.
    """
    return list(
        iter_results(scenario, n, seed, jobs, players, rules, progress, cluster=cluster, swap=swap)
    )
