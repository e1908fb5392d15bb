"""Printing for the CLI: JSON objects, rich tables, the battle log, one-line errors.

Battle logs and outcomes are plain lines (no terminal-dependent wrapping), so the
same command with the same seed prints the same bytes.
"""

from __future__ import annotations

import json
import math
import os
import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from dogfight.core.events import Event
from dogfight.core.game import Game
from dogfight.core.limits import cap_message
from dogfight.core.options import Option
from dogfight.core.text import (
    agrees,
    cell_text,
    changed_options,
    fraction_text,
    option_text,
    percent,
)
from dogfight.core.text import value_text as _value

PIPE_WIDTH = 120
"""Table width when stdout is not a terminal and COLUMNS is not set (rich would use 80)."""


def stdout_console() -> Console:
    """A console on the current stdout (looked up at each call, for test runners)."""
    console = Console(file=sys.stdout, highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        console = Console(file=sys.stdout, highlight=False, width=PIPE_WIDTH)
    return console


def stderr_console() -> Console:
    """A console on the current stderr."""
    return Console(file=sys.stderr, highlight=False)


def print_json(data: Any) -> None:
    """Print one JSON object (structs and tuples converted to plain data).

    JSON has no NaN or Infinity: a number that is not finite (an undefined statistic)
    is printed as null, so every reader can parse the output.
    """
    plain = finite_or_null(msgspec.to_builtins(data))
    typer.echo(json.dumps(plain, indent=2, ensure_ascii=False, allow_nan=False))


def finite_or_null(value: Any) -> Any:
    """A copy of plain data with every non-finite float replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_or_null(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_null(v) for v in value]
    return value


def error_line(message: str) -> None:
    """Print `error: message` on stderr as one line, at most MAX_MESSAGE characters."""
    text = cap_message(" ".join(str(message).split()))
    typer.echo(f"error: {text}", err=True)


def cell(value: Any) -> Text:
    """A table cell; Text so that brackets in data are never taken for rich markup."""
    return Text(cell_text(value))


def print_table(
    columns: Sequence[str], rows: Iterable[Sequence[Any]], *, title: str | None = None
) -> None:
    """Print a rich table."""
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(cell(v) for v in row))
    stdout_console().print(table)


def event_line(event: Event) -> str:
    """One log line: `T1 [CLAUSE-ID] text (d6: 4, 2)`."""
    turn = event.data.get("turn")
    prefix = f"T{turn} " if turn is not None else ""
    dice = event.dice_text()
    return f"{prefix}[{event.clause}] {event.text}" + (f" ({dice})" if dice else "")


def print_log(events: Iterable[Event]) -> None:
    """Print every event of a game, one per line."""
    typer.echo("\n".join(event_line(e) for e in events))


def outcome_lines(game: Game) -> list[str]:
    """The result, the scores and the surviving units, as plain lines."""
    outcome = game.outcome()
    summary = game.ruleset.summary(game.state)
    turn = summary.get("turn", 0)
    if outcome is None:
        lines = [f"Result: not finished (turn {turn}, {len(game.actions)} actions)"]
    elif outcome.winner is None:
        lines = [f"Result: draw on turn {turn}: {outcome.reason}"]
    else:
        lines = [f"Result: {agrees(outcome.winner, 'win')} on turn {turn}: {outcome.reason}"]
    if outcome is not None and outcome.scores:
        scores = ", ".join(f"{side} {percent(score)}" for side, score in outcome.scores.items())
        lines.append(f"Scores ({game.ruleset.score_meaning}): {scores}")
    survivors: Mapping[str, list[dict[str, Any]]] = summary.get("survivors") or {}
    if survivors:
        lines.append("Survivors:")
    for side, units in survivors.items():
        lines.append(f"  {side}: {len(units)} unit{'' if len(units) == 1 else 's'}")
        rows = [_unit_cells(u) for u in units]
        widths = [max(len(r[i]) for r in rows) for i in range(2)] if rows else [0, 0]
        for unit_id, unit_type, rest in rows:
            line = f"    {unit_id:<{widths[0]}}  {unit_type:<{widths[1]}}  {rest}"
            lines.append(line.rstrip())
    return lines


def _unit_cells(unit: Mapping[str, Any]) -> tuple[str, str, str]:
    rest = []
    for key, value in unit.items():
        if key in ("id", "type"):
            continue
        if isinstance(value, list | tuple):
            rest.append(f"{key}: {', '.join(str(v) for v in value)}")
        else:
            rest.append(f"{key} {_value(value)}")
    return str(unit.get("id", "?")), str(unit.get("type", "")), "  ".join(rest)


def option_lines(option: Option) -> list[str]:
    """An option as a heading line and its wrapped description."""
    facts = []
    if option.choices:
        facts.append(f"choices: {', '.join(option.choices)}")
    else:
        facts.append(f"a {type(option.default).__name__}")
    if option.clause:
        facts.append(f"clause {option.clause}")
    head = f"{option.name} = {_value(option.default)}  ({'; '.join(facts)})"
    body = textwrap.wrap(option.doc, width=88, initial_indent="    ", subsequent_indent="    ")
    return [head, *body]


__all__ = ["changed_options", "fraction_text", "option_text", "percent"]
