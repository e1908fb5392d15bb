"""Every command of docs/performance.md runs and exits with 0, as the architecture page's
do (tests/test_docs_architecture.py): the page quotes the commands its figures came
from, so a renamed option or a broken benchmark shows here. Only exit codes and the
shape of the output are checked: speed is never asserted in a test."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from dogfight.core.registry import find_ruleset

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "performance.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def commands() -> list[str]:
    """The `$ dogfight ...` lines of the page's console blocks."""
    return [
        line.removeprefix("$ ")
        for lang, body in FENCE.findall(PAGE.read_text(encoding="utf-8"))
        if lang == "console"
        for line in body.splitlines()
        if line.startswith("$ ")
    ]


def test_the_page_has_only_console_blocks_and_quotes_each_kind_of_bench() -> None:
    """A block of another kind would go unchecked."""
    assert {lang for lang, _ in FENCE.findall(PAGE.read_text(encoding="utf-8"))} == {"console"}
    found = commands()
    assert any("--units" in c for c in found)
    assert any("--scaling" in c for c in found)
    assert any("--units" not in c and "--scaling" not in c for c in found)


def shortened(args: list[str]) -> list[str]:
    """A `bench --units` command cut to its two smallest sizes and one turn: the page's
    figures took minutes a size, which no test run should pay; the command, its
    options and its output are checked all the same (an exponent needs two sizes).
    `bench --web` is cut to 2 clients and `--web-memory` to 20 games, for the same
    reason. `bench --decisions` plays one battle with a search of the smallest budget
    (one candidate, no playout): the page's search battles take minutes."""
    if "--decisions" in args:
        return [*args, "--battles", "1", "--players", "search:1"]
    if "--web" in args:
        return [*args, "--clients", "2"]
    if "--web-memory" in args:
        at = args.index("--web-memory")
        return [*args[: at + 1], "20", *args[at + 2 :]]
    if "--units" not in args:
        return args
    out, rest = [], iter(args)
    for arg in rest:
        if arg in ("--sizes", "--turns"):
            value = next(rest)
            if arg == "--sizes":
                out += ["--sizes", ",".join(value.split(",")[:2])]
            continue
        out.append(arg)
    if "--sizes" not in out:
        lab = find_ruleset(args[args.index("--units") + 1]).lab()
        assert lab is not None
        out += ["--sizes", ",".join(str(n) for n in lab.crowd_sizes()[:2])]
    return [*out, "--turns", "1"]


@pytest.mark.slow
@pytest.mark.parametrize("command", commands())
def test_the_command_runs(command: str) -> None:
    program, *args = shlex.split(command)
    assert program == "dogfight"
    args = shortened(args)
    done = subprocess.run(
        [sys.executable, "-m", "dogfight", *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin", "COLUMNS": "100"},
        timeout=900,
    )
    assert done.returncode == 0, (command, done.stderr)
    if "--units" in args and "--json" not in args:
        assert re.search(r"^Fitted exponent: ", done.stdout, re.M), done.stdout
