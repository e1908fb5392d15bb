"""The data-file commands: `validate`, and the `import` and `design` groups, whose
commands each ruleset declares (`Ruleset.commands()`, built by cli/ruleset_commands.py).

Registered on the shared app when `dogfight.cli.main` imports this module; the
`import` and `design` groups are added to it here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.cli.common import _scenario, app
from dogfight.cli.ruleset_commands import add_ruleset_commands, new_group
from dogfight.core.data import read_yaml
from dogfight.core.errors import DataError
from dogfight.core.game import Game
from dogfight.core.gamefile import FORMAT, load_game, replay_matches
from dogfight.core.registry import all_rulesets
from dogfight.core.ruleset import Ruleset
from dogfight.sim import side_names

import_app = new_group("import")
app.add_typer(import_app)
add_ruleset_commands("import", import_app, all_rulesets())
design_app = new_group("design")
app.add_typer(design_app)
add_ruleset_commands("design", design_app, all_rulesets())


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
