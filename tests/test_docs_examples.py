"""Every command and snippet shown in README.md and docs/**/*.md runs, and prints what the
page says it prints, so that no example goes stale.

The convention the pages follow (a new page under docs/ is picked up by itself):

- A ```console fence holds commands: a line starting with `$ ` is one, run by bash in
  the page's own temporary folder (`dogfight` is this checkout's CLI, `python` the test's
  interpreter with this checkout's sources). The lines after it, up to the next `$ `
  line, are what it prints: stdout and stderr together, as on a terminal, or stdout
  alone (a page may leave out warnings and estimates on stderr). A line holding only
  `...` stands for any number of lines. Trailing spaces are ignored.
- A ```python fence runs on its own, in a fresh interpreter in the same folder, and
  must exit with 0.
- `<!-- not run: REASON -->` on the line before a fence: the fence is not run.
- `<!-- file: NAME -->` on the line before a fence: the fence's text is written to NAME
  in the page's folder when the page gets there (then, a python fence is also run), so
  a page can show a file and then use it.
- Any other fence is not run, but a fence of another kind holding a `$ ` line is an
  error (a command that would go unchecked).

A page's fences run in the order written, in one folder, so a file one command writes is
there for the next. `DOGFIGHT_REDOC=1` rewrites the expected output of the commands whose
output differs, in place (keeping as many leading and trailing lines as before around a
`...`): for after a deliberate change of output; read the diff before committing.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
RUN_LANGUAGES = ("console", "python")
SKIP = re.compile(r"^<!-- not run: .+ -->$")
FILE = re.compile(r"^<!-- file: (\S+) -->$")
OPEN = re.compile(r"^```(\S*)")
COMMAND_TIMEOUT = 600


@dataclass
class Command:
    """One `$ ` line and the lines of output the page expects (`start`..`end` in the page)."""

    line: int
    text: str
    start: int
    end: int
    expected: list[str] = field(default_factory=list)


@dataclass
class Fence:
    """One fenced block: its language, text, first line (0-based) and the marks before it."""

    language: str
    line: int
    body: list[str]
    skip: bool
    file: str | None
    commands: list[Command] = field(default_factory=list)


def fences(lines: list[str]) -> list[Fence]:
    """The fenced blocks of a page, with the commands of its console blocks."""
    found: list[Fence] = []
    i = 0
    while i < len(lines):
        opening = OPEN.match(lines[i])
        if not opening:
            i += 1
            continue
        before = lines[i - 1].strip() if i else ""
        file = FILE.match(before)
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        fence = Fence(
            opening.group(1),
            i,
            lines[i + 1 : end],
            bool(SKIP.match(before)),
            file.group(1) if file else None,
        )
        if fence.language == "console":
            for j in range(i + 1, end):
                if lines[j].startswith("$ "):
                    if fence.commands:
                        fence.commands[-1].end = j
                    fence.commands.append(Command(j, lines[j][2:], j + 1, end))
            for command in fence.commands:
                command.expected = lines[command.start : command.end]
        found.append(fence)
        i = end + 1
    return found


def pattern(expected: list[str]) -> re.Pattern[str]:
    """A regex for the whole output: each line as written, `...` for any lines."""
    parts = [
        r"(?:[^\n]*\n)*?" if line.strip() == "..." else re.escape(line.rstrip()) + r"\n"
        for line in _trimmed(expected)
    ]
    return re.compile("".join(parts))


def _trimmed(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return out


def matches(expected: list[str], actual: str) -> bool:
    """Whether the output is what the page shows (`...` standing for any lines)."""
    text = "".join(line + "\n" for line in _trimmed(actual.splitlines()))
    return pattern(expected).fullmatch(text) is not None


def rewritten(expected: list[str], actual: str) -> list[str]:
    """New expected lines for a changed output: all of it, or where the page shortened it
    with `...`, as many lines before the first and after the last `...` as it had."""
    got = _trimmed(actual.splitlines())
    shown = _trimmed(expected)
    dots = [k for k, line in enumerate(shown) if line.strip() == "..."]
    if not dots:
        return got
    head, tail = dots[0], len(shown) - dots[-1] - 1
    if head + tail >= len(got):
        return got
    out, at = got[:head], head
    # a run of lines the page kept between two `...` stays where the output still has it
    for left, right in itertools.pairwise(dots):
        kept = shown[left + 1 : right]
        starts = range(at, len(got) - tail - len(kept) + 1)
        found = next((k for k in starts if got[k : k + len(kept)] == kept), None)
        if kept and found is not None:
            out += ["...", *kept]
            at = found + len(kept)
    return [*out, "...", *(got[len(got) - tail :] if tail else [])]


def sandbox(folder: Path) -> dict[str, str]:
    """The environment of a page's commands: `dogfight` and `python` from this checkout."""
    bin_dir = folder / ".bin"
    bin_dir.mkdir()
    # paths into the checkout (`src/dogfight/data/...`) read as they do from its root
    for shared in ("src", "examples"):
        (folder / shared).symlink_to(ROOT / shared)
    python = f'"{sys.executable}"'
    for name, run in (("dogfight", f"{python} -m dogfight"), ("python", python)):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\nexec {run} "$@"\n')
        script.chmod(0o755)
    keep = {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "LC_ALL", "TMPDIR")}
    return {
        **keep,
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "PYTHONPATH": str(ROOT / "src"),
        "MPLBACKEND": "Agg",
        "PYTHONHASHSEED": "0",
    }


def run_page(page: Path, folder: Path) -> tuple[list[str], dict[int, list[str]]]:
    """Run every fence of a page; the failures, and the new output of each changed command
    (by its line) for DOGFIGHT_REDOC."""
    lines = page.read_text(encoding="utf-8").splitlines()
    env = sandbox(folder)
    failures: list[str] = []
    changed: dict[int, list[str]] = {}
    name = page.relative_to(ROOT)
    for fence in fences(lines):
        where = f"{name}:{fence.line + 1}"
        if fence.skip:
            continue
        if fence.file:
            target = folder / fence.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("".join(line + "\n" for line in fence.body), encoding="utf-8")
        if fence.language == "python":
            done = subprocess.run(
                [sys.executable, "-c", "\n".join(fence.body)],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT,
            )
            if done.returncode != 0:
                failures.append(f"{where}: python fence exits {done.returncode}:\n{done.stderr}")
        for command in fence.commands:
            began = time.perf_counter()
            done = subprocess.run(
                ["bash", "-c", command.text],
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT,
            )
            if os.environ.get("DOGFIGHT_DOCS_TIMES"):
                # which examples make the page slow (never asserted: no timed tests)
                took = time.perf_counter() - began
                print(f"{took:7.2f} s  {name}:{command.line + 1}  {command.text}")
            # what a terminal shows (stderr's lines before or after stdout's), or stdout
            # alone: a page may leave out what goes to stderr (warnings, estimates)
            shown = (done.stderr + done.stdout, done.stdout + done.stderr, done.stdout)
            if any(matches(command.expected, text) for text in shown):
                continue
            output = done.stdout or done.stderr
            changed[command.line] = rewritten(command.expected, output)
            diff = "\n".join(
                difflib.unified_diff(
                    _trimmed(command.expected),
                    _trimmed(output.splitlines()),
                    "page",
                    "output",
                    lineterm="",
                )
            )
            failures.append(f"{name}:{command.line + 1}: $ {command.text}\n{diff}")
    return failures, changed


def rewrite(page: Path, changed: dict[int, list[str]]) -> None:
    """Put the new outputs into the page (bottom up, so line numbers stay right)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    commands = {c.line: c for f in fences(lines) for c in f.commands}
    for line in sorted(changed, reverse=True):
        command = commands[line]
        lines[command.start : command.end] = changed[line]
    page.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_examples_of_the_page_print_what_it_shows(page: Path, tmp_path: Path) -> None:
    failures, changed = run_page(page, tmp_path)
    if changed and os.environ.get("DOGFIGHT_REDOC"):
        rewrite(page, changed)
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_command_hides_in_a_fence_that_is_not_run(page: Path) -> None:
    """A `$ ` line outside a console fence would never be checked."""
    for fence in fences(page.read_text(encoding="utf-8").splitlines()):
        if fence.language not in RUN_LANGUAGES and not fence.skip:
            hidden = [line for line in fence.body if line.startswith("$ ")]
            assert not hidden, f"{page.name}:{fence.line + 1}: {hidden[0]} in a ```{fence.language}"


def test_the_output_of_a_command_is_compared_with_dots_for_any_lines() -> None:
    """The comparison itself: `...` stands for none or many lines; the rest must match."""
    assert matches(["a", "...", "d"], "a\nb\nc\nd\n")
    assert matches(["a", "...", "b"], "a\nb\n")
    assert matches(["a  ", ""], "a\n\n")
    assert not matches(["a", "d"], "a\nb\nd\n")
    assert not matches(["a", "...", "d"], "a\nb\nc\n")
    assert not matches([], "output where the page shows none\n")
    assert rewritten(["a", "...", "z"], "a\nb\nc\ny\n") == ["a", "...", "y"]
    assert rewritten(["a", "...", "c", "...", "z"], "a\nb\nc\nd\ny\n") == [
        "a",
        "...",
        "c",
        "...",
        "y",
    ]


def test_the_fences_and_their_marks_are_read() -> None:
    page = [
        "<!-- not run: a server -->",
        "```console",
        "$ dogfight serve",
        "```",
        "",
        "<!-- file: x.yaml -->",
        "```yaml",
        "a: 1",
        "```",
        "```console",
        "$ dogfight one",
        "out",
        "...",
        "$ dogfight two",
        "```",
    ]
    serve, data, console = fences(page)
    assert serve.skip and serve.commands[0].text == "dogfight serve"
    assert data.file == "x.yaml" and data.body == ["a: 1"] and not data.skip
    assert [(c.text, c.expected) for c in console.commands] == [
        ("dogfight one", ["out", "..."]),
        ("dogfight two", []),
    ]


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_the_page_is_to_a_file_in_the_repository(page: Path) -> None:
    """A reader of a clone (or of the package's page) follows them; nothing outside it."""
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "#", "mailto:")):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{page.name}: {target} is outside the repository"
        assert path.exists(), f"{page.name}: {target} does not exist"
