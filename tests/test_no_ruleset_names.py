"""Outside rulesets/ and data/, no code names a built-in ruleset (issue 12, acceptance):
the generic layers ask a ruleset through its hooks (core/ruleset.py), so a plugin or a
subclass under a new name works everywhere a built-in one does.

The check is a word search for the three names in lower case (how code spells a
registry name); clause ids such as ACTA-GEN-1 are upper case and not matched.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "dogfight"
BUILT_IN = re.compile(r"\b(acta|evo|sfa)\b")
THEIR_OWN = ("rulesets", "data")
"""Where a ruleset's own code and data live: these may name it."""

EXAMPLES: dict[tuple[str, str], str] = {}
"""Lines that may name a ruleset for good, (file, stripped line) -> why: docstring
examples only, each with its reason. None are needed now."""


def relative(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def generic_files(pattern: str) -> list[Path]:
    """The files matching `pattern` under src/dogfight outside the rulesets' own places."""
    return sorted(
        p for p in SRC.rglob(pattern) if p.is_file() and relative(p).split("/")[0] not in THEIR_OWN
    )


def naming_lines(path: Path) -> list[str]:
    """`file:line: text` for each line of `path` naming a built-in ruleset (allowed
    examples left out)."""
    name = relative(path)
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if BUILT_IN.search(line) and (name, line.strip()) not in EXAMPLES:
            found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_code_outside_the_rulesets_names_a_built_in_ruleset() -> None:
    files = generic_files("*.py")
    assert any(relative(p).startswith("web/") for p in files)  # the search sees the code
    named = [line for p in files for line in naming_lines(p)]
    assert not named, "ask the ruleset through a hook instead:\n" + "\n".join(named)


def test_the_browsers_files_name_no_ruleset() -> None:
    """The page draws what the scene data says; its scripts and markup know no ruleset."""
    files = [p for ext in ("*.js", "*.html", "*.css") for p in generic_files(f"web/static/{ext}")]
    assert files
    named = [line for p in files for line in naming_lines(p)]
    assert not named, "\n".join(named)


def test_every_example_is_still_there() -> None:
    for name, line in EXAMPLES:
        assert line in {s.strip() for s in (SRC / name).read_text(encoding="utf-8").splitlines()}


def test_the_search_finds_a_name_where_there_is_one() -> None:
    """The word search itself: a registry name as a word, not inside a longer word or
    an upper-case clause id."""
    assert BUILT_IN.search('if ruleset.name == "sfa":')
    assert BUILT_IN.search("import dogfight.rulesets.acta.board")
    assert BUILT_IN.search("'evo/skirmish'")
    assert not BUILT_IN.search("see ACTA-GEN-1; evolve; sfax; actually")
