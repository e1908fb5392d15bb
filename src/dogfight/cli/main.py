"""The `dogfight` command line: a thin adapter over core, ai, sim and the rulesets.

No rules live here. Every `DogfightError`, bad parameter or unreadable file ends
the command with one line on stderr (`error: ...`) and a non-zero exit code.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import ExitStack
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, NoReturn

import msgspec
import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from typer.core import TyperGroup

from dogfight import __version__
from dogfight.cli import output as out
from dogfight.core.data import read_yaml
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.files import write_atomic
from dogfight.core.game import Game
from dogfight.core.gamefile import FORMAT, load_game, replay_matches, save_game
from dogfight.core.options import options_as_dict, parse_rule_args
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.ruleset import Ruleset
from dogfight.core.scenario import Scenario, builtin_scenario_files, load_scenario
from dogfight.sim import (
    BenchRow,
    Interval,
    Summary,
    SummaryBuilder,
    benchmark,
    check_players,
    iter_results,
    parse_ai_args,
    play_game,
    side_names,
)
from dogfight.sim.bench import scaling
from dogfight.sim.odds import (
    Distribution,
    acta_attack,
    acta_dogfight,
    acta_weapon,
    evo_attack,
    evo_weapon,
    rule_options,
    sfa_pool,
)
from dogfight.sim.rows import RowWriter, check_out_path
from dogfight.sim.runner import default_jobs

# The exception class behind typer's usage errors (click's, vendored or not).
_USAGE_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)


class _Group(TyperGroup):
    """The top-level command group: turns every expected failure into one line."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        # Always standalone: run, then exit with the command's code.
        try:
            code = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
        except DogfightError as exc:
            _die(str(exc), 1)
        except _USAGE_ERROR as exc:
            code = int(getattr(exc, "exit_code", 2))
            if type(exc).__name__ == "NoArgsIsHelpError":
                # A group called without a command: its help is the message (rich
                # has usually printed it already); show it, not as an error.
                text = str(getattr(exc, "message", "") or "")
                if text.strip():
                    typer.echo(text, err=True)
                sys.exit(code)
            _die(_usage_message(exc), code)
        except typer.Abort:
            _die("aborted", 1)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            _die(f"{where}{exc.strerror or exc}", 1)
        sys.exit(code if isinstance(code, int) else 0)


def _usage_message(exc: Exception) -> str:
    format_message = getattr(exc, "format_message", None)
    message = format_message() if callable(format_message) else str(exc)
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    hint = f" (see '{path} --help')" if path else ""
    return f"{message}{hint}"


def _die(message: str, code: int) -> NoReturn:
    out.error_line(message)
    sys.exit(code)


app = typer.Typer(
    cls=_Group,
    name="dogfight",
    help="An engine for tabletop space-fighter combat: battles, simulation, data files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
import_app = typer.Typer(
    name="import",
    help="Import unit data written in a seed's text format.",
    no_args_is_help=True,
)
app.add_typer(import_app)
design_app = typer.Typer(
    name="design",
    help="Check a craft design against a ruleset's construction rules.",
    no_args_is_help=True,
)
app.add_typer(design_app)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
QuietFlag = Annotated[
    bool, typer.Option("--quiet", "-q", help="Leave out the event log; print the outcome.")
]
AiOption = Annotated[
    list[str] | None,
    typer.Option(
        "--ai",
        metavar="SIDE=KIND",
        help="Player for a side: random or heuristic (default heuristic). Repeatable.",
    ),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="KEY=VALUE",
        help="Set a rule option (see 'dogfight options RULESET'). Repeatable.",
    ),
]
ScenarioArg = Annotated[
    str, typer.Argument(help="A built-in scenario name or the path of a scenario file.")
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dogfight {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """An engine for tabletop space-fighter combat: battles, simulation, data files."""


# ---- shared steps ---------------------------------------------------------------------


def _scenario(name: str) -> Scenario:
    """A scenario by name or path, with its ruleset checked (errors name the file)."""
    scenario = load_scenario(name)
    try:
        find_ruleset(scenario.ruleset)
    except DogfightError as exc:
        raise DataError(f"{scenario.where}: field 'ruleset': {exc}") from None
    return scenario


def _new_game(
    scenario: Scenario, seed: int, rules: list[str] | None, ai: list[str] | None
) -> tuple[Game, dict[str, str]]:
    """A game at its start and the player kind of each side, all checked."""
    game = Game(scenario, seed=seed, rules=parse_rule_args(rules or []))
    players = parse_ai_args(ai or [], side_names(game))
    check_players(players, game.ruleset.name)
    return game, players


def _battle_report(game: Game, players: dict[str, str] | None) -> dict[str, Any]:
    """The fields `battle --json` and `replay --json` share."""
    outcome = game.outcome()
    summary = game.ruleset.summary(game.state)
    return {
        "ruleset": game.ruleset.name,
        "scenario": game.scenario.name,
        "source": game.scenario.where,
        "seed": game.seed,
        "players": players,
        "options": options_as_dict(game.options),
        "rules": dict(game.rule_overrides),
        "over": outcome is not None,
        "winner": outcome.winner if outcome else None,
        "reason": outcome.reason if outcome else None,
        "scores": outcome.scores if outcome else {},
        "turns": summary.get("turn", 0),
        "survivors": summary.get("survivors", {}),
        "actions": len(game.actions),
        "events": len(game.events),
    }


def _header(game: Game, players: dict[str, str] | None, seed: str = "seed") -> str:
    changed = out.changed_options(game.ruleset.options, game.options)
    who = ", ".join(f"{side}: {kind}" for side, kind in (players or {}).items())
    parts = [f"{game.scenario.title} ({game.ruleset.name}, {game.scenario.where})"]
    parts.append(f"{seed} {game.seed}")
    if who:
        parts.append(f"players {who}")
    parts.append(f"options {out.option_text(changed)}")
    return "; ".join(parts)


# ---- catalog commands -----------------------------------------------------------------


@app.command()
def rulesets(json_out: JsonFlag = False) -> None:
    """List the rulesets."""
    rows = [
        {
            "name": r.name,
            "aliases": list(r.aliases),
            "title": r.title,
            "units": len(r.unit_names()),
            "scenarios": len(builtin_scenario_files(r.name)),
            "options": len(r.options),
        }
        for r in all_rulesets()
    ]
    if json_out:
        out.print_json({"rulesets": rows})
        return
    out.print_table(
        ["name", "title", "units", "scenarios", "options", "aliases"],
        [
            [r["name"], r["title"], r["units"], r["scenarios"], r["options"], r["aliases"]]
            for r in rows
        ],
    )


_UNIT_COLUMNS = ("name", "kind", "fleet", "speed", "turn", "dogfight", "damage", "points")


@app.command()
def units(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")], json_out: JsonFlag = False
) -> None:
    """List the unit types of a ruleset."""
    rules = find_ruleset(ruleset)
    described = [rules.describe_unit(name) for name in rules.unit_names()]
    if json_out:
        out.print_json({"ruleset": rules.name, "units": described})
        return
    columns = [c for c in _UNIT_COLUMNS if any(c in d for d in described)]
    out.print_table(
        ["id", *columns, "traits"],
        [[d.get("id", ""), *(d.get(c) for c in columns), d.get("traits")] for d in described],
        title=f"{rules.name} units",
    )


@app.command()
def show(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    unit: Annotated[str, typer.Argument(help="Unit id (see 'dogfight units RULESET').")],
    json_out: JsonFlag = False,
) -> None:
    """Show a unit type's full profile."""
    rules = find_ruleset(ruleset)
    data = rules.describe_unit(unit)
    if json_out:
        out.print_json({"ruleset": rules.name, **data})
        return
    weapons = data.get("weapons") or []
    fields = [[k, v] for k, v in data.items() if k != "weapons" and v not in (None, "", [])]
    out.print_table(["field", "value"], fields, title=f"{data.get('name', unit)}")
    if weapons:
        keys: list[str] = []
        for weapon in weapons:
            keys.extend(k for k in weapon if k not in keys)
        out.print_table(keys, [[w.get(k) for k in keys] for w in weapons], title="weapons")


@app.command()
def scenarios(
    ruleset: Annotated[str | None, typer.Argument(help="Only this ruleset's scenarios.")] = None,
    json_out: JsonFlag = False,
) -> None:
    """List the built-in scenarios."""
    name = find_ruleset(ruleset).name if ruleset else None
    found = [load_scenario(str(path)) for path in builtin_scenario_files(name)]
    rows = [
        {"name": s.name, "ruleset": s.ruleset, "title": s.title, "description": s.description}
        for s in found
    ]
    if json_out:
        out.print_json({"scenarios": rows})
        return
    out.print_table(
        ["name", "ruleset", "title", "description"],
        [[r["name"], r["ruleset"], r["title"], r["description"]] for r in rows],
    )


@app.command()
def options(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")], json_out: JsonFlag = False
) -> None:
    """List a ruleset's rule options (set them with --rule KEY=VALUE or a scenario's options:)."""
    rules = find_ruleset(ruleset)
    rows = [
        {
            "name": o.name,
            "default": o.default,
            "choices": list(o.choices),
            "clause": o.clause,
            "doc": o.doc,
        }
        for o in rules.options
    ]
    if json_out:
        out.print_json({"ruleset": rules.name, "options": rows})
        return
    typer.echo(f"{rules.name} rule options (set with --rule KEY=VALUE or a scenario's options:)")
    for option in rules.options:
        typer.echo("")
        typer.echo("\n".join(out.option_lines(option)))


# ---- playing ------------------------------------------------------------------------


@app.command()
def battle(
    scenario: ScenarioArg,
    seed: Annotated[int, typer.Option(help="Seed of the dice and the players.")] = 1,
    ai: AiOption = None,
    rule: RuleOption = None,
    save: Annotated[
        Path | None, typer.Option(help="Write a game file (replay it with 'dogfight replay').")
    ] = None,
    json_out: JsonFlag = False,
    quiet: QuietFlag = False,
) -> None:
    """Play one battle computer against computer and print its log, every die cited."""
    game, players = _new_game(_scenario(scenario), seed, rule, ai)
    play_game(game, players)
    if save is not None:
        save_game(game, save, players)
    if json_out:
        out.print_json(
            {**_battle_report(game, players), "saved": str(save) if save is not None else None}
        )
        return
    typer.echo(_header(game, players))
    if not quiet:
        out.print_log(game.events)
    typer.echo("\n".join(out.outcome_lines(game)))
    if save is not None:
        typer.echo(f"Saved game file: {save}")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game file written by 'battle --save'.")],
    json_out: JsonFlag = False,
    quiet: QuietFlag = False,
) -> None:
    """Replay a game file and check that it reproduces exactly (exit code 1 if not)."""
    game, gamefile = load_game(file)
    matches = replay_matches(game, gamefile)
    if json_out:
        out.print_json(
            {
                **_battle_report(game, gamefile.players or None),
                "file": str(file),
                "engine": gamefile.engine,
                "replay_matches": matches,
            }
        )
    else:
        typer.echo(f"Replaying {file} (saved by dogfight {gamefile.engine})")
        typer.echo(_header(game, gamefile.players or None))
        if not quiet:
            out.print_log(game.events)
        typer.echo("\n".join(out.outcome_lines(game)))
        if matches:
            typer.echo("Replay: reproduced exactly (event log identical to the one saved)")
        else:
            typer.echo("Replay: did NOT reproduce: the event log differs from the one saved")
    if not matches:
        raise typer.Exit(1)


@app.command(name="simulate")
def simulate_command(
    scenario: ScenarioArg,
    n: Annotated[int, typer.Option("-n", "--battles", min=1, help="Number of battles.")] = 100,
    seed: Annotated[int, typer.Option(help="Run seed; battle i uses a seed derived from it.")] = 1,
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
            "--plot", metavar="FILE", help="Also draw the turns histogram: FILE.png or .svg."
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
        update = None
        if show_progress:
            # Refreshed by hand: no display thread runs while worker processes start.
            progress = stack.enter_context(
                Progress(
                    TextColumn("simulating"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    console=out.stderr_console(),
                    auto_refresh=False,
                    transient=True,
                )
            )
            task = progress.add_task("battles", total=n)

            def update(done: int, total: int) -> None:
                progress.update(task, completed=done)
                progress.refresh()

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
    summary = builder.summary()
    if plot is not None:
        from dogfight.sim.plots import turns_histogram

        title = f"{loaded.title}: turn each of {summary.battles} battles ended"
        turns_histogram(summary.turn_counts, title, plot)
    if json_out:
        report = _simulation_report(game, players, seed, summary, paths, swap_sides, cluster)
        out.print_json({**report, "plot": str(plot) if plot else None})
        return
    _print_summary(game, players, summary)
    for path in paths:
        typer.echo(f"Wrote {summary.battles} rows to {path}")
    if plot is not None:
        typer.echo(f"Plot: {plot}")


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
            f"{s.side} wins",
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


# ---- files ------------------------------------------------------------------------------


@app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="A unit, scenario or game file.")],
) -> None:
    """Check a unit file, scenario file or game file; print 'ok: ...' or the error."""
    if not file.exists():
        raise DataError(f"{file}: no such file")
    if file.suffix == ".json":
        typer.echo(_validate_game(file))
        return
    raw = read_yaml(file)
    if isinstance(raw, dict) and raw.get("format") == FORMAT:
        typer.echo(_validate_game(file))
    elif isinstance(raw, dict) and "ruleset" in raw:
        typer.echo(_validate_scenario(file))
    elif isinstance(raw, dict) and (owner := _unit_file_ruleset(raw)) is not None:
        typer.echo(f"ok: {owner.name} unit file {file}: {owner.check_unit_file(file)}")
    else:
        kinds = "; ".join(
            f"a {r.name} unit has {' and '.join(sorted(keys))}"
            for r in all_rulesets()
            for keys in r.unit_file_keys
        )
        raise DataError(
            f"{file}: not a unit, scenario or game file (a scenario has 'ruleset:'; "
            f"{kinds}; a game file is .json)"
        )


def _validate_game(file: Path) -> str:
    game, gamefile = load_game(file)
    if not replay_matches(game, gamefile):
        raise DataError(f"{file}: the actions replay, but the event log differs from the saved one")
    outcome = game.outcome()
    state = "finished" if outcome else "unfinished"
    return (
        f"ok: game file {file}: {game.ruleset.name} scenario '{game.scenario.name}', "
        f"seed {game.seed}, {len(game.actions)} actions, {state}, replays exactly"
    )


def _validate_scenario(file: Path) -> str:
    scenario = _scenario(str(file))
    game = Game(scenario, seed=0)
    return (
        f"ok: scenario {file}: '{scenario.name}' ({scenario.ruleset}), "
        f"sides {' v '.join(side_names(game))}"
    )


def _unit_file_ruleset(raw: dict[str, Any]) -> Ruleset | None:
    """The ruleset whose unit files carry the fields this file has."""
    for ruleset in all_rulesets():
        if any(keys <= raw.keys() for keys in ruleset.unit_file_keys):
            return ruleset
    return None


@import_app.command("acta")
def import_acta(
    file: Annotated[Path, typer.Argument(help="A text file with craft in the seed's stat lines.")],
    out_dir: Annotated[Path, typer.Option("--out", help="Where to write the unit files.")] = Path(
        "."
    ),
    fleet: Annotated[str, typer.Option(help="The fleet of every imported craft.")] = "Unknown",
    fleet_of: Annotated[
        list[str] | None,
        typer.Option("--fleet-of", help="IDS=FLEET, e.g. zul,zaresh=Klingon (repeatable)."),
    ] = None,
    origin: Annotated[
        str, typer.Option(help="'original' (your designs) or 'seed' (a seed's sample craft).")
    ] = "original",
    source: Annotated[
        str | None, typer.Option(help="Where the data came from (default: the file name).")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace existing unit files.")] = False,
    json_out: JsonFlag = False,
) -> None:
    """Import ACTA craft written as stat lines into unit YAML files (one per craft)."""
    from dogfight.rulesets.acta.importer import fleet_map, import_file
    from dogfight.rulesets.acta.units import load_unit_file

    if origin not in ("original", "seed"):
        raise DataError(f"--origin must be 'original' or 'seed', not {origin!r}")
    written = import_file(
        file,
        out_dir,
        fleet=fleet,
        fleets=fleet_map(fleet_of or []),
        origin=origin,
        source=source,
        overwrite=overwrite,
    )
    loaded = [load_unit_file(path) for path in written]
    if json_out:
        out.print_json(
            {
                "source": str(file),
                "written": [
                    {"file": str(path), "id": u.id, "name": u.name, "kind": u.kind}
                    for path, u in zip(written, loaded, strict=True)
                ],
            }
        )
        return
    typer.echo(f"Imported {len(written)} craft from {file}:")
    for path, unit in zip(written, loaded, strict=True):
        typer.echo(f"  {path}: {unit.name} ({unit.kind})")


@design_app.command("sfa")
def design_sfa(
    file: Annotated[str, typer.Argument(help="An SFA craft file, or the id of a built-in craft.")],
    json_out: JsonFlag = False,
) -> None:
    """Check an SFA craft against the construction rules and print its stat card.

    An over-budget (homebrew) design still exits 0; only a malformed file is an error.
    """
    from dogfight.rulesets.sfa.construction import card, check_design
    from dogfight.rulesets.sfa.craft import catalog, load_craft_file

    builtin = not Path(file).exists() and file in catalog()
    craft = catalog()[file] if builtin else load_craft_file(file)
    report = check_design(craft)
    if json_out:
        out.print_json({"ruleset": "sfa", "file": file, **report.as_dict()})
        return
    out.stdout_console().print(card(report))


@import_app.command("trinity")
def import_trinity(
    file: Annotated[
        Path, typer.Argument(help="A Trinity vehicle file (see docs/sfa-construction.md).")
    ],
    out_dir: Annotated[
        Path, typer.Option("--out", help="Where to write the sfa craft file.")
    ] = Path("."),
    overwrite: Annotated[bool, typer.Option(help="Replace an existing craft file.")] = False,
    json_out: JsonFlag = False,
) -> None:
    """Convert a Trinity vehicle into an sfa craft file (seed 003, Appendix 2)."""
    from dogfight.rulesets.sfa.trinity import craft_yaml, load_trinity_file

    conversion = load_trinity_file(file)
    target = out_dir / f"{conversion.craft.id}.yaml"
    if target.exists() and not overwrite:
        raise DataError(f"{target}: already exists (pass --overwrite to replace it)")
    out_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(target, craft_yaml(conversion))
    if json_out:
        out.print_json(
            {
                "source": str(file),
                "written": str(target),
                "id": conversion.craft.id,
                "scale": conversion.craft.scale_label,
                "resources": conversion.resources,
                "notes": list(conversion.notes),
            }
        )
        return
    typer.echo(
        f"Converted {file} to {target}: {conversion.craft.name} ({conversion.craft.scale_label})"
    )
    for note in conversion.notes:
        typer.echo(f"  note: {note}")


# ---- exact odds -----------------------------------------------------------------------

odds_app = typer.Typer(
    name="odds",
    help="Exact odds of one resolution (counted, not sampled).",
    no_args_is_help=True,
)
app.add_typer(odds_app)
odds_acta_app = typer.Typer(
    name="acta", help="ACTA: a dogfight, or one weapon's attack.", no_args_is_help=True
)
odds_app.add_typer(odds_acta_app)
odds_evo_app = typer.Typer(name="evo", help="EVO: one Shoot with one weapon.", no_args_is_help=True)
odds_app.add_typer(odds_evo_app)
odds_sfa_app = typer.Typer(name="sfa", help="SFA: one dice pool.", no_args_is_help=True)
odds_app.add_typer(odds_sfa_app)

RangeOption = Annotated[
    float | None,
    typer.Option("--range", help="Range to the target in inches (default: point blank)."),
]


OddsPlotOption = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help="Also draw the distribution: FILE.png or .svg."),
]


def _check_plot(plot: Path | None) -> None:
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)


def _odds_plot(plot: Path | None, odds: dict[Any, Fraction], title: str, xlabel: str) -> None:
    """Draw the distribution to `plot` when asked."""
    if plot is None:
        return
    from dogfight.sim.plots import odds_plot

    odds_plot({k: float(p) for k, p in odds.items()}, title, plot, xlabel)


def _plot_line(plot: Path | None) -> None:
    if plot is not None:
        typer.echo(f"Plot: {plot}")


def _path(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def _odds_options(ruleset: str, rule: list[str] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """All option values, and the ones changed from the defaults (for display)."""
    values = rule_options(ruleset, parse_rule_args(rule or []))
    changed = out.changed_options(find_ruleset(ruleset).options, values)
    return values, changed


def _print_distribution(what: str, title: str, dist: Distribution, changed: dict[str, Any]) -> None:
    typer.echo(title)
    facts = ", ".join(f"{k} {out.cell(v)}" for k, v in dist.facts.items())
    typer.echo(f"Using: {facts}; options {out.option_text(changed)}")
    out.print_table(
        [what, "probability", "exact"],
        [[k, out.percent(float(p)), _fraction_text(p)] for k, p in dist.odds.items()],
    )
    typer.echo(f"Expected: {float(dist.expected):.4f} ({_fraction_text(dist.expected)})")
    for note in dist.notes:
        typer.echo(f"  assumes: {note}")


def _distribution_json(
    key: str, dist: Distribution, head: dict[str, Any], changed: dict[str, Any]
) -> dict[str, Any]:
    return {
        **head,
        key: {str(k): float(p) for k, p in dist.odds.items()},
        "expected": float(dist.expected),
        "fractions": {
            key: {str(k): _fraction_text(p) for k, p in dist.odds.items()},
            "expected": _fraction_text(dist.expected),
        },
        "using": dist.facts,
        "options": changed,
        "notes": list(dist.notes),
    }


@odds_acta_app.command("dogfight")
def odds_acta_dogfight(
    attacker: Annotated[str, typer.Argument(help="The attacking fighter's unit id.")],
    defender: Annotated[str, typer.Argument(help="The defending fighter's unit id.")],
    attacker_support: Annotated[
        int, typer.Option(min=0, help="Friendly fighters supporting the attacker.")
    ] = 0,
    defender_support: Annotated[
        int, typer.Option(min=0, help="Friendly fighters supporting the defender.")
    ] = 0,
    attacker_drones: Annotated[
        bool, typer.Option(help="The attacker swapped its (*) weapon for dogfight drones (+2).")
    ] = False,
    defender_drones: Annotated[
        bool, typer.Option(help="The defender swapped its (*) weapon for dogfight drones (+2).")
    ] = False,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Who wins one dogfight: d6 + Dogfight + support each (ACTA-DOG-5, -6)."""
    from dogfight.rulesets.acta.units import find_unit

    _check_plot(plot)
    values, changed = _odds_options("acta", rule)
    a, d = find_unit(attacker), find_unit(defender)
    odds = acta_dogfight(
        a,
        d,
        values,
        attacker_support=attacker_support,
        defender_support=defender_support,
        attacker_drones=attacker_drones,
        defender_drones=defender_drones,
    )
    results = {
        "attacker_wins": odds.attacker_wins,
        "defender_wins": odds.defender_wins,
        "tie": odds.tie,
    }
    labels = {
        "attacker_wins": f"{a.id} (attacker) wins",
        "defender_wins": f"{d.id} (defender) wins",
        "tie": "tie",
    }
    _odds_plot(
        plot,
        {labels[k]: p for k, p in results.items()},
        f"Dogfight: {a.name} (d6{odds.attacker_bonus:+d}) v {d.name} (d6{odds.defender_bonus:+d})",
        "result",
    )
    if json_out:
        out.print_json(
            {
                "ruleset": "acta",
                "kind": "dogfight",
                "attacker": a.id,
                "defender": d.id,
                "attacker_bonus": odds.attacker_bonus,
                "defender_bonus": odds.defender_bonus,
                **{k: float(p) for k, p in results.items()},
                "fractions": {k: _fraction_text(p) for k, p in results.items()},
                "options": changed,
                "notes": list(odds.notes),
                "plot": _path(plot),
            }
        )
        return
    typer.echo(
        f"Dogfight: {a.name} (d6{odds.attacker_bonus:+d}) v {d.name} (d6{odds.defender_bonus:+d})"
        f"; options {out.option_text(changed)}"
    )
    out.print_table(
        ["result", "probability", "exact"],
        [[labels[k], out.percent(float(p)), _fraction_text(p)] for k, p in results.items()],
    )
    for note in odds.notes:
        typer.echo(f"  assumes: {note}")
    _plot_line(plot)


@odds_acta_app.command("attack")
def odds_acta_attack(
    firer: Annotated[str, typer.Argument(help="The firing unit's id.")],
    weapon: Annotated[str, typer.Argument(help="The weapon's name (quote names with spaces).")],
    target: Annotated[str, typer.Argument(help="The target unit's id.")],
    range_inches: RangeOption = None,
    moved: Annotated[
        bool,
        typer.Option(
            "--moved/--not-moved",
            help="Whether the target moved this turn (Dodge needs it, dodge_requires_move).",
        ),
    ] = True,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Damage points from one firing of a weapon (all its AD) at a fresh target."""
    from dogfight.rulesets.acta.units import find_unit

    _check_plot(plot)
    values, changed = _odds_options("acta", rule)
    f, t = find_unit(firer), find_unit(target)
    dist = acta_attack(f, weapon, t, values, range_inches=range_inches, moved=moved)
    name = acta_weapon(f, weapon).name
    title = f"{f.name} fires {name} at {t.name} ({t.kind}, Damage {t.damage})"
    _odds_plot(plot, dist.odds, title, "damage points")
    if json_out:
        head = {"ruleset": "acta", "kind": "attack", "firer": f.id, "weapon": name, "target": t.id}
        out.print_json({**_distribution_json("damage", dist, head, changed), "plot": _path(plot)})
        return
    _print_distribution("damage", title, dist, changed)
    _plot_line(plot)


@odds_evo_app.command("attack")
def odds_evo_attack(
    firer: Annotated[str, typer.Argument(help="The firing flight's unit id.")],
    weapon: Annotated[str, typer.Argument(help="The weapon's name (quote names with spaces).")],
    target: Annotated[str, typer.Argument(help="The target flight's unit id.")],
    range_inches: RangeOption = None,
    six: Annotated[
        bool, typer.Option("--six", help="Every firer is on the target's six (+1, EVO-SIX-1).")
    ] = False,
    models: Annotated[
        int | None,
        typer.Option(min=1, help="Models in the target flight (default: its standard flight)."),
    ] = None,
    firers: Annotated[
        int | None,
        typer.Option(min=1, help="Models firing (default: the firer's standard flight)."),
    ] = None,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Models removed from a flight by one Shoot with one weapon."""
    from dogfight.rulesets.evo.units import find_unit

    _check_plot(plot)
    values, changed = _odds_options("evo", rule)
    f, t = find_unit(firer), find_unit(target)
    dist = evo_attack(
        f, weapon, t, values, range_inches=range_inches, six=six, models=models, firers=firers
    )
    name = evo_weapon(f, weapon).name
    title = f"{f.name} flight fires {name} at a {t.name} flight"
    _odds_plot(plot, dist.odds, title, "models removed")
    if json_out:
        head = {"ruleset": "evo", "kind": "attack", "firer": f.id, "weapon": name, "target": t.id}
        out.print_json({**_distribution_json("removed", dist, head, changed), "plot": _path(plot)})
        return
    _print_distribution("removed", title, dist, changed)
    _plot_line(plot)


@odds_sfa_app.command("pool")
def odds_sfa_pool(
    dice: Annotated[int, typer.Argument(help="Dice in the pool (d10s).")],
    willpower: Annotated[
        bool, typer.Option("--willpower", help="A Willpower point buys one sure success.")
    ] = False,
    difficulty: Annotated[int, typer.Option(help="The number each die must reach.")] = 6,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Net successes and botch chance of one dice pool (seed 003, "Attacking")."""
    _check_plot(plot)
    _, changed = _odds_options("sfa", rule)
    odds = sfa_pool(dice, willpower=willpower, difficulty=difficulty)
    title = f"Pool of {dice}d10 at difficulty {difficulty}" + (
        " with a Willpower success" if willpower else ""
    )
    _odds_plot(plot, odds.net, title, "net successes")
    if json_out:
        out.print_json(
            {
                "ruleset": "sfa",
                "kind": "pool",
                "dice": dice,
                "willpower": willpower,
                "difficulty": difficulty,
                "net_successes": {str(k): float(p) for k, p in odds.net.items()},
                "botch": float(odds.botch),
                "expected": float(odds.expected),
                "fractions": {
                    "net_successes": {str(k): _fraction_text(p) for k, p in odds.net.items()},
                    "botch": _fraction_text(odds.botch),
                    "expected": _fraction_text(odds.expected),
                },
                "options": changed,
                "plot": _path(plot),
            }
        )
        return
    typer.echo(title)
    out.print_table(
        ["net successes", "probability", "exact"],
        [[k, out.percent(float(p)), _fraction_text(p)] for k, p in odds.net.items()],
    )
    typer.echo(f"Botch: {out.percent(float(odds.botch))} ({_fraction_text(odds.botch)})")
    typer.echo(f"Expected net successes: {float(odds.expected):.4f}")
    _plot_line(plot)


# ---- speed ----------------------------------------------------------------------------


@app.command(name="bench")
def bench_command(
    ruleset: Annotated[
        str | None, typer.Argument(help="Only this ruleset's scenarios (default: all).")
    ] = None,
    battles: Annotated[
        int | None,
        typer.Option(min=1, help="Battles per scenario (default 20; 2000 with --scaling)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 1,
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


def main() -> None:
    """Entry point of the `dogfight` console script."""
    app()


# Commands kept in their own modules register themselves on `app` when imported.
from dogfight.cli import lab, web  # noqa: E402, F401  (duel, balance, compare; serve, play)
