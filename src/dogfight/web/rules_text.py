"""The text of a rule clause, for the log's clause links: read from the ruleset's rules
docs, which are package data (`data/<ruleset>/rules.md`), so an installed package
serves them as a source checkout does.

Which files of its data folder hold a ruleset's clauses, the ruleset says through its
`rules_text()` hook (core/ruleset.py); they are searched in that order.

Clauses are written two ways in the rules docs: a list item opening with the id in
bold (`- **ACTA-GEN-1** (seed): ...`, continued on indented lines), or a heading
(`## SFA-TEC-02 Artificial Intelligence`) followed by paragraphs up to the next heading.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import msgspec

from dogfight.core.errors import UnknownName
from dogfight.core.registry import find_ruleset

CLAUSE_ID = re.compile(r"^[A-Z]+(?:-[A-Z0-9]+)+$")
_ITEM = re.compile(r"^- \*\*([A-Z]+(?:-[A-Z0-9]+)+)\*\*(.*)$")
_HEADING = re.compile(r"^(#+)\s+(.*)$")


class Clause(msgspec.Struct, frozen=True, kw_only=True):
    """One clause: its id, the heading it sits under, its text (Markdown as written)."""

    clause: str
    ruleset: str
    title: str
    text: str


def find_clause(ruleset: str, clause: str) -> Clause:
    """The clause `clause` of `ruleset` (raises UnknownName saying what is missing)."""
    found_ruleset = find_ruleset(ruleset)
    files = found_ruleset.rules_text()
    if not CLAUSE_ID.match(clause):
        raise UnknownName(f"'{clause}' is not a clause id (e.g. ACTA-GEN-1)")
    folder = found_ruleset.data_folder()
    for name in files:
        found = _clauses(folder / name, ruleset).get(clause)
        if found is not None:
            return found
    raise UnknownName(f"no clause {clause} in the {ruleset} rules ({', '.join(files)})")


@functools.cache
def _clauses(path: Path, ruleset: str) -> dict[str, Clause]:
    """Every clause of one rules doc, by id (read once: the docs do not change)."""
    if not path.is_file():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    found: dict[str, Clause] = {}
    section = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = _HEADING.match(line)
        item = _ITEM.match(line)
        if heading:
            words = heading.group(2).strip()
            head_id, _, rest = words.partition(" ")
            if CLAUSE_ID.match(head_id):
                body, i = _until_heading(lines, i + 1)
                found[head_id] = Clause(
                    clause=head_id, ruleset=ruleset, title=rest.strip() or head_id, text=body
                )
                continue
            section = words
        elif item:
            body_lines = [line[2:]]
            i += 1
            while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                body_lines.append(lines[i].strip())
                i += 1
            found[item.group(1)] = Clause(
                clause=item.group(1), ruleset=ruleset, title=section, text=" ".join(body_lines)
            )
            continue
        i += 1
    return found


def _until_heading(lines: list[str], start: int) -> tuple[str, int]:
    end = start
    while end < len(lines) and not _HEADING.match(lines[end]):
        end += 1
    return "\n".join(lines[start:end]).strip(), end
