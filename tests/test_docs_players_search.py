"""The console examples of docs/players.md's sections on player kinds, the search player,
explanations and the ladder run and print what the page shows (the docs convention: a
`$ ` line is a command, the lines after it its output, a line `...` any lines).

Only these sections: the ruleset sections of the page have their own figures."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "players.md"
SECTIONS = ("Player kinds", "The search player", "Explanations", "The ladder")
FENCE = re.compile(r"(<!-- not run: [^\n]*-->\n)?```console\n(.*?)^```", re.S | re.M)


def section(title: str) -> str:
    """The text of one `## ` section of the page."""
    text = PAGE.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)
    found = [p for p in parts if p.startswith(f"{title}\n")]
    assert found, f"docs/players.md has no section '## {title}'"
    return found[0]


def examples() -> list[tuple[str, str, list[str]]]:
    """(section, command, expected output lines) of every console example run."""
    found = []
    for title in SECTIONS:
        for skipped, body in FENCE.findall(section(title)):
            if skipped:
                continue
            command: str | None = None
            lines: list[str] = []
            for line in body.splitlines():
                if line.startswith("$ "):
                    if command is not None:
                        found.append((title, command, lines))
                    command, lines = line[2:], []
                else:
                    lines.append(line)
            if command is not None:
                found.append((title, command, lines))
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` reads as `expected`, each `...` line standing for any lines."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line.rstrip()) + r"\n"
        for line in expected
    )
    return re.fullmatch(pattern, "".join(line.rstrip() + "\n" for line in actual)) is not None


def test_each_section_has_an_example_that_runs() -> None:
    titles = {title for title, _, _ in examples()}
    assert titles == {"Player kinds", "Explanations", "The ladder"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("title", "command", "expected"),
    [pytest.param(*e, id=f"{e[0]}: {e[1]}") for e in examples()],
)
def test_the_example_prints_what_the_page_shows(
    title: str, command: str, expected: list[str]
) -> None:
    args = shlex.split(command)
    assert args[0] == "dogfight"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    env["NO_COLOR"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "dogfight", *args[1:]],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    actual = done.stdout.splitlines()
    assert matches(expected, actual), "\n".join(actual)


def test_the_matcher_can_fail() -> None:
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert not matches(["a", "...", "z"], ["a", "b", "c"])
    assert not matches(["a"], ["a", "b"])
