"""Every `--help` reads plainly (issue 18 item 6): a flag shows no `<bool>`, a value a
short word (N, X, TEXT, PATH), no 64-bit range, arguments by their upper-case name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from dogfight.cli.helptext import value_word
from dogfight.cli.main import app

runner = CliRunner()
NOISE = ("<bool>", "<int", "<float", "<str>", "<path>", "<list", "9223372036854775")


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, sub in (getattr(command, "commands", None) or {}).items():
        yield from command_paths(sub, (*path, name))


PATHS = list(command_paths(typer.main.get_command(app)))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "dogfight")
def test_help_has_no_type_noise(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    for noise in NOISE:
        assert noise not in result.stdout, (noise, result.stdout)
    assert not re.search(r"<[a-z]+\|", result.stdout), result.stdout  # '<group|weapon>'
    usage = next(line for line in result.stdout.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage


def test_simulate_help_shows_value_words() -> None:
    result = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert "Usage: dogfight simulate [OPTIONS] SCENARIO" in result.stdout
    lines = {line.split()[1]: line for line in result.stdout.splitlines() if "│ --" in line}
    assert lines["--battles"].split()[3] == "N"
    assert lines["--jobs"].split()[3:5] == ["N", "[x>=1]"]
    assert lines["--json"].split()[2] == "Print"  # a flag: no value word
    assert lines["--help"].split()[2] == "Show"


def test_value_words_for_each_kind() -> None:
    command = typer.main.get_command(app)
    simulate = command.commands["simulate"]  # type: ignore[attr-defined]
    words = {p.name: value_word(p) for p in simulate.params}
    assert words["n"] == "N"
    assert words["json_out"] == ""
    assert words["scenario"] == "TEXT"
    design = command.commands["design"].commands["sfa"]  # type: ignore[attr-defined]
    words = {p.name: value_word(p) for p in design.params}
    assert words["fire_link"] == "group|weapon"
    assert words["weapon_points"] == "N"


def test_a_docstring_paragraph_wraps_at_the_terminal_not_at_the_source() -> None:
    from dogfight.cli.helptext import reflow

    text = "First line.\n\nThe summary gives rates,\nturns and kills.\n\nSteps:\n- one\n- two"
    assert reflow(text) == (
        "First line.\n\nThe summary gives rates, turns and kills.\n\nSteps:\n- one\n- two"
    )


def test_help_in_a_narrow_terminal_has_no_ragged_half_lines() -> None:
    """At 60 columns a paragraph's lines are filled to the width: no line of the
    simulate description ends far short of it while the next line goes on."""
    result = CliRunner().invoke(app, ["simulate", "--help"], env={"COLUMNS": "60"})
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if "The summary gives" in line)
    paragraph = []
    for line in lines[start:]:
        if not line.strip():
            break
        paragraph.append(line.rstrip())
    assert len(paragraph) >= 3
    assert all(len(line) > 45 for line in paragraph[:-1]), paragraph
