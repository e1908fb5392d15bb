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
from dogfight.sim.explain import Decision, decision_data, decision_lines, play_explained


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
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Before each computer decision's events, show the candidates its player "
            "weighed with their scores or estimated values, best first (the same battle).",
        ),
    ] = False,
) -> None:
    """Play one battle computer against computer and print its log, every die cited."""
    if save is not None:
        # Checked before the battle: found after it, the battle would be lost.
        check_writable(save, "--save")
    game, players = _new_game(_scenario(scenario), seed, rule, ai)
    opening = len(game.events)
    decisions: list[Decision] = []
    if explain:
        decisions = play_explained(game, players)
    else:
        play_game(game, players)
    if save is not None:
        save_game(game, save, players)
    if json_out:
        report = {**_battle_report(game, players), "saved": str(save) if save is not None else None}
        if explain:
            report["decisions"] = [decision_data(d) for d in decisions]
        out.print_json(report)
        return
    typer.echo(_header(game, players))
    if explain:
        _print_explained(game.events[:opening], decisions, quiet)
    elif not quiet:
        out.print_log(game.events)
    typer.echo("\n".join(out.outcome_lines(game)))
    if save is not None:
        typer.echo(f"Saved game file: {save}")


def _print_explained(opening: list[Any], decisions: list[Decision], quiet: bool) -> None:
    """The log with each decision's candidates above the events it caused (only the
    candidates with --quiet)."""
    lines = [] if quiet else [out.event_line(e) for e in opening]
    for decision in decisions:
        lines.extend(decision_lines(decision))
        if not quiet:
            lines.extend(out.event_line(e) for e in decision.events)
    typer.echo("\n".join(lines))


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
