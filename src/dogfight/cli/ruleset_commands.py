"""Typer commands built from the `Command` values a ruleset declares (core/hooks.py).

A ruleset's own commands (its odds kinds, its importers and design checks) are plain
values: a name, a help text, `Param`s and a `run(params, options) -> Report`. This module
turns each into a typer command with a synthesised signature, so that its `--help` reads
as a hand-written command's would, adds the options every such command shares (`--rule`,
`--json`, `--plot`) and prints the report. The CLI itself names no ruleset.

Groups: `dogfight odds RULESET KIND` (one sub-group per ruleset), `dogfight import NAME`
and `dogfight design NAME`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, RuleOption
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.hooks import Command, Param, Plot, Report, Rich, Table
from dogfight.core.options import OptionValue, parse_rule_args, resolve_options
from dogfight.core.ruleset import Ruleset

OddsPlotOption = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help="Also draw the distribution: FILE.png or .svg."),
]

# The shared options' Python names in the synthesised signature: not identifiers a
# ruleset's Param would choose, so the two never collide.
_RULE = "dogfight_rule"
_JSON = "dogfight_json"
_PLOT = "dogfight_plot"

_TYPES: dict[str, type] = {"str": str, "int": int, "float": float, "bool": bool, "path": Path}

GROUP_HELP = {
    "odds": "Exact odds of one resolution (counted, not sampled).",
    "import": "Import unit data written in a seed's text format.",
    "design": "Check a craft design against a ruleset's construction rules.",
    "tactics": "How well a computer player plays a ruleset's tactics, counted over battles.",
}
"""The help line of each group the rulesets' commands sit in."""


def new_group(group: str) -> typer.Typer:
    """An empty command group (`odds`, `import` or `design`) for the rulesets' commands."""
    return typer.Typer(name=group, help=GROUP_HELP[group], no_args_is_help=True)


def add_ruleset_commands(
    group: str, parent: typer.Typer, rulesets: Iterable[Ruleset], *, per_ruleset: bool = False
) -> None:
    """Add every ruleset's commands of `group` to `parent`.

    With `per_ruleset` (the odds group) each ruleset gets its own sub-group named after
    it; otherwise the commands sit on `parent` directly, and a name already taken (a
    subclass inheriting its parent ruleset's importer) is left to the first ruleset.
    """
    taken: set[str] = set()
    for ruleset in rulesets:
        commands = [c for c in ruleset.commands() if c.group == group]
        if not commands:
            continue
        if per_ruleset:
            sub = typer.Typer(
                name=ruleset.name, help=group_help(ruleset, commands), no_args_is_help=True
            )
            for command in commands:
                sub.command(command.name, help=command.help)(build_command(command, ruleset))
            parent.add_typer(sub)
            continue
        for command in commands:
            if command.name in taken:
                continue
            taken.add(command.name)
            parent.command(command.name, help=command.help)(build_command(command, ruleset))


def group_help(ruleset: Ruleset, commands: list[Command]) -> str:
    """The help line of a ruleset's sub-group: its `odds_help`, else its first command's."""
    declared = getattr(ruleset, "odds_help", None)
    if isinstance(declared, str) and declared:
        return declared
    return commands[0].help.strip().splitlines()[0]


def build_command(command: Command, ruleset: Ruleset) -> Callable[..., None]:
    """A typer callback running `command`: its signature describes the Params (in order),
    then `--rule` (when it takes rules), `--json`, and `--plot` (when it takes a plot)."""
    names = [p.name for p in command.params]
    reserved = {_RULE, _JSON, _PLOT} | ({"plot"} if command.takes_plot else set())
    clash = sorted((set(names) & reserved) | {n for n in names if names.count(n) > 1})
    if clash:
        raise DogfightError(
            f"ruleset {ruleset.name}: command '{command.group} {command.name}' "
            f"declares the parameter(s) {', '.join(clash)} twice or over a shared one"
        )
    parameters = [_parameter(p) for p in command.params]
    keyword = inspect.Parameter.KEYWORD_ONLY
    if command.takes_rules:
        parameters.append(inspect.Parameter(_RULE, keyword, annotation=RuleOption, default=None))
    parameters.append(inspect.Parameter(_JSON, keyword, annotation=JsonFlag, default=False))
    if command.takes_plot:
        parameters.append(
            inspect.Parameter(_PLOT, keyword, annotation=OddsPlotOption, default=None)
        )

    def callback(**given: Any) -> None:
        run_command(command, ruleset, given)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__name__ = f"{command.group}_{ruleset.name}_{command.name}".replace("-", "_")
    callback.__doc__ = command.help
    return callback


def run_command(command: Command, ruleset: Ruleset, given: Mapping[str, Any]) -> None:
    """Check the plot path, resolve the rule options, run the command and print its report."""
    plot: Path | None = given.get(_PLOT)
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)
    params = {p.name: _plain(p, given[p.name]) for p in command.params}
    if command.takes_plot:
        params["plot"] = plot
    rules = parse_rule_args(given.get(_RULE) or []) if command.takes_rules else {}
    options: dict[str, OptionValue] = resolve_options(ruleset.options, (rules, "--rule"))
    try:
        report = command.run(params, options)
    except DogfightError:
        raise  # already a one-line error (some are ValueErrors too: keep their type)
    except ValueError as exc:  # a bad value the run found: the usual one-line error
        raise DataError(str(exc)) from None
    render(report, plot, json_out=bool(given.get(_JSON)))


def render(report: Report, plot: Path | None, *, json_out: bool) -> None:
    """Draw the plot when asked, then print the report as JSON or as its blocks."""
    drawn = plot is not None and report.plot is not None
    if plot is not None and report.plot is not None:  # (spelt out for the type checker)
        _draw(report.plot, plot)
    if json_out:
        out.print_json(report.json)
        return
    for block in report.blocks:
        if isinstance(block, str):
            typer.echo(block)
        elif isinstance(block, Table):
            out.print_table(list(block.header), block.rows)
        elif isinstance(block, Rich):
            out.stdout_console().print(block.renderable)
        else:
            out.stdout_console().print(block)
    if drawn:
        typer.echo(f"Plot: {plot}")


def _draw(what: Plot, path: Path) -> None:
    from dogfight.sim.plots import odds_plot

    odds_plot({k: float(p) for k, p in what.odds.items()}, what.title, path, what.xlabel)


def _parameter(param: Param) -> inspect.Parameter:
    """One Param as a signature parameter typer reads: Annotated[type, Argument/Option]."""
    base: Any = _TYPES.get(param.type)
    if base is None:
        raise DogfightError(f"parameter '{param.name}': unknown type {param.type!r}")
    default: Any = param.default
    if param.choices:
        # typer lists an Enum's values as the choices, as for a hand-written StrEnum.
        base = _choices(param.name, param.choices)
        if default is not None:
            default = base(default)
    info: Any
    if param.argument:
        info = typer.Argument(
            help=param.help,
            metavar=param.metavar,
            min=param.minimum,
            max=param.maximum,
            callback=_checked(param.check),
        )
    else:
        info = typer.Option(
            *param.flags,
            help=param.help,
            metavar=param.metavar,
            min=param.minimum,
            max=param.maximum,
            callback=_checked(param.check),
        )
    annotation: Any = base
    if param.multiple:
        annotation = list[base] | None  # type: ignore[valid-type]
    elif default is None and not param.argument:
        annotation = base | None
    empty = inspect.Parameter.empty
    default_value = empty if param.argument and default is None else default
    return inspect.Parameter(
        param.name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[annotation, info],
        default=default_value,
    )


def _checked(check: Callable[[Any], Any] | None) -> Callable[[Any], Any] | None:
    """A typer callback running a Param's check: its ValueError is a bad parameter."""
    if check is None:
        return None

    def callback(value: Any) -> Any:
        if value is not None:
            try:
                check(value)
            except ValueError as exc:
                raise typer.BadParameter(str(exc)) from None
        return value

    return callback


def _plain(param: Param, value: Any) -> Any:
    """A parsed value as `run` receives it: choices as strings, repeats as a list."""
    if param.multiple:
        return [_plain_one(v) for v in value or []]
    return _plain_one(value)


def _plain_one(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


def _choices(name: str, choices: tuple[str, ...]) -> type[StrEnum]:
    """A StrEnum whose members are `choices` (named for the parameter, for messages)."""
    title = "".join(part.title() for part in name.split("_")) or "Choice"
    made: type[StrEnum] = StrEnum(title, [(c, c) for c in choices])  # type: ignore[misc]
    return made
