"""`dogfight bench`: battles/s and actions/s on the built-in scenarios, with --scaling
how one simulation speeds up with worker processes, or with --units how the cost of a
turn grows with the units on the table.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from typing import Annotated

import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, _scenario, app, seed_option
from dogfight.core.errors import DogfightError
from dogfight.core.registry import find_ruleset
from dogfight.sim import BenchRow, benchmark, check_players
from dogfight.sim.bench import (
    DecisionsRow,
    MemoryBench,
    StepsRow,
    UnitsBench,
    UnitsRow,
    bench_decisions,
    bench_memory,
    bench_steps,
    bench_units,
    scaling,
    steps_per_ruleset,
)


@app.command(name="bench")
def bench_command(
    ruleset: Annotated[
        str | None, typer.Argument(help="Only this ruleset's scenarios (default: all).")
    ] = None,
    battles: Annotated[
        int | None,
        typer.Option(min=1, help="Battles per scenario (default 20; 2000 with --scaling)."),
    ] = None,
    seed: Annotated[int, seed_option("Run seed.")] = 1,
    json_out: JsonFlag = False,
    scaling_scenario: Annotated[
        str | None,
        typer.Option(
            "--scaling",
            metavar="SCENARIO",
            help="Instead: time one simulation of SCENARIO with --jobs 1 and with --jobs N "
            "and print the speedup.",
        ),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=2, help="With --scaling: the parallel run's jobs.")
    ] = 2,
    decisions_scenario: Annotated[
        str | None,
        typer.Option(
            "--decisions",
            metavar="SCENARIO",
            help="Instead: the processor time of each decision of the --players kind "
            "(default search) on SCENARIO's first side against the heuristic, over "
            "--battles battles (default 2): the median and 90th percentile.",
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            metavar="KIND",
            help="With --scaling or --units: the player kind of both sides (default with "
            "--scaling: heuristic if the ruleset has one, else random; with --units: random); "
            "with --decisions: the kind timed.",
        ),
    ] = None,
    units_ruleset: Annotated[
        str | None,
        typer.Option(
            "--units",
            metavar="RULESET",
            help="Instead: time a few turns of RULESET's crowds of growing size (units a "
            "side at the density of its built-in battle) and fit how ms a turn grows.",
        ),
    ] = None,
    sizes: Annotated[
        str | None,
        typer.Option(
            "--sizes",
            metavar="N,N,...",
            help="With --units: the units a side to time (default: the ruleset's).",
        ),
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(
            "--turns", min=1, max=1000, help="With --units: turns timed at each size (default 3)."
        ),
    ] = None,
    memory_ruleset: Annotated[
        str | None,
        typer.Option(
            "--memory",
            metavar="RULESET",
            help="Instead: the Python memory a game of RULESET's crowd (--sizes N units a "
            "side, default 100) holds after --turns turns (default 1), and the process's "
            "memory over --battles battles of its built-in scenarios (default 100).",
        ),
    ] = None,
    steps: Annotated[
        bool,
        typer.Option(
            "--steps",
            help="Instead: steps a second of random play through the Game API "
            "(legal_actions + apply a step) on each built-in scenario, --battles games "
            "each (default 5), in processor time.",
        ),
    ] = False,
    web: Annotated[
        bool,
        typer.Option(
            "--web",
            help="Instead: the web server's request latency (p50, p99) and throughput "
            "(actions a second) with one client, then --clients clients (default 50) at "
            "once, each playing a game against the heuristic computer over loopback. "
            "Every request counts; a long-poll's latency is its round trip less the time "
            "the server held it before the game moved.",
        ),
    ] = False,
    clients: Annotated[
        int, typer.Option("--clients", min=2, max=500, help="With --web: clients at once.")
    ] = 50,
    computer_processes: Annotated[
        int | None,
        typer.Option(
            "--computer-processes",
            min=0,
            max=64,
            help="With --web: the server's computer worker processes (default: the "
            "server's; 0: the computer decides on the server's threads).",
        ),
    ] = None,
    web_memory: Annotated[
        int | None,
        typer.Option(
            "--web-memory",
            metavar="GAMES",
            min=1,
            max=100_000,
            help="Instead: the Python memory GAMES live web games hold (40 actions in, "
            "views built), and the server's estimate of it.",
        ),
    ] = None,
    rl: Annotated[
        bool,
        typer.Option(
            "--rl",
            help="Instead: steps/s of random masked play through the PettingZoo environment "
            "(dogfight.rl) per ruleset, and its cost over the same steps through the Game API.",
        ),
    ] = False,
) -> None:
    """Measure battles/s and actions/s on each built-in scenario (one process), with
    --scaling how a simulation speeds up with worker processes, or with --units how the
    cost of a turn grows with the number of units."""
    if decisions_scenario is not None:
        others = (units_ruleset, scaling_scenario, memory_ruleset, web_memory, sizes, turns)
        if rl or steps or web or ruleset is not None or any(o is not None for o in others):
            raise DogfightError(
                "--decisions takes its own SCENARIO and goes with --players and --battles "
                "only: drop the RULESET argument and --units, --scaling, --memory, --steps, "
                "--rl, --web, --sizes and --turns"
            )
        _bench_decisions(decisions_scenario, players, battles or 2, seed, json_out)
        return
    if web or web_memory is not None:
        _bench_web(web, clients, computer_processes, web_memory, json_out)
        return
    if rl:
        if (
            units_ruleset is not None
            or scaling_scenario is not None
            or memory_ruleset is not None
            or steps
        ):
            raise DogfightError("--rl goes alone: drop --units, --scaling, --memory and --steps")
        if players is not None or sizes is not None or turns is not None:
            raise DogfightError(
                "--rl plays random masked battles: drop --players, --sizes and --turns"
            )
        _bench_rl(ruleset, battles or 5, seed, json_out)
        return
    if units_ruleset is not None:
        if ruleset is not None or scaling_scenario is not None:
            raise DogfightError(
                "--units takes its own RULESET: drop the RULESET argument and --scaling"
            )
        if battles is not None:
            raise DogfightError("--units times turns, not battles: use --turns, not --battles")
        kind = (players or "random").strip().lower()
        _bench_units(units_ruleset, kind, _parse_sizes(sizes), turns or 3, seed, json_out)
        return
    if memory_ruleset is not None:
        if ruleset is not None or scaling_scenario is not None or steps:
            raise DogfightError(
                "--memory takes its own RULESET: drop the RULESET argument, --scaling and --steps"
            )
        parsed = _parse_sizes(sizes)
        if parsed is not None and len(parsed) != 1:
            raise DogfightError(f"--sizes with --memory: one size, not {sizes!r}")
        kind = (players or "random").strip().lower()
        units = parsed[0] if parsed else 100
        _bench_memory(memory_ruleset, kind, units, turns or 1, battles or 100, seed, json_out)
        return
    if sizes is not None or turns is not None:
        raise DogfightError("--sizes and --turns go with --units")
    if steps:
        if scaling_scenario is not None or players is not None:
            raise DogfightError(
                "--steps plays random players on the built-in scenarios: "
                "drop --scaling and --players"
            )
        _bench_steps(ruleset, battles or 5, seed, json_out)
        return
    if scaling_scenario is not None:
        if ruleset is not None:
            raise DogfightError("--scaling takes its own SCENARIO: drop the RULESET argument")
        _bench_scaling(scaling_scenario, battles or 2000, seed, jobs, players, json_out)
        return
    if players is not None:
        raise DogfightError("--players goes with --scaling or --units")
    battles = battles or 20
    rows: list[BenchRow] = benchmark(ruleset, battles, seed)
    if json_out:
        out.print_json({"battles": battles, "seed": seed, "results": rows})
        return
    out.print_table(
        [
            "ruleset",
            "scenario",
            "players",
            "battles",
            "actions",
            "seconds",
            "battles/s",
            "actions/s",
        ],
        [
            [
                r.ruleset,
                r.scenario,
                r.players,
                r.battles,
                r.actions,
                f"{r.seconds:.2f}",
                f"{r.battles_per_s:.1f}",
                f"{r.actions_per_s:.0f}",
            ]
            for r in rows
        ],
    )


LOAD_COLUMNS = (
    *("clients", "games", "requests", "actions", "seconds"),
    *("p50 ms", "p99 ms", "max ms", "actions/s"),
)
"""The columns `bench --web` prints for each load phase."""


def _bench_web(
    load: bool, clients: int, processes: int | None, games: int | None, json_out: bool
) -> None:
    """`bench --web` and `bench --web-memory`: the web server's figures."""
    from dogfight.web.bench import bench_web, bench_web_memory

    results: dict[str, object] = {}
    if load:
        found = bench_web(clients, processes=processes)
        results["load"] = found
        if not json_out:
            out.print_table(
                [*LOAD_COLUMNS],
                [
                    [
                        *(r.clients, r.games, r.requests, r.actions, f"{r.seconds:.1f}"),
                        *(f"{r.p50_ms:.0f}", f"{r.p99_ms:.0f}", f"{r.max_ms:.0f}"),
                        f"{r.actions_per_s:.1f}",
                    ]
                    for r in found.runs
                ],
            )
            for r in found.runs:
                kinds = ", ".join(f"{k} {ms:.0f}" for k, ms in r.p99_by_request.items())
                typer.echo(f"p99 ms by request with {r.clients} client(s): {kinds}")
            typer.echo(
                f"Throughput with {clients} clients: {found.speedup:.1f}x one client's; "
                f"server and workers resident at the end: {found.resident_mb:.0f} MB"
            )
            typer.echo(
                f"Processor seconds while the {clients} clients played: server "
                f"{found.server_cpu_s:.1f}, its workers {found.workers_cpu_s:.1f}"
            )
            solo, many = found.runs[0], found.runs[-1]
            typer.echo(
                f"Processors busy on average (server, workers and clients): one client "
                f"{solo.cores:.2f}, {many.clients} clients {many.cores:.2f}, of "
                f"{found.processors}; so {many.clients} clients could reach at most "
                f"{found.ceiling:.1f}x one client's throughput on this machine"
            )
    if games is not None:
        memory = bench_web_memory(games)
        results["memory"] = memory
        if not json_out:
            typer.echo(
                f"{memory.games} live games: {memory.traced_mb:.0f} MB of Python memory "
                f"({memory.per_game_kb:.0f} KB a game); the server's estimate "
                f"{memory.estimated_mb:.0f} MB"
            )
    if json_out:
        out.print_json(results)


def _bench_decisions(name: str, kind: str | None, battles: int, seed: int, json_out: bool) -> None:
    """`bench --decisions`: how long one player kind takes to decide."""
    scenario = _scenario(name)
    kind = (kind or "search").strip().lower()
    check_players({"timed": kind}, scenario.ruleset)
    # A battle can take minutes: each one's line goes to a terminal's stderr as it ends.
    show = not json_out and out.stderr_console().is_terminal

    def shown(row: DecisionsRow) -> None:
        if show:
            typer.echo(
                f"battle seed {row.seed}: {row.decisions} decisions, median "
                f"{row.median_s:.3f} s, 90th percentile {row.p90_s:.3f} s; "
                f"won by {row.winner or 'nobody (a draw)'}",
                err=True,
            )

    found = bench_decisions(scenario, kind, battles, seed, on_row=shown)
    if json_out:
        out.print_json(found)
        return
    typer.echo(
        f"{scenario.title} ({scenario.ruleset}): {found.kind} on {found.side} against "
        f"{found.opponent}, {battles} battle(s), run seed {seed}"
    )
    out.print_table(
        ["battle seed", "decisions", "median s", "p90 s", "winner"],
        [
            [r.seed, r.decisions, f"{r.median_s:.3f}", f"{r.p90_s:.3f}", r.winner or "draw"]
            for r in found.rows
        ],
    )
    typer.echo(
        f"All {found.decisions} decisions with a choice: median {found.median_s:.3f} s, "
        f"90th percentile {found.p90_s:.3f} s of processor time"
    )


def _bench_rl(ruleset: str | None, battles: int, seed: int, json_out: bool) -> None:
    """`bench --rl`: the learning environments' speed (needs the `rl` extra)."""
    try:
        from dogfight.rl.bench import rl_benchmark
    except ImportError as exc:
        raise DogfightError(
            f"--rl needs the rl extra (pip install 'dogfight[rl]'): {exc}"
        ) from None
    rows = rl_benchmark(ruleset, battles, seed)
    if json_out:
        out.print_json({"battles": battles, "seed": seed, "results": rows})
        return
    out.print_table(
        ["ruleset", "battles", "steps", "env steps/s", "game steps/s", "env/game"],
        [
            [
                r.ruleset,
                r.battles,
                r.steps,
                f"{r.env_steps_per_s:.0f}",
                f"{r.game_steps_per_s:.0f}",
                f"{r.ratio:.2f}",
            ]
            for r in rows
        ],
    )


def _bench_scaling(
    name: str, battles: int, seed: int, jobs: int, kind: str | None, json_out: bool
) -> None:
    scenario = _scenario(name)
    if kind is not None:
        kind = kind.strip().lower()
        check_players({"all": kind}, scenario.ruleset)
    result = scaling(scenario, battles, seed, (1, jobs), kind)
    if json_out:
        out.print_json(result)
        return
    typer.echo(
        f"{scenario.title} ({scenario.ruleset}): {battles} battles, seed {seed}, "
        f"players {result.players} v {result.players}"
    )
    out.print_table(
        ["jobs", "seconds", "battles/s", "cpu seconds"],
        [
            [r.jobs, f"{r.seconds:.2f}", f"{r.battles_per_s:.1f}", f"{r.cpu_seconds:.2f}"]
            for r in result.runs
        ],
    )
    same = "identical" if result.same_results else "DIFFERENT (a bug)"
    typer.echo(f"Speedup with {jobs} jobs: {result.speedup:.2f}x; results {same}")


def _bench_memory(
    ruleset: str, kind: str, units: int, turns: int, battles: int, seed: int, json_out: bool
) -> None:
    result: MemoryBench = bench_memory(ruleset, kind, units, turns, battles, seed)
    if json_out:
        out.print_json(result)
        return
    typer.echo(
        f"{result.ruleset} crowd of {units} a side, players {kind} v {kind}: "
        f"{result.setup_mb:.2f} MB held once set up, {result.held_mb:.2f} MB after "
        f"{turns} turn{'s' if turns != 1 else ''} (peak {result.peak_mb:.2f} MB while playing)"
    )
    typer.echo(f"{battles} battles of its built-in scenarios in one process:")
    out.print_table(
        ["battles", "MB still allocated", "peak resident MB"],
        [[r.battles, f"{r.traced_mb:.3f}", f"{r.peak_rss_mb:.0f}"] for r in result.rows],
    )


def _bench_steps(ruleset: str | None, games: int, seed: int, json_out: bool) -> None:
    rows: list[StepsRow] = bench_steps(ruleset, games, seed)
    totals = steps_per_ruleset(rows)
    if json_out:
        out.print_json({"games": games, "seed": seed, "results": rows, "steps_per_s": totals})
        return
    out.print_table(
        ["ruleset", "scenario", "games", "steps", "cpu seconds", "steps/s"],
        [
            [r.ruleset, r.scenario, r.games, r.steps, f"{r.seconds:.2f}", f"{r.steps_per_s:.0f}"]
            for r in rows
        ],
    )
    for name, rate in totals.items():
        typer.echo(f"{name}: {rate:.0f} steps a second over its built-in scenarios")


def _parse_sizes(text: str | None) -> list[int] | None:
    """`--sizes 10,20,40` as numbers (None: the ruleset's defaults)."""
    if text is None:
        return None
    try:
        sizes = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise DogfightError(
            f"--sizes takes whole numbers separated by commas, not {text!r}"
        ) from None
    if not sizes or min(sizes) < 1:
        raise DogfightError(f"--sizes: each size is at least 1 unit a side, not {text!r}")
    if max(sizes) > MAX_UNITS:
        raise DogfightError(f"--sizes: at most {MAX_UNITS} units a side, not {max(sizes)}")
    return sizes


MAX_UNITS = 1000
"""The largest crowd `--sizes` builds (more is a typo: hours a turn today)."""


def _bench_units(
    ruleset: str, kind: str, sizes: list[int] | None, turns: int, seed: int, json_out: bool
) -> None:
    # The turn-by-turn progress goes to a terminal's stderr only; rows print as each
    # size ends, so a long run shows its figures as they come.
    show = not json_out and out.stderr_console().is_terminal

    def progress(units: int, done: int, total: int) -> None:
        if show:
            typer.echo(f"  {units} a side: turn {done}/{total}", err=True)

    def row_line(row: UnitsRow) -> None:
        if not json_out:
            typer.echo(units_line(row))

    if not json_out:
        typer.echo(
            f"{find_ruleset(ruleset).name} crowds: players {kind} v {kind}, "
            f"{turns} turn{'s' if turns != 1 else ''} a size, seed {seed}"
        )
    result = bench_units(ruleset, kind, sizes, turns, seed, progress=progress, on_row=row_line)
    if json_out:
        out.print_json(result)
        return
    typer.echo(exponent_line(result))


def units_line(row: UnitsRow) -> str:
    """One size's figures, as `bench --units` prints them."""
    # Two decimals where a turn is quick, so that the exponent can be checked from
    # the figures printed.
    ms = f"{row.ms_per_turn:.2f}" if row.ms_per_turn < 100 else f"{row.ms_per_turn:.0f}"
    return (
        f"{row.units} a side: {ms} ms a turn "
        f"({row.turns} turns, {row.actions} actions, {row.seconds:.2f} s); "
        f"peak memory {row.peak_mb:.0f} MB"
    )


def exponent_line(result: UnitsBench) -> str:
    """The fitted exponent, as `bench --units` prints it."""
    if result.exponent is None:
        return "Fitted exponent: none (time at least two sizes)"
    return f"Fitted exponent: {result.exponent:.2f} (ms a turn grows as units a side ^ exponent)"
