"""`dogfight simulate`: many battles computer against computer, summarised with
intervals, optionally streamed to row files and drawn as a histogram.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import msgspec
import typer

from dogfight.cli import output as out
from dogfight.cli.common import (
    AiOption,
    JsonFlag,
    RuleOption,
    ScenarioArg,
    _header,
    _new_game,
    _scenario,
    app,
    battles_option,
    seed_option,
)
from dogfight.cli.progress import battle_progress
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.options import options_as_dict
from dogfight.core.text import agrees
from dogfight.sim import Interval, Summary, SummaryBuilder, iter_results, side_names
from dogfight.sim.rows import RowWriter, check_out_path
from dogfight.sim.runner import default_jobs


@app.command(name="simulate")
def simulate_command(
    scenario: ScenarioArg,
    n: Annotated[int, battles_option("Number of battles.")] = 100,
    seed: Annotated[int, seed_option("Run seed; battle i uses a seed derived from it.")] = 1,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default: one per CPU). Results do not depend on it.",
        ),
    ] = None,
    ai: AiOption = None,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    out_files: Annotated[
        list[Path] | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Stream one row per battle to FILE; the ending picks the format: .parquet "
            "(flat columns game, seed, swapped, winner, turns, reason, actions, events, "
            "survivors_/damage_dealt_/damage_taken_<side>, and units, a list of "
            "{side, type, fielded, lost, kills, damage_taken}: query it with DuckDB, e.g. "
            "select winner, count(*) from 'FILE.parquet' group by winner), .csv (the same "
            "columns, units as JSON text) or .jsonl (one JSON result per line). "
            "Repeat for several files.",
        ),
    ] = None,
    swap_sides: Annotated[
        bool,
        typer.Option(
            "--swap-sides",
            help="Play odd-numbered battles with the sides exchanged in side order and "
            "initiative, to cancel first-mover bias; wins still count for the force.",
        ),
    ] = False,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT) "
            "instead of local processes; same results as a local run. Not with --jobs. "
            "Needs pip install 'dogfight\\[cluster]'.",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Also draw each side's win rate with its 95% interval and the turn each "
            "battle ended: FILE.png or .svg.",
        ),
    ] = None,
) -> None:
    """Play many battles computer against computer and summarise who wins.

    The summary gives win and draw rates with 95% Wilson intervals, turns, survivors,
    damage dealt and taken per side, and kills and losses per unit type. Rows stream
    to the --out files as battles finish, so any number of battles fits in memory.
    """
    if cluster is not None and jobs is not None:
        raise DogfightError(
            "--jobs and --cluster together: the cluster's workers decide how many battles "
            "run at once; drop --jobs"
        )
    loaded = _scenario(scenario)
    game, players = _new_game(loaded, seed, rule, ai)
    sides = side_names(game)
    if swap_sides:
        # Refuse a scenario that cannot be swapped before any battle is played.
        Game(game.ruleset.swap_sides(loaded), seed=seed, rules=game.rule_overrides)
    paths = list(out_files or [])
    for path in paths:
        check_out_path(path)
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)
    workers = jobs if jobs is not None else default_jobs()
    show_progress = not json_out and out.stderr_console().is_terminal
    builder = SummaryBuilder(sides)
    with ExitStack() as stack:
        writers = [stack.enter_context(RowWriter(path, sides)) for path in paths]
        update = stack.enter_context(battle_progress("simulating", n, show_progress))

        try:
            with stop_on_sigterm():
                for result in iter_results(
                    loaded,
                    n,
                    seed,
                    workers,
                    players,
                    game.rule_overrides,
                    update,
                    cluster=cluster,
                    swap=swap_sides,
                ):
                    builder.add(result)
                    for writer in writers:
                        writer.write(result)
        except KeyboardInterrupt:
            # Keep what was played: the summary so far, and the rows under a name
            # that says they are partial.
            kept = [writer.close_partial() for writer in writers]
            _interrupted(game, players, builder, n, kept, json_out)
    summary = builder.summary()
    if plot is not None:
        from dogfight.sim.plots import Rate, simulation_plot

        rates = [Rate(s.side, s.wins.rate, s.wins.low, s.wins.high) for s in summary.sides]
        d = summary.draws
        rates.append(Rate("draw", d.rate, d.low, d.high))
        title = f"{loaded.title}: {summary.battles} battles, run seed {seed}"
        simulation_plot(rates, summary.turn_counts, title, plot)
    if json_out:
        report = _simulation_report(game, players, seed, summary, paths, swap_sides, cluster)
        out.print_json({**report, "plot": str(plot) if plot else None})
        return
    _print_summary(game, players, summary)
    for path in paths:
        typer.echo(f"Wrote {summary.battles} rows to {path}")
    if plot is not None:
        typer.echo(f"Plot: {plot}")


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: the battles played so far are kept."""


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM (a CI cancel, `kill`) interrupts like Ctrl-C."""

    def handler(signum: int, frame: object) -> None:
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave SIGTERM as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupted(
    game: Game,
    players: dict[str, str],
    builder: SummaryBuilder,
    total: int,
    kept: list[Path],
    json_out: bool,
) -> NoReturn:
    """Report the battles finished before an interrupt, then exit 130."""
    summary = builder.summary()
    note = f"interrupted after {summary.battles} of {total} battles"
    if json_out:
        out.print_json(
            {
                "interrupted": True,
                "battles_finished": summary.battles,
                "battles_asked": total,
                "partial_out": [str(p) for p in kept],
            }
        )
    elif summary.battles:
        _print_summary(game, players, summary)
    for path in kept:
        typer.echo(f"Kept {summary.battles} rows (partial) in {path}", err=True)
    out.error_line(note)
    raise SystemExit(130)


def _interval_json(value: Interval) -> dict[str, Any]:
    return {"count": value.count, "rate": value.rate, "low": value.low, "high": value.high}


def _simulation_report(
    game: Game,
    players: dict[str, str],
    seed: int,
    summary: Summary,
    out_files: list[Path],
    swap_sides: bool,
    cluster: str | None,
) -> dict[str, Any]:
    return {
        "ruleset": game.ruleset.name,
        "scenario": game.scenario.name,
        "source": game.scenario.where,
        "seed": seed,
        "battles": summary.battles,
        "players": players,
        "options": options_as_dict(game.options),
        "rules": dict(game.rule_overrides),
        "swap_sides": swap_sides,
        "swapped": summary.swapped,
        "cluster": cluster,
        "sides": {
            s.side: {
                "wins": s.wins.count,
                "rate": s.wins.rate,
                "low": s.wins.low,
                "high": s.wins.high,
                "mean_survivors": s.mean_survivors,
                "mean_damage_dealt": s.mean_damage_dealt,
                "mean_damage_taken": s.mean_damage_taken,
            }
            for s in summary.sides
        },
        "draws": _interval_json(summary.draws),
        "turns": {"mean": summary.mean_turns, "median": summary.median_turns},
        "mean_actions": summary.mean_actions,
        "units": msgspec.to_builtins(summary.units),
        "out": [str(p) for p in out_files],
    }


def _print_summary(game: Game, players: dict[str, str], summary: Summary) -> None:
    typer.echo(_header(game, players, seed="run seed"))
    rows = [
        [
            agrees(s.side, "win"),
            s.wins.count,
            out.percent(s.wins.rate),
            _ci(s.wins.low, s.wins.high),
            f"{s.mean_survivors:.2f}",
            f"{s.mean_damage_dealt:.2f}",
            f"{s.mean_damage_taken:.2f}",
        ]
        for s in summary.sides
    ]
    draws = summary.draws
    rows.append(
        ["draw", draws.count, out.percent(draws.rate), _ci(draws.low, draws.high), "", "", ""]
    )
    swapped = f", {summary.swapped} with sides swapped" if summary.swapped else ""
    out.print_table(
        [
            "result",
            "battles",
            "rate",
            "95% interval (Wilson)",
            "survivors",
            "damage dealt",
            "damage taken",
        ],
        rows,
        title=f"{summary.battles} battles{swapped} (survivors and damage: mean per battle)",
    )
    if summary.units:
        out.print_table(
            ["side", "unit type", "fielded", "lost", "loss rate", "kills", "kills per unit"],
            [
                [
                    u.side,
                    u.type,
                    u.fielded,
                    u.lost,
                    out.percent(u.loss_rate),
                    u.kills,
                    f"{u.kills_per_unit:.2f}",
                ]
                for u in summary.units
            ],
            title="Units (totals over all battles)",
        )
    typer.echo(
        f"Turns: mean {summary.mean_turns:.2f}, median {summary.median_turns:g}; "
        f"actions per battle: mean {summary.mean_actions:.1f}"
    )


def _ci(low: float, high: float) -> str:
    return f"{out.percent(low)} - {out.percent(high)}"
