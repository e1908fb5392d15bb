"""The data-file commands: `validate`, the `import` group (acta, trinity) and the
`design` group (sfa).

Registered on the shared app when `dogfight.cli.main` imports this module; the
`import` and `design` groups are added to it here.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, _scenario, app
from dogfight.core.data import read_yaml
from dogfight.core.errors import DataError
from dogfight.core.files import write_atomic
from dogfight.core.game import Game
from dogfight.core.gamefile import FORMAT, load_game, replay_matches
from dogfight.core.registry import all_rulesets
from dogfight.core.ruleset import Ruleset
from dogfight.sim import side_names

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


class FireLink(StrEnum):
    """How fire-linking is charged (`design sfa --fire-link`)."""

    group = "group"
    weapon = "weapon"


class OutOfScale(StrEnum):
    """How smaller-scale weapons are priced (`design sfa --out-of-scale`)."""

    arithmetic = "arithmetic"
    example = "example"


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
    for warning in game.ruleset.scenario_warnings(game.scenario, game.options):
        typer.echo(f"warning: {warning}", err=True)
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
    weapon_points: Annotated[
        int | None,
        typer.Option(
            min=0, max=10_000, help="Weapon point budget (seed: 5 starfighter, 15 starship)."
        ),
    ] = None,
    power_points: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=10_000,
            help="Power Points for technology (seed: generally 5 starfighter, 10+ starship).",
        ),
    ] = None,
    accessory_points: Annotated[
        int | None,
        typer.Option(
            min=0, max=10_000, help="Free accessory points (seed: 10 starfighter, 20 starship)."
        ),
    ] = None,
    upscale_budgets: Annotated[
        bool,
        typer.Option(help="Above Starship scale, multiply the seed's budgets by 5 a step."),
    ] = False,
    fire_link: Annotated[
        FireLink, typer.Option(help="Fire-Linked +1 for each linked group, or for each weapon.")
    ] = FireLink.group,
    out_of_scale: Annotated[
        OutOfScale,
        typer.Option(
            help="Smaller-scale weapons: a fifth of the whole price, or the seed's example."
        ),
    ] = OutOfScale.arithmetic,
    json_out: JsonFlag = False,
) -> None:
    """Check an SFA craft against the construction rules and print its stat card.

    The budget and reading options are the Storyteller's (docs/sfa-construction.md).
    An over-budget (homebrew) design still exits 0; only a malformed file is an error.
    """
    from dogfight.rulesets.sfa.construction import DesignRules, card, check_design
    from dogfight.rulesets.sfa.craft import catalog, load_craft_file

    builtin = not Path(file).exists() and file in catalog()
    craft = catalog()[file] if builtin else load_craft_file(file)
    rules = DesignRules(
        weapon_points=weapon_points,
        power_points=power_points,
        accessory_points=accessory_points,
        upscale_budgets=upscale_budgets,
        fire_link=fire_link.value,
        out_of_scale=out_of_scale.value,
    )
    report = check_design(craft, rules)
    if json_out:
        out.print_json(
            {
                "ruleset": "sfa",
                "file": file,
                "rules": msgspec.to_builtins(rules),
                **report.as_dict(),
            }
        )
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
