"""`dogfight bench`: battles/s and actions/s on the built-in scenarios, or with
--scaling how one simulation speeds up with worker processes.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from typing import Annotated

import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, _scenario, app, seed_option
from dogfight.core.errors import DogfightError
from dogfight.sim import BenchRow, benchmark, check_players
from dogfight.sim.bench import scaling


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
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            metavar="KIND",
            help="With --scaling: the player kind of both sides (default: heuristic if the "
            "ruleset has one, else random).",
        ),
    ] = None,
) -> None:
    """Measure battles/s and actions/s on each built-in scenario (one process), or with
    --scaling how a simulation speeds up with worker processes."""
    if scaling_scenario is not None:
        if ruleset is not None:
            raise DogfightError("--scaling takes its own SCENARIO: drop the RULESET argument")
        _bench_scaling(scaling_scenario, battles or 2000, seed, jobs, players, json_out)
        return
    if players is not None:
        raise DogfightError("--players goes with --scaling")
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
