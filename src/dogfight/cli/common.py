"""What every `dogfight` command shares: the typer `app`, its error handling, the
common option types and the steps that load a scenario and start a game.

The command modules (catalog, battle, simulate, files, bench, odds, lab, web)
register their commands on `app`; `dogfight.cli.main` imports them in help order.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from dogfight import __version__
from dogfight.cli import output as out
from dogfight.cli.helptext import tidy
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.game import Game
from dogfight.core.limits import SEED_MAX
from dogfight.core.options import parse_rule_args
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, load_scenario
from dogfight.sim import check_players, parse_ai_args, side_names

# The exception class behind typer's usage errors (click's, vendored or not).
_USAGE_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)


class _Group(TyperGroup):
    """The top-level command group: turns every expected failure into one line, and
    gives every parameter of the tree a plain metavar (`cli.helptext.tidy`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tidy(self)

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
        except (typer.Abort, KeyboardInterrupt):
            # click turns Ctrl-C into Abort; the shell's code for SIGINT is 130.
            _die("interrupted", 130)
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

MAX_BATTLES = 10**9
"""The most battles one command plays (a billion is days of work; more is a typo)."""


def _seed_in_range(value: int | None) -> int | None:
    """typer callback: a seed is 0 to 2**63 - 1 (refused, never wrapped)."""
    if value is not None and not 0 <= value <= SEED_MAX:
        raise typer.BadParameter(f"a seed is a whole number from 0 to 2**63 - 1, not {value}")
    return value


def _battles_in_range(value: int) -> int:
    """typer callback: a count of battles is 1 to MAX_BATTLES."""
    if not 1 <= value <= MAX_BATTLES:
        raise typer.BadParameter(f"must be 1 to {MAX_BATTLES:,}, not {value}")
    return value


def seed_option(help_text: str) -> Any:
    """A `--seed` option, checked to be 0 to 2**63 - 1 (the range is not shown in help)."""
    return typer.Option("--seed", callback=_seed_in_range, help=help_text)


def battles_option(help_text: str) -> Any:
    """A `-n/--battles` option, checked to be 1 to MAX_BATTLES."""
    return typer.Option("-n", "--battles", callback=_battles_in_range, help=help_text)


JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
QuietFlag = Annotated[
    bool, typer.Option("--quiet", "-q", help="Leave out the event log; print the outcome.")
]
AiOption = Annotated[
    list[str] | None,
    typer.Option(
        "--ai",
        metavar="SIDE=KIND",
        help="Player for a side: random, heuristic, search (search:N: N simulations a "
        "decision) or a ruleset's own kind such as heuristic:aggressive (default "
        "heuristic). Repeatable.",
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


def _header(game: Game, players: dict[str, str] | None, seed: str = "seed") -> str:
    """The line above a battle's log or a simulation's summary: scenario, seed, players."""
    changed = out.changed_options(game.ruleset.options, game.options)
    who = ", ".join(f"{side}: {kind}" for side, kind in (players or {}).items())
    parts = [f"{game.scenario.title} ({game.ruleset.name}, {game.scenario.where})"]
    parts.append(f"{seed} {game.seed}")
    if who:
        parts.append(f"players {who}")
    parts.append(f"options {out.option_text(changed)}")
    return "; ".join(parts)
