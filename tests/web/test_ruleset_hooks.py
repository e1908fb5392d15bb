"""The web asks a ruleset for its board and its rules text through the ruleset's hooks
(core/ruleset.py `board()`, `rules_text()`), never by the ruleset's name: stand-in
rulesets registered for the test are drawn and quoted like the built-in ones."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from dogfight.core import registry
from dogfight.core.errors import UnknownName
from dogfight.core.events import EventLog
from dogfight.core.hooks import Board
from dogfight.core.options import OptionValue
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.ruleset import Ruleset
from dogfight.core.scenario import Scenario
from dogfight.web import rules_text, views
from dogfight.web.boards import board_for


class PaperBoard:
    """A board stand-in: only its identity matters here."""

    def scene(self, game: Any, seat: str | None) -> dict[str, Any]:
        return {}

    def describe(self, game: Any, action: Any) -> dict[str, Any]:
        return {}

    def envelopes(self, game: Any) -> dict[str, dict[str, Any]]:
        return {}

    def compose_move(self, game: Any, unit: str, x: float, y: float, facing: float) -> Any:
        return None


PAPER_BOARD = PaperBoard()


class Paper(Ruleset):
    """A ruleset that exists only in this test: no games, just the two hooks."""

    name = "paper"
    title = "Paper planes (a stand-in)"
    action_type = Any
    files: tuple[str, ...] = ("paper.md", "paper-folds.md")
    drawn: Board | None = PAPER_BOARD

    def setup(self, scenario: Scenario, options: Mapping[str, OptionValue], log: EventLog) -> Any:
        raise NotImplementedError

    def legal_actions(self, state: Any) -> list[Any]:
        return []

    def check(self, state: Any, action: Any) -> None:
        return None

    def apply(self, state: Any, action: Any, log: EventLog) -> None:
        return None

    def unit_names(self) -> list[str]:
        return []

    def describe_unit(self, name: str) -> dict[str, Any]:
        raise UnknownName(name)

    def check_unit_file(self, path: Path) -> str:
        return ""

    def board(self) -> Board | None:
        return self.drawn

    def rules_text(self) -> tuple[str, ...]:
        return self.files


class Plain(Paper):
    """A ruleset with no board and the default rules text (`rules.md` of its own data
    folder)."""

    name = "plain"
    data_name = "plain"
    drawn = None

    def rules_text(self) -> tuple[str, ...]:
        return Ruleset.rules_text(self)


def register(monkeypatch: pytest.MonkeyPatch, ruleset: Ruleset) -> Ruleset:
    """Register `ruleset` for this test only (the registry is loaded first, so that
    undoing the registration leaves the built-in rulesets in place)."""
    all_rulesets()
    monkeypatch.setitem(registry._RULESETS, ruleset.name, ruleset)
    return ruleset


@pytest.fixture
def paper(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    yield register(monkeypatch, Paper())


def test_a_rulesets_board_is_what_its_board_hook_gives(paper: Ruleset) -> None:
    assert board_for("paper") is PAPER_BOARD
    assert views.board_or_none("paper") is PAPER_BOARD


def test_a_ruleset_whose_hook_gives_no_board_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch, Plain())
    with pytest.raises(UnknownName, match="no board for ruleset 'plain'"):
        board_for("plain")
    assert views.board_or_none("plain") is None


def test_no_such_ruleset_has_no_board() -> None:
    with pytest.raises(UnknownName, match="no board for ruleset 'chess'"):
        board_for("chess")


@pytest.mark.parametrize("parent", ["acta", "evo", "sfa"])
def test_a_subclass_under_a_new_name_is_drawn_with_its_parents_board(
    monkeypatch: pytest.MonkeyPatch, parent: str
) -> None:
    """Issue 12: a subclass of a built-in ruleset registered under a new name inherits
    its parent's board (the browser serves it with its board)."""
    base = type(find_ruleset(parent))
    variant = type(f"{base.__name__}Variant", (base,), {"name": f"{parent}-variant"})
    register(monkeypatch, variant())
    assert board_for(f"{parent}-variant") is board_for(parent)


# ---- rules text ------------------------------------------------------------------------


def docs(folder: Path, files: Mapping[str, str]) -> Path:
    """A rules docs folder holding `files` (name -> text)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_clauses_are_read_from_the_files_the_ruleset_names_in_order(
    paper: Ruleset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = docs(
        tmp_path / "rules",
        {
            "paper.md": "## Folding\n\n- **PAPER-GEN-1** (seed): Fold once.\n",
            "paper-folds.md": (
                "# Folds\n\n## PAPER-FLD-2 Dart\n\nA long nose.\n\n"
                "## PAPER-GEN-1 Shadowed\n\nNever read: the first file has it.\n"
            ),
            "other.md": "## PAPER-OTH-3 Elsewhere\n\nIn a file the ruleset does not name.\n",
        },
    )
    monkeypatch.setattr(Paper, "data_folder", lambda self: folder)
    first = rules_text.find_clause("paper", "PAPER-GEN-1")
    assert (first.ruleset, first.title, first.text) == (
        "paper",
        "Folding",
        "**PAPER-GEN-1** (seed): Fold once.",
    )
    dart = rules_text.find_clause("paper", "PAPER-FLD-2")
    assert (dart.title, dart.text) == ("Dart", "A long nose.")
    with pytest.raises(UnknownName, match=r"no clause PAPER-OTH-3 .*paper\.md, paper-folds\.md"):
        rules_text.find_clause("paper", "PAPER-OTH-3")


def test_the_default_rules_text_is_the_rulesets_own_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    register(monkeypatch, Plain())
    folder = docs(tmp_path / "plain", {"rules.md": "## PLAIN-GEN-1 One\n\nThe only rule.\n"})
    monkeypatch.setattr(Plain, "data_folder", lambda self: folder)
    assert rules_text.find_clause("plain", "PLAIN-GEN-1").text == "The only rule."


def test_an_unknown_ruleset_has_no_rules_text() -> None:
    with pytest.raises(UnknownName, match="no ruleset 'chess'; known rulesets: "):
        rules_text.find_clause("chess", "CHESS-GEN-1")
