"""`dogfight report`: the playtest report (dogfight.sim.report) as one HTML file.

Registered on the main app by importing this module (see the end of cli/main.py).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import msgspec
import typer

from dogfight.ai import check_kind, player_kinds
from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, app, seed_option
from dogfight.cli.progress import battle_progress
from dogfight.core.errors import DogfightError
from dogfight.core.registry import find_ruleset
from dogfight.sim.players import check_players
from dogfight.sim.report import (
    SECTIONS,
    expected_minutes,
    make_plan,
    partial_path,
    planned_battles,
    run_report,
    seconds_per_battle,
)
from dogfight.sim.runner import default_jobs


@app.command()
def report(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    out_file: Annotated[
        Path, typer.Option("--out", metavar="FILE", help="Write the report here (.html).")
    ] = Path("report.html"),
    players: Annotated[
        str, typer.Option("--players", metavar="KIND", help="Player kind for every side.")
    ] = "heuristic",
    battles: Annotated[
        int | None,
        typer.Option(
            "--battles", "-n", min=1, max=100_000, help="Battles per pairing, orientation, arm."
        ),
    ] = None,
    quick: Annotated[
        bool, typer.Option("--quick", help="Few battles: minutes, wide intervals.")
    ] = False,
    scenario: Annotated[
        list[str] | None,
        typer.Option("--scenario", help="Only this built-in scenario (repeatable)."),
    ] = None,
    sections: Annotated[
        str | None,
        typer.Option(help=f"Only these sections, comma-separated: {', '.join(SECTIONS)}."),
    ] = None,
    seed: Annotated[int, seed_option("Run seed; every battle's seed derives from it.")] = 1,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes.")
    ] = None,
    cluster: Annotated[
        str | None, typer.Option(help="Play on a Dask cluster at this scheduler address.")
    ] = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Ignore saved partial results; start again.")
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """A playtest report: unit ratings, scenario balance, and which rule options matter."""
    if cluster is not None and jobs is not None:
        raise DogfightError("--jobs and --cluster together: drop --jobs")
    if out_file.suffix.lower() not in (".html", ".htm"):
        raise DogfightError(f"--out {out_file}: the report is an HTML file; name it *.html")
    if not out_file.parent.is_dir():
        raise DogfightError(f"--out {out_file}: no such folder {out_file.parent}")
    name = find_ruleset(ruleset).name
    try:
        kind = check_kind(players, player_kinds(name))
    except DogfightError as exc:
        raise DogfightError(f"--players {players}: {exc}") from None
    check_players({"any": kind}, name)
    chosen = [s.strip() for s in sections.split(",") if s.strip()] if sections else None
    plan = make_plan(
        name,
        players=kind,
        seed=seed,
        quick=quick,
        battles=battles,
        scenarios=scenario,
        sections=chosen,
    )
    partial = partial_path(out_file)
    if fresh and partial.exists():
        partial.unlink()
    workers = jobs or (1 if cluster else default_jobs())
    minutes = expected_minutes(plan, seconds_per_battle(plan, samples=1), workers)
    say = out.stderr_console().print
    say(
        f"{planned_battles(plan):,} battles, about {minutes:.0f} min on {workers} "
        f"worker{'s' if workers != 1 else ''}"
        + (" (quick: wide intervals)" if quick else "")
        + (f"; resuming from {partial}" if partial.exists() else ""),
        highlight=False,
    )
    command = shlex.join(["dogfight", *sys.argv[1:]]) if sys.argv[1:] else "dogfight report"
    with battle_progress("report", planned_battles(plan), not json_out) as progress:
        made = run_report(
            plan, jobs=jobs, cluster=cluster, progress=progress, partial=partial, command=command
        )
    from dogfight.sim.report_html import render

    out_file.write_text(render(made), encoding="utf-8")
    if json_out:
        out.print_json({**msgspec.to_builtins(made), "html": str(out_file)})
        return
    for section, text in made.verdicts.items():
        typer.echo(f"{section.capitalize()}: {text}")
    typer.echo(f"Report: {out_file} ({made.battles_played:,} battles)")
