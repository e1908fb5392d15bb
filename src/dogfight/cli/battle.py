"""Playing one battle: `battle` plays it computer against computer, `replay` plays a
saved game file again and checks it reproduces.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.cli import output as out
from dogfight.cli.common import (
    AiOption,
    JsonFlag,
    QuietFlag,
    RuleOption,
    ScenarioArg,
    _header,
    _new_game,
    _scenario,
    app,
    seed_option,
)
from dogfight.core.files import check_writable
from dogfight.core.game import Game
from dogfight.core.gamefile import load_game, replay_matches, save_game
from dogfight.core.options import options_as_dict
from dogfight.sim import play_game


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


@app.command()
def battle(
    scenario: ScenarioArg,
    seed: Annotated[int, seed_option("Seed of the dice and the players.")] = 1,
    ai: AiOption = None,
    rule: RuleOption = None,
    save: Annotated[
        Path | None, typer.Option(help="Write a game file (replay it with 'dogfight replay').")
    ] = None,
    json_out: JsonFlag = False,
    quiet: QuietFlag = False,
) -> None:
    """Play one battle computer against computer and print its log, every die cited."""
    if save is not None:
        # Checked before the battle: found after it, the battle would be lost.
        check_writable(save, "--save")
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
