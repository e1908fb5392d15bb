"""`dogfight ladder`: a round robin of player kinds over a ruleset's scenarios, rated.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, app, battles_option, seed_option
from dogfight.cli.lab import ClusterOption, JobsOption, PlotOption, _check_jobs, _progress
from dogfight.core.registry import find_ruleset
from dogfight.sim.ladder import DEFAULT_KINDS, LadderReport, check_kinds, ladder, ladder_scenarios


@app.command(name="ladder")
def ladder_command(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            metavar="KIND,KIND,...",
            help="Player kinds on the ladder, comma-separated (search:N for a search of N "
            "simulations a decision, personas such as heuristic:aggressive).",
        ),
    ] = ",".join(DEFAULT_KINDS),
    battles: Annotated[
        int, battles_option("Battles per pair of kinds and scenario (half each way round).")
    ] = 10,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            "--scenario",
            metavar="NAME",
            help="Play only this built-in scenario (repeatable; default: all of them).",
        ),
    ] = None,
    seed: Annotated[int, seed_option("Run seed; every battle's seed derives from it.")] = 1,
    jobs: JobsOption = None,
    cluster: ClusterOption = None,
    json_out: JsonFlag = False,
    plot: PlotOption = None,
) -> None:
    """Rate player kinds: every pair plays every scenario of the ruleset, each kind
    commanding each side in turn; ratings are Bradley-Terry with 95% intervals."""
    _check_jobs(jobs, cluster)
    name = find_ruleset(ruleset).name
    kinds = check_kinds(name, players.split(","))
    scenarios = ladder_scenarios(name, scenario or [])
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)
    total = battles * len(scenarios) * len(kinds) * (len(kinds) - 1) // 2
    with _progress("laddering", total, not json_out) as progress:
        report = ladder(
            name,
            kinds,
            battles,
            seed,
            scenarios=scenarios,
            jobs=jobs,
            cluster=cluster,
            progress=progress,
        )
    if plot is not None:
        _plot(report, plot)
    if json_out:
        out.print_json({**msgspec.to_builtins(report), "plot": str(plot) if plot else None})
        return
    _print_ladder(report)
    if plot is not None:
        typer.echo(f"Plot: {plot}")


def _plot(report: LadderReport, path: Path) -> None:
    from dogfight.sim.plots import ratings_plot

    rungs = report.rungs
    title = (
        f"{report.ruleset} ladder: {report.battles} battles per pairing and scenario "
        f"({len(report.scenarios)} scenarios)"
    )
    ratings_plot(
        [r.kind for r in rungs],
        [r.rating for r in rungs],
        [r.low for r in rungs],
        [r.high for r in rungs],
        title,
        path,
    )


def _print_ladder(report: LadderReport) -> None:
    typer.echo(
        f"{report.ruleset} ladder of {len(report.rungs)} player kinds over "
        f"{', '.join(report.scenarios)}; {report.battles} battles per pair of kinds and "
        f"scenario (half with each kind on each side); run seed {report.seed}"
    )
    out.print_table(
        ["rank", "player", "rating", "95% interval", "score", "battles", "score rate"],
        [
            [
                place,
                r.kind,
                f"{r.rating:.0f}",
                f"{r.low:.0f} - {r.high:.0f}",
                f"{r.score:g}",
                r.battles,
                out.percent(r.score / r.battles if r.battles else 0.0),
            ]
            for place, r in enumerate(report.rungs, start=1)
        ],
        title="Ratings (Bradley-Terry, 1500 = the field's average; draws count half)",
    )
    m = report.matrix
    rows = []
    for i, kind in enumerate(m.names):
        cells: list[str] = [kind]
        for j in range(len(m.names)):
            rate = m.rate(i, j)
            cells.append("" if rate is None else out.percent(rate))
        rows.append(cells)
    out.print_table(["row v column", *m.names], rows, title="Score rate of row against column")
